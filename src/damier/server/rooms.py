"""Game rooms: each game's live WebSockets, and the fan-out of its state to them.

A published state is the game as everyone sees it, encoded to JSON once; each connection's
frame adds its own ``you``. A :class:`Notice` (a chat message, who is connected) goes to
all of a game's sockets, to its players' or to the others'. Without Redis the fan-out stays
in the process. With ``DAMIER_REDIS_URL`` every state and notice goes through a Redis
channel and every process delivers it to its own sockets, so any process can serve any game.

The rooms also know who is here: the players whose sockets have all closed (since when) and
how many spectators watch; with Redis, counted over every process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import OrderedDict, deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

log = logging.getLogger("damier.server")

CHANNEL_PREFIX = "damier:game:"
NOTICE_PREFIX = "damier:notice:"
KEPT_NOTICES = 50
"""Chat messages kept per game for the sockets that open later (in each process)."""
KEPT_GAMES = 1_000
GONE_KEPT = 10_000
"""Players gone from games being played, remembered at most in a process without Redis."""
HERE_PREFIX = "damier:here:"
GONE_PREFIX = "damier:gone:"
SPECTATORS = "*"
"""The field of a game's ``here`` hash that counts the spectators' sockets."""
PRESENCE_SECONDS = 86_400
"""How long Redis keeps a game's presence after its last change."""
_DEPART = """
local n = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if n <= 0 and ARGV[2] == '1' then redis.call('HSET', KEYS[2], ARGV[1], ARGV[3]) end
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('EXPIRE', KEYS[2], ARGV[4])
return n
"""
"""A socket leaves: one fewer for its player; his last one, in a game being played, makes
him gone from now (one step, so that a socket opening elsewhere meanwhile cannot be lost)."""


@dataclass
class State:
    """A game's state as published: its version, each seat's player id and colour (in turn
    order), whether it is being played, and the game as JSON without ``you``.

    A state after a move is a delta: ``game`` without its ``moves``, ``played`` the new
    moves (a JSON array) and ``after`` the version they follow; a socket that holds that
    version appends them (see ``docs/PLATFORM.md``). The whole move list, resent at every
    move, made the cost of a move grow with the game."""

    version: int
    seats: tuple[tuple[str | None, str], ...]
    playing: bool
    game: str
    after: int | None = None
    played: str = "[]"
    _frames: dict[str | None, str] = field(default_factory=dict, init=False, repr=False)

    def frame(self, player_id: str | None) -> str:
        """The state frame for a socket of ``player_id``: one encoding per seat, shared by
        every socket of that seat, the spectators' too."""
        you = None
        if player_id is not None:
            you = next((color for id_, color in self.seats if id_ == player_id), None)
        frame = self._frames.get(you)
        if frame is None:
            seat = "null" if you is None else f'"{you}"'
            delta = "" if self.after is None else f'"after":{self.after},"played":{self.played},'
            game = f'"game":{self.game[:-1]},"you":{seat}}}'
            frame = f'{{"type":"state","version":{self.version},{delta}{game}}}'
            self._frames[you] = frame
        return frame

    def encode(self) -> str:
        """For Redis: a JSON header line, the new moves' line, then the game."""
        header = json.dumps([self.version, self.seats, self.playing, self.after])
        return f"{header}\n{self.played}\n{self.game}"

    @classmethod
    def decode(cls, payload: str | bytes) -> State:
        text = payload.decode() if isinstance(payload, bytes) else payload
        header, played, game = text.split("\n", 2)
        version, seats, playing, after = json.loads(header)
        seated = tuple((id_, color) for id_, color in seats)
        return cls(int(version), seated, bool(playing), game, after, played)


Audience = Literal["all", "players", "spectators"]


@dataclass(frozen=True)
class Notice:
    """A frame (JSON text) for the sockets of ``audience``: every one, those of the
    ``players`` (the seated player ids), or the others'; ``kept`` ones (chat) are replayed
    to the sockets that open later."""

    frame: str
    audience: Audience = "all"
    players: tuple[str, ...] = ()
    kept: bool = False

    def for_(self, player_id: str | None) -> bool:
        if self.audience == "all":
            return True
        seated = player_id is not None and player_id in self.players
        return seated == (self.audience == "players")

    def encode(self) -> str:
        return json.dumps([self.frame, self.audience, self.players, self.kept])

    @classmethod
    def decode(cls, payload: str | bytes) -> Notice:
        frame, audience, players, kept = json.loads(payload)
        return cls(frame, audience, tuple(players), bool(kept))


class Connection:
    """One WebSocket's outbox: frames (JSON text) wait in a bounded queue that a sender task
    drains. A client too slow to keep up loses its oldest frames (the newest state wins)."""

    def __init__(self, player_id: str | None, size: int = 64) -> None:
        self.player_id = player_id
        self.seated = False
        """Whether the socket is a seated player's (else a spectator's), as it opened."""
        self.queue: asyncio.Queue[str] = asyncio.Queue(maxsize=size)
        self.state: State | None = None
        """The newest state queued: what the socket's player last saw of the game."""

    def send(self, frame: dict[str, Any]) -> None:
        self._put(json.dumps(frame))

    def notify(self, text: str) -> None:
        """Queue a frame already encoded."""
        self._put(text)

    def _put(self, text: str) -> None:
        while True:
            try:
                self.queue.put_nowait(text)
                return
            except asyncio.QueueFull:
                with contextlib.suppress(asyncio.QueueEmpty):
                    self.queue.get_nowait()

    def deliver(self, state: State) -> None:
        """Queue a state unless it or a newer one was already queued (a socket that opens
        between a change and its broadcast through Redis gets the state in its snapshot)."""
        if self.state is not None and state.version <= self.state.version:
            return
        self.resend(state)

    def resend(self, state: State) -> None:
        """Queue a whole state whatever was queued before (the client asked for it: a delta
        did not follow what it holds)."""
        self.state = state
        self._put(state.frame(self.player_id))


class Rooms:
    """In-process rooms."""

    def __init__(self) -> None:
        self._rooms: dict[str, set[Connection]] = {}
        self._kept: OrderedDict[str, deque[Notice]] = OrderedDict()
        self._gone: OrderedDict[tuple[str, str], float] = OrderedDict()

    def join(self, game_id: str, connection: Connection) -> None:
        self._rooms.setdefault(game_id, set()).add(connection)

    def leave(self, game_id: str, connection: Connection) -> None:
        room = self._rooms.get(game_id)
        if room is not None:
            room.discard(connection)
            if not room:
                del self._rooms[game_id]

    def watchers(self, game_id: str) -> int:
        return len(self._rooms.get(game_id, ()))

    def connections(self, game_id: str) -> list[Connection]:
        """The game's sockets in this process."""
        return list(self._rooms.get(game_id, ()))

    def kept(self, game_id: str, player_id: str | None) -> list[str]:
        """The kept notices (the chat so far) that ``player_id`` may read, oldest first."""
        return [n.frame for n in self._kept.get(game_id, ()) if n.for_(player_id)]

    async def notify(self, game_id: str, notice: Notice) -> None:
        """Send a notice to the game's sockets of its audience."""
        self._notice(game_id, notice)

    async def arrive(self, game_id: str, connection: Connection, seated: bool) -> None:
        """A socket of the game opened (it has joined the room): its player is here."""
        connection.seated = seated
        if seated and connection.player_id is not None:
            self._gone.pop((game_id, connection.player_id), None)

    async def depart(self, game_id: str, connection: Connection, playing: bool, now: float) -> None:
        """A socket closed (it has left the room): a seated player without another socket
        of a game being played is gone from ``now``."""
        player = connection.player_id
        if not (connection.seated and playing and player is not None):
            return
        if any(c.player_id == player for c in self._rooms.get(game_id, ())):
            return
        self._gone[(game_id, player)] = now
        while len(self._gone) > GONE_KEPT:
            self._gone.popitem(last=False)

    async def presence(self, game_id: str, players: Iterable[str]) -> tuple[dict[str, float], int]:
        """Which of ``players`` are gone (since when), and how many spectators' sockets
        the game has."""
        gone = {p: since for p in players if (since := self._gone.get((game_id, p))) is not None}
        spectators = sum(1 for c in self._rooms.get(game_id, ()) if not c.seated)
        return gone, spectators

    def _notice(self, game_id: str, notice: Notice) -> None:
        if notice.kept:
            kept = self._kept.setdefault(game_id, deque(maxlen=KEPT_NOTICES))
            kept.append(notice)
            self._kept.move_to_end(game_id)
            while len(self._kept) > KEPT_GAMES:
                self._kept.popitem(last=False)
        for connection in list(self._rooms.get(game_id, ())):
            if notice.for_(connection.player_id):
                connection.notify(notice.frame)

    async def publish(self, game_id: str, state: State) -> None:
        """Send a game's new state to every socket of the game."""
        self._deliver(game_id, state)

    def _deliver(self, game_id: str, state: State) -> None:
        for connection in list(self._rooms.get(game_id, ())):
            connection.deliver(state)

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None


class RedisRooms(Rooms):
    """Rooms shared by every process through Redis pub/sub (one pattern subscription)."""

    def __init__(self, url: str) -> None:
        super().__init__()
        from redis.asyncio import Redis

        self._redis: Redis = Redis.from_url(url)
        self._depart = self._redis.register_script(_DEPART)
        self._listener: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()

    async def start(self) -> None:
        self._listener = asyncio.create_task(self._listen(), name="damier-redis-rooms")
        await asyncio.wait_for(self._ready.wait(), timeout=10)

    async def stop(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listener
        await self._redis.aclose()

    async def publish(self, game_id: str, state: State) -> None:
        await self._redis.publish(CHANNEL_PREFIX + game_id, state.encode())

    async def notify(self, game_id: str, notice: Notice) -> None:
        await self._redis.publish(NOTICE_PREFIX + game_id, notice.encode())

    async def arrive(self, game_id: str, connection: Connection, seated: bool) -> None:
        connection.seated = seated
        name = connection.player_id if seated and connection.player_id else SPECTATORS
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.hincrby(HERE_PREFIX + game_id, name, 1)
            pipe.hdel(GONE_PREFIX + game_id, name)
            pipe.expire(HERE_PREFIX + game_id, PRESENCE_SECONDS)
            await pipe.execute()

    async def depart(self, game_id: str, connection: Connection, playing: bool, now: float) -> None:
        seated = connection.seated and connection.player_id is not None
        name = connection.player_id if seated and connection.player_id else SPECTATORS
        keys = [HERE_PREFIX + game_id, GONE_PREFIX + game_id]
        marks = [name, "1" if seated and playing else "0", repr(now), str(PRESENCE_SECONDS)]
        await self._depart(keys=keys, args=marks)

    async def presence(self, game_id: str, players: Iterable[str]) -> tuple[dict[str, float], int]:
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.hgetall(GONE_PREFIX + game_id)
            pipe.hget(HERE_PREFIX + game_id, SPECTATORS)
            stored, spectators = await pipe.execute()
        since = {key.decode(): float(value) for key, value in stored.items()}
        gone = {p: since[p] for p in players if p in since}
        return gone, max(0, int(spectators or 0))

    async def _listen(self) -> None:
        while True:
            try:
                async with self._redis.pubsub() as pubsub:
                    await pubsub.psubscribe(CHANNEL_PREFIX + "*", NOTICE_PREFIX + "*")
                    self._ready.set()
                    async for message in pubsub.listen():
                        if message.get("type") != "pmessage":
                            continue
                        channel = message["channel"]
                        if isinstance(channel, bytes):
                            channel = channel.decode()
                        if channel.startswith(NOTICE_PREFIX):
                            notice = Notice.decode(message["data"])
                            self._notice(channel[len(NOTICE_PREFIX) :], notice)
                        else:
                            state = State.decode(message["data"])
                            self._deliver(channel[len(CHANNEL_PREFIX) :], state)
            except asyncio.CancelledError:
                raise
            except Exception:  # the connection dropped: subscribe again
                log.exception("redis rooms: subscription lost; retrying")
                await asyncio.sleep(1.0)
