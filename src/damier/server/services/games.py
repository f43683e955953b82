"""A game's life: its variant and seats, its creation (against the computer, or with seats
open for anyone to join), the joining that starts it, its state as read, its resignation
and its rematch; and the games that a match or a tournament seats. Each change goes
through the change pipeline (:mod:`damier.server.services.changes`), like a move."""

from __future__ import annotations

import secrets
from typing import Literal

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from damier.board import PLAYER_NAMES
from damier.game import Game
from damier.rules import Variant, get_variant
from damier.server.i18n import tr, tr_n
from damier.server.rooms import State
from damier.server.schemas import COLORS, GameState, GameSummary, SeatChoice
from damier.server.services.changes import announce, apply_change, change, published_state
from damier.server.services.clocks import check_clock
from damier.server.services.context import Services
from damier.server.services.errors import BadRequest, Conflict, Forbidden
from damier.server.services.guards import player_seat, require_in_game
from damier.server.services.players import new_id
from damier.server.services.stored import read_game, store
from damier.server.services.views import Sitter, seat_of, sitters, state_view, summary_view
from damier.server.store.models import GameRow, MoveRow, PlayerRow, SeatRow


def rules_of(name: str) -> Variant:
    """The variant ``name`` (with its options), or 400 saying why the registry refuses it."""
    try:
        return get_variant(name)
    except ValueError as error:  # an unknown name, or options it refuses
        raise BadRequest(str(error)) from None


def _choices(
    rules: Variant,
    opponent: Literal["computer", "open"],
    level: int,
    color: Literal["white", "black", "random"],
    seats: list[SeatChoice] | None,
) -> list[SeatChoice]:
    """Who sits where: the ``seats`` asked for, or a two-player game's opponent and colour."""
    if seats is None:
        if rules.players != 2:
            raise BadRequest(
                tr_n(
                    "{variant} is a game of {n} player: say who sits at each seat (seats)",
                    "{variant} is a game of {n} players: say who sits at each seat (seats)",
                    rules.players,
                    variant=rules.name,
                )
            )
        you = secrets.randbelow(2) if color == "random" else COLORS.index(color)
        pair = [SeatChoice(kind="you", level=level), SeatChoice(kind=opponent, level=level)]
        return pair if you == 0 else pair[::-1]
    if len(seats) != rules.players:
        raise BadRequest(
            tr_n(
                "{variant} has {n} seat, not {sent}",
                "{variant} has {n} seats, not {sent}",
                rules.players,
                variant=rules.name,
                sent=len(seats),
            )
        )
    if sum(choice.kind == "you" for choice in seats) != 1:
        raise BadRequest(tr('exactly one seat must be yours ("kind": "you")'))
    return seats


def _sitter(choice: SeatChoice, creator: PlayerRow) -> Sitter:
    """Who sits at a seat of a new game: its creator, the computer, or nobody yet."""
    if choice.kind == "computer":
        return Sitter("computer", choice.level, None, None)
    if choice.kind == "you":
        return Sitter("human", None, creator.id, creator)
    return Sitter("human", None, None, None)


def _new_game(rules: Variant, fen: str | None) -> Game:
    """The game from the variant's start or from ``fen``, which must leave a game to play."""
    try:
        game = Game(rules, fen=fen.strip() if fen else None)
    except ValueError as error:
        raise BadRequest(tr("bad start position: {error}", error=str(error))) from None
    if game.result is not None:
        raise BadRequest(
            tr("the start position is already decided ({reason})", reason=game.result.reason)
        )
    for player in game.board.active_players:
        if not game.board.has_pieces(player):
            name = PLAYER_NAMES[player]
            raise BadRequest(
                tr("the start position is already decided: {color} has no pieces", color=name)
            )
    return game


def _sit(row: GameRow, seat: int, sitter: Sitter) -> None:
    """Put ``sitter`` at ``seat``: in the white/black columns or in the seat row."""
    if row.players == 2:
        if seat == 0:
            row.white_kind, row.white_level = sitter.kind, sitter.level
            row.white_id, row.white = sitter.player_id, sitter.player
        else:
            row.black_kind, row.black_level = sitter.kind, sitter.level
            row.black_id, row.black = sitter.player_id, sitter.player
        return
    place = row.seats[seat]
    place.kind, place.level = sitter.kind, sitter.level
    place.player_id, place.player = sitter.player_id, sitter.player


def _open_seats(row: GameRow) -> list[int]:
    return [k for k, s in enumerate(sitters(row)) if s.kind == "human" and s.player_id is None]


def _new_row(
    *,
    game: Game,
    sitting: list[Sitter],
    control: str | None,
    now: float,
    services: Services,
    takebacks: bool = True,
) -> GameRow:
    """A new game's row with its seats; it starts at once when no seat is open (and then
    the game's clock starts too)."""
    players = game.variant.players
    row = GameRow(
        id=new_id(8),
        variant=game.variant.name,
        players=players,
        status="open",
        white_kind="human",
        black_kind="human",
        clock_control=control,
        start_fen=game.start_fen,
        ply=0,
        opening_ply=0,
        created=now,
        updated=now,
        takebacks=takebacks,
    )
    if players != 2:
        row.seats = [SeatRow(seat=seat, kind="human") for seat in range(players)]
    for seat, sitter in enumerate(sitting):
        _sit(row, seat, sitter)
    if not _open_seats(row):
        row.status = "playing"
        row.started = now
    store(row, game, now, services)
    return row


async def create_game(
    *,
    services: Services,
    player_id: str,
    variant: str,
    opponent: Literal["computer", "open"],
    level: int,
    color: Literal["white", "black", "random"],
    clock: str | None,
    seats: list[SeatChoice] | None = None,
    fen: str | None = None,
    takebacks: bool = True,
) -> GameState:
    """A new game: against the computer (it starts at once) or with seats open for anyone
    to join; a game of more players names every seat's occupant."""
    rules = rules_of(variant)
    control = check_clock(clock)
    choices = _choices(rules, opponent, level, color, seats)
    game = _new_game(rules, fen)
    now = services.now()
    async with services.database.session() as session, session.begin():
        player = await session.get(PlayerRow, player_id)
        if player is None:
            raise Forbidden(tr("unknown player: start a session first"))
        sitting = [_sitter(choice, player) for choice in choices]
        row = _new_row(
            game=game,
            sitting=sitting,
            control=control,
            now=now,
            services=services,
            takebacks=takebacks,
        )
        session.add(row)
        await session.flush()
        version = row.version
        public = state_view(row, game, now)
    services.keep(row.id, game, version, state=public)
    await announce(services, public, version)
    you = next(k for k, choice in enumerate(choices) if choice.kind == "you")
    return public.model_copy(update={"you": COLORS[you]})


async def game_state(*, services: Services, game_id: str, viewer: str | None) -> GameState:
    row, game = await read_game(services, game_id)
    return state_view(row, game, services.now(), viewer)


async def game_snapshot(*, services: Services, game_id: str) -> State:
    """The state as published, for a new socket."""
    row, game = await read_game(services, game_id)
    public = state_view(row, game, services.now())
    services.keep(game_id, game, row.version, row, public)  # for the next move's state
    return published_state(row.version, public)


async def join_game(
    *, services: Services, player_id: str, game_id: str, seat: int | None = None
) -> GameState:
    """Take an open seat (``seat``, or the first open one); the game (and its clock) starts
    when the last one is taken."""

    async def join(session: AsyncSession, row: GameRow, game: Game, now: float) -> None:
        if seat_of(row, player_id) is not None:
            return None  # joining one's own game changes nothing
        if row.status == "finished":  # (an offer withdrawn before anyone took it, too)
            raise Conflict(tr("the game is over"))
        if row.status != "open":
            raise Conflict(tr("the game has already started"))
        free = _open_seats(row)
        if seat is not None and seat >= row.players:
            raise BadRequest(tr("the game has {n} seats: no seat {seat}", n=row.players, seat=seat))
        if seat is not None and seat not in free:
            raise Conflict(tr("the {color} seat is taken", color=COLORS[seat]))
        player = await session.get(PlayerRow, player_id)
        if player is None:
            raise Forbidden(tr("unknown player: start a session first"))
        _sit(row, free[0] if seat is None else seat, Sitter("human", None, player.id, player))
        if len(free) == 1:
            row.status = "playing"
            row.started = now
        return None

    return await change(services, game_id, join, player_id)


async def resign_game(*, services: Services, game_id: str, player_id: str | None) -> GameState:
    """Resign: the opponent wins, or (more players) the player is out and the others play
    on."""

    async def resign(session: AsyncSession, row: GameRow, game: Game, now: float) -> None:
        seat = player_seat(row, player_id)
        require_in_game(row, game, seat)
        game.resign(seat, at=now)
        return None

    return await change(services, game_id, resign, player_id)


async def rematch(*, services: Services, game_id: str, player_id: str) -> GameState:
    """A new game between the same players, each moved on to the next colour (two players
    swap theirs); one per game: the second player asking gets the same one."""
    created: dict[str, str] = {}

    async def ask(session: AsyncSession, row: GameRow, game: Game, now: float) -> None:
        player_seat(row, player_id)
        if row.status != "finished":
            raise Conflict(tr("a rematch is for a finished game"))
        if row.match_id is not None:
            raise Conflict(tr("a game of a match has no rematch: the match goes on"))
        if row.tournament_id is not None:
            raise Conflict(tr("a game of a tournament has no rematch: the tournament goes on"))
        if row.rematch_id is not None:
            created["id"] = row.rematch_id
            return None
        seated = sitters(row)
        new = _new_row(
            game=Game(row.variant, fen=row.start_fen),
            sitting=seated[-1:] + seated[:-1],
            control=row.clock_control,
            now=now,
            services=services,
            takebacks=row.takebacks,
        )
        session.add(new)
        row.rematch_id = new.id
        created["id"] = new.id
        return None

    await apply_change(services, game_id, ask)
    state = await game_state(services=services, game_id=created["id"], viewer=player_id)
    if state.ply == 0 and state.status == "playing":
        public = state.model_copy(update={"you": None})
        await announce(services, public, 1)
    return state


async def list_games(
    *,
    services: Services,
    status: Literal["open", "playing", "finished"] | None,
    limit: int = 100,
) -> list[GameSummary]:
    """The newest games, of one status or all."""
    query = select(GameRow).order_by(GameRow.created.desc()).limit(limit)
    if status is not None:
        query = query.where(GameRow.status == status)
    async with services.database.session() as session:
        rows = (await session.scalars(query)).unique().all()
        now = services.now()
        return [summary_view(row, now) for row in rows]


def seated_game(
    *,
    services: Services,
    variant: str,
    sitting: list[Sitter],
    control: str | None,
    opening: tuple[str, ...],
    match_id: str,
    now: float,
) -> tuple[GameRow, Game, list[MoveRow]]:
    """A game of a match, everyone seated (it starts at once) and ``opening`` played: its
    row and the opening's moves, for the caller's transaction to add. The opening is nobody's
    move: the first-move deadline and then the clock time the players from the position
    after it, as for a game from the start."""
    game = _new_game(rules_of(variant), None)
    row = _new_row(game=game, sitting=sitting, control=control, now=now, services=services)
    row.match_id = match_id
    for move in opening:
        game.push(move, at=now)
    row.opening_ply = game.ply
    store(row, game, now, services)
    moves = [
        MoveRow(game_id=row.id, ply=ply, notation=move.notation, at=now)
        for ply, move in enumerate(game.moves, start=1)
    ]
    return row, game, moves


async def announce_game(services: Services, row: GameRow, game: Game) -> None:
    """Keep and broadcast a game stored by another service's transaction (the computer
    moves if it is its turn)."""
    public = state_view(row, game, services.now())
    services.keep(row.id, game, row.version, state=public)
    await announce(services, public, row.version)
