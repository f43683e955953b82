"""Fixtures of the server tests: an app on a fresh SQLite file per test, clients that share
its event loop (each with its own cookies), and a time source the tests move by hand.

With ``DAMIER_DATABASE_URL`` set to a server database (``postgresql+asyncpg://...``), each
SQLite file a test would use becomes a fresh database on that server instead (created on
first use, dropped at the end of the session; the URL's user needs ``CREATEDB``). With
``DAMIER_REDIS_URL`` set, every app shares its rooms through that Redis server.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import subprocess
import threading
import time
import warnings
import weakref
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.engine import URL, make_url

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


SERVER_DATABASE = os.environ.get("DAMIER_DATABASE_URL") or None
"""A database server's URL for this run (None: SQLite files)."""
if SERVER_DATABASE is not None and make_url(SERVER_DATABASE).get_backend_name() == "sqlite":
    SERVER_DATABASE = None
REDIS_URL = os.environ.get("DAMIER_REDIS_URL") or None

_created: set[str] = set()
_created_lock = threading.Lock()


def _run(coroutine: Coroutine[Any, Any, None]) -> None:
    """Run ``coroutine`` in a thread of its own (the caller may be inside an event loop)."""
    errors: list[BaseException] = []

    def work() -> None:
        try:
            asyncio.run(coroutine)
        except BaseException as error:
            errors.append(error)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]


async def _admin(server: URL, statements: list[str]) -> None:
    import asyncpg

    connection = await asyncpg.connect(
        host=server.host or "127.0.0.1",
        port=server.port or 5432,
        user=server.username,
        password=server.password,
        database=server.database or "postgres",
    )
    try:
        for statement in statements:
            await connection.execute(statement)
    finally:
        await connection.close()


def database_url(database: Path) -> str:
    """The URL of the database standing for the SQLite file ``database``: that file, or a
    database of its own on the server of ``DAMIER_DATABASE_URL``."""
    if SERVER_DATABASE is None:
        return f"sqlite+aiosqlite:///{database}"
    server = make_url(SERVER_DATABASE)
    digest = hashlib.sha1(str(database.resolve()).encode()).hexdigest()[:20]
    name = f"damier_test_{digest}"
    with _created_lock:
        if name not in _created:
            _run(_admin(server, [f'DROP DATABASE IF EXISTS "{name}"', f'CREATE DATABASE "{name}"']))
            _created.add(name)
    return server.set(database=name).render_as_string(hide_password=False)


async def _drop(server: URL, names: list[str]) -> None:
    """Drop the run's databases. The server's autovacuum may be at work in one, as its
    superuser, which the run's role may not stop (``DROP DATABASE ... WITH (FORCE)`` then
    fails on a privilege): that database is tried again for a few seconds (a worker soon
    ends), then left behind with a warning rather than failing the run after its tests."""
    import asyncpg

    for name in names:
        for attempt in range(20):
            try:
                await _admin(server, [f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'])
                break
            except (asyncpg.InsufficientPrivilegeError, asyncpg.ObjectInUseError) as error:
                if attempt == 19:
                    warnings.warn(f"test database {name} left behind: {error}", stacklevel=1)
                await asyncio.sleep(0.5)


@pytest.fixture(scope="session", autouse=True)
def _drop_test_databases() -> Iterator[None]:
    yield
    if SERVER_DATABASE is None or not _created:
        return
    _run(_drop(make_url(SERVER_DATABASE), sorted(_created)))
    _created.clear()


def settings_for(database: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "database_url": database_url(database),
        "redis_url": REDIS_URL,
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


_HELD: weakref.WeakKeyDictionary[Any, dict[str, Any]] = weakref.WeakKeyDictionary()


def game_of(socket: Any, frame: dict[str, Any]) -> dict[str, Any]:
    """The game a state frame gives ``socket``'s client: a whole state, or a delta's moves
    appended to the moves the socket had (the delta must follow them)."""
    if "after" in frame:
        held = _HELD[socket]
        assert frame["after"] == held["version"], "the delta follows the state before"
        assert "moves" not in frame["game"]
        game = {**frame["game"], "moves": held["game"]["moves"] + frame["played"]}
    else:
        game = frame["game"]
    _HELD[socket] = {"version": frame["version"], "game": game}
    return game


def receive(socket: Any) -> dict[str, Any]:
    """The socket's next frame other than a presence notice (who is connected), which
    comes whenever a socket of the game opens or closes."""
    while True:
        frame: dict[str, Any] = socket.receive_json()
        if frame.get("type") != "presence":
            return frame


def wait_until_ready(
    base: str, process: subprocess.Popen[bytes], logs: Callable[[], str], timeout: float = 120
) -> None:
    """Wait until a ``damier serve`` a test started says it is ready: its compiled code is
    loaded (requests that need it would wait for it, past a request's timeout on a loaded
    machine). Fails with ``logs()`` if the server stops or takes longer than ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if httpx.get(f"{base}/api/status", timeout=2).json()["state"] == "ready":
                return
        except (httpx.HTTPError, ValueError, KeyError):
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            pytest.fail(f"damier serve did not start:\n{logs()}")
        time.sleep(0.1)
