"""The puzzles shipped with Damier: one JSON-lines file per variant in ``damier/data/puzzles``.

>>> puzzles = shipped("international")
>>> all(p.variant == "international" for p in puzzles)
True
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

from damier.puzzles.puzzle import Puzzle
from damier.rules import get_variant

VARIANTS = (
    "international",
    "russian",
    "brazilian",
    "english",
    "italian",
    "spanish",
    "frisian",
    "turkish",
)
"""The variants with shipped puzzles, in the order the trainer lists them."""


def read_puzzles(path: Path) -> list[Puzzle]:
    """The puzzles of a JSON-lines file (blank lines skipped; a later copy of an id wins)."""
    found: dict[str, Puzzle] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            puzzle = Puzzle.from_json(line)
            found[puzzle.id] = puzzle
    return list(found.values())


def shipped_path(variant: str) -> Path:
    """The shipped file of ``variant`` (it may not exist)."""
    name = get_variant(variant).name
    return Path(str(resources.files("damier") / "data" / "puzzles" / f"{name}.jsonl"))


@cache
def shipped(variant: str) -> tuple[Puzzle, ...]:
    """The shipped puzzles of ``variant`` (none when it has no file)."""
    path = shipped_path(variant)
    return tuple(read_puzzles(path)) if path.exists() else ()
