"""Missed shots: found by a game's review, solved in the trainer (never rated), listed in
the player's "my missed shots", and searched once per game."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from damier.server.services import shots
from tests.puzzles.conftest import COMPOSED, MISSED_FEN, missed_shot_game
from tests.puzzles.test_api import attempt
from tests.server.conftest import AppFactory
from tests.server.test_review import review_of


def test_a_missed_shot_is_solved_in_the_trainer_and_listed_as_mine(client: TestClient) -> None:
    game_id, bob = missed_shot_game(client)
    [found] = review_of(client, game_id)["shots"]
    shot_id = found["id"]

    opened = client.get(f"/api/puzzles/shots/{shot_id}").json()
    puzzle = opened["puzzle"]
    assert puzzle["id"] == shot_id and puzzle["fen"] == MISSED_FEN
    assert puzzle["color"] == "white" and puzzle["solver_moves"] == 2
    assert not puzzle["tried"] and opened["mine"]
    assert opened["shot"]["game_id"] == game_id and opened["shot"]["attempts"] == 0

    wrong = attempt(client, shot_id, ["31-27"])
    assert wrong["status"] == "wrong" and wrong["expected"] == "16-11"
    assert not wrong["rated"] and wrong["player"] is None
    right = attempt(client, shot_id, ["16-11"])
    assert right["status"] == "right" and right["reply"]["notation"] == "7x16"
    solved = attempt(client, shot_id, ["16-11", "12x17"])
    assert solved["status"] == "solved" and not solved["rated"]
    assert solved["solution"] == list(COMPOSED[0].moves)

    # Ana's list has it with her two finished attempts; the puzzle ratings did not move.
    [mine] = client.get("/api/puzzles/shots").json()["shots"]
    assert mine["id"] == shot_id and (mine["attempts"], mine["solved"]) == (2, 1)
    assert client.get("/api/puzzles/shots?variant=russian").json()["shots"] == [mine]
    assert client.get("/api/puzzles/shots?variant=international").json()["shots"] == []
    assert client.get("/api/puzzles/russian/history").json()["attempts"] == []
    assert client.get(f"/api/puzzles/shots/{shot_id}").json()["puzzle"]["tried"]

    # Bob may practise it too, his attempts are not counted; it is not in his list.
    assert client.get("/api/puzzles/shots?variant=nowhere").status_code == 404
    assert not bob.get(f"/api/puzzles/shots/{shot_id}").json()["mine"]
    assert attempt(bob, shot_id, ["16-11", "12x17"])["status"] == "solved"
    assert bob.get("/api/puzzles/shots").json()["shots"] == []
    assert client.get("/api/puzzles/shots").json()["shots"][0]["attempts"] == 2
    assert client.get("/api/puzzles/shots/shot-nothing-1").status_code == 404
    assert client.post("/api/puzzles/shot-nothing-1/attempt", json={"moves": []}).status_code == 404


def test_a_game_is_searched_once(
    client: TestClient, make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, _bob = missed_shot_game(client)
    first = review_of(client, game_id)["shots"]
    assert len(first) == 1

    def examined_again(*args: object) -> None:
        raise AssertionError("the finder ran again")

    # Another process (its reviews are its own) reads what the first one stored.
    monkeypatch.setattr(shots._finders, "examine", examined_again)
    with TestClient(make_app()) as other:
        assert review_of(other, game_id)["shots"] == first
