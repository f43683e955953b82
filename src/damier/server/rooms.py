"""Game rooms: each game's live WebSockets, and the fan-out of its state to them.

A published state is the game as everyone sees it; each connection adds its own ``you``.
Without Redis the fan-out stays in the process. With ``DAMIER_REDIS_URL`` every state goes
through a Redis channel and every process delivers it to its own sockets, so any process can
serve any game.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

log = logging.getLogger("damier.server")

CHANNEL_PREFIX = "damier:game:"


class Connection:
    """One WebSocket's outbox: frames wait in a bounded queue that a sender task drains.
    A client too slow to keep up loses its oldest frames (the newest state wins)."""

    def __init__(self, player_id: str | None, size: int = 64) -> None:
        self.player_id = player_id
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=size)
        self._version = -1

    def send(self, frame: dict[str, Any]) -> None:
        while True:
            try:
                self.queue.put_nowait(frame)
                return
            except asyncio.QueueFull:
                with contextlib.suppress(asyncio.QueueEmpty):
                    self.queue.get_nowait()

    def deliver(self, version: int, game: dict[str, Any]) -> None:
        """Queue a state unless it or a newer one was already queued (a socket that opens
        between a change and its broadcast through Redis gets the state in its snapshot)."""
        if version <= self._version:
            return
        self._version = version
        you = None
        if self.player_id is not None:
            for seat in game["seats"]:
                if seat["id"] == self.player_id:
                    you = seat["color"]
                    break
        self.send({"type": "state", "game": {**game, "you": you}})


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

    async def publish(self, game_id: str, version: int, game: dict[str, Any]) -> None:
        """Send a game's new state to every socket of the game."""
        self._deliver(game_id, version, game)

    def _deliver(self, game_id: str, version: int, game: dict[str, Any]) -> None:
        for connection in list(self._rooms.get(game_id, ())):
            connection.deliver(version, game)

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

    async def publish(self, game_id: str, version: int, game: dict[str, Any]) -> None:
        payload = json.dumps({"version": version, "game": game}, separators=(",", ":"))
        await self._redis.publish(CHANNEL_PREFIX + game_id, payload)

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
                        data = json.loads(message["data"])
                        self._deliver(
                            channel[len(CHANNEL_PREFIX) :], int(data["version"]), data["game"]
                        )
            except asyncio.CancelledError:
                raise
            except Exception:  # the connection dropped: subscribe again
                log.exception("redis rooms: subscription lost; retrying")
                await asyncio.sleep(1.0)
