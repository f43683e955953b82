"""The game table around the moves: abort, takebacks, the claim when an opponent has gone,
who is connected, and the chat. Each change goes through the game service's pipeline
(:func:`damier.server.services.changes.change`), like a move."""

from __future__ import annotations

import json
import unicodedata
from typing import Literal

from sqlalchemy import delete
from sqlalchemy.ext.asyncio import AsyncSession

from damier.game import Game
from damier.server.i18n import tr
from damier.server.rooms import Connection, Notice, State
from damier.server.schemas import COLORS, GameState
from damier.server.services.changes import change
from damier.server.services.clocks import first_moves_made
from damier.server.services.context import Services
from damier.server.services.errors import (
    BadRequest,
    Conflict,
    Forbidden,
    RateLimited,
)
from damier.server.services.guards import player_seat, require_in_game, spend_offer
from damier.server.services.ratings import ABORTED
from damier.server.services.stored import read_game
from damier.server.services.views import sitters
from damier.server.store.models import GameRow, MoveRow, PlayerRow


def abortable(row: GameRow, game: Game) -> bool:
    """A game may be aborted until every player has made his first move (and not after a
    takeback that went back before it); a game of a match never is (it must have a
    result for the match to go on)."""
    return (
        row.match_id is None
        and row.tournament_id is None
        and not first_moves_made(row, game)
        and row.clock_base_ply is None
    )


async def abort_game(*, services: Services, game_id: str, player_id: str | None) -> GameState:
    """End the game without a result (never rated): allowed until every player has moved,
    and to the one person seated at a game still waiting for its opponents (his offer
    withdrawn: it would stay in the lobby for ever)."""

    async def abort(session: AsyncSession, row: GameRow, game: Game, now: float) -> None:
        seat = player_seat(row, player_id)
        if row.status == "open" and row.match_id is None and row.tournament_id is None:
            people = {s.player_id for s in sitters(row) if s.player_id is not None}
            if people != {player_id}:  # (a game of more players others have sat at)
                raise Conflict(tr("others have taken seats at this game: it cannot be withdrawn"))
            game.adjudicate(None, ABORTED)
            return None
        require_in_game(row, game, seat)
        if row.match_id is not None:
            raise Conflict(tr("a game of a match cannot be aborted: play it or resign it"))
        if row.tournament_id is not None:
            raise Conflict(tr("a game of a tournament cannot be aborted: play it or resign it"))
        if not abortable(row, game):
            raise Conflict(tr("too late to abort: every player has moved (resign or offer a draw)"))
        game.adjudicate(None, ABORTED)
        return None

    return await change(services, game_id, abort, player_id)


def _would_be_rated(row: GameRow) -> bool:
    """Two registered people: the game will be rated (``services.ratings``)."""
    people = (row.white, row.black)
    return row.players == 2 and all(p is not None and p.password_hash is not None for p in people)


async def _take_back(
    session: AsyncSession, row: GameRow, game: Game, seat: int, now: float
) -> None:
    """Undo ``seat``'s last move (and the opponent's answer to it, if made); the clock
    runs on from here for the player to move, each keeping the time he has left."""
    for _ in range(2 if game.board.turn == seat else 1):
        game.undo(at=now)
    await session.execute(delete(MoveRow).where(MoveRow.game_id == row.id, MoveRow.ply > game.ply))
    if game.clock is not None:
        game.clock.stop(at=now)
        row.clock_base_white, row.clock_base_black = game.clock.snapshot(now)
        row.clock_base_ply, row.clock_base_at = game.ply, now
        game.clock.start(at=now, player=game.board.turn)


async def takeback(
    *,
    services: Services,
    game_id: str,
    player_id: str | None,
    action: Literal["propose", "accept", "decline"],
) -> GameState:
    """Ask to take back one's last move, or accept or decline the opponent's request. The
    computer grants it at once (on your turn: your move and its answer go back)."""

    async def act(session: AsyncSession, row: GameRow, game: Game, now: float) -> None:
        seat = player_seat(row, player_id)
        require_in_game(row, game, seat)
        if row.players != 2:
            raise Conflict(tr("takebacks are for games of two players"))
        if action != "propose":
            if row.takeback_offer is None or row.takeback_offer == seat:
                raise Conflict(
                    tr("there is no takeback request from your opponent to {action}", action=action)
                )
            if action == "accept":
                await _take_back(session, row, game, row.takeback_offer, now)
            row.takeback_offer = None
            return None
        if game.ply - row.opening_ply < (2 if game.board.turn == seat else 1):
            raise Conflict(tr("you have no move to take back"))
        if not row.takebacks and _would_be_rated(row):
            raise Conflict(tr("takebacks are off in this rated game"))
        if sitters(row)[1 - seat].kind == "computer":
            if game.board.turn != seat:
                raise Conflict(tr("the computer is thinking: ask again on your turn"))
            await _take_back(session, row, game, seat, now)
        elif row.takeback_offer == seat:
            raise Conflict(tr("your takeback request stands already"))
        else:
            spend_offer(services, row.id, seat, "takeback request")
            row.takeback_offer = seat
        return None

    return await change(services, game_id, act, player_id)


# -- who is here ---------------------------------------------------------------------


def _seated(state: State) -> dict[str, str]:
    """The seated people's ids and colours."""
    return {id_: color for id_, color in state.seats if id_ is not None}


async def presence_frame(services: Services, game_id: str, state: State) -> str:
    """Who is gone (the players without a socket, since when, and when the others may
    claim) and how many spectators watch."""
    seated = _seated(state)
    gone, spectators = await services.rooms.presence(game_id, seated)
    claim = services.settings.claim_seconds
    shown = {seated[p]: {"since": since, "claim_at": since + claim} for p, since in gone.items()}
    frame = {"type": "presence", "gone": shown, "spectators": spectators}
    return json.dumps(frame, separators=(",", ":"))


async def arrived(services: Services, game_id: str, connection: Connection, state: State) -> None:
    """A socket opened: its player is back; everyone learns who is here."""
    await services.rooms.arrive(game_id, connection, connection.player_id in _seated(state))
    frame = await presence_frame(services, game_id, state)
    await services.rooms.notify(game_id, Notice(frame))


async def left(services: Services, game_id: str, connection: Connection) -> None:
    """A socket closed: a player of a game being played without another socket of it is
    gone from now; everyone learns it. The game as this socket last saw it says whether
    it was being played: no need to read it again (thousands of sockets may close at
    once)."""
    state = connection.state
    if state is None:
        return
    await services.rooms.depart(game_id, connection, state.playing, services.now())
    frame = await presence_frame(services, game_id, state)
    await services.rooms.notify(game_id, Notice(frame))


async def claim(
    *, services: Services, game_id: str, player_id: str | None, result: Literal["win", "draw"]
) -> GameState:
    """Claim the win, or a draw, when the opponent's sockets have all been gone for
    ``claim_seconds``."""

    async def act(session: AsyncSession, row: GameRow, game: Game, now: float) -> None:
        seat = player_seat(row, player_id)
        require_in_game(row, game, seat)
        if row.players != 2:
            raise Conflict(tr("claims are for games of two players"))
        opponent = sitters(row)[1 - seat].player_id
        gone, _ = await services.rooms.presence(game_id, [opponent] if opponent else [])
        since = gone.get(opponent or "")
        if since is None:
            raise Conflict(tr("your opponent is connected"))
        wait = since + services.settings.claim_seconds - now
        if wait > 0:
            raise Conflict(
                tr("your opponent may come back: claim in {seconds} s", seconds=f"{wait:.0f}")
            )
        game.adjudicate(seat if result == "win" else None, "opponent left")
        return None

    return await change(services, game_id, act, player_id)


# -- chat ------------------------------------------------------------------------------

CHAT_LENGTH = 140


def _clean(text: str) -> str:
    """The message as shown: spaces and control characters folded to single spaces."""
    printable = "".join(" " if unicodedata.category(c).startswith("C") else c for c in text)
    return " ".join(printable.split())


async def chat(
    *,
    services: Services,
    game_id: str,
    player_id: str | None,
    room: Literal["players", "spectators"],
    text: str,
) -> None:
    """Say something in the players' chat (players only) or the spectators' chat (the
    others), as plain text (clients never read it as HTML); none against the computer."""
    message = _clean(text)
    if not message:
        raise BadRequest(tr("the message is empty"))
    if len(message) > CHAT_LENGTH:
        raise BadRequest(tr("a message has at most {n} characters", n=CHAT_LENGTH))
    if player_id is None:
        raise Forbidden(tr("start a session (choose a name) to chat"))
    row, _ = await read_game(services, game_id)
    seats = sitters(row)
    seated = {s.player_id: COLORS[k] for k, s in enumerate(seats) if s.player_id is not None}
    if any(seat.kind == "computer" for seat in seats):
        raise Conflict(tr("there is no chat in games against the computer"))
    if (room == "players") != (player_id in seated):
        raise Forbidden(
            tr("the players' chat is for the players")
            if room == "players"
            else tr("the spectators' chat is for the spectators")
        )
    if not services.chat_limiter.take(player_id):
        raise RateLimited(tr("too many messages: wait a little"))
    async with services.database.session() as session:
        player = await session.get(PlayerRow, player_id)
    if player is None:
        raise Forbidden(tr("unknown player: start a session first"))
    frame = {
        "type": "chat",
        "room": room,
        "name": player.name,
        "guest": player.password_hash is None,
        "color": seated.get(player_id),
        "text": message,
        "at": services.now(),
    }
    notice = Notice(json.dumps(frame), room, tuple(seated), kept=True)
    await services.rooms.notify(game_id, notice)
