"""What each of Numba's compilations costs, cold: one line per compiled version.

    NUMBA_CACHE_DIR=$(mktemp -d) python bench/compile.py [--stage kernel|engine|tools|all]

Runs ``damier compile``'s warm-up (:mod:`damier.compiled`) in this process, watching Numba's
``numba:compile`` events (:class:`damier.kernel.jit.Compilations`), and prints each compiled
function in the order its compilation ended, with the seconds it took in all and the
seconds of its own (less the compilations it set off inside itself: a kernel function
calling another compiles the callee first), then the totals. Give it an empty cache
(``NUMBA_CACHE_DIR`` set to a new directory, so that no one else's warm cache is wiped):
with a warm one it compiles nothing and prints only the time to load.
"""

from __future__ import annotations

import argparse
import time

from damier.compiled import STAGES, Warmup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stage", choices=(*STAGES, "all"), default="all")
    parser.add_argument("--types", action="store_true", help="print each version's types")
    args = parser.parse_args()
    stages = STAGES if args.stage == "all" else STAGES[: STAGES.index(args.stage) + 1]
    warmup = Warmup()
    began = time.perf_counter()
    warmup.run(stages)
    seconds = time.perf_counter() - began
    print(f"{'#':>3}  {'function':<34} {'total s':>8} {'own s':>8}")
    for number, done in enumerate(warmup.compilations.compiled, 1):
        print(f"{number:>3}  {done.name:<34} {done.seconds:8.2f} {done.own_seconds:8.2f}")
        if args.types:
            print(f"     ({done.types})")
    compiled = warmup.compilations
    print(
        f"{compiled.count} compilations, {compiled.seconds:.1f} s compiling, {seconds:.1f} s in all"
    )


if __name__ == "__main__":
    main()
