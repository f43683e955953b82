"""The level ladder: each engine level against the one above it, in self-play matches.

    python bench/ladder.py --games 20 --time 0.1 [--variant international]

Prints, for each pair, the score of the higher level and its Elo estimate. Level bounds
(depth, nodes, time and noise) are in src/damier/engine/levels.py.
"""

from __future__ import annotations

import argparse
import subprocess
import sys


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="international")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--time", type=float, default=0.1)
    parser.add_argument("--openings", default="international-2move")
    parser.add_argument("--top", type=int, default=10)
    args = parser.parse_args()
    for low in range(1, args.top):
        command = [
            sys.executable,
            "-m",
            "damier.cli",
            "match",
            "--variant",
            args.variant,
            "--engine",
            f"damier:{low + 1}",
            "--engine",
            f"damier:{low}",
            "--games",
            str(args.games),
            "--time",
            str(args.time),
            "--openings",
            args.openings,
        ]
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        lines = [line for line in result.stdout.splitlines() if line.strip()]
        summary = " | ".join(lines[-2:]) if lines else result.stderr.strip()
        print(f"level {low + 1} v level {low}: {summary}", flush=True)


if __name__ == "__main__":
    main()
