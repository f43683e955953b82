"""``/ws/games/{id}``: a thin WebSocket route; the game service does the work.

Every refused message (too large, not JSON, unknown type, from a spectator, illegal) gets an
error frame and changes nothing; the connection stays open. So does a message that finds the
database away (stopped, restarting): its error frame says to try again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from damier.server import i18n
from damier.server.rooms import Connection
from damier.server.security import COOKIE
from damier.server.services import changes, games, offers, table
from damier.server.services.context import Services
from damier.server.services.errors import BadRequest, RateLimited, ServiceError
from damier.server.services.players import session_player
from damier.server.store.db import unavailable

router = APIRouter(tags=["websocket"])
_AWAY = "the database is unavailable: try again"
"""Why a socket opened while the database is away is closed (1013: try again later)."""


def same_origin(websocket: WebSocket) -> bool:
    """A browser's socket must come from this site (cookies ride along cross-site)."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True  # not a browser
    host = websocket.headers.get("host")
    return urlsplit(origin).netloc == host


@router.websocket("/ws/games/{game_id}")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    services: Services = websocket.app.state.services
    if not same_origin(websocket):
        await websocket.close(code=1008, reason="cross-origin socket")
        return
    try:
        player_id = await session_player(services=services, cookie=websocket.cookies.get(COOKIE))
    except Exception as error:
        if unavailable(error) is None:
            raise
        await websocket.close(code=1013, reason=_AWAY)
        return
    connection = Connection(player_id)
    services.rooms.join(game_id, connection)
    accepted = False
    try:
        try:
            state = await games.game_snapshot(services=services, game_id=game_id)
        except ServiceError:
            await websocket.close(code=4404, reason="no such game")
            return
        except Exception as error:
            if unavailable(error) is None:
                raise
            await websocket.close(code=1013, reason=_AWAY)
            return
        await websocket.accept()
        accepted = True
        connection.open_with(state)
        for frame in services.rooms.kept(game_id, player_id):
            connection.notify(frame)
        await table.arrived(services, game_id, connection, state)
        sender = asyncio.create_task(_send_frames(websocket, connection))
        try:
            await _receive_frames(websocket, services, game_id, connection)
        finally:
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender
    finally:
        services.rooms.leave(game_id, connection)
        if accepted:  # in the background: the closing socket's task may be cancelled
            services.spawn(table.left(services, game_id, connection), name=f"left {game_id}")


async def _send_frames(websocket: WebSocket, connection: Connection) -> None:
    while True:
        await websocket.send_text(await connection.queue.get())


async def _receive_frames(
    websocket: WebSocket, services: Services, game_id: str, connection: Connection
) -> None:
    sender = sender_key(websocket, connection.player_id)
    while True:
        try:
            raw = await next_message(websocket, services, sender)
            if raw is None:
                return
            reply = await handle_message(
                services=services, game_id=game_id, connection=connection, raw=raw
            )
        except ServiceError as error:
            reply = _error(i18n.localize(error.detail, socket_language(websocket)))
        except Exception as error:  # the database is away: said, and the socket stays
            detail = unavailable(error)
            if detail is None:
                raise
            reply = _error(detail)
        if reply is not None:
            connection.send(reply)


def socket_language(websocket: WebSocket) -> str:
    """The language of a socket's error frames: its page's (the ``damier_lang`` cookie,
    else ``Accept-Language``, else English)."""
    return i18n.negotiate(
        websocket.cookies.get(i18n.COOKIE), websocket.headers.get("accept-language")
    )


def sender_key(websocket: WebSocket, player_id: str | None) -> str:
    """Whom a socket's messages count against for the rate limit: its player, else its
    address."""
    client = websocket.client.host if websocket.client is not None else "unknown"
    return f"player:{player_id}" if player_id else f"host:{client}"


async def next_message(websocket: WebSocket, services: Services, sender: str) -> str | bytes | None:
    """The next message's payload, None once the socket has closed. A message over the size
    limit, or one more than ``sender`` may send now, raises BadRequest or RateLimited: it is
    dropped, and the socket stays open for the next."""
    try:
        message = await websocket.receive()
    except WebSocketDisconnect:
        return None
    if message["type"] == "websocket.disconnect":
        return None
    raw = message.get("text")
    if raw is None:
        raw = message.get("bytes") or b""
    limit = services.settings.max_message_bytes
    if len(raw.encode() if isinstance(raw, str) else raw) > limit:
        raise BadRequest(i18n.tr("message too large (over {limit} bytes)", limit=limit))
    if not services.limiter.take(sender):
        raise RateLimited(i18n.tr("too many messages: slow down"))
    return raw


def _error(message: str) -> dict[str, Any]:
    return {"type": "error", "message": message}


async def handle_message(
    *, services: Services, game_id: str, connection: Connection, raw: str | bytes
) -> dict[str, Any] | None:
    """Carry out one client message; the answer frame, if any (the new state reaches every
    socket through the room)."""
    player_id = connection.player_id
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise BadRequest(i18n.tr("malformed message: not JSON")) from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise BadRequest(i18n.tr('malformed message: expected {"type": ...}'))
    kind = data["type"]
    if kind == "ping":
        return {"type": "pong"}
    if kind == "sync":  # a delta did not follow the client's state: the whole state
        connection.resend(await games.game_snapshot(services=services, game_id=game_id))
        return None
    if kind == "move":
        move, ply = data.get("move"), data.get("ply")
        if not isinstance(move, str) or not 0 < len(move) <= 128:
            raise BadRequest(i18n.tr('a move message needs "move": text'))
        if not isinstance(ply, int) or isinstance(ply, bool) or ply < 0:
            raise BadRequest(i18n.tr('a move message needs "ply": the current ply'))
        await changes.make_move(
            services=services, game_id=game_id, move=move, ply=ply, player_id=player_id
        )
        return None
    if kind == "resign":
        await games.resign_game(services=services, game_id=game_id, player_id=player_id)
        return None
    if kind == "draw":
        action = data.get("action")
        if action not in ("offer", "accept", "decline"):
            raise BadRequest(i18n.tr('a draw message needs "action": offer, accept or decline'))
        await offers.draw_action(
            services=services, game_id=game_id, player_id=player_id, action=action
        )
        return None
    if kind == "abort":
        await table.abort_game(services=services, game_id=game_id, player_id=player_id)
        return None
    if kind == "takeback":
        action = data.get("action")
        if action not in ("propose", "accept", "decline"):
            raise BadRequest(
                i18n.tr('a takeback message needs "action": propose, accept or decline')
            )
        await table.takeback(services=services, game_id=game_id, player_id=player_id, action=action)
        return None
    if kind == "claim":
        result = data.get("result")
        if result not in ("win", "draw"):
            raise BadRequest(i18n.tr('a claim message needs "result": win or draw'))
        await table.claim(services=services, game_id=game_id, player_id=player_id, result=result)
        return None
    if kind == "chat":
        room, text = data.get("room"), data.get("text")
        if room not in ("players", "spectators") or not isinstance(text, str):
            raise BadRequest(
                i18n.tr('a chat message needs "room" (players or spectators) and "text"')
            )
        await table.chat(
            services=services, game_id=game_id, player_id=player_id, room=room, text=text
        )
        return None
    raise BadRequest(i18n.tr("unknown message type {type}", type=repr(kind[:32])))
