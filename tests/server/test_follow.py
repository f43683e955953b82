"""Processes that share games through Redis keep their copies of a game up with the moves
made on the others: with the players on two processes, a move costs no replay of the game
from the database, and both copies agree with the stored game, clocks included."""

from __future__ import annotations

from time import sleep
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damier.server.services import stored
from tests.server.conftest import AppFactory, FakeTime, sign_in
from tests.server.test_redis import redis_url  # noqa: F401 (a fixture)


def _copy(client: TestClient, game_id: str, version: int) -> Any:
    """The process's copy of the game once it holds ``version`` (the delta comes through
    Redis a moment after the answer), or None if it dropped it."""
    services = client.app.state.services  # type: ignore[attr-defined]
    for _ in range(200):
        live = services.live.get(game_id)
        if live is None or live.version >= version:
            return live
        sleep(0.01)
    return services.live.get(game_id)


def test_the_other_process_follows_every_move(
    make_app: AppFactory,
    redis_url: str,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    time = FakeTime()
    rebuilt: list[str] = []
    rebuild = stored.rebuild

    def counted(row: Any, moves: Any, services: Any) -> Any:
        rebuilt.append(row.id)
        return rebuild(row, moves, services)

    monkeypatch.setattr(stored, "rebuild", counted)
    with (
        TestClient(make_app(now=time, redis_url=redis_url)) as one,
        TestClient(make_app(now=time, redis_url=redis_url)) as two,
    ):
        sign_in(one, "Ana")
        sign_in(two, "Bob")
        created = one.post(
            "/api/games",
            json={"variant": "international", "opponent": "open", "color": "white", "clock": "5+3"},
        ).json()
        game_id = created["id"]
        state = two.post(f"/api/games/{game_id}/join").json()
        players = {"white": one, "black": two}
        for ply in range(12):
            if ply == 2:
                rebuilt.clear()  # each process has read the game once: none again
            time.advance(1.25 + ply)
            mover = players[state["turn"]]
            move = state["legal_moves"][0]["notation"]
            answer = mover.post(f"/api/games/{game_id}/moves", json={"move": move, "ply": ply})
            assert answer.status_code == 200, answer.text
            state = answer.json()
            other = two if mover is one else one
            live = _copy(other, game_id, ply + 3)  # versions: created 1, joined 2
            if ply >= 1:
                assert live is not None and live.game.ply == ply + 1
        assert rebuilt == []
        # The copies agree with each other and with the stored game.
        seen = [client.get(f"/api/games/{game_id}").json() for client in (one, two)]
        for client in (one, two):
            client.app.state.services.forget(game_id)  # type: ignore[attr-defined]
        read_afresh = one.get(f"/api/games/{game_id}").json()
        for view in seen:
            for key in ("fen", "ply", "clock", "moves", "legal_moves", "first_move_deadline"):
                assert view[key] == read_afresh[key], key
