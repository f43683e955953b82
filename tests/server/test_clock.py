"""The server keeps the clocks: a flag fall ends the game, found by the periodic check or
by the next move. The clocks start with the players' first moves (``test_table``)."""

from __future__ import annotations

import time as real_time
from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import (
    AppFactory,
    FakeTime,
    another,
    open_game,
    receive,
    sign_in,
    wait_for,
)


def first_moves(white: TestClient, black: TestClient, state: dict[str, Any]) -> dict[str, Any]:
    """Both players' first moves, after which the clock runs (White's)."""
    for ply, player in enumerate((white, black)):
        move = state["legal_moves"][0]["notation"]
        answer = player.post(f"/api/games/{state['id']}/moves", json={"move": move, "ply": ply})
        assert answer.status_code == 200, answer.text
        state = answer.json()
    return state


def test_the_periodic_check_ends_a_game_on_time(make_app: AppFactory) -> None:
    time = FakeTime()
    with TestClient(make_app(now=time)) as client:
        sign_in(client, "Ana")
        bob = another(client)
        sign_in(bob, "Bob")
        state = first_moves(client, bob, open_game(client, bob, clock="1"))
        with client.websocket_connect(f"/ws/games/{state['id']}") as socket:
            assert receive(socket)["game"]["clock"]["white"] == 60.0
            time.advance(61)
            frame = receive(socket)
            assert frame["type"] == "state"
            game = frame["game"]
        assert game["status"] == "finished"
        assert game["result"] == {"pdn": "0-2", "winner": "black", "reason": "time forfeit"}
        assert game["clock"]["white"] == 0.0
        assert game["clock"]["running"] is None


def test_a_move_after_the_flag_fell_is_refused(make_app: AppFactory) -> None:
    time = FakeTime()
    with TestClient(make_app(now=time, clock_tick=3600)) as client:
        sign_in(client, "Ana")
        bob = another(client)
        sign_in(bob, "Bob")
        state = first_moves(client, bob, open_game(client, bob, clock="1+0"))
        time.advance(60.5)
        move = state["legal_moves"][0]["notation"]
        answer = client.post(f"/api/games/{state['id']}/moves", json={"move": move, "ply": 2})
        assert answer.status_code == 409
        assert "time" in answer.json()["detail"]
        after = client.get(f"/api/games/{state['id']}").json()
        assert after["ply"] == 2
        assert after["result"]["reason"] == "time forfeit"


def test_a_short_real_clock_runs_out(make_app: AppFactory) -> None:
    with TestClient(make_app()) as client:
        sign_in(client, "Ana")
        bob = another(client)
        sign_in(bob, "Bob")
        state = first_moves(client, bob, open_game(client, bob, clock="0.02"))  # 1.2 seconds
        started = real_time.monotonic()
        finished = wait_for(client, state["id"], lambda s: s["status"] == "finished", 10)
        assert finished["result"]["winner"] == "black"
        assert real_time.monotonic() - started < 8
