"""The server fixtures (``tests/server/conftest.py``) for the trainer's tests, and a set of
composed puzzles the server serves instead of the shipped ones."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from damier.puzzles import Puzzle
from damier.server.services import puzzles as service
from tests.server.conftest import (  # noqa: F401  (fixtures)
    _drop_test_databases,
    client,
    database,
    make_app,
)

COMPOSED = [
    Puzzle(
        id="russian-composed1",
        variant="russian",
        fen="W:W12,16,31,32:B7,14,15,25",
        moves=("16-11", "7x16", "12x17"),
        themes=("sacrifice", "quiet-move", "short", "multi-capture", "ending"),
        rating=1320,
        depth=10,
        score=374,
        second=-20,
        gain=200,
    ),
    Puzzle(
        id="russian-composed2",
        variant="russian",
        fen="W:W15,18,21,24,29,30:B1,5,7-9,14",
        moves=("15-10", "14x23", "10x26"),
        themes=("sacrifice", "quiet-move", "short", "multi-capture", "crowning"),
        rating=1320,
        depth=10,
        score=765,
        second=-130,
        gain=400,
    ),
    Puzzle(
        id="international-composed1",
        variant="international",
        fen="W:W23,25,29,31,32,44:B6,8,11,21,22,28",
        moves=("23-18", "28x26", "18x7", "8-12", "7x18"),
        themes=("sacrifices", "quiet-move", "medium", "multi-capture"),
        rating=1540,
        depth=10,
        score=306,
        second=-35,
        gain=200,
    ),
]


def write_set(directory: Path, puzzles: list[Puzzle]) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    for variant in {p.variant for p in puzzles}:
        lines = [p.to_json() + "\n" for p in puzzles if p.variant == variant]
        (directory / f"{variant}.jsonl").write_text("".join(lines), encoding="utf-8")
    return directory


@pytest.fixture
def composed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Puzzle]]:
    """The server serves :data:`COMPOSED` (through ``DAMIER_PUZZLES_DIR``)."""
    directory = write_set(tmp_path / "puzzles", COMPOSED)
    monkeypatch.setenv(service.PUZZLES_DIR, str(directory))
    yield COMPOSED
    service._catalog.cache_clear()
