"""Game rooms: each game's live WebSockets, and the fan-out of its state to them.

A published state is the game as everyone sees it, encoded to JSON once; each connection's
frame adds its own ``you``. Without Redis the fan-out stays in the process. With
``DAMIER_REDIS_URL`` every state goes through a Redis channel and every process delivers it
to its own sockets, so any process can serve any game.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("damier.server")

CHANNEL_PREFIX = "damier:game:"


@dataclass
class State:
    """A game's state as published: its version, each seat's player id and colour (in turn
    order), and the game as JSON without ``you``."""

    version: int
    seats: tuple[tuple[str | None, str], ...]
    game: str
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
            frame = f'{{"type":"state","game":{self.game[:-1]},"you":{seat}}}}}'
            self._frames[you] = frame
        return frame

    def encode(self) -> str:
        """For Redis: a JSON header line, then the game."""
        return json.dumps([self.version, self.seats]) + "\n" + self.game

    @classmethod
    def decode(cls, payload: str | bytes) -> State:
        text = payload.decode() if isinstance(payload, bytes) else payload
        header, game = text.split("\n", 1)
        version, seats = json.loads(header)
        return cls(int(version), tuple((id_, color) for id_, color in seats), game)


class Connection:
    """One WebSocket's outbox: frames (JSON text) wait in a bounded queue that a sender task
    drains. A client too slow to keep up loses its oldest frames (the newest state wins)."""

    def __init__(self, player_id: str | None, size: int = 64) -> None:
        self.player_id = player_id
        self.queue: asyncio.Queue[str] = asyncio.Queue(maxsize=size)
        self._version = -1

    def send(self, frame: dict[str, Any]) -> None:
        self._put(json.dumps(frame))

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
        if state.version <= self._version:
            return
        self._version = state.version
        self._put(state.frame(self.player_id))


class Rooms:
    """In-process rooms."""

    def __init__(self) -> None:
        self._rooms: dict[str, set[Connection]] = {}

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

    async def _listen(self) -> None:
        while True:
            try:
                async with self._redis.pubsub() as pubsub:
                    await pubsub.psubscribe(CHANNEL_PREFIX + "*")
                    self._ready.set()
                    async for message in pubsub.listen():
                        if message.get("type") != "pmessage":
                            continue
                        channel = message["channel"]
                        if isinstance(channel, bytes):
                            channel = channel.decode()
                        state = State.decode(message["data"])
                        self._deliver(channel[len(CHANNEL_PREFIX) :], state)
            except asyncio.CancelledError:
                raise
            except Exception:  # the connection dropped: subscribe again
                log.exception("redis rooms: subscription lost; retrying")
                await asyncio.sleep(1.0)
