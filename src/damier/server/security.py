"""The signed session cookie, the per-client rate limit and the request size limit."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

from itsdangerous import BadSignature, URLSafeSerializer
from starlette.types import ASGIApp, Message, Receive, Scope, Send

COOKIE = "damier_session"
COOKIE_MAX_AGE = 400 * 24 * 3600


class SessionSigner:
    """Signs a player id into the cookie value and reads it back."""

    def __init__(self, secret: str) -> None:
        self._serializer = URLSafeSerializer(secret, salt="damier-session")

    def sign(self, player_id: str) -> str:
        return self._serializer.dumps(player_id)

    def read(self, value: str | None) -> str | None:
        """The player id, or None for a missing, forged or malformed cookie."""
        if not value or len(value) > 512:
            return None
        try:
            player_id = self._serializer.loads(value)
        except BadSignature:
            return None
        return player_id if isinstance(player_id, str) else None


class TokenBuckets:
    """A token bucket per client key (``capacity`` tokens, ``rate`` new ones a second),
    in memory; the least recently seen keys are forgotten past ``keys``."""

    def __init__(
        self,
        capacity: float,
        rate: float,
        keys: int = 10_000,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.capacity = capacity
        self.rate = rate
        self._keys = keys
        self._now = now
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, key: str, cost: float = 1.0) -> bool:
        """Spend ``cost`` tokens of ``key``'s bucket; False when there are not enough."""
        now = self._now()
        tokens, last = self._buckets.pop(key, (self.capacity, now))
        tokens = min(self.capacity, tokens + (now - last) * self.rate)
        allowed = tokens >= cost
        if allowed:
            tokens -= cost
        self._buckets[key] = (tokens, now)
        while len(self._buckets) > self._keys:
            self._buckets.popitem(last=False)
        return allowed


class BodyLimit:
    """ASGI middleware: HTTP request bodies over ``limit`` bytes get 413.

    A body without a length (chunked) is counted as it comes: past the limit, the 413 is
    sent there and then, and the app is told the client has gone, so it stops reading.
    (Raising instead would not do: the framework's body parser turns any error into a
    400, and the app's answer to that is dropped here.)
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_large = int(value) > self.limit
                except ValueError:
                    too_large = True
                if too_large:
                    await _too_large(send)
                    return
        received = 0
        responded = False  # the app has begun its answer
        refused = False  # the body went past the limit
        answered = False  # and the answer is the 413 sent here

        async def limited_receive() -> Message:
            nonlocal received, refused, answered
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    refused = True
                    if not responded:
                        await _too_large(send)
                        answered = True
                    return {"type": "http.disconnect"}
            return message

        async def tracked_send(message: Message) -> None:
            nonlocal responded
            if answered:
                return
            if message["type"] == "http.response.start":
                responded = True
            await send(message)

        await self.app(scope, limited_receive, tracked_send)


async def _too_large(send: Send) -> None:
    body = b'{"detail":"request body too large"}'
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
