"""The server while its compiled code gets ready (see :mod:`damier.compiled`): the lobby
answers at once, requests that need the kernel wait for it, and ``GET /api/status`` says
what is ready.

``damier serve`` opens its port before the kernel and the engine are compiled (a minute on
a new machine). The rules run in the event loop's thread, so a request that validates a
move must not reach them before the kernel is ready: it would wait there for Numba, and
every other request with it. :class:`WaitForKernel` holds such requests at the door instead,
on an awaitable that the warm-up resolves: the event loop keeps serving the lobby.

A new game or match against the computer waits at the door for the computer's search too:
its first move has a deadline (``first_move_seconds``, from the game's creation), which a
computer still compiling would miss.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from damier.compiled import Warmup
from damier.server.i18n import localize, request_language, tr

COMPUTER_GAMES = ("/api/games", "/api/matches")
"""Where a ``POST`` creates a game or a match, maybe against the computer."""

KERNEL_FREE = ("/static/", "/api/status", "/api/variants", "/api/session", "/api/me", "/rules/")
"""Paths (prefixes) whose requests never run the rules: the lobby's page, files and lists."""


def needs_kernel(path: str) -> bool:
    """Whether a request for ``path`` may run the rules (play, show or create a game).

    >>> needs_kernel("/"), needs_kernel("/api/status"), needs_kernel("/api/games/x/moves")
    (False, False, True)
    """
    return path != "/" and not path.startswith(KERNEL_FREE)


def computer_variant(body: bytes) -> str | None:
    """The variant of a new game or match that has the computer in it (as the body of a
    ``POST`` to :data:`COMPUTER_GAMES` asks: the opponent is the computer unless it is
    ``open``; with seats, one of them), or None.

    >>> computer_variant(b'{"variant": "russian", "opponent": "computer"}')
    'russian'
    >>> computer_variant(b'{"seats": [{"kind": "you"}, {"kind": "open"}, {"kind": "open"}]}')
    """
    try:
        asked: Any = json.loads(body or b"{}")
    except ValueError:
        return None
    if not isinstance(asked, dict):
        return None
    seats = asked.get("seats")
    if isinstance(seats, list):
        computer = any(isinstance(seat, dict) and seat.get("kind") == "computer" for seat in seats)
    else:
        computer = asked.get("opponent", "computer") == "computer"
    variant = asked.get("variant", "international")
    return variant if computer and isinstance(variant, str) else None


class WaitForKernel:
    """ASGI middleware: a request (or WebSocket) that may run the rules waits until the
    kernel is ready, and a new game against the computer until its search is, without
    blocking the event loop; the others pass at once."""

    def __init__(self, app: ASGIApp, warmup: Warmup) -> None:
        self.app = app
        self.warmup = warmup

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or self.warmup.ready("engine"):
            await self.app(scope, receive, send)
            return
        if not self.warmup.ready("kernel") and needs_kernel(scope["path"]):
            await self.warmup.wait_async("kernel")
        creates = scope["type"] == "http" and scope["method"] == "POST"
        if creates and scope["path"] in COMPUTER_GAMES:
            receive = await self._wait_for_computer(receive)
        await self.app(scope, receive, send)

    async def _wait_for_computer(self, receive: Receive) -> Receive:
        """Read the body; if it asks for the computer, wait for its search. Returns what
        hands the body on."""
        chunks: list[bytes] = []
        first: Message = {"type": "http.request", "body": b"", "more_body": True}
        while first["type"] == "http.request" and first.get("more_body", False):
            first = await receive()
            chunks.append(first.get("body", b""))
        if first["type"] != "http.request":  # the client left
            return receive
        body = b"".join(chunks)
        variant = computer_variant(body)
        if variant is not None:
            try:
                key = self.warmup.computer_key(variant)
            except ValueError:  # no such variant: the route says so
                key = None
            if key is not None:
                await self.warmup.wait_async(key)
        handed = False

        async def replay() -> Message:
            nonlocal handed
            if handed:
                return await receive()
            handed = True
            return {"type": "http.request", "body": body, "more_body": False}

        return replay


class StatusView(BaseModel):
    """What the server has ready: the lobby shows ``notice`` while it is not null."""

    kernel: bool
    """Games between people can be played."""
    engine: bool
    """The computer can play and analyse."""
    done: int
    """Parts of the compiled code made ready."""
    total: int
    """Parts in all."""
    part: str | None
    """The part under way."""
    state: Literal["compiling", "loading", "ready"]
    """``compiling``: Numba compiles (a new machine: a minute or so); ``loading``: the
    compiled code is read from the cache (about a second)."""
    notice: str | None
    """A sentence for the lobby, while something is not ready."""


router = APIRouter(prefix="/api", tags=["status"])


@router.get("/status", response_model=StatusView)
async def status(request: Request) -> StatusView:
    """What is ready: people's games (the kernel), the computer (the engine)."""
    warmup: Warmup = request.app.state.warmup
    now = warmup.status()
    state: Literal["compiling", "loading", "ready"] = "ready"
    notice = None
    if not now.engine:
        state = "compiling" if now.compiled else "loading"
        step = tr("{done} of {total} parts ready", done=now.done, total=now.total)
        if not now.kernel:
            notice = tr("The server is starting: games open in a few seconds ({step}).", step=step)
        else:
            notice = tr(
                "The computer is warming up: games between people can be played, games "
                "against the computer start when it is ready ({step}).",
                step=step,
            )
    return StatusView(
        kernel=now.kernel,
        engine=now.engine,
        done=now.done,
        total=now.total,
        part=now.part,
        state=state,
        notice=localize(notice, request_language(request)) if notice else None,
    )
