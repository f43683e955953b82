"""The game service: every change of a game goes through here, whichever door it came in by
(HTTP, WebSocket, the computer, the clock task).

A change runs under the game's lock, in one transaction: load the row, bring the in-memory
:class:`~damier.game.Game` up to the row's version (replaying the stored moves when it is
missing or stale), apply the change, store the new moves and the game's new state, commit,
then broadcast the state to the game's room.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.exc import StaleDataError

from damier.errors import IllegalMoveError
from damier.game import Game, GameOverError, Result
from damier.notation.pdn import write_pdn
from damier.play import parse_clock
from damier.rules import Variant, get_variant
from damier.rules.variants import UnknownVariantError
from damier.server.rooms import State
from damier.server.schemas import COLORS, GameState, GameSummary
from damier.server.services.context import Services
from damier.server.services.errors import BadRequest, Conflict, Forbidden, NotFound, ServiceError
from damier.server.services.players import new_id
from damier.server.services.ratings import rate_game
from damier.server.services.views import seat_of, seat_view, state_view, summary_view
from damier.server.store.models import Base, GameRow, MoveRow, PlayerRow

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
        raise NotFound(f"no game {game_id!r}")
    return row


def _start_clock(game: Game, control: str | None, at: float, services: Services) -> None:
    """Attach a clock started at ``at`` for the player to move."""
    if control is None:
        return
    clock = parse_clock(control, now=services.now)
    if clock is not None:
        clock.start(at=at, player=game.board.turn)
        game.clock = clock


def _rebuild(row: GameRow, moves: list[MoveRow], services: Services) -> Game:
    """The game of a row, by replaying its stored moves at their stored times."""
    game = Game(row.variant, fen=row.start_fen)
    if row.started is not None:
        _start_clock(game, row.clock_control, row.started, services)
    for move in moves:
        game.push(move.notation, at=move.at)
    if row.status == "finished" and game.result is None:
        game.result = Result(row.result_winner, row.result_reason or "")
        if game.clock is not None:
            game.clock.stop(at=row.finished)
    game.draw_offer = row.draw_offer
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


def _stored(row: GameRow, game: Game, now: float) -> dict[str, Any]:
    """The row's columns that follow from the game's state at ``now``."""
    values: dict[str, Any] = {"ply": game.ply, "draw_offer": game.draw_offer, "updated": now}
    if game.result is not None and row.status != "finished":
        values.update(
            status="finished",
            finished=now,
            result_pdn=game.result.pdn,
            result_winner=game.result.winner,
            result_reason=game.result.reason,
            draw_offer=None,
        )
    clock = game.clock
    if clock is not None:
        running = clock.running
        values["clock_white"], values["clock_black"] = clock.snapshot(now)
        values["clock_running"] = running
        values["clock_since"] = now
        values["flag_at"] = None if running is None else now + clock.remaining(running, now)
    return values


def _store(row: GameRow, game: Game, now: float) -> None:
    """Copy the game's state into its row."""
    for column, value in _stored(row, game, now).items():
        setattr(row, column, value)
    if row.status == "finished":
        game.draw_offer = None


def _variant(name: str) -> Variant:
    try:
        return get_variant(name)
    except UnknownVariantError as error:
        raise BadRequest(str(error)) from None


def _check_clock(text: str | None) -> str | None:
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
        raise BadRequest(f"clock {text!r}: the time must be above 0 and at most 24 hours")
    if control.increment > 3600:
        raise BadRequest(f"clock {text!r}: the increment is at most an hour")
    return text


# -- the change pipeline -----------------------------------------------------------


async def _change(
    services: Services, game_id: str, action: Action, viewer: str | None
) -> GameState:
    """Apply ``action`` to a game in one transaction, then broadcast and let the computer
    answer if it is its turn."""
    async with services.lock(game_id):
        now = services.now()
        try:
            async with services.database.session() as session, session.begin():
                row = await _row(session, game_id, for_update=True)
                game = await _game(services, session, row)
                before = game.ply
                finished = row.status == "finished"
                refusal: ServiceError | None = None
                if row.status == "playing" and game.result is None and game.check_time(now):
                    refusal = Conflict("time is up: the game is lost on time")
                else:
                    refusal = await action(session, row, game, now)
                for ply in range(before + 1, game.ply + 1):
                    session.add(
                        MoveRow(
                            game_id=game_id, ply=ply, notation=game.moves[ply - 1].notation, at=now
                        )
                    )
                _store(row, game, now)
                if row.status == "finished" and not finished:
                    await rate_game(session, row, now)
                await session.flush()
                version = row.version
                public = state_view(row, game, now)
        except ServiceError:
            raise
        except StaleDataError:
            services.forget(game_id)
            raise Conflict("the game changed meanwhile: reload it") from None
        except BaseException:
            services.forget(game_id)
            raise
        services.keep(game_id, game, version, row)
    await _announce(services, public, version)
    if refusal is not None:
        raise refusal
    you = seat_of(row, viewer)
    return public.model_copy(update={"you": COLORS[you] if you is not None else None})


async def _announce(services: Services, state: GameState, version: int) -> None:
    """Broadcast a state and start the computer's move when it is its turn."""
    try:
        await services.rooms.publish(state.id, _published(version, state))
    except Exception:  # a lost broadcast must not undo a stored move
        log.exception("could not broadcast game %s", state.id)
    seat = state.white if state.turn == "white" else state.black
    if state.status == "playing" and seat.kind == "computer":
        services.spawn(
            _computer_turn(services=services, game_id=state.id, ply=state.ply),
            name=f"computer {state.id}:{state.ply}",
        )


def _player_seat(row: GameRow, player_id: str | None) -> int:
    seat = seat_of(row, player_id)
    if seat is None:
        raise Forbidden("you are not a player of this game")
    return seat


def _require_playing(row: GameRow, game: Game) -> None:
    if row.status == "open":
        raise Conflict("the game has not started: it waits for an opponent")
    if row.status == "finished" or game.result is not None:
        raise Conflict("the game is over")


# -- the service functions ---------------------------------------------------------


async def create_game(
    *,
    services: Services,
    player_id: str,
    variant: str,
    opponent: Literal["computer", "open"],
    level: int,
    color: Literal["white", "black", "random"],
    clock: str | None,
) -> GameState:
    """A new game: against the computer (it starts at once) or open for anyone to join."""
    rules = _variant(variant)
    control = _check_clock(clock)
    seat = secrets.randbelow(2) if color == "random" else COLORS.index(color)
    now = services.now()
    game = Game(rules)
    versus_computer = opponent == "computer"
    async with services.database.session() as session, session.begin():
        player = await session.get(PlayerRow, player_id)
        if player is None:
            raise Forbidden("unknown player: start a session first")
        row = GameRow(
            id=new_id(8),
            variant=rules.name,
            status="playing" if versus_computer else "open",
            white_kind="human",
            black_kind="human",
            clock_control=control,
            start_fen=game.start_fen,
            ply=0,
            created=now,
            updated=now,
        )
        if seat == 0:
            row.white = player
        else:
            row.black = player
        if versus_computer:
            if seat == 0:
                row.black_kind, row.black_level = "computer", level
            else:
                row.white_kind, row.white_level = "computer", level
            row.started = now
            _start_clock(game, control, now, services)
        _store(row, game, now)
        session.add(row)
        await session.flush()
        version = row.version
        public = state_view(row, game, now)
    services.keep(row.id, game, version)
    await _announce(services, public, version)
    return public.model_copy(update={"you": COLORS[seat]})


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
    return _published(row.version, state_view(row, game, services.now()))


def _published(version: int, state: GameState) -> State:
    return State(version, (state.white.id, state.black.id), state.model_dump_json(exclude={"you"}))


async def join_game(*, services: Services, player_id: str, game_id: str) -> GameState:
    """Take the free seat of an open game; the game (and its clock) starts."""

    async def join(session: AsyncSession, row: GameRow, game: Game, now: float) -> None:
        if seat_of(row, player_id) is not None:
            return None  # joining one's own game changes nothing
        if row.status != "open":
            raise Conflict("the game has already started")
        player = await session.get(PlayerRow, player_id)
        if player is None:
            raise Forbidden("unknown player: start a session first")
        if row.white_id is None and row.white_kind == "human":
            row.white = player
        else:
            row.black = player
        row.status = "playing"
        row.started = now
        _start_clock(game, row.clock_control, now, services)
        return None

    return await _change(services, game_id, join, player_id)


async def play_move(
    *,
    services: Services,
    game_id: str,
    move: str,
    ply: int,
    player_id: str | None,
    computer: bool = False,
) -> GameState:
    """Play ``move`` for the player to move, who must be ``player_id`` (or the computer)."""

    def push(row: GameRow, game: Game, now: float) -> None:
        if computer:
            kind = row.white_kind if game.board.turn == 0 else row.black_kind
            if kind != "computer":
                raise Conflict("it is not the computer's turn")
            _require_playing(row, game)
        else:
            seat = _player_seat(row, player_id)
            _require_playing(row, game)
            if seat != game.board.turn:
                raise Conflict("it is not your turn")
        if ply != game.ply:
            raise Conflict(f"stale move: the game is at ply {game.ply}, not {ply}")
        try:
            game.push(move, at=now)
        except GameOverError as error:
            raise Conflict(str(error)) from None
        except IllegalMoveError as error:
            raise BadRequest(str(error)) from None
        except ValueError as error:
            raise BadRequest(str(error)) from None

    async def play(session: AsyncSession, row: GameRow, game: Game, now: float) -> None:
        push(row, game, now)
        return None

    async with services.lock(game_id):
        played = await _play_live(services, game_id, push)
    if played is None:
        return await _change(services, game_id, play, player_id)
    public, row = played
    await _announce(services, public, row.version)
    you = seat_of(row, player_id)
    return public.model_copy(update={"you": COLORS[you] if you is not None else None})


_GAMES, _MOVES = Base.metadata.tables["games"], Base.metadata.tables["moves"]
_UPDATE_AT_VERSION = _GAMES.update().where(
    _GAMES.c.id == bindparam("at_id"), _GAMES.c.version == bindparam("at_version")
)
"""The row's new values (given as parameters) if the row is still at ``at_version``."""
_INSERT_MOVE = _MOVES.insert()


class _Behind(Exception):
    """The stored game moved past the copy in memory (another process changed it)."""


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
    if live is None or live.row is None:
        return None
    row, game, version = live.row, live.game, live.version
    now = services.now()
    if game.clock is not None and game.clock.flagged(now) is not None:
        return None
    try:
        push(row, game, now)
    except ServiceError:
        return None  # unchanged: the stored game gives the answer
    if game.result is not None:
        services.forget(game_id)  # the ending move is played again on the stored game
        return None
    values = _stored(row, game, now)
    moved = game.moves[-1]
    try:
        async with services.database.transaction() as connection:
            update = {**values, "version": version + 1, "at_id": game_id, "at_version": version}
            if (await connection.execute(_UPDATE_AT_VERSION, update)).rowcount != 1:
                raise _Behind
            added = {"game_id": game_id, "ply": game.ply, "notation": moved.notation, "at": now}
            await connection.execute(_INSERT_MOVE, added)
    except _Behind:
        services.forget(game_id)
        return None
    except BaseException:
        services.forget(game_id)
        raise
    for column, value in values.items():
        setattr(row, column, value)
    row.version = version + 1
    services.keep(game_id, game, row.version, row)
    return state_view(row, game, now), row


async def resign_game(*, services: Services, game_id: str, player_id: str | None) -> GameState:
    async def resign(session: AsyncSession, row: GameRow, game: Game, now: float) -> None:
        seat = _player_seat(row, player_id)
        _require_playing(row, game)
        game.resign(seat)
        return None

    return await _change(services, game_id, resign, player_id)


async def draw_action(
    *,
    services: Services,
    game_id: str,
    player_id: str | None,
    action: Literal["offer", "accept", "decline"],
) -> GameState:
    async def draw(session: AsyncSession, row: GameRow, game: Game, now: float) -> None:
        seat = _player_seat(row, player_id)
        _require_playing(row, game)
        if action == "offer":
            if game.draw_offer == seat:
                raise Conflict("your draw offer stands already")
            game.offer_draw(seat)
            other_kind = row.black_kind if seat == 0 else row.white_kind
            if other_kind == "computer" and game.result is None:
                game.decline_draw(1 - seat)  # the computer plays on
        elif action == "accept":
            if game.draw_offer is None or game.draw_offer == seat:
                raise Conflict("there is no draw offer from your opponent to accept")
            game.accept_draw(seat)
        else:
            if game.draw_offer is None or game.draw_offer == seat:
                raise Conflict("there is no draw offer from your opponent to decline")
            game.decline_draw(seat)
        return None

    return await _change(services, game_id, draw, player_id)


async def rematch(*, services: Services, game_id: str, player_id: str) -> GameState:
    """A new game between the same players with the colours swapped (one per game: the
    second player asking gets the same one)."""
    created: dict[str, str] = {}

    async def ask(session: AsyncSession, row: GameRow, game: Game, now: float) -> None:
        _player_seat(row, player_id)
        if row.status != "finished":
            raise Conflict("a rematch is for a finished game")
        if row.rematch_id is not None:
            created["id"] = row.rematch_id
            return None
        fresh = Game(row.variant, fen=row.start_fen)
        new = GameRow(
            id=new_id(8),
            variant=row.variant,
            status="playing",
            white_id=row.black_id,
            white_kind=row.black_kind,
            white_level=row.black_level,
            black_id=row.white_id,
            black_kind=row.white_kind,
            black_level=row.white_level,
            clock_control=row.clock_control,
            start_fen=row.start_fen,
            ply=0,
            created=now,
            started=now,
            updated=now,
        )
        _start_clock(fresh, row.clock_control, now, services)
        _store(new, fresh, now)
        session.add(new)
        row.rematch_id = new.id
        created["id"] = new.id
        return None

    await _change(services, game_id, ask, player_id)
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


async def game_pdn(*, services: Services, game_id: str) -> str:
    """The game as PDN, with the players' names and the date."""
    row, game = await _read(services, game_id)
    created = datetime.fromtimestamp(row.created, UTC)
    white, black = seat_view(row, 0), seat_view(row, 1)
    tags = {
        "Event": "Damier game",
        "Site": f"/games/{game_id}",
        "Date": created.strftime("%Y.%m.%d"),
        "White": white.name or "?",
        "Black": black.name or "?",
        "Result": game.result.pdn if game.result is not None else "*",
    }
    if row.clock_control is not None:
        tags["TimeControl"] = row.clock_control
    return write_pdn(game, tags)


# -- background work ---------------------------------------------------------------


async def _computer_turn(*, services: Services, game_id: str, ply: int) -> None:
    """Search the computer's move in the worker pool and play it through :func:`play_move`."""
    key = (game_id, ply)
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
            level = row.white_level if turn == 0 else row.black_level
            if row.status != "playing" or game.result is not None or game.ply != ply:
                return
            if level is None:
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
            await play_move(
                services=services,
                game_id=game_id,
                move=notation,
                ply=ply,
                player_id=None,
                computer=True,
            )
        except ServiceError as error:  # the game moved on meanwhile (resigned, flagged)
            log.info("computer move in %s dropped: %s", game_id, error.detail)
    finally:
        services.thinking.discard(key)


async def end_flagged_games(*, services: Services) -> int:
    """End the games whose running clock has run out; returns how many."""
    now = services.now()
    query = select(GameRow.id).where(GameRow.status == "playing", GameRow.flag_at <= now)
    async with services.database.session() as session:
        ids = list((await session.scalars(query)).all())

    async def nothing(session: AsyncSession, row: GameRow, game: Game, now: float) -> None:
        return None

    ended = 0
    for game_id in ids:
        try:
            await _change(services, game_id, nothing, None)
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
        waiting = [
            (row.id, row.ply)
            for row in rows
            if "computer" in (row.white_kind, row.black_kind)
            and (row.white_kind if _turn_at(row) == 0 else row.black_kind) == "computer"
        ]
    for game_id, ply in waiting:
        services.spawn(
            _computer_turn(services=services, game_id=game_id, ply=ply),
            name=f"computer {game_id}:{ply}",
        )


def _turn_at(row: GameRow) -> int:
    """Whose turn it is in a stored game (from its start position and ply count)."""
    first = 1 if row.start_fen.startswith("B") else 0
    return (first + row.ply) % 2
