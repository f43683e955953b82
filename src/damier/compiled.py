"""``damier compile``: build Numba's on-disk cache of all the compiled code, once.

The kernel and the engine are compiled at their first call and kept on disk
(:mod:`damier.kernel.jit`); cold, that first call waits from seconds (``damier moves``) to a
minute (a search). :func:`build_cache` makes every kind of first call once, on small
positions: move generation, make and unmake, hashing, perft by bitboards and by tables
(duplicates dropped and kept, divided too), the bitboard search, the table search and the
multi-player search. With a warm cache it only loads the code into the process.
"""

from __future__ import annotations

from collections.abc import Callable

from damier.board import Board
from damier.engine import Engine
from damier.kernel.jit import Compilations, watch_compilation

WARM_UP_VARIANTS = ("international", "turkish", "tripad")
"""One variant per road through the compiled code: the bitboard fast path and search
(International), the tables and the table search (Turkish), more players (Tripad)."""


def exercise(variant: str) -> None:
    """Every compiled road the commands take, once, in ``variant``."""
    board = Board(variant)
    board.push(board.legal_moves[0])
    board.zobrist_hash()
    board.pop()
    for duplicates in ("drop", "keep"):
        board.perft(2, duplicates)
        board.perft(2, duplicates, fast=False)
        board.perft_divide(2, duplicates)
    Engine(variant, table_megabytes=1).search(board, depth=2)


def build_cache(say: Callable[[str], None] | None = None) -> Compilations:
    """Compile (or, warm, load) everything; ``say`` hears once that a compilation began.
    Returns what was compiled."""

    def announce() -> None:
        if say is not None:
            say("compiling the kernel and the engine (once, into the cache; a minute or two)")

    with watch_compilation(announce) as compilations:
        for variant in WARM_UP_VARIANTS:
            exercise(variant)
    return compilations
