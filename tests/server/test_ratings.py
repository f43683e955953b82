"""Glicko-2 (Glickman's worked example) and the ratings of finished games."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from damier.server.services.ratings import Rating, rate
from tests.server.conftest import another, open_game, sign_in, wait_for

PASSWORD = "correct horse battery"


def test_glickmans_example() -> None:
    """Glickman, "Example of the Glicko-2 system": 1500/200/0.06 against 1400/30 (won),
    1550/100 (lost) and 1700/300 (lost). The paper rounds its intermediate steps and
    prints 1464.06 / 151.52 / 0.05999; unrounded the rating is 1464.0507."""
    player = Rating(1500.0, 200.0, 0.06)
    games = [
        (Rating(1400.0, 30.0), 1.0),
        (Rating(1550.0, 100.0), 0.0),
        (Rating(1700.0, 300.0), 0.0),
    ]
    new = rate(player, games, tau=0.5)
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.deviation == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)


def test_one_game_between_new_players() -> None:
    winner = rate(Rating(), [(Rating(), 1.0)])
    loser = rate(Rating(), [(Rating(), 0.0)])
    assert winner.rating > 1500 > loser.rating
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert winner.deviation < 350 and loser.deviation < 350
    drawn = rate(Rating(), [(Rating(), 0.5)])
    assert drawn.rating == pytest.approx(1500)


def test_without_games_only_the_deviation_grows() -> None:
    new = rate(Rating(1700.0, 50.0, 0.06), [])
    assert new.rating == 1700.0
    assert new.deviation == pytest.approx((50.0**2 + (0.06 * 173.7178) ** 2) ** 0.5)
    assert rate(Rating(), []).deviation == 350.0  # never above the initial deviation


def register(client: TestClient, name: str) -> str:
    answer = client.post("/api/register", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    player_id: str = answer.json()["id"]
    return player_id


def ratings(client: TestClient, player_id: str) -> list[dict[str, Any]]:
    answer: list[dict[str, Any]] = client.get(f"/api/players/{player_id}").json()["ratings"]
    return answer


def test_finished_game_between_registered_players_is_rated(client: TestClient) -> None:
    ana_id = register(client, "Ana")
    bo = another(client)
    bo_id = register(bo, "Bo")
    game = open_game(client, bo, variant="russian")
    assert bo.post(f"/api/games/{game['id']}/resign").status_code == 200
    (ana,) = ratings(client, ana_id)
    (bo_rating,) = ratings(client, bo_id)
    assert ana["variant"] == bo_rating["variant"] == "russian"
    assert ana["games"] == bo_rating["games"] == 1
    assert ana["rating"] > 1500 > bo_rating["rating"]
    assert ana["deviation"] < 350 and bo_rating["deviation"] < 350
    expected = rate(Rating(), [(Rating(), 1.0)])
    assert ana["rating"] == pytest.approx(expected.rating, abs=0.01)

    # A draw in another variant: a separate rating there, 1500 for both.
    game = open_game(client, bo, variant="international")
    client.post(f"/api/games/{game['id']}/draw", json={"action": "offer"})
    assert bo.post(f"/api/games/{game['id']}/draw", json={"action": "accept"}).status_code == 200
    by_variant = {r["variant"]: r for r in ratings(client, ana_id)}
    assert set(by_variant) == {"international", "russian"}
    assert by_variant["international"]["rating"] == pytest.approx(1500.0)
    assert by_variant["international"]["games"] == 1
    assert by_variant["russian"] == ana  # unchanged

    # The next game starts from the new ratings.
    game = open_game(client, bo, variant="russian")
    client.post(f"/api/games/{game['id']}/resign")
    ana_after = ratings(client, ana_id)
    russian = next(r for r in ana_after if r["variant"] == "russian")
    assert russian["games"] == 2
    assert russian["rating"] < ana["rating"]


def test_games_with_a_guest_are_not_rated(client: TestClient) -> None:
    ana_id = register(client, "Ana")
    guest = another(client)
    guest_id = sign_in(guest, "Guest")
    game = open_game(client, guest)
    guest.post(f"/api/games/{game['id']}/resign")
    assert ratings(client, ana_id) == []
    assert ratings(client, guest_id) == []
    # Registering later does not rate the games already played.
    register(guest, "Bo")
    assert ratings(guest, guest_id) == []


def test_games_against_the_computer_are_not_rated(client: TestClient) -> None:
    ana_id = register(client, "Ana")
    answer = client.post(
        "/api/games",
        json={"variant": "russian", "opponent": "computer", "level": 1, "color": "white"},
    )
    game_id = answer.json()["id"]
    assert client.post(f"/api/games/{game_id}/resign").status_code == 200
    wait_for(client, game_id, lambda state: state["status"] == "finished")
    assert ratings(client, ana_id) == []
