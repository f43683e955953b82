"""The game service: every change of a game goes through here, whichever door it came in by
(HTTP, WebSocket, the computer, the clock task).

A change runs under the game's lock, in one transaction: load the row, bring the in-memory
:class:`~damier.game.Game` up to the row's version (replaying the stored moves when it is
missing or stale), apply the change, store the new moves and the game's new state, commit,
then broadcast the state to the game's room.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.exc import StaleDataError

from damier.board import PLAYER_NAMES
from damier.clock import Clock
from damier.errors import IllegalMoveError
from damier.game import Forfeit, Game, GameOverError, Result
from damier.notation.pdn import Node, PdnGame, dump_pdn, forfeit_text, write_pdn
from damier.play import parse_clock
from damier.rules import Variant, get_variant
from damier.rules.variants import UnknownVariantError
from damier.server.i18n import tr
from damier.server.rooms import State
from damier.server.schemas import COLORS, GameState, GameSummary, SeatChoice
from damier.server.services.context import OFFER_EVERY, Services
from damier.server.services.errors import (
    BadRequest,
    Conflict,
    Forbidden,
    NotFound,
    RateLimited,
    ServiceError,
    Unplayable,
)
from damier.server.services.players import new_id
from damier.server.services.ratings import ABORTED, rate_game
from damier.server.services.views import (
    Sitter,
    moved_view,
    ranking_of,
    seat_of,
    seat_view,
    sitters,
    state_view,
    summary_view,
)
from damier.server.store.models import GameRow, MoveRow, PlayerRow, SeatRow

log = logging.getLogger("damier.server")

Action = Callable[[AsyncSession, GameRow, Game, float], Awaitable[ServiceError | None]]
"""A change: mutates the row and game, or raises a ServiceError before changing anything;
may return an error to raise after the commit (the change stands, the request is refused)."""

MAX_CLOCK_SECONDS = 24 * 3600.0


# -- loading and storing -----------------------------------------------------------


async def _row(session: AsyncSession, game_id: str, *, for_update: bool = False) -> GameRow:
    query = select(GameRow).where(GameRow.id == game_id)
    if for_update:
        query = query.with_for_update(of=GameRow)
    row = (await session.scalars(query)).unique().one_or_none()
    if row is None:
        raise NotFound(tr("no game {game}", game=repr(game_id)))
    return row


def _start_clock(
    game: Game, control: str | None, at: float, services: Services, times: list[float] | None
) -> None:
    """Attach a clock, one time per player (``times``, or the control's), started at ``at``
    for the player to move."""
    if control is None:
        return
    parsed = parse_clock(control, now=services.now)
    if parsed is not None:
        clock = Clock(parsed.control, game.variant.players, services.now)
        if times is not None:
            clock.set_times(times)
        clock.start(at=at, player=game.board.turn)
        game.clock = clock


def first_moves_made(row: GameRow, game: Game) -> bool:
    """Whether every player still in has made his first move (the moves of the first round
    come in turn order, and a player out before moving has none). The plies of an opening
    the game started with (``row.opening_ply``, a match's) are nobody's moves."""
    return game.ply - (row.opening_ply or 0) >= len(game.board.active_players)


def _clock_due(row: GameRow, game: Game, at: float, services: Services) -> None:
    """Start the clock when it is due: at the move that makes every player's first move (no
    clock runs before a player's first move), or where a takeback left it. The live game and
    the game rebuilt from its stored moves both call it after each move, at the move's time,
    so both have the same clock."""
    if game.clock is not None or row.clock_control is None or row.started is None:
        return
    if row.clock_base_ply is None:
        if first_moves_made(row, game):
            _start_clock(game, row.clock_control, at, services, _berserk_times(row, game, services))
    elif game.ply == row.clock_base_ply and row.clock_base_at is not None:
        times = [row.clock_base_white or 0.0, row.clock_base_black or 0.0]
        _start_clock(game, row.clock_control, row.clock_base_at, services, times)


def _berserk_times(row: GameRow, game: Game, services: Services) -> list[float] | None:
    """The times the clock starts with when a player of an arena went berserk (a bit per
    seat in ``row.berserk``): half his time; None for the control's own."""
    parsed = parse_clock(row.clock_control, now=services.now) if row.berserk else None
    if parsed is None:
        return None
    full = Clock(parsed.control, game.variant.players, services.now)
    halves = [row.berserk >> seat & 1 for seat in range(full.players)]
    return [full.remaining(seat) / (2 if half else 1) for seat, half in enumerate(halves)]


def _rebuild(row: GameRow, moves: list[MoveRow], services: Services) -> Game:
    """The game of a row; :class:`Unplayable` when this server cannot replay it (one such
    game must not stop the start, the clock task or the other games)."""
    try:
        return _replay(row, moves, services)
    except UnknownVariantError:
        raise Unplayable(
            f"game {row.id} is played in variant {row.variant!r}, which this server has not "
            "loaded (was its variant file removed?): it is left as it is until the variant "
            f"is back; its moves are in /api/games/{row.id}/pdn"
        ) from None
    except ValueError as error:
        raise Unplayable(
            f"game {row.id} does not replay on this server ({error}): it is left as it is; "
            f"its moves are in /api/games/{row.id}/pdn"
        ) from None


def _replay(row: GameRow, moves: list[MoveRow], services: Services) -> Game:
    """The game of a row, by replaying its stored moves and forfeits (resignations and
    time-outs of a game of more players) in their order, at their stored times."""
    game = Game(row.variant, fen=row.start_fen)
    forfeits = {seat.forfeit_index: seat for seat in row.seats if seat.forfeit_index is not None}
    pending = iter(moves)
    _clock_due(row, game, row.started or 0.0, services)
    for index in range(len(moves) + len(forfeits)):
        seat = forfeits.get(index)
        if seat is not None:
            game.forfeit(seat.seat, seat.forfeit_reason or "", at=seat.forfeit_at)
        else:
            move = next(pending)
            game.push(move.notation, at=move.at)
            _clock_due(row, game, move.at, services)
    if row.status == "finished" and game.result is None:
        if row.players == 2:
            game.result = Result(row.result_winner, row.result_reason or "")
        else:
            ranking = tuple(tuple(place) for place in ranking_of(row))
            game.result = Result.ranked(ranking, row.result_reason or "", row.players)
        if game.clock is not None:
            game.clock.stop(at=row.finished)
    game.draw_offer = row.draw_offer
    game.draw_accepted = {seat.seat for seat in row.seats if seat.draw} - {row.draw_offer}
    return game


async def _game(services: Services, session: AsyncSession, row: GameRow) -> Game:
    """The row's game: the one in memory if it is at the row's version, else rebuilt (the
    caller keeps it once the transaction has committed)."""
    game = services.cached(row.id, row.version)
    if game is None:
        query = select(MoveRow).where(MoveRow.game_id == row.id).order_by(MoveRow.ply)
        moves = list((await session.scalars(query)).all())
        game = _rebuild(row, moves, services)
    return game


def _stored(row: GameRow, game: Game, now: float, first_move: float) -> dict[str, Any]:
    """The row's columns that follow from the game's state at ``now``; ``first_move`` is
    the time a player has for his first move."""
    values: dict[str, Any] = {"ply": game.ply, "draw_offer": game.draw_offer, "updated": now}
    moved = game.ply != row.ply
    values["takeback_offer"] = None if moved else row.takeback_offer
    if game.result is None and row.status == "playing" and not first_moves_made(row, game):
        # Waiting for a player's first move: the game is aborted at flag_at.
        if game.clock is None and (moved or row.flag_at is None):
            values["flag_at"] = now + first_move
    else:
        values["flag_at"] = None
    if game.result is not None and row.status != "finished":
        aborted = game.result.reason == ABORTED
        values.update(
            status="finished",
            finished=now,
            result_pdn="*" if aborted else game.result.pdn,
            result_winner=game.result.winner,
            result_reason=game.result.reason,
            draw_offer=None,
        )
    clock = game.clock
    if clock is not None:
        running = clock.running
        if row.players == 2:  # more players keep their clocks on their seats
            values["clock_white"], values["clock_black"] = clock.snapshot(now)
        values["clock_running"] = running
        values["clock_since"] = now
        values["flag_at"] = None if running is None else now + clock.remaining(running, now)
    return values


def _store(row: GameRow, game: Game, now: float, services: Services) -> None:
    """Copy the game's state into its row."""
    first_move = services.settings.first_move_seconds
    for column, value in _stored(row, game, now, first_move).items():
        setattr(row, column, value)
    if row.status == "finished":
        game.draw_offer = None
    if row.players != 2:
        _store_seats(row, game, now)


def _store_seats(row: GameRow, game: Game, now: float) -> None:
    """Copy what a game of more players keeps per seat: clocks, forfeits (new ones
    happened now), the draw agreement and, at the end, the places."""
    seats = row.seats
    if game.clock is not None:
        for seat, time in zip(seats, game.clock.snapshot(now), strict=True):
            seat.clock = time
    for index, event in enumerate(game.events):
        if isinstance(event, Forfeit) and seats[event.player].forfeit_index is None:
            seat = seats[event.player]
            seat.forfeit_index, seat.forfeit_reason, seat.forfeit_at = index, event.reason, now
    agreed = set() if game.draw_offer is None else {game.draw_offer, *game.draw_accepted}
    for seat in seats:
        seat.draw = seat.seat in agreed
    if game.result is not None:
        for place, players in enumerate(game.result.ranking):
            for player in players:
                seats[player].place = place


def rules_of(name: str) -> Variant:
    """The variant ``name`` (with its options), or 400 saying why the registry refuses it."""
    try:
        return get_variant(name)
    except ValueError as error:  # an unknown name, or options it refuses
        raise BadRequest(str(error)) from None


def check_clock(text: str | None) -> str | None:
    if text is None or not text.strip():
        return None
    text = text.strip()
    try:
        clock = parse_clock(text)
    except ValueError as error:
        raise BadRequest(str(error)) from None
    assert clock is not None
    control = clock.control
    if not 0 < control.base <= MAX_CLOCK_SECONDS or control.reserve > MAX_CLOCK_SECONDS:
        raise BadRequest(
            tr("clock {clock}: the time must be above 0 and at most 24 hours", clock=repr(text))
        )
    if control.increment > 3600:
        raise BadRequest(tr("clock {clock}: the increment is at most an hour", clock=repr(text)))
    return text


# -- the change pipeline -----------------------------------------------------------


async def _change(
    services: Services, game_id: str, action: Action, viewer: str | None
) -> GameState:
    """Apply ``action`` to a game in one transaction, then broadcast and let the computer
    answer if it is its turn; the new state as ``viewer`` sees it."""
    row, public = await _apply(services, game_id, action)
    return seen_by(public, row, viewer)


def seen_by(public: GameState, row: GameRow, viewer: str | None) -> GameState:
    """A state for nobody (as published) as ``viewer`` sees it: his seat's colour."""
    you = seat_of(row, viewer)
    return public if you is None else public.model_copy(update={"you": COLORS[you]})


async def _apply(services: Services, game_id: str, action: Action) -> tuple[GameRow, GameState]:
    """:func:`_change`'s work: the game's row and new state, for nobody."""
    async with services.lock(game_id):
        now = services.now()
        try:
            async with services.database.session() as session, session.begin():
                row = await _row(session, game_id, for_update=True)
                game = await _game(services, session, row)
                before = game.ply
                finished = row.status == "finished"
                timed_out = _time_out(row, game, now)
                refusal: ServiceError | None = timed_out
                if refusal is None:
                    refusal = await action(session, row, game, now)
                for ply in range(before + 1, game.ply + 1):
                    session.add(
                        MoveRow(
                            game_id=game_id, ply=ply, notation=game.moves[ply - 1].notation, at=now
                        )
                    )
                _store(row, game, now, services)
                if row.status == "finished" and not finished:
                    await rate_game(session, row, now)
                await session.flush()
                version = row.version
                public = state_view(row, game, now)
        except ServiceError:
            raise
        except StaleDataError:
            services.forget(game_id)
            raise Conflict(tr("the game changed meanwhile: reload it")) from None
        except BaseException:
            services.forget(game_id)
            raise
        services.keep(game_id, game, version, row, public)
    if timed_out is not None:
        log.info("game %s: %s", game_id, timed_out.detail)
    # One move of a two-player game that goes on, and nothing else: sent as a delta, which
    # the sockets append and the other processes' copies of the game follow.
    moved = (
        refusal is None
        and row.players == 2
        and game.ply == before + 1
        and row.status == "playing"
        and game.result is None
    )
    await _announce(services, public, version, moved=moved)
    if refusal is not None:
        raise refusal
    return row, public


def _time_out(row: GameRow, game: Game, now: float) -> Conflict | None:
    """Apply a fallen flag before anything else: the game is lost on time (two players) or
    the player to move is out (more players), or aborted when a player has not made his
    first move in time; the refusal of the request that found it."""
    if row.status != "playing" or game.result is not None:
        return None
    if game.clock is None and row.flag_at is not None and row.flag_at <= now:
        late = game.board.turn
        if row.match_id is not None or row.tournament_id is not None:  # lost, not aborted
            game.forfeit(late, "time forfeit", now)
            return Conflict(f"time is up: {PLAYER_NAMES[late]} did not make a first move")
        game.adjudicate(None, ABORTED)
        return Conflict(f"the game is aborted: {PLAYER_NAMES[late]} did not move")
    mover, events = game.board.turn, len(game.events)
    if game.check_time(now) is None and len(game.events) == events:
        return None
    if row.players == 2:
        return Conflict(f"time is up: {PLAYER_NAMES[mover]} lost on time")
    return Conflict(f"time is up: {PLAYER_NAMES[mover]} is out of the game")


async def _announce(
    services: Services, state: GameState, version: int, moved: bool = False
) -> None:
    """Broadcast a state (after one move, ``moved``, as a delta of the state before it) and
    start the computer's move when it is its turn."""
    published = _published_move(version, state) if moved else _published(version, state)
    try:
        await services.rooms.publish(state.id, published)
    except Exception:  # a lost broadcast must not undo a stored move
        log.exception("could not broadcast game %s", state.id)
    turn = COLORS.index(state.turn)
    if state.status == "playing" and state.seats[turn].kind == "computer":
        _think(services, state.id, state.ply, turn)


def spend_offer(services: Services, game_id: str, seat: int, kind: str) -> None:
    """Refuse (429) an offer of ``kind`` made too soon after the player's last ones."""
    if not services.offer_limiter.take(f"{game_id}:{seat}:{kind}"):
        raise RateLimited(
            tr(
                "too many {kind}s in a row: wait {seconds} s before the next",
                kind=kind,
                seconds=f"{OFFER_EVERY:g}",
            )
        )


def _player_seat(row: GameRow, player_id: str | None) -> int:
    seat = seat_of(row, player_id)
    if seat is None:
        raise Forbidden(tr("you are not a player of this game"))
    return seat


def _require_playing(row: GameRow, game: Game) -> None:
    if row.status == "open":
        if row.players == 2:
            raise Conflict(tr("the game has not started: it waits for an opponent"))
        raise Conflict(tr("the game has not started: it waits for players for its open seats"))
    if row.status == "finished" or game.result is not None:
        raise Conflict(tr("the game is over"))


def _require_in_game(row: GameRow, game: Game, seat: int) -> None:
    _require_playing(row, game)
    if seat not in game.board.active_players:
        raise Conflict(tr("you are out of this game"))


# -- the service functions ---------------------------------------------------------


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
                f"{rules.name} is a game of {rules.players} players: "
                "say who sits at each seat (seats)"
            )
        you = secrets.randbelow(2) if color == "random" else COLORS.index(color)
        pair = [SeatChoice(kind="you", level=level), SeatChoice(kind=opponent, level=level)]
        return pair if you == 0 else pair[::-1]
    if len(seats) != rules.players:
        raise BadRequest(f"{rules.name} has {rules.players} seats, not {len(seats)}")
    if sum(choice.kind == "you" for choice in seats) != 1:
        raise BadRequest('exactly one seat must be yours ("kind": "you")')
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
        raise BadRequest(f"bad start position: {error}") from None
    if game.result is not None:
        raise BadRequest(f"the start position is already decided ({game.result.reason})")
    for player in game.board.active_players:
        if not game.board.has_pieces(player):
            name = PLAYER_NAMES[player]
            raise BadRequest(f"the start position is already decided: {name} has no pieces")
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
    _store(row, game, now, services)
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
    await _announce(services, public, version)
    you = next(k for k, choice in enumerate(choices) if choice.kind == "you")
    return public.model_copy(update={"you": COLORS[you]})


async def _read(services: Services, game_id: str) -> tuple[GameRow, Game]:
    async with services.lock(game_id):
        async with services.database.session() as session, session.begin():
            row = await _row(session, game_id)
            game = await _game(services, session, row)
        services.keep(game_id, game, row.version, row)
        return row, game


async def game_state(*, services: Services, game_id: str, viewer: str | None) -> GameState:
    row, game = await _read(services, game_id)
    return state_view(row, game, services.now(), viewer)


async def game_snapshot(*, services: Services, game_id: str) -> State:
    """The state as published, for a new socket."""
    row, game = await _read(services, game_id)
    public = state_view(row, game, services.now())
    services.keep(game_id, game, row.version, row, public)  # for the next move's state
    return _published(row.version, public)


def _published(version: int, state: GameState) -> State:
    seats = tuple((seat.id, seat.color) for seat in state.seats)
    playing = state.status == "playing"
    return State(version, seats, playing, state.model_dump_json(exclude={"you"}))


def _published_move(version: int, state: GameState) -> State:
    """The state after one move, as published: the game without its moves, and the move
    (the sockets append it to the moves of the version before)."""
    seats = tuple((seat.id, seat.color) for seat in state.seats)
    game = state.model_dump_json(exclude={"you", "moves"})
    played = f"[{state.moves[-1].model_dump_json()}]"
    playing = state.status == "playing"
    return State(version, seats, playing, game, version - 1, played, state.server_time)


def follow_move(services: Services, game_id: str, state: State) -> None:
    """Bring this process's copy of a game along with a state another process published.

    A move played there (a delta of one move on the version the copy holds) is played here
    too, at its moment, and the copy's row gets the columns the other process stored: the
    same functions on the same values (:func:`_play_live`), so the next move made here finds
    the game in memory, rather than replaying it from the database. Anything else (a state
    that is not such a delta, a copy at another version, a change under way here) drops
    the copy: it is rebuilt from the database when needed."""
    live = services.live.get(game_id)
    if live is None or state.version <= live.version:
        return  # not held here, or this process's own state coming back
    row = live.row
    simple = state.after == live.version and state.at is not None and row is not None
    if not simple or row is None or row.players != 2 or services.busy(game_id):
        services.forget(game_id)
        return
    played = json.loads(state.played)
    at = state.at
    assert at is not None
    game = live.game
    try:
        if len(played) != 1 or game.result is not None:
            raise ValueError("not one move of a game being played")
        game.push(played[0]["notation"], at=at)
        _clock_due(row, game, at, services)
    except (ValueError, KeyError, TypeError):
        services.forget(game_id)
        return
    if game.result is not None:
        services.forget(game_id)
        return
    for column, value in _stored(row, game, at, services.settings.first_move_seconds).items():
        setattr(row, column, value)
    row.version = state.version
    services.keep(game_id, game, state.version, row, live.state)


async def join_game(
    *, services: Services, player_id: str, game_id: str, seat: int | None = None
) -> GameState:
    """Take an open seat (``seat``, or the first open one); the game (and its clock) starts
    when the last one is taken."""

    async def join(session: AsyncSession, row: GameRow, game: Game, now: float) -> None:
        if seat_of(row, player_id) is not None:
            return None  # joining one's own game changes nothing
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

    return await _change(services, game_id, join, player_id)


async def play_move(
    *, services: Services, game_id: str, move: str, ply: int, player_id: str | None
) -> GameState:
    """Play ``move`` for ``player_id`` (:func:`make_move`); the new state as he sees it."""
    row, public = await make_move(
        services=services, game_id=game_id, move=move, ply=ply, player_id=player_id
    )
    return seen_by(public, row, player_id)


async def make_move(
    *,
    services: Services,
    game_id: str,
    move: str,
    ply: int,
    player_id: str | None,
    computer_seat: int | None = None,
) -> tuple[GameRow, GameState]:
    """Play ``move`` for the player to move, who must be ``player_id`` (or the computer at
    ``computer_seat``): the game's row and new state, for nobody (the sockets, the mover's
    too, get it through the game's room)."""

    def push(row: GameRow, game: Game, now: float) -> None:
        if computer_seat is not None:
            _require_playing(row, game)
            turn = game.board.turn
            if turn != computer_seat or sitters(row)[turn].kind != "computer":
                raise Conflict(tr("it is not the computer's turn"))
        else:
            seat = _player_seat(row, player_id)
            _require_in_game(row, game, seat)
            if seat != game.board.turn:
                raise Conflict(tr("it is not your turn"))
        if ply != game.ply:
            raise Conflict(
                tr("stale move: the game is at ply {ply}, not {sent}", ply=game.ply, sent=ply)
            )
        try:
            game.push(move, at=now)
        except GameOverError as error:
            raise Conflict(str(error)) from None
        except IllegalMoveError as error:
            raise BadRequest(str(error)) from None
        except ValueError as error:
            raise BadRequest(str(error)) from None
        _clock_due(row, game, now, services)

    async def play(session: AsyncSession, row: GameRow, game: Game, now: float) -> None:
        push(row, game, now)
        return None

    async with services.lock(game_id):
        played = await _play_live(services, game_id, push)
    if played is None:
        return await _apply(services, game_id, play)
    public, row = played
    await _announce(services, public, row.version, moved=True)
    return row, public


async def _play_live(
    services: Services, game_id: str, push: Callable[[GameRow, Game, float], None]
) -> tuple[GameState, GameRow] | None:
    """A move on the game in memory, stored without reading the game back: one short
    transaction that updates the row only if it is still at the copy's version, and adds the
    move. For the common case only: when the copy is missing or behind, the move is refused,
    a flag fell or the move ends the game, returns None and :func:`_change` decides from the
    stored game (and gives the refusal, the result, the rating). Runs under the game's lock;
    returns the new state and the row."""
    live = services.live.get(game_id)
    if live is None or live.row is None or live.row.players != 2:
        return None  # games of more players keep seats and forfeits: the full path
    row, game, version = live.row, live.game, live.version
    now = services.now()
    if row.flag_at is not None and row.flag_at <= now:
        return None  # a flag fell or the first move came too late
    try:
        push(row, game, now)
    except ServiceError:
        return None  # unchanged: the stored game gives the answer
    if game.result is not None:
        services.forget(game_id)  # the ending move is played again on the stored game
        return None
    values = _stored(row, game, now, services.settings.first_move_seconds)
    move = {"ply": game.ply, "notation": game.moves[-1].notation, "at": now}
    try:
        stored = await services.database.record_move(game_id, version, values, move)
    except BaseException:
        services.forget(game_id)
        raise
    if not stored:  # another process changed the game first
        services.forget(game_id)
        return None
    for column, value in values.items():
        setattr(row, column, value)
    row.version = version + 1
    before = live.state
    public = state_view(row, game, now) if before is None else moved_view(before, row, game, now)
    services.keep(game_id, game, row.version, row, public)
    return public, row


async def resign_game(*, services: Services, game_id: str, player_id: str | None) -> GameState:
    """Resign: the opponent wins, or (more players) the player is out and the others play
    on."""

    async def resign(session: AsyncSession, row: GameRow, game: Game, now: float) -> None:
        seat = _player_seat(row, player_id)
        _require_in_game(row, game, seat)
        game.resign(seat, at=now)
        return None

    return await _change(services, game_id, resign, player_id)


async def draw_action(
    *,
    services: Services,
    game_id: str,
    player_id: str | None,
    action: Literal["offer", "accept", "decline"],
) -> GameState:
    """Offer, accept or decline a draw; the game is drawn once every player still in
    wants it. The computer declines at once."""

    async def draw(session: AsyncSession, row: GameRow, game: Game, now: float) -> None:
        seat = _player_seat(row, player_id)
        _require_in_game(row, game, seat)
        agreed = set() if game.draw_offer is None else {game.draw_offer, *game.draw_accepted}
        if action == "offer":
            if seat in agreed:
                raise Conflict(tr("your draw offer stands already"))
            spend_offer(services, row.id, seat, "draw offer")
            game.offer_draw(seat)
            seated = sitters(row)
            computers = [p for p in game.board.active_players if seated[p].kind == "computer"]
            if computers and game.result is None:
                game.decline_draw(computers[0])  # the computer plays on
        elif game.draw_offer is None or seat in agreed:
            raise Conflict(
                tr("there is no draw offer from your opponent to {action}", action=action)
            )
        elif action == "accept":
            game.accept_draw(seat)
        else:
            game.decline_draw(seat)
        return None

    return await _change(services, game_id, draw, player_id)


async def rematch(*, services: Services, game_id: str, player_id: str) -> GameState:
    """A new game between the same players, each moved on to the next colour (two players
    swap theirs); one per game: the second player asking gets the same one."""
    created: dict[str, str] = {}

    async def ask(session: AsyncSession, row: GameRow, game: Game, now: float) -> None:
        _player_seat(row, player_id)
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

    await _apply(services, game_id, ask)
    state = await game_state(services=services, game_id=created["id"], viewer=player_id)
    if state.ply == 0 and state.status == "playing":
        public = state.model_copy(update={"you": None})
        await _announce(services, public, 1)
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


async def game_pdn(
    *,
    services: Services,
    game_id: str,
    base_url: str = "",
    event: dict[str, str] | None = None,
) -> str:
    """The game as PDN, with the players' names (a tag per colour), the date, and the
    game's address on the site that serves it (``base_url``, the site's root); ``event``
    adds tags or replaces the event's (a match's ``Round``). A game this server cannot
    replay is written as its rows record it."""
    try:
        row, game = await _read(services, game_id)
    except Unplayable:
        return await _stored_pdn(services, game_id, base_url)
    tags = _pdn_tags(row, game.result.pdn if game.result is not None else "*", base_url, event)
    return write_pdn(game, tags)


def _pdn_tags(
    row: GameRow, result: str, base_url: str = "", event: dict[str, str] | None = None
) -> dict[str, str]:
    created = datetime.fromtimestamp(row.created, UTC)
    tags = {
        "Event": "Damier game",
        "Site": f"{base_url.rstrip('/')}/games/{row.id}",
        "Date": created.strftime("%Y.%m.%d"),
        **(event or {}),
    }
    for seat in range(row.players):
        tags[COLORS[seat].capitalize()] = seat_view(row, seat).name or "?"
    tags["Result"] = result
    if row.clock_control is not None:
        tags["TimeControl"] = row.clock_control
    return tags


async def _stored_pdn(services: Services, game_id: str, base_url: str = "") -> str:
    """The PDN of a game from its rows alone: its moves and forfeits as stored."""
    async with services.database.session() as session:
        row = await _row(session, game_id)
        query = select(MoveRow.notation).where(MoveRow.game_id == game_id).order_by(MoveRow.ply)
        moves = list((await session.scalars(query)).all())
        forfeits = {s.forfeit_index: s for s in row.seats if s.forfeit_index is not None}
        tags = _pdn_tags(row, row.result_pdn or "*", base_url)
        record = PdnGame(tags=tags, result=row.result_pdn or "*")
    record.tags.update(Variant=row.variant, FEN=row.start_fen)
    if row.result_reason:
        record.tags["Termination"] = row.result_reason
    pending = iter(moves)
    for index in range(len(moves) + len(forfeits)):
        seat = forfeits.get(index)
        text = (
            next(pending)
            if seat is None
            else forfeit_text(Forfeit(seat.seat, seat.forfeit_reason or ""))
        )
        record.moves.append(Node(text, 0, 0))
    return dump_pdn(record)


# -- the games of a match (services.matches) ---------------------------------------


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
    _store(row, game, now, services)
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
    await _announce(services, public, row.version)


# -- background work ---------------------------------------------------------------


async def _computer_turn(*, services: Services, game_id: str, ply: int, seat: int) -> None:
    """Search the move of the computer at ``seat`` in the worker pool and play it through
    :func:`make_move`."""
    key = (game_id, ply, seat)
    if key in services.thinking:
        return
    services.thinking.add(key)
    try:
        async with services.lock(game_id):
            async with services.database.session() as session, session.begin():
                row = await _row(session, game_id)
                game = await _game(services, session, row)
            services.keep(game_id, game, row.version, row)
            turn = game.board.turn
            level = sitters(row)[turn].level
            if row.status != "playing" or game.result is not None or game.ply != ply:
                return
            if turn != seat or level is None:
                return
            board = game.board.copy()
            remaining = increment = None
            if game.clock is not None:
                remaining = game.clock.remaining(turn, services.now())
                increment = game.clock.control.increment
        seconds = services.computer.think_time(level, remaining, increment or 0.0)
        notation = await services.computer.best_move(board, level, seconds)
        if notation is None:
            return
        try:
            await make_move(
                services=services,
                game_id=game_id,
                move=notation,
                ply=ply,
                player_id=None,
                computer_seat=seat,
            )
        except ServiceError as error:  # the game moved on meanwhile (resigned, flagged)
            log.info("computer move in %s dropped: %s", game_id, error.detail)
    finally:
        services.thinking.discard(key)


def _think(services: Services, game_id: str, ply: int, seat: int) -> None:
    services.spawn(
        _computer_turn(services=services, game_id=game_id, ply=ply, seat=seat),
        name=f"computer {game_id}:{ply}:{seat}",
    )


async def end_flagged_games(*, services: Services) -> int:
    """End the games whose running clock has run out (or, with more players, put the
    player out); returns how many."""
    now = services.now()
    query = select(GameRow.id).where(GameRow.status == "playing", GameRow.flag_at <= now)
    async with services.database.session() as session:
        ids = list((await session.scalars(query)).all())

    async def nothing(session: AsyncSession, row: GameRow, game: Game, now: float) -> None:
        return None

    ended = 0
    for game_id in ids:
        try:
            await _apply(services, game_id, nothing)
        except Conflict:
            ended += 1  # "time is up": ended and broadcast
        except ServiceError:
            pass
    return ended


async def resume_computer_games(*, services: Services) -> None:
    """At start: let the computer move in the games where it is its turn."""
    query = select(GameRow).where(GameRow.status == "playing")
    async with services.database.session() as session:
        rows = (await session.scalars(query)).unique().all()
        ids = [row.id for row in rows if any(s.kind == "computer" for s in sitters(row))]
    for game_id in ids:
        try:
            row, game = await _read(services, game_id)
        except Unplayable as error:
            log.warning("not resumed: %s", error.detail)
            continue
        turn = game.board.turn
        if game.result is None and sitters(row)[turn].kind == "computer":
            _think(services, game_id, game.ply, turn)
