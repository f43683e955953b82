"""``GET /api/games/{id}/review``: the engine's verdict on every position of a finished game
and the class of every move."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from damier.review import BLUNDER, judge
from tests.puzzles.conftest import MISSED_LINE, missed_shot_game, play_from
from tests.server.conftest import another, open_game, sign_in

BLUNDER_LINE = ["31-27", "18-23", "37-31"]
"""International: White's 37-31 leaves 23-29 34x23 19x26 and a man lost (33-28 or 34-29
hold)."""


def review_of(client: TestClient, game_id: str, timeout: float = 60.0) -> dict[str, Any]:
    """Ask for the review until it is done (202 while it is computed)."""
    deadline = time.monotonic() + timeout
    while True:
        answer = client.get(f"/api/games/{game_id}/review")
        if answer.status_code == 200:
            review: dict[str, Any] = answer.json()
            return review
        assert answer.status_code == 202, answer.text
        progress = answer.json()
        assert progress["status"] in ("queued", "running")
        assert 0 <= progress["done"] <= progress["total"]
        assert time.monotonic() < deadline, f"the review did not end: {progress}"
        time.sleep(0.1)


def play_and_resign(client: TestClient, moves: list[str]) -> str:
    sign_in(client, "Ana")
    bob = another(client)
    sign_in(bob, "Bob")
    return play_from(client, bob, "international", None, moves)


def test_a_finished_game_is_reviewed(client: TestClient) -> None:
    game_id = play_and_resign(client, BLUNDER_LINE)
    first = client.get(f"/api/games/{game_id}/review")
    assert first.status_code in (200, 202)
    if first.status_code == 202:
        assert first.json()["total"] == len(BLUNDER_LINE) + 1
        assert first.headers["retry-after"]
    review = review_of(client, game_id)
    assert review["id"] == game_id
    assert review["status"] == "done"
    positions = review["positions"]
    assert [p["ply"] for p in positions] == [0, 1, 2, 3]
    assert positions[0]["fen"] == "W:W31-50:B1-20"
    for position in positions:
        assert isinstance(position["score"], int)
        assert position["best"] is not None and position["best"]["notation"]
        assert position["pv"][0] == position["best"]["notation"]
    # The start is about level; after the blunder Black is a man up.
    assert abs(positions[0]["score"]) < 60
    assert positions[3]["score"] <= -BLUNDER
    assert positions[3]["turn"] == "black"
    moves = review["moves"]
    assert [m["notation"] for m in moves] == BLUNDER_LINE
    assert [m["color"] for m in moves] == ["white", "black", "white"]
    blunder = moves[2]
    assert blunder["judgement"] == "blunder", blunder
    assert blunder["loss"] >= BLUNDER
    assert blunder["best"] != "37-31"
    assert moves[0]["judgement"] == "good"
    assert review["thresholds"]["blunder"] == BLUNDER
    assert review["shots"] == []  # a blunder, but no shot missed: nothing to find
    # Asked again: the same review from the cache, at once.
    again = client.get(f"/api/games/{game_id}/review")
    assert again.status_code == 200
    assert again.json() == review


def test_the_review_offers_the_shot_a_player_missed(client: TestClient) -> None:
    game_id, _bob = missed_shot_game(client)
    review = review_of(client, game_id)
    assert review["moves"][0]["judgement"] == "blunder"
    [shot] = review["shots"]
    assert shot["id"] == f"shot-{game_id}-1"
    assert shot["ply"] == 1 and shot["color"] == "white"
    assert shot["played"] == MISSED_LINE[0] and shot["variant"] == "russian"
    assert shot["solver_moves"] == 2 and "sacrifice" in shot["themes"]
    assert "moves" not in shot  # the solution stays with the server


def test_an_unfinished_game_is_not_reviewed(client: TestClient) -> None:
    sign_in(client, "Ana")
    bob = another(client)
    sign_in(bob, "Bob")
    state = open_game(client, bob, variant="international")
    answer = client.get(f"/api/games/{state['id']}/review")
    assert answer.status_code == 409
    assert "finished" in answer.json()["detail"]
    assert client.get("/api/games/nosuchgame/review").status_code == 404


def test_a_game_without_moves_and_a_forced_capture(client: TestClient) -> None:
    # After 32-28 19-23, 28x19 is White's only legal move: it loses nothing, and the
    # position before it takes the value of the position after it.
    game_id = play_and_resign(client, ["32-28", "19-23", "28x19", "14x23"])
    review = review_of(client, game_id)
    positions, moves = review["positions"], review["moves"]
    assert len(positions) == 5
    assert moves[2]["forced"] is True and moves[2]["loss"] == 0
    assert positions[2]["best"]["notation"] == "28x19"
    assert positions[2]["score"] == positions[3]["score"]
    assert all(m["judgement"] in ("good", "inaccuracy") for m in moves)
    empty = play_and_resign(client, [])
    review = review_of(client, empty)
    assert len(review["positions"]) == 1 and review["moves"] == []


def test_thresholds() -> None:
    assert judge(0) == "good"
    assert judge(24) == "good"
    assert judge(25) == "inaccuracy"
    assert judge(50) == "mistake"
    assert judge(99) == "mistake"
    assert judge(100) == "blunder"
