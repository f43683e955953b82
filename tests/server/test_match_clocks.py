"""Every game times the side to move from its first position: the games of a match that
start from an opening (every International match game, Spanish games 3 and 4) have the
first-move deadline and then the clock of a game from the start, and they are the same
after a restart, including a restart after the player's time ran out."""

from __future__ import annotations

import logging
from time import sleep
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import AppFactory, FakeTime, another, sign_in, wait_for
from tests.server.test_matches import both_ready, finish, game_of, new_match

FIRST_MOVE = 30.0  # the settings' default first-move time


def _pair(client: TestClient) -> dict[str, TestClient]:
    sign_in(client, "Ana")
    bob = another(client)
    sign_in(bob, "Bob")
    return {"Ana": client, "Bob": bob}


def _players(players: dict[str, TestClient], state: dict[str, Any]) -> tuple[TestClient, ...]:
    return players[state["white"]["name"]], players[state["black"]["name"]]


def _move(client: TestClient, state: dict[str, Any]) -> dict[str, Any]:
    move = state["legal_moves"][0]["notation"]
    answer = client.post(
        f"/api/games/{state['id']}/moves", json={"move": move, "ply": state["ply"]}
    )
    assert answer.status_code == 200, answer.text
    played: dict[str, Any] = answer.json()
    return played


def _wait_match(client: TestClient, match_id: str, condition: Any) -> dict[str, Any]:
    for _ in range(600):
        match: dict[str, Any] = client.get(f"/api/matches/{match_id}").json()
        if condition(match):
            return match
        sleep(0.05)
    raise AssertionError(f"timed out; last state: {match}")


def test_an_international_match_game_from_its_opening_has_a_first_move_deadline(
    make_app: AppFactory,
) -> None:
    time = FakeTime()
    with TestClient(make_app(now=time)) as client:
        players = _pair(client)
        match = new_match(client, players["Bob"], variant="international", games=2, clock="1+0")
        state = game_of(client, match)
        assert state["ply"] == 2  # the opening is played
        assert state["first_move_deadline"] == pytest.approx(time() + FIRST_MOVE)
        time.advance(FIRST_MOVE + 1)  # White leaves: his first move is late, the game lost
        state = wait_for(client, state["id"], lambda s: s["status"] == "finished")
        assert state["result"]["winner"] == "black"
        assert "time" in state["result"]["reason"]
        match = _wait_match(client, match["id"], lambda m: m["players"][1]["score"] == 1.0)
        assert match["status"] == "playing"


def test_the_clock_of_a_match_game_starts_after_the_players_first_moves(
    make_app: AppFactory,
) -> None:
    time = FakeTime()
    with TestClient(make_app(now=time)) as client:
        players = _pair(client)
        match = new_match(client, players["Bob"], variant="international", games=2, clock="1+0")
        state = game_of(client, match)
        white, black = _players(players, state)
        time.advance(20)
        state = _move(white, state)
        assert state["clock"]["running"] is None  # Black has not moved yet
        assert state["first_move_deadline"] == pytest.approx(time() + FIRST_MOVE)
        time.advance(5)
        state = _move(black, state)
        assert state["clock"] == {
            "control": "1+0",
            "white": 60.0,
            "black": 60.0,
            "running": "white",
        }
        time.advance(61)  # White leaves now: his flag falls
        state = wait_for(client, state["id"], lambda s: s["status"] == "finished")
        assert state["result"]["winner"] == "black"


def test_spanish_games_three_and_four_have_a_first_move_deadline(make_app: AppFactory) -> None:
    time = FakeTime()
    with TestClient(make_app(now=time, match_pause=0)) as client:
        players = _pair(client)
        match = new_match(client, players["Bob"])
        match = finish(players, match, "Bob")
        match = both_ready(players, match)
        match = finish(players, match, "Ana")
        match = both_ready(players, match)
        state = game_of(client, match)
        assert state["ply"] == 2 and state["first_move_deadline"] is not None
        white = state["white"]["name"]
        time.advance(FIRST_MOVE + 1)
        state = wait_for(client, state["id"], lambda s: s["status"] == "finished")
        assert state["result"]["winner"] == "black"
        match = _wait_match(
            client, match["id"], lambda m: sum(p["score"] for p in m["players"]) == 3
        )
        scores = {p["name"]: p["score"] for p in match["players"]}
        assert scores[white] == 1.0


def test_a_match_game_is_the_same_after_a_restart(make_app: AppFactory) -> None:
    """Kill and restart after thinking time: same plies, same clocks, playable."""
    time = FakeTime()
    with TestClient(make_app(now=time)) as client:
        players = _pair(client)
        match = new_match(client, players["Bob"], variant="international", games=2, clock="10+5")
        state = game_of(client, match)
        white, black = _players(players, state)
        time.advance(25)
        state = _move(white, state)
        time.advance(4.5)
        state = _move(black, state)
        time.advance(12.25)
        state = _move(white, state)
        live = white.get(f"/api/games/{state['id']}").json()
        cookies = dict(white.cookies)
    time.advance(3)
    with TestClient(make_app(now=time)) as client:
        client.cookies.update(cookies)
        again = client.get(f"/api/games/{state['id']}")
        assert again.status_code == 200, again.text
        rebuilt = again.json()
        assert rebuilt["moves"] == live["moves"]
        assert rebuilt["clock"]["running"] == live["clock"]["running"] == "black"
        assert rebuilt["clock"]["white"] == pytest.approx(live["clock"]["white"], abs=0.1)
        assert rebuilt["clock"]["black"] == pytest.approx(live["clock"]["black"] - 3, abs=0.1)
        assert rebuilt["clock"]["white"] == pytest.approx(600 + 5 - 12.25, abs=0.1)


def test_a_match_game_whose_time_ran_out_while_the_server_was_down_is_finished(
    make_app: AppFactory, caplog: pytest.LogCaptureFixture
) -> None:
    time = FakeTime()
    with TestClient(make_app(now=time)) as client:
        players = _pair(client)
        match = new_match(client, players["Bob"], variant="international", games=2, clock="1+0")
        state = game_of(client, match)
        white, black = _players(players, state)
        time.advance(25)
        state = _move(white, state)
        time.advance(5)
        state = _move(black, state)
        loser = state["white"]["name"]
    time.advance(120)  # the server is down while White's minute runs out
    caplog.set_level(logging.INFO, logger="damier.server")
    with TestClient(make_app(now=time)) as client:
        again = client.get(f"/api/games/{state['id']}")
        assert again.status_code == 200, again.text
        ended = wait_for(client, state["id"], lambda s: s["status"] == "finished")
        assert ended["result"]["winner"] == "black"
        assert ended["clock"]["white"] <= 0
        match = _wait_match(client, match["id"], lambda m: m["players"][1]["score"] == 1.0)
        assert match["status"] == "playing"
        names = {p["name"]: p["score"] for p in match["players"]}
        assert names[loser] == 0.0
    lines = [r.getMessage() for r in caplog.records if state["id"] in r.getMessage()]
    assert any("lost on time" in line for line in lines), lines
