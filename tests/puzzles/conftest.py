"""The server fixtures (``tests/server/conftest.py``) for the trainer's tests, a set of
composed puzzles the server serves instead of the shipped ones, and a game where a shot
is missed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from damier.puzzles import Puzzle
from damier.server.services import puzzles as service
from tests.server.conftest import (  # noqa: F401  (fixtures)
    _drop_test_databases,
    another,
    client,
    database,
    make_app,
    sign_in,
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


MISSED_FEN = COMPOSED[0].fen
"""Russian, White to play: 16-11 7x16 12x17 wins a man (the first composed puzzle)."""
MISSED_LINE = ["31-27", "15-19"]
"""White misses it (31-27 loses the man on 16 instead: 15-19 16x23); Black's best reply."""


def play_from(
    host: TestClient, guest: TestClient, variant: str, fen: str | None, moves: list[str]
) -> str:
    """A game from ``fen`` (None: the variant's start) between ``host`` (White) and
    ``guest``: ``moves`` played, then resigned by the side to move. Its id."""
    created = host.post(
        "/api/games",
        json={"variant": variant, "opponent": "open", "color": "white", "fen": fen},
    )
    assert created.status_code == 201, created.text
    game_id: str = created.json()["id"]
    assert guest.post(f"/api/games/{game_id}/join").status_code == 200
    for ply, move in enumerate(moves):
        player = host if ply % 2 == 0 else guest
        answer = player.post(f"/api/games/{game_id}/moves", json={"move": move, "ply": ply})
        assert answer.status_code == 200, answer.text
    loser = host if len(moves) % 2 == 0 else guest
    assert loser.post(f"/api/games/{game_id}/resign").status_code == 200
    return game_id


def missed_shot_game(ana: TestClient) -> tuple[str, TestClient]:
    """Ana misses the composed Russian shot against Bob: the game's id, and Bob's client."""
    sign_in(ana, "Ana")
    bob = another(ana)
    sign_in(bob, "Bob")
    return play_from(ana, bob, "russian", MISSED_FEN, MISSED_LINE), bob
