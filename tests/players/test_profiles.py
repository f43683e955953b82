"""A player's page (``GET /api/profiles/{name}``) after a few rated games."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from damier.server.services.ratings import Rating, rate
from tests.players.helpers import browser, drawn, register, won_by
from tests.server.conftest import AppFactory, FakeTime, another, open_game


@pytest.fixture
def clock() -> FakeTime:
    return FakeTime()


@pytest.fixture
def app_client(make_app: AppFactory, clock: FakeTime) -> Iterator[TestClient]:
    with TestClient(make_app(now=clock)) as client:
        yield client


def test_profile_after_rated_games(app_client: TestClient, clock: FakeTime) -> None:
    ana = app_client
    ana_id = register(ana, "Ana")
    bo, bo_id = browser(ana, "Bo")
    first = won_by(ana, bo)
    clock.advance(60)
    won_by(ana, bo)
    clock.advance(60)
    drawn(ana, bo, variant="international")
    clock.advance(60)
    last = won_by(bo, ana)
    clock.advance(60)

    page = ana.get("/api/profiles/ana").json()  # names are found whatever their case
    assert page["id"] == ana_id and page["name"] == "Ana" and page["registered"]
    ratings = {r["variant"]: r for r in page["ratings"]}
    assert set(ratings) == {"international", "russian"}
    russian = ratings["russian"]
    assert russian["games"] == 3
    assert russian["provisional"]  # three games leave the deviation far above 110
    history = russian["history"]
    assert history[0]["game"] == first
    assert history[-1]["game"] == last
    assert len(history) == 3
    # The chart's points are the ratings after each game, the last one today's rating.
    once = rate(Rating(), [(Rating(), 1.0)])
    assert history[0]["rating"] == pytest.approx(once.rating, abs=0.01)
    assert history[0]["rating"] < history[1]["rating"]
    assert history[2]["rating"] < history[1]["rating"]
    assert history[-1]["rating"] == russian["rating"]
    assert history[-1]["deviation"] == russian["deviation"]
    assert [point["at"] for point in history] == sorted(point["at"] for point in history)
    assert len(ratings["international"]["history"]) == 1

    results = page["results"]
    assert results["overall"] == {"wins": 2, "draws": 1, "losses": 1, "games": 4}
    by_variant = {t["variant"]: t for t in results["variants"]}
    assert by_variant["russian"] == {
        "variant": "russian",
        "wins": 2,
        "draws": 0,
        "losses": 1,
        "games": 3,
    }
    assert by_variant["international"]["draws"] == 1
    assert page["recent"][0]["id"] == last
    assert len(page["recent"]) == 4
    assert page["current"] == []
    assert page["versus_you"] is None  # Ana looks at her own page

    # Bo's page, as Ana sees it: the head-to-head is Bo's score against her.
    bo_page = ana.get("/api/profiles/Bo").json()
    assert bo_page["id"] == bo_id
    assert bo_page["results"]["overall"] == {"wins": 1, "draws": 1, "losses": 2, "games": 4}
    versus = bo_page["versus_you"]
    assert versus["opponent_id"] == ana_id
    assert versus["overall"] == {"wins": 1, "draws": 1, "losses": 2, "games": 4}

    # A third player has no games against Bo; a game Bo plays now is current.
    cy, _ = browser(ana, "Cy")
    playing = open_game(bo, cy)
    bo_page = cy.get("/api/profiles/Bo").json()
    assert bo_page["versus_you"]["overall"]["games"] == 0
    assert [game["id"] for game in bo_page["current"]] == [playing["id"]]


def test_unknown_player_and_guests(app_client: TestClient) -> None:
    assert app_client.get("/api/profiles/Nobody").status_code == 404
    guest = another(app_client)
    guest_id = guest.post("/api/session", json={"name": "Wanderer"}).json()["id"]
    page = app_client.get("/api/profiles/Wanderer").json()
    assert page["id"] == guest_id and not page["registered"]
    assert page["ratings"] == [] and page["results"]["overall"]["games"] == 0
    # A player is found by his id too.
    assert app_client.get(f"/api/profiles/{guest_id}").json()["name"] == "Wanderer"
