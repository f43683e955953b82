"""Everything the services share in one process: the database, the rooms, the computer
pool, the live games and the clock."""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from damier.game import Game
from damier.server.rooms import Rooms
from damier.server.schemas import GameState
from damier.server.security import LoginThrottle, SessionSigner, TokenBuckets
from damier.server.services.computer import ComputerPool
from damier.server.settings import Settings
from damier.server.store.db import Database
from damier.server.store.models import GameRow

log = logging.getLogger("damier.server")

OFFERS_IN_A_ROW = 3
OFFER_EVERY = 20.0
"""A player may make three draw offers (or takeback requests) in a row in a game, then one
every 20 s: enough for any real use, too few to flood the opponent with them."""
LIVE_GAMES = 2_000
"""Games kept in memory; the others are rebuilt from their stored moves when needed."""


@dataclass
class LiveGame:
    """A game in memory, the stored version it reflects, its row as last read (with the
    players) or None before the first read, and its last state made here (for nobody),
    which may be behind the game by the moves made since (see
    :func:`~damier.server.services.views.moved_view`)."""

    game: Game
    version: int
    row: GameRow | None = None
    state: GameState | None = None


class Services:
    """The state of one server process. Games are not owned by a process: the database
    is the truth, and a cached game whose version is behind the row is rebuilt."""

    def __init__(
        self,
        *,
        settings: Settings,
        database: Database,
        rooms: Rooms,
        computer: ComputerPool,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.settings = settings
        self.database = database
        self.rooms = rooms
        self.computer = computer
        self.now = now
        """Wall-clock seconds: clocks are stored as moments, so they survive a restart."""
        self.signer = SessionSigner(settings.secret_key)
        self.limiter = TokenBuckets(settings.rate_capacity, settings.rate_per_second)
        self.login_limiter = LoginThrottle(
            settings.login_capacity,
            settings.login_per_second,
            settings.login_pair_capacity,
            settings.login_pair_per_second,
            now=now,
        )
        """Log-in, register and password change attempts (see its policy)."""
        self.guest_limiter = TokenBuckets(
            settings.guest_capacity, settings.guest_per_second, now=now
        )
        """New guests, per client address."""
        self.chat_limiter = TokenBuckets(settings.chat_capacity, settings.chat_per_second, now=now)
        """Chat messages, per player."""
        self.offer_limiter = TokenBuckets(OFFERS_IN_A_ROW, 1 / OFFER_EVERY, now=now)
        """Draw offers and takeback requests, per game, player and kind."""
        self.live: OrderedDict[str, LiveGame] = OrderedDict()
        self.thinking: set[tuple[str, int, int]] = set()
        """The computer's searches under way: (game, ply, seat)."""
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._tasks: set[asyncio.Task[Any]] = set()

    def lock(self, game_id: str) -> asyncio.Lock:
        """The lock that serialises the changes of one game in this process."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    def busy(self, game_id: str) -> bool:
        """Whether a change of the game is under way in this process (its lock is held)."""
        lock = self._locks.get(game_id)
        return lock is not None and lock.locked()

    def cached(self, game_id: str, version: int) -> Game | None:
        live = self.live.get(game_id)
        if live is None or live.version != version:
            return None
        self.live.move_to_end(game_id)
        return live.game

    def keep(
        self,
        game_id: str,
        game: Game,
        version: int,
        row: GameRow | None = None,
        state: GameState | None = None,
    ) -> None:
        live = self.live.get(game_id)
        if state is None and live is not None and live.version == version:
            state = live.state  # made at this version: still the game's
        self.live[game_id] = LiveGame(game, version, row, state)
        self.live.move_to_end(game_id)
        while len(self.live) > LIVE_GAMES:
            self.live.popitem(last=False)

    def forget(self, game_id: str) -> None:
        self.live.pop(game_id, None)

    def spawn(self, coroutine: Coroutine[Any, Any, Any], name: str) -> None:
        """Run a background job; its failure is logged, never lost."""
        task = asyncio.create_task(coroutine, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background job %s failed", task.get_name(), exc_info=task.exception())

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        self.computer.close()
