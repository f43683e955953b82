"""The computer opponent: engine searches in a small thread pool, never on the event loop.

The searches are Numba code that releases the GIL, so a pool of a few threads runs them in
parallel while the event loop keeps serving. On a new machine the engine is compiled in the
background as the server starts (:mod:`damier.compiled`): a search waits for it (on the
event loop, holding no thread) and its time starts when the engine is ready, so that the
first moves are searched like the others rather than cut short by compilation.
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

from damier.board import Board
from damier.compiled import WARMUP, Warmup
from damier.engine import Engine, Info, move_time
from damier.kernel.jit import watch_compilation


class ComputerPool:
    """Engines by (variant, level), searched in at most ``workers`` threads at once."""

    def __init__(self, workers: int = 2, max_seconds: float = 1.0, warmup: Warmup = WARMUP) -> None:
        self.max_seconds = max_seconds
        self._warmup = warmup
        self._executor = ThreadPoolExecutor(
            max_workers=max(1, workers), thread_name_prefix="damier-engine"
        )
        self._engines: dict[tuple[str, int], Engine] = {}
        self._analysts: dict[str, Engine] = {}
        """Full-strength engines for reviews, apart from the opponents' (a review never
        waits for a game's search, nor a game for a review's)."""
        self._lock = threading.Lock()

    def think_time(self, level: int, remaining: float | None, increment: float = 0.0) -> float:
        """Seconds for one move: the level's limit, the server's cap, and the clock."""
        return move_time(level, self.max_seconds, remaining, increment)

    async def best_move(self, board: Board, level: int, seconds: float) -> str | None:
        """The notation of the computer's move in ``board`` (a copy the caller gives up)."""
        await self._warmup.wait_async(self._warmup.computer_key(board.variant))
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, self._search, board, level, seconds)

    async def analyse(self, board: Board, seconds: float, depth: int) -> Info:
        """The full engine's verdict on ``board`` (a copy the caller gives up): score for
        the side to move, mate distance, principal variation."""
        await self._warmup.wait_async("engine")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, self._analyse, board, seconds, depth)

    def _analyse(self, board: Board, seconds: float, depth: int) -> Info:
        with self._lock:
            engine = self._analysts.get(board.variant.name)
            if engine is None:
                engine = Engine(board.variant, level=10, table_megabytes=16)
                self._analysts[board.variant.name] = engine
        return engine.search(board, time=seconds, depth=depth)

    def _engine(self, variant: str, level: int) -> Engine:
        with self._lock:
            engine = self._engines.get((variant, level))
            if engine is None:
                engine = Engine(variant, level=level, table_megabytes=16)
                self._engines[(variant, level)] = engine
            return engine

    def _search(self, board: Board, level: int, seconds: float) -> str | None:
        if not board.legal_moves:
            return None
        engine = self._engine(board.variant.name, level)
        with watch_compilation() as compiled:
            info = engine.search(board, time=seconds)
        if info.depth == 0 and compiled.count and len(board.legal_moves) > 1:
            # Compiling ate the search's time (code the warm-up did not foresee): not a
            # move to play unsearched. The code is compiled now: search again.
            info = engine.search(board, time=seconds)
        move = info.best_move
        return move.notation if move is not None else board.legal_moves[0].notation

    def close(self) -> None:
        with self._lock:
            for engine in (*self._engines.values(), *self._analysts.values()):
                engine.stop()
        self._executor.shutdown(wait=False, cancel_futures=True)
