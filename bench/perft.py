"""Perft speed of every built-in variant from its start position.

    python bench/perft.py [--depth-scale N]

For each variant of ``damier.all_variants()`` it runs ``Board(variant).perft(depth,
fast=False)`` (the table kernel, which plays every variant; duplicate captures dropped as
RULES.md decision 5 says) at a fixed depth
chosen so the run takes about 1-3 s on a current x86 core, and prints the leaf count, the
time and the leaves per second. A variant missing from ``DEPTHS`` (one added after this
script) gets the deepest depth whose run is predicted to stay under 3 s, marked ``*``.

Where the bitboard fast path (``damier.kernel.bitboard.fast_perft``, what ``Board.perft``
runs by default where it covers the variant) covers the variant, it counts the same tree in
the same run: its time, leaves per second and speed-up over the
table kernel are printed beside it (``-`` where it does not cover the variant), and a
different leaf count is flagged. The time of its first call (compiling it, or loading it
from Numba's cache) is printed before the table.

``--depth-scale N`` adds N (may be negative) to every depth: ``-2`` for a quick smoke run,
``+1`` on a much faster machine.

The kernels are compiled (or loaded from Numba's cache) by a depth-1 call before timing;
the depth-1 calls are not counted.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

from machine import cpu_model

import damier
from damier import Board
from damier.kernel.bitboard import covers, fast_perft

# Depth per variant: about 1-3 s each on a 2020s x86 core (the 10x10 board has 9 moves
# at the root and grows ~6x per ply; the 8x8 diagonal games ~5x; Turkish ~12x;
# Croda and Dameo ~20-40x, so one ply more or less is a 10-40x step there).
DEPTHS = {
    "international": 9,
    "brazilian": 10,
    "russian": 10,
    "english": 10,
    "pool": 10,
    "italian": 10,
    "spanish": 10,
    "turkish": 8,
    "croda": 6,
    "dameo": 5,
}
AUTO_LIMIT = 3.0  # seconds, for variants without a fixed depth


def machine() -> list[str]:
    cpu = cpu_model()
    usable: int | None
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    try:
        import numba

        numba_version = numba.__version__
    except ImportError:  # pragma: no cover - damier needs numba
        numba_version = "?"
    return [
        f"platform: {platform.platform()}",
        f"cpu:      {cpu}",
        f"cores:    {os.cpu_count()} logical, {usable} usable by this process (perft runs on one)",
        f"python:   {platform.python_implementation()} {platform.python_version()}, "
        f"numba {numba_version}, damier {damier.__version__}",
    ]


def auto_depth(board: Board, limit: float) -> int:
    """Deepest depth whose run is predicted (from the last ply's growth) to take < limit s."""
    depth, last = 1, None
    while True:
        start = time.perf_counter()
        board.perft(depth, fast=False)
        elapsed = time.perf_counter() - start
        growth = elapsed / last if last and last > 1e-4 else 10.0
        if elapsed * growth > limit or depth >= 30:
            return depth
        depth, last = depth + 1, elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--depth-scale",
        type=int,
        default=0,
        metavar="N",
        help="add N plies to every depth (negative for a quick run)",
    )
    args = parser.parse_args(argv)

    for line in machine():
        print(line)
    first = Board("international")
    start = time.perf_counter()
    fast_perft(first.variant, first.cells, first.turn, 1)
    print(
        f"fast path: first call (compile, or load from Numba's cache) "
        f"{time.perf_counter() - start:.2f} s"
    )
    print("counting: start positions, duplicate captures dropped;")
    print("          table kernel = Board(variant).perft(depth, fast=False),")
    print("          fast = damier.kernel.bitboard.fast_perft, same position and depth")
    print()
    header = (
        f"{'variant':<16}{'depth':>6}{'nodes':>14}{'seconds':>10}{'nodes/s':>14}"
        f"{'fast s':>9}{'fast nodes/s':>15}{'fast/table':>11}"
    )
    print(header)
    print("-" * len(header))
    total_nodes, total_time = 0, 0.0
    fast_nodes, fast_time, mismatches = 0, 0.0, []
    for variant in damier.all_variants():
        board = Board(variant)
        board.perft(1, fast=False)  # compile or load the kernel; not counted
        if variant.name in DEPTHS:
            depth, mark = DEPTHS[variant.name], ""
        else:
            depth, mark = auto_depth(board, AUTO_LIMIT), "*"
        depth = max(1, depth + args.depth_scale)
        start = time.perf_counter()
        nodes = board.perft(depth, fast=False)
        elapsed = time.perf_counter() - start
        total_nodes += nodes
        total_time += elapsed
        rate = nodes / elapsed if elapsed > 0 else float("inf")
        fast = "{:>9}{:>15}{:>11}".format("-", "-", "-")
        if covers(variant):
            start = time.perf_counter()
            counted = fast_perft(variant, board.cells, board.turn, depth)
            seconds = time.perf_counter() - start
            fast_nodes += nodes
            fast_time += seconds
            if counted != nodes:
                mismatches.append(f"{variant.name}: fast path {counted}, table kernel {nodes}")
            fast = f"{seconds:>9.3f}{nodes / seconds:>15,.0f}{elapsed / seconds:>10.1f}x"
        print(
            f"{variant.name:<16}{str(depth) + mark:>6}{nodes:>14,}{elapsed:>10.3f}{rate:>14,.0f}"
            + fast,
            flush=True,
        )
    print("-" * len(header))
    print(
        f"{'all':<16}{'':>6}{total_nodes:>14,}{total_time:>10.3f}{total_nodes / total_time:>14,.0f}"
    )
    if fast_time > 0:
        print(
            f"{'fast path covers':<16}{'':>6}{fast_nodes:>14,}{'':>10}{'':>14}"
            f"{fast_time:>9.3f}{fast_nodes / fast_time:>15,.0f}"
        )
    if any(v.name not in DEPTHS for v in damier.all_variants()):
        print(f"* depth chosen at run time (no fixed depth yet): predicted < {AUTO_LIMIT:g} s")
    for line in mismatches:
        print(f"LEAF COUNTS DIFFER: {line}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
