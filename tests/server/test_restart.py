"""Games survive a restart (clocks included), and two servers can share one database."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from damier.notation.pdn import read_pdn
from damier.rules import variants
from tests.server.conftest import AppFactory, FakeTime, another, open_game, sign_in, wait_for

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "variants"


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


def test_a_game_whose_variant_is_gone_does_not_stop_the_start(
    make_app: AppFactory,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    folder = tmp_path / "variants"
    folder.mkdir()
    mini = (EXAMPLES / "mini.toml").read_text(encoding="utf-8")
    (folder / "gone.toml").write_text(mini.replace('name = "mini"', 'name = "gone"'))
    time = FakeTime()
    with TestClient(make_app(now=time, variants_dir=folder)) as client:
        sign_in(client, "Ana")
        game = client.post(
            "/api/games",
            json={"variant": "gone", "opponent": "computer", "level": 1, "color": "white"},
        ).json()
        game_id = game["id"]
        move = game["legal_moves"][0]["notation"]
        client.post(f"/api/games/{game_id}/moves", json={"move": move, "ply": 0})
        wait_for(client, game_id, lambda state: state["ply"] == 2, timeout=120)
        pdn = client.get(f"/api/games/{game_id}/pdn").text
        cookies = dict(client.cookies)
    monkeypatch.delitem(variants._REGISTRY, "gone")  # the server starts without the folder
    time.advance(3600)  # past any clock: the clock task meets the game too
    with (
        caplog.at_level(logging.WARNING, "damier.server"),
        TestClient(make_app(now=time)) as client,
    ):
        client.cookies.update(cookies)
        assert f"not resumed: game {game_id} is played in variant 'gone'" in caplog.text
        answer = client.get(f"/api/games/{game_id}")
        assert answer.status_code == 409 and "'gone'" in answer.json()["detail"]
        move = client.post(f"/api/games/{game_id}/moves", json={"move": "1-2", "ply": 2})
        assert move.status_code == 409
        stored = client.get(f"/api/games/{game_id}/pdn")
        assert stored.status_code == 200
        (before,), (after,) = read_pdn(pdn), read_pdn(stored.text)
        assert [n.text for n in after.moves] == [n.text for n in before.moves]
        assert len(after.moves) == 2 and after.result == "*"
        assert after.tags["Variant"] == "gone" and after.tags["White"] == before.tags["White"]
        listed = client.get("/api/games").json()
        assert [g["status"] for g in listed if g["id"] == game_id] == ["playing"]
        other = open_game(client, another(client))  # the server goes on serving
        assert other["status"] == "playing"
