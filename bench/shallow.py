"""Shallow searches: what one costs, all included (the puzzle finder's quick test, the weak
levels, the server's computer at low levels run thousands of them).

    python bench/shallow.py [--variant V] [--games G] [--depths 2,4,6]

Plays ``--games`` self-play games of the variant (seeded: the same positions every run),
then searches every position of them with a cleared 1 MB table at each depth, as
``Finder.is_candidate`` does, and prints the searches a second and the latency
percentiles of one search (the table's clearing included).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from machine import describe_machine

from damier import Board
from damier.engine import Engine
from damier.puzzles.build import self_play_positions


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="international")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--depths", default="2,4,6")
    args = parser.parse_args()
    print(describe_machine())
    positions: list[Board] = [
        board
        for _, board in self_play_positions(
            args.variant, random.Random(5), args.games, float("inf")
        )
    ]
    engine = Engine(args.variant, level=10, table_megabytes=1, databases=False)
    print(f"{args.variant}: {len(positions)} positions from {args.games} self-play games")
    print("depth  searches/s   p50 ms   p90 ms   p99 ms   mean nodes")
    for depth in (int(d) for d in args.depths.split(",")):
        times, nodes = [], []
        for board in positions:
            began = time.perf_counter()
            engine.new_game()
            info = engine.search(board, depth=depth)
            times.append(time.perf_counter() - began)
            nodes.append(info.nodes)
        print(
            f"{depth:5}  {len(times) / sum(times):10.0f}  {percentile(times, 0.5) * 1e3:7.2f}"
            f"  {percentile(times, 0.9) * 1e3:7.2f}  {percentile(times, 0.99) * 1e3:7.2f}"
            f"  {statistics.mean(nodes):11.0f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
