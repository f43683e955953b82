"""Quick pairing (``/api/pools``): players of one pool are paired into one game, by
rating, the accepted range widening with the wait."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.ext.asyncio import AsyncSession

from damier.server.services.pools import GONE_AFTER, _Waiting, pairs_of, rating_range
from damier.server.store.models import RatingRow
from tests.players.helpers import in_database
from tests.server.conftest import AppFactory, FakeTime, another, sign_in


@pytest.fixture
def clock() -> FakeTime:
    return FakeTime()


@pytest.fixture
def client(make_app: AppFactory, clock: FakeTime) -> Iterator[TestClient]:
    # No clock ticker between the test's requests: the pool steps are the requests'.
    with TestClient(make_app(now=clock, clock_tick=3600.0)) as test_client:
        yield test_client


def waiting(client: TestClient, variant: str, control: str) -> int:
    pools = client.get("/api/pools").json()["pools"]
    return sum(p["waiting"] for p in pools if p["variant"] == variant and p["clock"] == control)


def rated(client: TestClient, player_id: str, rating: float) -> None:
    async def work(session: AsyncSession) -> None:
        session.add(
            RatingRow(
                player_id=player_id,
                variant="russian",
                rating=rating,
                deviation=60.0,
                volatility=0.06,
                games=50,
                updated=0.0,
            )
        )

    in_database(client, work)


def test_two_players_in_a_pool_get_one_game(client: TestClient) -> None:
    ana_id = sign_in(client, "Ana")
    bo = another(client)
    bo_id = sign_in(bo, "Bo")
    first = client.post("/api/pools/russian/3+2")
    assert first.status_code == 200, first.text
    assert first.json()["you"]["game"] is None
    assert waiting(bo, "russian", "3+2") == 1
    # One waiting in another pool is not paired with her.
    cy = another(client)
    sign_in(cy, "Cy")
    assert cy.post("/api/pools/russian/5+3").json()["you"]["game"] is None

    paired = bo.post("/api/pools/russian/3+2").json()
    game_id = paired["you"]["game"]
    assert game_id is not None
    assert client.get("/api/pools").json()["you"]["game"] == game_id
    # Each is told once: back in the lobby later, nobody is sent to that game again.
    assert client.get("/api/pools").json()["you"] is None
    assert bo.get("/api/pools").json()["you"] is None
    assert waiting(client, "russian", "3+2") == 0
    assert waiting(client, "russian", "5+3") == 1
    game = client.get(f"/api/games/{game_id}").json()
    assert game["status"] == "playing"
    assert game["variant"] == "russian"
    assert game["clock"]["control"] == "3+2"
    assert {game["white"]["id"], game["black"]["id"]} == {ana_id, bo_id}
    # Exactly one game was made for the two.
    mine = client.get(f"/api/players/{ana_id}/games").json()["games"]
    assert [g["id"] for g in mine] == [game_id]

    # Leaving: Cy's pool is empty again.
    assert cy.delete("/api/pools").status_code == 204
    assert waiting(client, "russian", "5+3") == 0
    assert cy.get("/api/pools").json()["you"] is None
    assert bo.delete("/api/pools/russian/3+2").status_code == 204


def test_the_rating_range_widens_with_the_wait(client: TestClient, clock: FakeTime) -> None:
    sign_in(client, "Ana")  # 1500: new in the variant
    bo = another(client)
    bo_id = sign_in(bo, "Bo")
    rated(client, bo_id, 1800.0)
    client.post("/api/pools/russian/1+0")
    answer = bo.post("/api/pools/russian/1+0").json()
    assert answer["you"]["game"] is None  # 300 apart: too far for a new wait
    assert answer["you"]["rating"] == 1800.0
    clock.advance(15.0)  # both accept 250 now
    you = client.get("/api/pools").json()["you"]
    assert you["game"] is None and you["range"] == rating_range(15.0) == 250.0
    assert waiting(client, "russian", "1+0") == 2
    clock.advance(10.0)  # 350: they meet
    assert client.get("/api/pools").json()["you"]["game"] is not None
    assert bo.get("/api/pools").json()["you"]["game"] is not None


def test_a_silent_player_leaves_the_pool(client: TestClient, clock: FakeTime) -> None:
    sign_in(client, "Ana")
    client.post("/api/pools/russian/10+5")
    watcher = another(client)
    assert waiting(watcher, "russian", "10+5") == 1
    clock.advance(GONE_AFTER + 1.0)
    assert waiting(watcher, "russian", "10+5") == 0


def test_refusals(client: TestClient) -> None:
    sign_in(client, "Ana")
    assert client.post("/api/pools/russian/4+4").status_code == 400
    assert client.post("/api/pools/no-such-variant/3+2").status_code == 400
    assert client.get("/api/pools").json()["you"] is None


def test_pairs_take_the_nearest_rating() -> None:
    now = 100.0
    ana = _Waiting("ana", "russian", "3+2", 1500.0, 90.0)
    bo = _Waiting("bo", "russian", "3+2", 1590.0, 95.0)
    cy = _Waiting("cy", "russian", "3+2", 1520.0, 99.0)
    dov = _Waiting("dov", "russian", "3+2", 2500.0, 99.0)
    pairs = pairs_of([dov, bo, cy, ana], now)
    assert [(a.player_id, b.player_id) for a, b in pairs] == [("ana", "cy")]
    # Bo and Dov are 910 apart: they meet once the longer wait accepts it.
    later = pairs_of([bo, dov], 95.0 + (910.0 - 100.0) / 10.0)
    assert [(a.player_id, b.player_id) for a, b in later] == [("bo", "dov")]


def test_two_servers_pair_a_player_once(make_app: AppFactory, clock: FakeTime) -> None:
    """The pools are the database's: two processes running the pool step at once make
    one game of two waiting players (a pair is claimed by one conditional update)."""
    from concurrent.futures import ThreadPoolExecutor

    from sqlalchemy import func, select

    from damier.server.services.pools import pair_pools
    from damier.server.store.history import PoolEntryRow
    from damier.server.store.models import GameRow

    with (
        TestClient(make_app(now=clock, clock_tick=3600.0)) as one,
        TestClient(make_app(now=clock, clock_tick=3600.0)) as two,
    ):
        ids = [sign_in(one, "Ana"), sign_in(two, "Bo")]

        async def wait_both(session: AsyncSession) -> None:
            for player_id in ids:
                session.add(
                    PoolEntryRow(
                        player_id=player_id,
                        variant="russian",
                        clock="3+2",
                        rating=1500.0,
                        joined=clock(),
                        seen=clock(),
                    )
                )

        in_database(one, wait_both)

        def step(client: TestClient) -> int:
            services = client.app.state.services  # type: ignore[attr-defined]
            assert client.portal is not None
            made: int = client.portal.call(lambda: pair_pools(services=services))
            return made

        with ThreadPoolExecutor(2) as pool:
            made = list(pool.map(step, [one, two, one, two]))
        assert sum(made) == 1

        async def games(session: AsyncSession) -> int:
            return int(await session.scalar(select(func.count()).select_from(GameRow)) or 0)

        assert in_database(two, games) == 1
        game = one.get("/api/pools").json()["you"]["game"]
        assert game is not None and two.get("/api/pools").json()["you"]["game"] == game
