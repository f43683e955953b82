"""A move: who may make it and whether the rules take it (:func:`pusher`), its short write
from the game in memory (:func:`play_live`), and the other processes' copies of the game
following it (:func:`follow_move`). Its way through the change pipeline, and its broadcast,
are :func:`damier.server.services.changes.make_move`'s."""

from __future__ import annotations

import json
from collections.abc import Callable

from damier.errors import IllegalMoveError
from damier.game import Game, GameOverError
from damier.server.i18n import tr
from damier.server.rooms import State
from damier.server.schemas import GameState
from damier.server.services.clocks import clock_due
from damier.server.services.context import Services
from damier.server.services.errors import BadRequest, Conflict, ServiceError
from damier.server.services.guards import player_seat, require_in_game, require_playing
from damier.server.services.stored import stored_columns
from damier.server.services.views import moved_view, sitters, state_view
from damier.server.store.models import GameRow

Push = Callable[[GameRow, Game, float], None]
"""A move on a game (its row, the game, now): played, or refused (a ServiceError) before
anything changed."""


def pusher(
    *,
    services: Services,
    move: str,
    ply: int,
    player_id: str | None,
    computer_seat: int | None = None,
) -> Push:
    """``move`` as a change of the game: made by the player to move, who must be
    ``player_id`` (or the computer at ``computer_seat``), at the ply he saw; the rules
    decide, then the clock starts if it is due."""

    def push(row: GameRow, game: Game, now: float) -> None:
        if computer_seat is not None:
            require_playing(row, game)
            turn = game.board.turn
            if turn != computer_seat or sitters(row)[turn].kind != "computer":
                raise Conflict(tr("it is not the computer's turn"))
        else:
            seat = player_seat(row, player_id)
            require_in_game(row, game, seat)
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
        clock_due(row, game, now, services)

    return push


async def play_live(
    services: Services, game_id: str, push: Push
) -> tuple[GameState, GameRow] | None:
    """A move on the game in memory, stored without reading the game back: one short
    transaction that updates the row only if it is still at the copy's version, and adds the
    move. For the common case only: when the copy is missing or behind, the move is refused,
    a flag fell or the move ends the game, returns None and the change pipeline decides
    from the stored game (and gives the refusal, the result, the rating). Runs under the
    game's lock; returns the new state and the row."""
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
    values = stored_columns(row, game, now, services.settings.first_move_seconds)
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


def follow_move(services: Services, game_id: str, state: State) -> None:
    """Bring this process's copy of a game along with a state another process published.

    A move played there (a delta of one move on the version the copy holds) is played here
    too, at its moment, and the copy's row gets the columns the other process stored: the
    same functions on the same values (:func:`play_live`), so the next move made here finds
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
        clock_due(row, game, at, services)
    except (ValueError, KeyError, TypeError):
        services.forget(game_id)
        return
    if game.result is not None:
        services.forget(game_id)
        return
    for column, value in stored_columns(
        row, game, at, services.settings.first_move_seconds
    ).items():
        setattr(row, column, value)
    row.version = state.version
    services.keep(game_id, game, state.version, row, live.state)
