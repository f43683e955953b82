"""Moves stored from the game in memory (``moves.play_live``): the common case takes one
short transaction, and every other case (a copy behind the stored game, a refusal, the
move that ends the game) is decided from the stored game as before."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import AppFactory, FakeTime, another, open_game, sign_in
from tests.server.test_ratings import register

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "variants"


def _move(client: TestClient, game_id: str, state: dict[str, Any]) -> dict[str, Any]:
    move = state["legal_moves"][0]["notation"]
    answer = client.post(f"/api/games/{game_id}/moves", json={"move": move, "ply": state["ply"]})
    assert answer.status_code == 200, answer.text
    reply: dict[str, Any] = answer.json()
    return reply


def test_a_game_played_out_ends_rated_and_survives_a_restart(
    make_app: AppFactory, tmp_path: Path
) -> None:
    folder = tmp_path / "variants"
    folder.mkdir()
    shutil.copy(EXAMPLES / "mini.toml", folder)
    with TestClient(make_app(variants_dir=folder)) as ana:
        ana_id = register(ana, "Ana")
        bo = another(ana)
        register(bo, "Bo")
        state = open_game(ana, bo, variant="mini")
        game_id = state["id"]
        for _ in range(300):
            if state["status"] != "playing":
                break
            state = _move(ana if state["turn"] == "white" else bo, game_id, state)
        assert state["status"] == "finished" and state["result"] is not None
        assert state["legal_moves"] == []
        (rating,) = ana.get(f"/api/players/{ana_id}").json()["ratings"]
        assert rating["variant"] == "mini" and rating["games"] == 1
    with TestClient(make_app(variants_dir=folder)) as again:
        stored = again.get(f"/api/games/{game_id}").json()
        assert stored["result"] == state["result"]
        assert stored["moves"] == state["moves"]


def test_a_server_whose_copy_is_behind_takes_the_next_move(make_app: AppFactory) -> None:
    with TestClient(make_app()) as one, TestClient(make_app()) as two:
        sign_in(one, "Ana")
        bob = another(one)
        sign_in(bob, "Bob")
        state = open_game(one, bob)
        game_id = state["id"]
        state = _move(one, game_id, state)  # the first server's copy: ply 1
        bob_on_two = TestClient(two.app)
        bob_on_two.portal = two.portal
        bob_on_two.cookies.update(dict(bob.cookies))
        state = _move(bob_on_two, game_id, state)  # stored: ply 2
        # White's move reaches the first server, whose copy still has Black to move.
        state = _move(one, game_id, state)
        assert state["ply"] == 3
        seen = two.get(f"/api/games/{game_id}").json()
        assert [m["notation"] for m in seen["moves"]] == [m["notation"] for m in state["moves"]]
        # And the second server, behind in its turn, takes Black's reply.
        state = _move(bob_on_two, game_id, state)
        assert one.get(f"/api/games/{game_id}").json()["ply"] == 4


def test_refused_moves_change_nothing(client: TestClient) -> None:
    sign_in(client, "Ana")
    bob = another(client)
    sign_in(bob, "Bob")
    state = open_game(client, bob)
    game_id = state["id"]
    legal = state["legal_moves"][0]["notation"]
    moves = f"/api/games/{game_id}/moves"
    assert bob.post(moves, json={"move": legal, "ply": 0}).status_code == 409  # not his turn
    assert client.post(moves, json={"move": legal, "ply": 3}).status_code == 409  # stale
    assert client.post(moves, json={"move": "11-99", "ply": 0}).status_code == 400  # illegal
    assert client.get(f"/api/games/{game_id}").json()["ply"] == 0
    assert _move(client, game_id, state)["ply"] == 1


def test_the_state_after_a_move_is_the_state_read_afresh(make_app: AppFactory) -> None:
    """A move's state is made from the state before it (the seats and links kept, the
    position made again): it is the state a server makes from the stored game, move after
    move, with a clock running, a draw offer standing, after changes that are not moves."""
    now = FakeTime()
    with TestClient(make_app(now=now)) as ana:
        sign_in(ana, "Ana")
        bo = another(ana)
        sign_in(bo, "Bo")
        state = open_game(ana, bo, clock="5+3")
        game_id = state["id"]
        for ply in range(12):
            mover = ana if state["turn"] == "white" else bo
            if ply == 4:
                mover.post(f"/api/games/{game_id}/draw", json={"action": "offer"})
            if ply == 7:
                mover.post(f"/api/games/{game_id}/takeback", json={"action": "propose"})
            now.advance(1.5)
            state = _move(mover, game_id, state)
            assert state == mover.get(f"/api/games/{game_id}").json()
        with TestClient(make_app(now=now)) as fresh:
            assert fresh.get(f"/api/games/{game_id}").json() == {**state, "you": None}
