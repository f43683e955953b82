"""Engine speed: Damier against its peers, in the same run on the same machine.

    python bench/engine.py [--seconds S] [--threads N]

For each fixed International position (the start; a middlegame; the Woldouby position) each
engine searches for ``--seconds`` (default 5) from an empty hash table, and the script prints
the deepest completed iteration, the nodes, the time actually used and the nodes per second,
then the time Damier takes to settle on 25-20 in the Woldouby position (the iteration from
which it stays the best move within the time):

* Damier: ``damier.engine.Engine("international")`` at level 10, ``search(board, time=S,
  book=False)`` (Numba-compiled search; compiled or loaded from the cache before timing);
  with ``--threads N`` also on N threads (Lazy SMP).
* dame-rs: ``dame.Engine(hash_mb=64).search(board, time=S)`` (Rust), if installed.
* py-draughts: ``draughts.engines.turbo.TurboEngine(depth_limit=None, time_limit=S)``
  (pure Python), if installed; its ``nodes`` and ``completed_depth`` after
  ``get_best_move``.

Nodes are each engine's own count (what a node is differs: quiescence nodes, captures
played out, ...), so nodes per second compares the engines only roughly; the depth reached
in the same time is the number to read next to it, and even it depends on each engine's
pruning. An engine may stop before the time is up when it judges that the next iteration
cannot finish. A peer that is not installed is reported and skipped.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any

from machine import describe_machine

from damier import Board
from damier.engine import Engine

POSITIONS = [
    ("start", "W:W31-50:B1-20"),
    # Reached by Damier at level 8 (depth 6) against itself after 36 plies: 12 v 12.
    ("middlegame", "W:W16,30,34,35,38,41,44-46,48-50:B1-6,8,10,13,20,22,23"),
    ("Woldouby", "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38"),
]

Row = tuple[str, int, int, float, str]
"""Engine, depth, nodes, seconds, best move."""


def damier_runner(threads: int = 1) -> Callable[[str, float], Row]:
    engine = Engine("international", level=10, threads=threads)
    name = "damier" if threads == 1 else f"damier {threads} threads"

    def run(fen: str, seconds: float) -> Row:
        engine.new_game()
        board = Board("international", fen)
        began = time.perf_counter()
        info = engine.search(board, time=seconds, book=False)  # a search, not the book
        used = time.perf_counter() - began
        move = info.best_move.notation if info.best_move else "-"
        return (name, info.depth, info.nodes, used, move)

    return run


def woldouby_time(seconds: float) -> str:
    """When Damier's best move in the Woldouby position becomes 25-20 for good."""
    engine = Engine("international", level=10)
    board = Board("international", POSITIONS[2][1])
    engine.search(board, depth=3)  # compile or load before the clock runs
    engine.new_game()
    found: tuple[int, float, int] | None = None
    for info in engine.analyse(board, time=seconds):
        if info.best_move is not None and info.best_move.notation == "25-20":
            found = found or (info.depth, info.seconds, info.nodes)
        else:
            found = None
    if found is None:
        return f"Damier does not settle on 25-20 in the Woldouby position within {seconds:g} s"
    depth, used, nodes = found
    return (
        f"Damier plays 25-20 in the Woldouby position from depth {depth}: "
        f"{used:.2f} s, {nodes:,} nodes"
    )


def dame_runner() -> Callable[[str, float], Row] | str:
    try:
        import dame
    except ImportError as error:
        return f"dame-rs not installed ({error})"

    def run(fen: str, seconds: float) -> Row:
        engine = dame.Engine(hash_mb=64)
        board = dame.Board(Board("international", fen).fen)
        began = time.perf_counter()
        result = engine.search(board, time=seconds)
        used = time.perf_counter() - began
        return ("dame-rs", result.depth, result.nodes, used, str(result.best_move))

    return run


def turbo_runner() -> Callable[[str, float], Row] | str:
    try:
        import draughts
        from draughts.engines.turbo import TurboEngine
    except ImportError as error:
        return f"py-draughts (TurboEngine) not installed ({error})"

    def run(fen: str, seconds: float) -> Row:
        engine: Any = TurboEngine(depth_limit=None, time_limit=seconds)
        board = draughts.StandardBoard.from_fen(Board("international", fen).fen)
        began = time.perf_counter()
        move = engine.get_best_move(board)
        used = time.perf_counter() - began
        return ("py-draughts Turbo", engine.completed_depth, engine.nodes, used, str(move))

    return run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="search time per position")
    parser.add_argument("--threads", type=int, default=1, help="also Damier on N threads")
    args = parser.parse_args()
    print(f"machine: {describe_machine()}")
    print(f"search time per position: {args.seconds:g} s\n")
    runners: list[Callable[[str, float], Row]] = [damier_runner()]
    if args.threads > 1:
        runners.append(damier_runner(args.threads))
    for peer in (dame_runner(), turbo_runner()):
        if isinstance(peer, str):
            print(f"skipped: {peer}")
        else:
            runners.append(peer)
    header = f"{'position':<11} {'engine':<18} {'depth':>5} {'nodes':>12} {'time s':>7} "
    print(f"\n{header}{'nodes/s':>11}  best")
    for name, fen in POSITIONS:
        for run in runners:
            engine, depth, nodes, used, move = run(fen, args.seconds)
            rate = nodes / used if used > 0 else 0.0
            print(
                f"{name:<11} {engine:<18} {depth:>5} {nodes:>12,} {used:>7.2f} "
                f"{rate:>11,.0f}  {move}",
                flush=True,
            )
        print()
    print(woldouby_time(args.seconds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
