"""What a game refuses: a start position that is already decided, and offers made faster
than a person makes them (a flood of draw offers or takeback requests to the opponent)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import AppFactory, FakeTime, another, open_game, sign_in


@pytest.mark.parametrize(
    ("variant", "fen", "who"),
    [
        ("international", "W:W31-50:B", "black"),
        ("international", "B:W:B1-20", "white"),
        ("russian-giveaway", "W:W21-32:B", "black"),
    ],
)
def test_a_decided_start_position_is_refused(
    client: TestClient, variant: str, fen: str, who: str
) -> None:
    sign_in(client, "Ana")
    answer = client.post(
        "/api/games", json={"variant": variant, "opponent": "open", "color": "white", "fen": fen}
    )
    assert answer.status_code == 400
    assert answer.json()["detail"] == f"the start position is already decided: {who} has no pieces"


def test_draw_offers_cannot_be_cycled(make_app: AppFactory) -> None:
    time = FakeTime()
    with TestClient(make_app(now=time)) as ana:
        sign_in(ana, "Ana")
        bob = another(ana)
        sign_in(bob, "Bob")
        game_id = open_game(ana, bob)["id"]
        offer, decline = {"action": "offer"}, {"action": "decline"}
        for _ in range(3):
            assert ana.post(f"/api/games/{game_id}/draw", json=offer).status_code == 200
            assert bob.post(f"/api/games/{game_id}/draw", json=decline).status_code == 200
        refused = ana.post(f"/api/games/{game_id}/draw", json=offer)
        assert refused.status_code == 429
        assert "wait 20 s" in refused.json()["detail"]
        assert ana.get(f"/api/games/{game_id}").json()["draw_offer"] is None
        # The opponent's own offers are his, and the wait ends.
        assert bob.post(f"/api/games/{game_id}/draw", json=offer).status_code == 200
        assert ana.post(f"/api/games/{game_id}/draw", json=decline).status_code == 200
        time.advance(20)
        assert ana.post(f"/api/games/{game_id}/draw", json=offer).status_code == 200


def test_takeback_requests_cannot_be_cycled(make_app: AppFactory) -> None:
    time = FakeTime()
    with TestClient(make_app(now=time)) as ana:
        sign_in(ana, "Ana")
        bob = another(ana)
        sign_in(bob, "Bob")
        state = open_game(ana, bob)
        game_id = state["id"]
        move = state["legal_moves"][0]["notation"]
        state = ana.post(f"/api/games/{game_id}/moves", json={"move": move, "ply": 0}).json()
        ask, decline = {"action": "propose"}, {"action": "decline"}
        for _ in range(3):
            assert ana.post(f"/api/games/{game_id}/takeback", json=ask).status_code == 200
            assert bob.post(f"/api/games/{game_id}/takeback", json=decline).status_code == 200
        refused = ana.post(f"/api/games/{game_id}/takeback", json=ask)
        assert refused.status_code == 429
        time.advance(20)
        assert ana.post(f"/api/games/{game_id}/takeback", json=ask).status_code == 200
