"""The trainer's API: the next puzzle, attempts checked by the server, ratings that move."""

from __future__ import annotations

from fastapi.testclient import TestClient

from damier.puzzles import Puzzle
from tests.server.conftest import another, sign_in


def attempt(client: TestClient, puzzle_id: str, moves: list[str], give_up: bool = False) -> dict:
    answer = client.post(
        f"/api/puzzles/{puzzle_id}/attempt", json={"moves": moves, "give_up": give_up}
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_the_sets_count_puzzles_and_themes(client: TestClient, composed: list[Puzzle]) -> None:
    sets = {s["variant"]: s for s in client.get("/api/puzzles").json()}
    assert sets["russian"]["count"] == 2
    assert sets["russian"]["themes"]["crowning"] == 1
    assert sets["english"]["count"] == 0
    assert len(sets) == 8


def test_a_guest_solves_a_puzzle_move_by_move_and_both_ratings_move(
    client: TestClient, composed: list[Puzzle]
) -> None:
    next_ = client.get("/api/puzzles/international/next").json()
    puzzle = next_["puzzle"]
    assert puzzle["id"] == "international-composed1"
    assert puzzle["color"] == "white" and puzzle["solver_moves"] == 3
    assert "moves" not in puzzle and "solution" not in puzzle
    assert "23-18" in {m["notation"] for m in puzzle["legal_moves"]}
    assert next_["player"]["rating"] == 1500.0
    first = attempt(client, puzzle["id"], ["23-18"])
    assert first["status"] == "right" and first["solution"] is None
    assert first["reply"]["notation"] == "28x26"
    assert {m["notation"] for m in first["legal_moves"]} >= {"18x7"}
    second = attempt(client, puzzle["id"], ["23-18", "18x7"])
    assert second["status"] == "right" and second["reply"]["notation"] == "8-12"
    done = attempt(client, puzzle["id"], ["23-18", "18x7", "7x18"])
    assert done["status"] == "solved" and done["rated"]
    assert done["solution"] == ["23-18", "28x26", "18x7", "8-12", "7x18"]
    assert done["player"]["rating"] > 1500.0 and done["player"]["streak"] == 1
    assert done["puzzle_rating"] < 1540.0
    # A second try is not rated; the history has both.
    again = attempt(client, puzzle["id"], ["23-18", "18x7", "7x18"])
    assert again["status"] == "solved" and not again["rated"]
    assert again["player"]["rating"] == done["player"]["rating"]
    history = client.get("/api/puzzles/international/history").json()
    assert [(a["solved"], a["rated"]) for a in history["attempts"]] == [(True, False), (True, True)]
    assert history["player"]["solved"] == 1


def test_a_wrong_move_fails_the_puzzle_and_costs_rating(
    client: TestClient, composed: list[Puzzle]
) -> None:
    sign_in(client, "Solver")
    wrong = attempt(client, "russian-composed1", ["31-27"])
    assert wrong["status"] == "wrong" and wrong["rated"]
    assert wrong["expected"] == "16-11"
    assert wrong["solution"] == ["16-11", "7x16", "12x17"]
    assert wrong["player"]["rating"] < 1500.0 and wrong["player"]["streak"] == 0
    assert wrong["puzzle_rating"] > 1320.0
    # A wrong move later in the line fails too; giving up shows the solution.
    other = another(client)
    late = attempt(other, "russian-composed2", ["15-10"])
    assert late["status"] == "right"
    given_up = attempt(other, "russian-composed2", ["15-10"], give_up=True)
    assert given_up["status"] == "wrong" and given_up["expected"] == "10x26"
    assert given_up["rated"] and given_up["player"]["rating"] < 1500.0


def test_the_server_refuses_illegal_and_excess_moves(
    client: TestClient, composed: list[Puzzle]
) -> None:
    illegal = client.post("/api/puzzles/russian-composed1/attempt", json={"moves": ["1-5"]})
    assert illegal.status_code == 400
    extra = ["16-11", "12x17", "17-13"]
    answer = client.post("/api/puzzles/russian-composed1/attempt", json={"moves": extra})
    assert answer.status_code == 400
    missing = client.post("/api/puzzles/nope/attempt", json={"moves": ["16-11"]})
    assert missing.status_code == 404
    assert (
        client.post("/api/puzzles/russian-composed1/attempt", json={"moves": []}).status_code == 400
    )


def test_next_prefers_untried_puzzles_and_filters_by_theme(
    client: TestClient, composed: list[Puzzle]
) -> None:
    crowning = client.get("/api/puzzles/russian/next?theme=crowning").json()
    assert crowning["puzzle"]["id"] == "russian-composed2"
    attempt(client, "russian-composed1", ["16-11", "12x17"])
    for _ in range(5):
        chosen = client.get("/api/puzzles/russian/next").json()
        assert chosen["puzzle"]["id"] == "russian-composed2" and not chosen["puzzle"]["tried"]
    streak = client.get("/api/puzzles/russian/next?mode=streak").json()
    assert streak["mode"] == "streak" and streak["player"]["streak"] == 1
    assert client.get("/api/puzzles/russian/next?theme=nothing").status_code == 400
    assert client.get("/api/puzzles/english/next").status_code == 404
    assert client.get("/api/puzzles/nowhere/next").status_code == 404
