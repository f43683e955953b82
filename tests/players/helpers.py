"""What the tests of players' pages share: registered players and finished games."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy.ext.asyncio import AsyncSession

from tests.server.conftest import another, open_game

PASSWORD = "correct horse battery"


def register(client: TestClient, name: str) -> str:
    answer = client.post("/api/register", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    player_id: str = answer.json()["id"]
    return player_id


def browser(client: TestClient, name: str) -> tuple[TestClient, str]:
    """Another browser on the same app, registered as ``name``."""
    other = another(client)
    return other, register(other, name)


def won_by(winner: TestClient, loser: TestClient, variant: str = "russian") -> str:
    """A game ``winner`` (White) wins by the other's resignation; its id."""
    game = open_game(winner, loser, variant=variant)
    answer = loser.post(f"/api/games/{game['id']}/resign")
    assert answer.status_code == 200, answer.text
    game_id: str = game["id"]
    return game_id


def drawn(white: TestClient, black: TestClient, variant: str = "russian") -> str:
    game = open_game(white, black, variant=variant)
    white.post(f"/api/games/{game['id']}/draw", json={"action": "offer"})
    answer = black.post(f"/api/games/{game['id']}/draw", json={"action": "accept"})
    assert answer.status_code == 200, answer.text
    game_id: str = game["id"]
    return game_id


def in_database(
    client: TestClient, work: Callable[[AsyncSession], Coroutine[Any, Any, Any]]
) -> Any:
    """Run ``work`` in a transaction of the app's database (on the app's event loop)."""

    async def run() -> Any:
        services = client.app.state.services  # type: ignore[attr-defined]
        async with services.database.session() as session, session.begin():
            return await work(session)

    assert client.portal is not None
    return client.portal.call(run)
