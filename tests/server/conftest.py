"""Fixtures of the server tests: an app on a fresh SQLite file per test, clients that share
its event loop (each with its own cookies), and a time source the tests move by hand."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from damier.server.app import create_app
from damier.server.settings import Settings


class FakeTime:
    """Wall-clock seconds that move only when told to."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.value = start

    def __call__(self) -> float:
        return self.value

    def advance(self, seconds: float) -> None:
        self.value += seconds


def settings_for(database: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "database_url": f"sqlite+aiosqlite:///{database}",
        "secret": "test-secret-not-for-production",
        "env": "test",
        "clock_tick": 0.05,
        "engine_seconds": 0.2,
    }
    values.update(overrides)
    return Settings(**values)


AppFactory = Callable[..., FastAPI]


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "damier.sqlite3"


@pytest.fixture
def make_app(database: Path) -> AppFactory:
    def make(
        path: Path | None = None, now: Callable[[], float] = time.time, **overrides: Any
    ) -> FastAPI:
        return create_app(settings_for(path or database, **overrides), now=now)

    return make


@pytest.fixture
def client(make_app: AppFactory) -> Iterator[TestClient]:
    with TestClient(make_app()) as test_client:
        yield test_client


def another(client: TestClient) -> TestClient:
    """A second browser on the same running app (its own cookie jar, the same event loop)."""
    other = TestClient(client.app)
    other.portal = client.portal
    return other


def sign_in(client: TestClient, name: str) -> str:
    answer = client.post("/api/session", json={"name": name})
    assert answer.status_code == 200, answer.text
    player_id: str = answer.json()["id"]
    return player_id


def wait_for(
    client: TestClient,
    game_id: str,
    condition: Callable[[dict[str, Any]], bool],
    timeout: float = 30.0,
) -> dict[str, Any]:
    """Poll the game until ``condition`` holds for its state."""
    deadline = time.monotonic() + timeout
    while True:
        state: dict[str, Any] = client.get(f"/api/games/{game_id}").json()
        if condition(state):
            return state
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out; last state: {state}")
        time.sleep(0.05)


def open_game(
    host: TestClient, guest: TestClient, variant: str = "russian", clock: str | None = None
) -> dict[str, Any]:
    """An open game created by ``host`` as White and joined by ``guest``."""
    created = host.post(
        "/api/games",
        json={"variant": variant, "opponent": "open", "color": "white", "clock": clock},
    )
    assert created.status_code == 201, created.text
    joined = guest.post(f"/api/games/{created.json()['id']}/join")
    assert joined.status_code == 200, joined.text
    state: dict[str, Any] = joined.json()
    return state
