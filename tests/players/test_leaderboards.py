"""Leaderboards (``GET /api/leaderboards/{variant}``): the active established players,
best first, and the viewer's place."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from damier.server.services.leaderboards import ACTIVE_DAYS, DAY
from damier.server.store.models import PlayerRow, RatingRow
from tests.players.helpers import in_database, register
from tests.server.conftest import AppFactory, FakeTime

NOW = 1_800_000_000.0


@pytest.fixture
def client(make_app: AppFactory) -> Iterator[TestClient]:
    with TestClient(make_app(now=FakeTime(NOW))) as test_client:
        yield test_client


def add_players(client: TestClient, players: dict[str, tuple[float, float, float, bool]]) -> None:
    """Players by name: (rating, deviation, days since the last rated game, registered)."""

    async def work(session: AsyncSession) -> None:
        for name, (rating, deviation, days, registered) in players.items():
            session.add(
                PlayerRow(
                    id=name.lower(),
                    name=name,
                    name_key=name.lower(),
                    created=NOW - 400 * DAY,
                    password_hash="$argon2id$not-a-real-hash" if registered else None,
                )
            )
            session.add(
                RatingRow(
                    player_id=name.lower(),
                    variant="russian",
                    rating=rating,
                    deviation=deviation,
                    volatility=0.06,
                    games=40,
                    updated=NOW - days * DAY,
                )
            )

    in_database(client, work)


def set_rating(client: TestClient, player_id: str, rating: float, deviation: float) -> None:
    async def work(session: AsyncSession) -> None:
        session.add(
            RatingRow(
                player_id=player_id,
                variant="russian",
                rating=rating,
                deviation=deviation,
                volatility=0.06,
                games=30,
                updated=NOW - DAY,
            )
        )

    in_database(client, work)


def test_order_filters_and_your_place(client: TestClient) -> None:
    add_players(
        client,
        {
            "Ada": (1900.0, 60.0, 1.0, True),
            "Bea": (2000.0, 70.0, 3.0, True),
            "Cid": (2100.0, 120.0, 1.0, True),  # provisional: not ranked
            "Dov": (2200.0, 50.0, ACTIVE_DAYS + 1.0, True),  # inactive: not ranked
            "Eli": (2300.0, 50.0, 1.0, False),  # a guest: not ranked
        },
    )
    viewer = register(client, "Viewer")
    set_rating(client, viewer, 1950.0, 75.0)
    board = client.get("/api/leaderboards/russian").json()
    assert [entry["name"] for entry in board["players"]] == ["Bea", "Viewer", "Ada"]
    assert [entry["place"] for entry in board["players"]] == [1, 2, 3]
    assert board["deviation_limit"] == 80.0
    assert board["you"]["place"] == 2 and board["you"]["why_not"] is None
    assert client.get("/api/leaderboards/russian?limit=1").json()["players"][0]["name"] == "Bea"
    # Another variant has nobody yet; the viewer has no rating there.
    other = client.get("/api/leaderboards/international").json()
    assert other["players"] == [] and other["you"]["why_not"] == "no rated game yet"

    # With a deviation above the limit, the viewer is not ranked, and says why.
    async def unsettle(session: AsyncSession) -> None:
        await session.execute(
            update(RatingRow).where(RatingRow.player_id == viewer).values(deviation=95.0)
        )

    in_database(client, unsettle)
    board = client.get("/api/leaderboards/russian").json()
    assert [entry["name"] for entry in board["players"]] == ["Bea", "Ada"]
    assert board["you"]["place"] is None
    assert "established" in board["you"]["why_not"]


def test_unknown_variant(client: TestClient) -> None:
    answer = client.get("/api/leaderboards/no-such-variant")
    assert answer.status_code == 400
