"""The analysis board's API: positions (``POST /api/analysis/position``), PDN trees in and
out (``/api/analysis/pdn``, ``/api/analysis/pdn/export``), a position's picture
(``GET /api/analysis/picture.svg``), and the engine's lines over the WebSocket
``/ws/analysis``.

Socket messages from the page: ``{"type": "start", "variant", "fen", "moves", "lines",
"book"}`` (``book``, true by default: a position of the engine's opening book is answered
from it, its lines marked ``book``; a new start replaces the socket's running analysis),
``{"type": "stop"}``,
``{"type": "ping"}``. The server answers ``started`` (with the position), ``analysis``
frames as the search deepens (the last with ``done: true``), ``stopped``, ``pong``, or an
``error`` frame with the reason; the socket stays open after an error. A failure of the
server's own (a bug) closes the socket with code 1011.

Reading or writing a PDN and replaying a line are done in a worker thread, one at a time
(:data:`PDN_THREADS`), never on the event loop: a large PDN must not hold up the lobby.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

import anyio
import anyio.to_thread
from fastapi import APIRouter, Query, WebSocket
from fastapi.responses import PlainTextResponse, Response
from pydantic import BaseModel, ValidationError

from damier.board import Board
from damier.render.svg import svg
from damier.server.deps import RateLimit
from damier.server.i18n import localize, tr
from damier.server.security import COOKIE
from damier.server.services.analysis import (
    Analyses,
    PdnText,
    PdnTree,
    PositionRequest,
    PositionView,
    Slot,
    event_text,
    pdn_tree,
    position,
    position_view,
    tree_pdn,
)
from damier.server.services.context import Services
from damier.server.services.errors import BadRequest, ServiceError
from damier.server.services.players import session_player
from damier.server.ws import next_message, same_origin, sender_key, socket_language

router = APIRouter(tags=["analysis"])
log = logging.getLogger("damier.server")

MAX_LINES = 5
"""Most engine lines a page may ask for."""

PDN_THREADS = 1
"""Requests of the analysis board (PDN read or written, a line replayed) worked on at once,
in threads off the event loop; the others wait their turn. Such work holds Python's lock
most of the time: each more thread doing it makes the event loop, and so every other
request of the server, wait longer for the lock."""
_PDN_THREADS = anyio.CapacityLimiter(PDN_THREADS)


@router.post("/api/analysis/position", response_model=PositionView, dependencies=[RateLimit])
async def analysis_position(request: PositionRequest) -> Response:
    return await _json_off_the_loop(
        lambda: position_view(request.variant, request.fen, request.moves)
    )


@router.post("/api/analysis/pdn", response_model=PdnTree, dependencies=[RateLimit])
async def read_pdn_tree(request: PdnText) -> Response:
    return await _json_off_the_loop(lambda: pdn_tree(request.pdn, request.variant))


@router.post("/api/analysis/pdn/export", response_class=PlainTextResponse, dependencies=[RateLimit])
async def write_pdn_tree(tree: PdnTree) -> Response:
    return PlainTextResponse(
        await anyio.to_thread.run_sync(tree_pdn, tree, limiter=_PDN_THREADS),
        media_type="application/x-chess-pdn",
        headers={"Content-Disposition": 'attachment; filename="damier-analysis.pdn"'},
    )


@router.get(
    "/api/analysis/picture.svg",
    response_class=Response,
    dependencies=[RateLimit],
    responses={200: {"content": {"image/svg+xml": {}}, "description": "the board"}},
)
async def picture(
    variant: Annotated[str, Query(max_length=64)],
    fen: Annotated[str | None, Query(max_length=2000)] = None,
    move: Annotated[str | None, Query(max_length=200)] = None,
    flipped: bool = False,
    size: Annotated[int, Query(ge=16, le=2000)] = 400,
) -> Response:
    """The position ``fen`` (or the start), after ``move`` when given (then highlighted),
    as an SVG picture (:mod:`damier.render.svg`), to save or to put in a page."""

    def draw() -> bytes:
        board = position(variant, fen, [move] if move else []).board
        last = board.move_stack[-1] if move and board.move_stack else None
        return svg(board, size=size, flipped=flipped, lastmove=last).encode()

    content = await anyio.to_thread.run_sync(draw, limiter=_PDN_THREADS)
    return Response(
        content,
        media_type="image/svg+xml",
        headers={"Content-Disposition": 'inline; filename="damier-position.svg"'},
    )


async def _json_off_the_loop(work: Callable[[], BaseModel]) -> Response:
    """The answer of ``work`` as JSON, both made in a worker thread: replaying a line or
    reading a PDN takes long enough to hold up every other request if done on the loop."""

    def answer() -> bytes:
        return work().model_dump_json().encode()

    content = await anyio.to_thread.run_sync(answer, limiter=_PDN_THREADS)
    return Response(content, media_type="application/json")


@router.websocket("/ws/analysis")
async def analysis_socket(websocket: WebSocket) -> None:
    services: Services = websocket.app.state.services
    analyses: Analyses = websocket.app.state.analyses
    if not same_origin(websocket):
        await websocket.close(code=1008, reason="cross-origin socket")
        return
    player_id = await session_player(services=services, cookie=websocket.cookies.get(COOKIE))
    owner = sender_key(websocket, player_id)
    language = socket_language(websocket)
    await websocket.accept()
    outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    sender = asyncio.create_task(_send_frames(websocket, outbox))
    running: asyncio.Task[None] | None = None
    slot: Slot | None = None
    failed = False

    async def send(frame: dict[str, Any]) -> None:
        await outbox.put(frame)

    async def stop() -> None:
        """End the socket's analysis and wait for its slot to be free again."""
        nonlocal running, slot
        if running is not None:
            running.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await running
            running = None
        if slot is not None:
            if not slot.searching:  # cancelled before it began
                slot.release()
            await slot.released.wait()
            slot = None

    try:
        while True:
            try:
                raw = await next_message(websocket, services, owner)
                if raw is None:
                    return
                kind, data = _parse(raw)
                if kind == "ping":
                    await send({"type": "pong"})
                elif kind == "stop":
                    await stop()
                    await send({"type": "stopped"})
                elif kind == "start":
                    request, lines, book = _start_request(data)
                    game = await anyio.to_thread.run_sync(
                        position, request.variant, request.fen, request.moves, limiter=_PDN_THREADS
                    )
                    await stop()
                    slot = await analyses.reserve_soon(owner)
                    line = [event_text(event) for event in game.events]
                    await send({"type": "started", "fen": game.board.fen, "line": line})
                    running = asyncio.create_task(
                        _analyse(analyses, slot, game.board.copy(), lines, book, send, language)
                    )
                else:
                    raise BadRequest(tr("unknown message type {type}", type=repr(kind[:32])))
            except ServiceError as error:
                await send({"type": "error", "message": localize(error.detail, language)})
    except Exception:  # a bug, not a refusal: the page hears why its socket ends
        log.exception("the analysis socket failed")
        failed = True
    finally:
        await stop()
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender
    if failed:
        with contextlib.suppress(Exception):  # the page may be gone too
            await websocket.close(code=1011, reason="the server failed on that message")


async def _analyse(
    analyses: Analyses,
    slot: Slot,
    board: Board,
    lines: int,
    book: bool,
    send: Callable[[dict[str, Any]], Awaitable[None]],
    language: str,
) -> None:
    try:
        await analyses.run(slot, board, lines, send, book=book)
    except asyncio.CancelledError:
        raise
    except Exception as error:  # a failed search: the page hears of it, the socket stays
        message = tr("the analysis failed: {error}", error=str(error))
        await send({"type": "error", "message": localize(message, language)})


async def _send_frames(websocket: WebSocket, outbox: asyncio.Queue[dict[str, Any]]) -> None:
    while True:
        await websocket.send_text(json.dumps(await outbox.get()))


def _parse(raw: str | bytes) -> tuple[str, dict[str, Any]]:
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise BadRequest(tr("malformed message: not JSON")) from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise BadRequest(tr('malformed message: expected {"type": ...}'))
    return data["type"], data


def _start_request(data: dict[str, Any]) -> tuple[PositionRequest, int, bool]:
    lines = data.get("lines", 3)
    if not isinstance(lines, int) or isinstance(lines, bool) or not 1 <= lines <= MAX_LINES:
        raise BadRequest(tr('"lines" must be 1-{most}', most=MAX_LINES))
    book = data.get("book", True)
    if not isinstance(book, bool):
        raise BadRequest(tr('"book" must be true or false'))
    try:
        request = PositionRequest.model_validate(
            {key: data[key] for key in ("variant", "fen", "moves") if key in data}
        )
    except ValidationError as error:
        problem = error.errors()[0]
        where = ".".join(str(part) for part in problem.get("loc", ()))
        # i18n: a field of the message, and why it is refused (pydantic's words, in English)
        raise BadRequest(
            tr("{field}: {error}", field=where, error=problem.get("msg", "invalid"))
        ) from None
    return request, lines, book
