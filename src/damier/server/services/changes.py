"""Every change of a game goes through here, whichever door it came in by (HTTP, WebSocket,
the computer, the clock task).

A change runs under the game's lock, in one transaction: load the row, bring the in-memory
:class:`~damier.game.Game` up to the row's version (replaying the stored moves when it is
missing or stale), apply a fallen flag first, then the change, store the new moves and the
game's new state, commit, then broadcast the state to the game's room and let the computer
answer when it is its turn. A move takes a shorter way when it can (:func:`make_move`).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.exc import StaleDataError

from damier.game import Game
from damier.server.i18n import tr
from damier.server.rooms import State
from damier.server.schemas import COLORS, GameState
from damier.server.services.clocks import time_out
from damier.server.services.context import Services
from damier.server.services.errors import Conflict, ServiceError, Unplayable
from damier.server.services.moves import play_live, pusher
from damier.server.services.ratings import ABORTED, rate_game
from damier.server.services.stored import load_row, read_game, row_game, store
from damier.server.services.views import seat_of, sitters, state_view
from damier.server.store.models import GameRow, MoveRow

log = logging.getLogger("damier.server")

Action = Callable[[AsyncSession, GameRow, Game, float], Awaitable[ServiceError | None]]
"""A change: mutates the row and game, or raises a ServiceError before changing anything;
may return an error to raise after the commit (the change stands, the request is refused)."""


async def change(services: Services, game_id: str, action: Action, viewer: str | None) -> GameState:
    """Apply ``action`` to a game in one transaction, then broadcast and let the computer
    answer if it is its turn; the new state as ``viewer`` sees it."""
    row, public = await apply_change(services, game_id, action)
    return seen_by(public, row, viewer)


def seen_by(public: GameState, row: GameRow, viewer: str | None) -> GameState:
    """A state for nobody (as published) as ``viewer`` sees it: his seat's colour."""
    you = seat_of(row, viewer)
    return public if you is None else public.model_copy(update={"you": COLORS[you]})


async def apply_change(
    services: Services, game_id: str, action: Action
) -> tuple[GameRow, GameState]:
    """:func:`change`'s work: the game's row and new state, for nobody."""
    async with services.lock(game_id):
        now = services.now()
        try:
            async with services.database.session() as session, session.begin():
                row = await load_row(session, game_id, for_update=True)
                game = await row_game(services, session, row)
                before = game.ply
                finished = row.status == "finished"
                timed_out = time_out(row, game, now)
                refusal: ServiceError | None = timed_out
                if refusal is None:
                    refusal = await action(session, row, game, now)
                for ply in range(before + 1, game.ply + 1):
                    session.add(
                        MoveRow(
                            game_id=game_id, ply=ply, notation=game.moves[ply - 1].notation, at=now
                        )
                    )
                store(row, game, now, services)
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
    await announce(services, public, version, moved=moved)
    if refusal is not None:
        raise refusal
    return row, public


async def announce(services: Services, state: GameState, version: int, moved: bool = False) -> None:
    """Broadcast a state (after one move, ``moved``, as a delta of the state before it) and
    start the computer's move when it is its turn."""
    message = _published_move(version, state) if moved else published_state(version, state)
    try:
        await services.rooms.publish(state.id, message)
    except Exception:  # a lost broadcast must not undo a stored move
        log.exception("could not broadcast game %s", state.id)
    turn = COLORS.index(state.turn)
    if state.status == "playing" and state.seats[turn].kind == "computer":
        _think(services, state.id, state.ply, turn)


def published_state(version: int, state: GameState) -> State:
    """A state as the rooms publish it: the game as JSON (for nobody), once for every socket."""
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

    push = pusher(
        services=services, move=move, ply=ply, player_id=player_id, computer_seat=computer_seat
    )

    async def play(session: AsyncSession, row: GameRow, game: Game, now: float) -> None:
        push(row, game, now)
        return None

    async with services.lock(game_id):
        played = await play_live(services, game_id, push)
    if played is None:
        return await apply_change(services, game_id, play)
    public, row = played
    await announce(services, public, row.version, moved=True)
    return row, public


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
                row = await load_row(session, game_id)
                game = await row_game(services, session, row)
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
            await apply_change(services, game_id, nothing)
        except Conflict:
            ended += 1  # "time is up": ended and broadcast
        except ServiceError:
            pass
    return ended


async def withdraw_stale_offers(*, services: Services) -> int:
    """Abort the single games still waiting for an opponent ``open_game_hours`` after they
    were offered (nobody took them; their maker has most often left); returns how many."""
    cutoff = services.now() - services.settings.open_game_hours * 3600
    query = select(GameRow.id).where(
        GameRow.status == "open",
        GameRow.created < cutoff,
        GameRow.match_id.is_(None),
        GameRow.tournament_id.is_(None),
    )
    async with services.database.session() as session:
        ids = list((await session.scalars(query)).all())

    async def withdraw(session: AsyncSession, row: GameRow, game: Game, now: float) -> None:
        if row.status == "open":  # (not taken meanwhile)
            game.adjudicate(None, ABORTED)
        return None

    for game_id in ids:
        with contextlib.suppress(ServiceError):
            await apply_change(services, game_id, withdraw)
    return len(ids)


async def resume_computer_games(*, services: Services) -> None:
    """At start: let the computer move in the games where it is its turn."""
    query = select(GameRow).where(GameRow.status == "playing")
    async with services.database.session() as session:
        rows = (await session.scalars(query)).unique().all()
        ids = [row.id for row in rows if any(s.kind == "computer" for s in sitters(row))]
    for game_id in ids:
        try:
            row, game = await read_game(services, game_id)
        except Unplayable as error:
            log.warning("not resumed: %s", error.detail)
            continue
        turn = game.board.turn
        if game.result is None and sitters(row)[turn].kind == "computer":
            _think(services, game_id, game.ply, turn)
