"""Games survive a restart (clocks included), and two servers can share one database."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from tests.server.conftest import AppFactory, FakeTime, another, open_game, sign_in


def test_a_game_survives_a_restart(make_app: AppFactory, database: Path) -> None:
    time = FakeTime()
    with TestClient(make_app(now=time)) as client:
        ana_id = sign_in(client, "Ana")
        bob = another(client)
        sign_in(bob, "Bob")
        state = open_game(client, bob, variant="international", clock="5+3")
        game_id = state["id"]
        time.advance(10)
        move = state["legal_moves"][0]["notation"]
        state = client.post(f"/api/games/{game_id}/moves", json={"move": move, "ply": 0}).json()
        assert state["clock"] == {  # no clock runs before each side has moved
            "control": "5+3",
            "white": 300.0,
            "black": 300.0,
            "running": None,
        }
        time.advance(4)
        reply = state["legal_moves"][0]["notation"]
        bob.post(f"/api/games/{game_id}/draw", json={"action": "offer"})
        state = bob.post(f"/api/games/{game_id}/moves", json={"move": reply, "ply": 1}).json()
        cookies = dict(client.cookies)
    time.advance(20)  # the server is down for 20 s; White's clock runs on
    with TestClient(make_app(now=time)) as client:
        client.cookies.update(cookies)
        again = client.get(f"/api/games/{game_id}").json()
        assert again["you"] == "white"
        assert again["white"]["id"] == ana_id
        assert again["ply"] == 2
        assert again["fen"] == state["fen"]
        assert again["moves"] == state["moves"]
        assert again["draw_offer"] == "black"
        assert again["clock"] == {
            "control": "5+3",
            "white": 280.0,
            "black": 300.0,
            "running": "white",
        }
        # Play goes on where it stopped.
        move = again["legal_moves"][0]["notation"]
        answer = client.post(f"/api/games/{game_id}/moves", json={"move": move, "ply": 2})
        assert answer.status_code == 200
        assert answer.json()["clock"]["white"] == 283.0


def test_a_finished_game_survives_a_restart(make_app: AppFactory) -> None:
    with TestClient(make_app()) as client:
        sign_in(client, "Ana")
        bob = another(client)
        sign_in(bob, "Bob")
        state = open_game(client, bob, clock="3+2")
        client.post(f"/api/games/{state['id']}/resign")
    with TestClient(make_app()) as client:
        again = client.get(f"/api/games/{state['id']}").json()
        assert again["status"] == "finished"
        assert again["result"]["reason"] == "resignation"
        assert again["clock"]["running"] is None
        assert again["legal_moves"] == []


def test_two_servers_share_one_database(make_app: AppFactory) -> None:
    with TestClient(make_app()) as one, TestClient(make_app()) as two:
        sign_in(one, "Ana")
        bob = another(one)
        sign_in(bob, "Bob")
        state = open_game(one, bob)
        game_id = state["id"]
        # Both processes have the game in memory now.
        assert two.get(f"/api/games/{game_id}").json()["ply"] == 0
        move = state["legal_moves"][0]["notation"]
        assert one.post(f"/api/games/{game_id}/moves", json={"move": move, "ply": 0}).is_success
        seen = two.get(f"/api/games/{game_id}").json()
        assert seen["ply"] == 1
        assert seen["moves"][0]["notation"] == move
        # The other server accepts the next move with the same cookie (same secret).
        bob_on_two = TestClient(two.app)
        bob_on_two.portal = two.portal
        bob_on_two.cookies.update(dict(bob.cookies))
        reply = seen["legal_moves"][0]["notation"]
        answer = bob_on_two.post(f"/api/games/{game_id}/moves", json={"move": reply, "ply": 1})
        assert answer.status_code == 200, answer.text
        # A stale move on the first server (whose cache is behind) is refused.
        stale = bob.post(f"/api/games/{game_id}/moves", json={"move": reply, "ply": 1})
        assert stale.status_code == 409
        assert one.get(f"/api/games/{game_id}").json()["ply"] == 2
