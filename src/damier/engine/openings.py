"""Balanced opening decks, computed by the engine.

Every opening of a few moves from the start is searched to a fixed depth from the position
it leaves; the openings whose value is furthest from equality are dropped. The Spanish match
deck of RULES.md decision 4 is the 43 most balanced of the 49 two-move openings:

    python -m damier.engine.openings spanish --depth 18

Any other variant name computes a two-move deck of that variant (``--keep``, ``--plies``).
The English three-move deck is not computed: it is the ACF's list of ballots.
"""

from __future__ import annotations

import argparse
import datetime
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import damier
from damier.board import Board
from damier.engine import Engine
from damier.rules import get_variant


@dataclass(frozen=True)
class RatedOpening:
    """An opening and the engine's value of the position it leaves, for White."""

    moves: tuple[str, ...]
    score: int


@dataclass(frozen=True)
class DeckSpec:
    """How a deck is computed: its variant, the moves of each opening, how many to keep."""

    variant: str
    plies: int = 2
    keep: int = 43


DECKS: dict[str, DeckSpec] = {
    "spanish": DeckSpec("spanish", plies=2, keep=43),
}
"""The decks this module computes, by the name given on its command line."""

PLY_WORDS = {1: "one-move", 2: "two-move", 3: "three-move", 4: "four-move"}

ENGINE_FILES = (
    "src/damier/engine/__init__.py",
    "src/damier/engine/search.py",
    "src/damier/engine/evaluation.py",
    "src/damier/engine/levels.py",
    "src/damier/data/weights.json",
    "src/damier/kernel",
)
"""The files whose changes change the engine's values."""


def deck_spec(name: str) -> DeckSpec:
    """The spec of a named deck, or a two-move deck of the variant ``name``."""
    if name in DECKS:
        return DECKS[name]
    return DeckSpec(get_variant(name).name)


def openings(variant: str, plies: int) -> list[tuple[str, ...]]:
    """Every sequence of ``plies`` legal moves from the start (captures included)."""
    found: list[tuple[str, ...]] = []

    def walk(board: Board, line: tuple[str, ...]) -> None:
        if len(line) == plies:
            found.append(line)
            return
        for move in board.legal_moves:
            board.push(move)
            walk(board, (*line, move.notation))
            board.pop()

    walk(Board(variant), ())
    return found


def rate_position(board: Board, depth: int) -> int:
    """The value of ``board`` for White at ``depth``, from a fresh engine (an engine's
    move-ordering history outlives ``new_game``, so a reused one would value a position
    differently after other searches). A forced move (the only legal one) is played first,
    since the engine answers such a position without searching it; ``depth`` counts from
    the first position with a choice."""
    forced = 0
    while len(board.legal_moves) == 1:
        board.push(board.legal_moves[0])
        forced += 1
    info = Engine(board.variant).search(board, depth=depth)
    white_view = info.score if board.turn == 0 else -info.score
    for _ in range(forced):
        board.pop()
    return white_view


def rate_openings(
    variant: str,
    depth: int,
    plies: int = 2,
    on_rated: Callable[[RatedOpening], None] | None = None,
) -> list[RatedOpening]:
    """Every opening of ``plies`` moves, valued at ``depth`` (most balanced first; ties in
    the order of the moves' text)."""
    rated = []
    for line in openings(variant, plies):
        board = Board(variant)
        for move in line:
            board.push(move)
        rated.append(RatedOpening(line, rate_position(board, depth)))
        if on_rated:
            on_rated(rated[-1])
    return sorted(rated, key=lambda opening: (abs(opening.score), opening.moves))


def engine_version() -> str:
    """Damier's version and, in a git checkout, the commit (``+changes`` when the engine's
    files differ from it)."""
    version = f"damier {damier.__version__}"
    root = Path(__file__).resolve().parents[3]
    try:
        commit = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        changes = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--", *ENGINE_FILES],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return version
    return f"{version}, commit {commit}{' +changes' if changes else ''}"


def deck_text(
    variant: str,
    rated: list[RatedOpening],
    keep: int,
    depth: int,
    plies: int = 2,
    command: str = "",
    made: str = "",
) -> str:
    """The deck file: the ``keep`` most balanced openings, the dropped ones in comments."""
    kept, dropped = rated[:keep], rated[keep:]
    kind = PLY_WORDS.get(plies, f"{plies}-move")
    low, high = min(o.score for o in kept), max(o.score for o in kept)
    lines = [
        f"# {get_variant(variant).title}: the {keep} most balanced {kind} openings.",
        f"# Computed by damier.engine.openings at depth {depth}: every opening of "
        f"{len(rated)} valued by the engine",
        f"# (hundredths of a man, for White), the {keep} nearest equality kept (values "
        f"{low:+d} to {high:+d};",
        "# ties by the moves' text) and the others dropped. An only legal move is played",
        "# before a position is valued (the depth counts from the first choice).",
        *([f"# Made on {made}."] if made else []),
        *([f"# Regenerate: {command}"] if command else []),
        *(f"#   dropped {' '.join(o.moves)} ({o.score:+d})" for o in dropped),
        f"# variant: {variant}",
        *(" ".join(o.moves) for o in sorted(kept, key=lambda o: o.moves)),
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description="Compute a balanced opening deck.")
    parser.add_argument("deck", help=f"{', '.join(DECKS)} or a variant name (two-move deck)")
    parser.add_argument("--keep", type=int, default=None)
    parser.add_argument("--plies", type=int, default=None, help="moves in each opening")
    parser.add_argument("--depth", type=int, default=14)
    parser.add_argument("--output", type=Path, default=None)
    args = parser.parse_args()
    spec = deck_spec(args.deck)
    keep = args.keep or spec.keep
    plies = args.plies or spec.plies
    started, count = time.perf_counter(), len(openings(spec.variant, plies))

    def progress(opening: RatedOpening) -> None:
        seconds = time.perf_counter() - started
        line = f"{' '.join(opening.moves)} {opening.score:+d}"
        print(f"[{seconds:7.1f}s] {line}", file=sys.stderr, flush=True)

    rated = rate_openings(spec.variant, args.depth, plies, progress)
    print(f"{count} openings in {time.perf_counter() - started:.0f}s", file=sys.stderr)
    made = f"{datetime.date.today().isoformat()} with {engine_version()}"
    command = f"python -m damier.engine.openings {args.deck} --depth {args.depth}"
    command += f" --keep {args.keep}" if args.keep else ""
    command += f" --plies {args.plies}" if args.plies else ""
    text = deck_text(spec.variant, rated, keep, args.depth, plies, command, made)
    if args.output:
        args.output.write_text(text, encoding="utf-8")
    else:
        print(text, end="")


if __name__ == "__main__":
    main()
