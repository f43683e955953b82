"""The signed session cookie, the rate limits (per client, for log-ins), the request size
limit, the security headers and the same-origin check of state-changing requests."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from typing import NamedTuple
from urllib.parse import urlsplit

from itsdangerous import BadSignature, URLSafeSerializer
from starlette.types import ASGIApp, Message, Receive, Scope, Send

COOKIE = "damier_session"
COOKIE_MAX_AGE = 400 * 24 * 3600


class SessionToken(NamedTuple):
    """What a session cookie says: whose session it is, and of which generation."""

    player_id: str
    generation: int | None
    """The player's session generation when the cookie was made; None for a cookie of
    the first form (the id alone), which counts as generation 0."""


class SessionSigner:
    """Signs a player id and his session generation into the cookie value and reads them
    back. The generation lets the server revoke every cookie of a player at once (log-out,
    password change): a cookie of an older generation than the player's is no session.

    >>> signer = SessionSigner("s" * 32)
    >>> signer.read(signer.sign("ana", 3))
    SessionToken(player_id='ana', generation=3)
    >>> signer.read(signer.sign("ana", 3)[:-1] + "x") is None
    True
    """

    def __init__(self, secret: str) -> None:
        self._serializer = URLSafeSerializer(secret, salt="damier-session")

    def sign(self, player_id: str, generation: int) -> str:
        return self._serializer.dumps([player_id, generation])

    def read(self, value: str | None) -> SessionToken | None:
        """The cookie's token, or None for a missing, forged or malformed cookie."""
        if not value or len(value) > 512:
            return None
        try:
            content = self._serializer.loads(value)
        except BadSignature:
            return None
        if isinstance(content, str):
            return SessionToken(content, None)
        if (
            isinstance(content, list)
            and len(content) == 2
            and isinstance(content[0], str)
            and type(content[1]) is int
        ):
            return SessionToken(content[0], content[1])
        return None


class TokenBuckets:
    """A token bucket per client key (``capacity`` tokens, ``rate`` new ones a second),
    in memory; the least recently seen keys are forgotten past ``keys`` (a forgotten key
    starts full again)."""

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

    def tokens(self, key: str) -> float:
        """The tokens in ``key``'s bucket now (nothing is spent)."""
        now = self._now()
        tokens, last = self._buckets.get(key, (self.capacity, now))
        return min(self.capacity, tokens + (now - last) * self.rate)

    def take(self, key: str, cost: float = 1.0) -> bool:
        """Spend ``cost`` tokens of ``key``'s bucket; False when there are not enough (then
        nothing is spent)."""
        tokens = self.tokens(key)
        allowed = tokens >= cost
        self._store(key, tokens - cost if allowed else tokens)
        return allowed

    def spend(self, key: str, cost: float = 1.0) -> None:
        """Take ``cost`` tokens, as many as there are when fewer."""
        self._store(key, max(0.0, self.tokens(key) - cost))

    def give(self, key: str, cost: float = 1.0) -> None:
        """Put back ``cost`` tokens taken before (up to the capacity)."""
        self._store(key, min(self.capacity, self.tokens(key) + cost))

    def _store(self, key: str, tokens: float) -> None:
        self._buckets.pop(key, None)
        self._buckets[key] = (tokens, self._now())
        while len(self._buckets) > self._keys:
            self._buckets.popitem(last=False)


class LoginThrottle:
    """Slows password guessing without letting a guesser lock the owner out.

    Three kinds of bucket, all refilling with time:

    - per address (``capacity``, ``rate``): every attempt from the address takes a token
      before the password is checked, and a right password gives it back. One address
      guesses slowly, whichever names it tries; a person who logs in is not slowed.
    - per (address, name) (``pair_capacity``, ``pair_rate``, a slow refill): each wrong
      password from the address for the name spends a token; while it is empty the
      address may not try that name.
    - per name (``capacity``, ``rate``): each wrong password for the name, from any
      address, spends a token. While it is empty the name is under attack, and then only
      the addresses that have not failed on it lately (their pair bucket is full) may try
      it: the owner, at home, still logs in, while each address of a spread-out attack is
      held to one guess per ``1 / pair_rate`` seconds.

    A refused attempt (429) spends nothing, so knocking at a name only holds up the
    knocker. Failures are what spend the name's and the pair's tokens.

    >>> throttle = LoginThrottle(2, 0.001, 1, 0.001, now=lambda: 0.0)
    >>> throttle.begin("1.1.1.1", "ana"), throttle.failed("1.1.1.1", "ana")
    (True, None)
    >>> throttle.begin("1.1.1.1", "ana")  # this address failed on ana: its pair is empty
    False
    >>> throttle.begin("2.2.2.2", "ana"), throttle.failed("2.2.2.2", "ana")
    (True, None)
    >>> throttle.begin("3.3.3.3", "ana")  # ana is under attack, but 3.3.3.3 never failed
    True
    """

    def __init__(
        self,
        capacity: float,
        rate: float,
        pair_capacity: float,
        pair_rate: float,
        keys: int = 10_000,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self._addresses = TokenBuckets(capacity, rate, keys, now)
        self._names = TokenBuckets(capacity, rate, keys, now)
        self._pairs = TokenBuckets(pair_capacity, pair_rate, keys, now)

    def begin(self, address: str, name: str) -> bool:
        """Whether ``address`` may try a password for ``name`` (a folded name) now; when it
        may, the attempt holds one of the address's tokens until :meth:`succeeded`."""
        pair = self._pairs.tokens(f"{address} {name}")
        if pair < 1:
            return False
        if self._names.tokens(name) < 1 and pair < self._pairs.capacity:
            return False
        return self._addresses.take(address)

    def succeeded(self, address: str, name: str) -> None:
        """The password was right: the address's token comes back."""
        self._addresses.give(address)

    def failed(self, address: str, name: str) -> None:
        """The password was wrong: the name and the pair pay for it."""
        self._names.spend(name)
        self._pairs.spend(f"{address} {name}")

    def register(self, address: str) -> bool:
        """Whether ``address`` may register now (an address token is spent, not given back:
        each registration hashes a password and makes an account)."""
        return self._addresses.take(address)


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


CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self' ws: wss:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
"""Scripts and styles come from the site's files only: no inline script, no event handler
attribute and no ``style`` attribute in the pages (a script may still set a style
property)."""

SECURITY_HEADERS = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
)


class SecurityHeaders:
    """ASGI middleware: every HTTP response gets :data:`SECURITY_HEADERS` (those it does not
    set itself)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers += [pair for pair in SECURITY_HEADERS if pair[0] not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_DEFAULT_PORTS = {"http": 80, "ws": 80, "https": 443, "wss": 443}


def same_site(source: str, host: str, trusted: frozenset[str] = frozenset()) -> bool:
    """Whether the page at ``source`` (an Origin or a Referer) is of the site whose
    ``Host`` header is ``host``: the same host name and port (a port left out being the
    default of the source's scheme), or one of the ``trusted`` origins.

    >>> same_site("https://damier.example", "damier.example")
    True
    >>> same_site("http://localhost:8000", "localhost:8000")
    True
    >>> same_site("https://evil.example", "damier.example")
    False
    >>> same_site("null", "damier.example")
    False
    """
    try:
        parts = urlsplit(source)
        origin_port = parts.port
        host_parts = urlsplit(f"//{host}")
        host_port = host_parts.port
    except ValueError:
        return False
    if f"{parts.scheme}://{parts.netloc}".lower() in trusted:
        return True
    if not parts.hostname or not host_parts.hostname:
        return False
    default = _DEFAULT_PORTS.get(parts.scheme)
    if default is None:
        return False
    return (parts.hostname, origin_port or default) == (host_parts.hostname, host_port or default)


class SameOrigin:
    """ASGI middleware against cross-site requests: a state-changing HTTP request
    (:data:`UNSAFE_METHODS`) or a WebSocket handshake whose ``Origin`` header (or, lacking
    one, ``Referer``) names another site than its ``Host`` header is refused (403; a socket
    is closed before it opens). Requests with neither header (not from a browser page: curl,
    scripts, the tests) pass. ``trusted`` are other origins let through
    (``scheme://host[:port]``), for a proxy that does not pass the ``Host`` header on."""

    def __init__(self, app: ASGIApp, trusted: frozenset[str] = frozenset()) -> None:
        self.app = app
        self.trusted = frozenset(origin.rstrip("/").lower() for origin in trusted)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        checked = scope["type"] == "websocket" or (
            scope["type"] == "http" and scope.get("method") in UNSAFE_METHODS
        )
        if not checked or self._allowed(scope):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": "cross-site socket"})
            return
        body = b'{"detail":"cross-site request refused"}'
        await send(
            {
                "type": "http.response.start",
                "status": 403,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    def _allowed(self, scope: Scope) -> bool:
        headers = dict(scope.get("headers", []))
        source = headers.get(b"origin") or headers.get(b"referer")
        if source is None:
            return True
        host = headers.get(b"host", b"").decode("latin-1")
        return same_site(source.decode("latin-1"), host, self.trusted)
