"""Lazy SMP: more threads searching the same position as the main search.

Each helper thread runs its own iterative deepening from the root on a context of its own
(move buffers, killers, history, line), all of them sharing the main search's
transposition table. They find nothing the main search reports; what they store there
(scores, best moves, refutations) lets the main search cut sooner and deeper, and the
kernel's compiled search releases the GIL, so on two cores the two threads really run at
once. Odd helpers start one ply deeper, so that the threads do not all walk the same tree
in step. A torn table entry (two threads writing one slot) is detected by its key
(:func:`damier.engine.search.probe`).

Only the full engine uses helpers: a level bounded by nodes or blurred by noise searches
alone, so that its strength stays what :mod:`damier.engine.levels` says.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import numpy as np

from damier.engine.search import (
    INFINITY,
    S_CONTEMPT,
    S_KING_LIMIT,
    S_MEN_FORWARD,
    S_NO_MOVE,
    S_NODES,
    S_QUIET_LIMIT,
    S_SAME_KING,
    S_STOP,
    SearchContext,
)

if TYPE_CHECKING:
    from damier.board import Board

SHARED_SLOTS = (S_NO_MOVE, S_KING_LIMIT, S_SAME_KING, S_QUIET_LIMIT, S_CONTEMPT, S_MEN_FORWARD)
"""The search's settings a helper takes from the main search."""


class Helpers:
    """``count`` helper threads for one engine's searches (none when ``count`` is 0)."""

    def __init__(self, main: SearchContext, count: int) -> None:
        self.main = main
        self.contexts = [main.sibling() for _ in range(count)]
        self._threads: list[threading.Thread] = []

    def __len__(self) -> int:
        return len(self.contexts)

    def start(
        self,
        t: object,
        board: Board,
        key: int,
        max_depth: int,
        pst: np.ndarray,
        extra: np.ndarray,
    ) -> None:
        """Set every helper searching ``board`` (whose hash is ``key``) until :meth:`stop`
        or ``max_depth``."""
        self.stop()
        for number, context in enumerate(self.contexts, start=1):
            context.new_search()
            for slot in SHARED_SLOTS:
                context.stats[slot] = self.main.stats[slot]
            context.read_king_runs(board)
            context.read_history(board, key)
            thread = threading.Thread(
                target=self._deepen,
                args=(
                    context,
                    t,
                    board.cells.copy(),
                    board.turn,
                    key,
                    number % 2,
                    max_depth,
                    pst,
                    extra,
                ),
                name=f"damier-helper-{number}",
                daemon=True,
            )
            self._threads.append(thread)
            thread.start()

    @staticmethod
    def _deepen(
        context: SearchContext,
        t: object,
        sq: np.ndarray,
        player: int,
        key: int,
        skew: int,
        max_depth: int,
        pst: np.ndarray,
        extra: np.ndarray,
    ) -> None:
        for depth in range(1 + skew, max_depth + 1):
            context.run(t, sq, player, key, depth, 0, -INFINITY, INFINITY, pst, extra)
            if context.stats[S_STOP] == 1:
                return

    def stop(self) -> None:
        """End the helpers' searches and wait for their threads."""
        for context in self.contexts:
            context.stats[S_STOP] = 1
        for thread in self._threads:
            thread.join()
        self._threads.clear()

    @property
    def nodes(self) -> int:
        """The nodes the helpers searched since they were last started."""
        return sum(int(context.stats[S_NODES]) for context in self.contexts)
