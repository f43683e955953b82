"""Two real ``damier serve`` processes sharing one database: a move made through one is seen
on the other, over HTTP and over the other's WebSocket.

The database is ``DAMIER_DATABASE_URL``'s server (a fresh database of its own) when it is
set, else one SQLite file. The rooms go through ``DAMIER_REDIS_URL`` when it is set, else
through a ``redis-server`` started here on a free loopback port; without any Redis the
servers share only the database (HTTP still sees every move; a socket on one server does
not hear of a move made on the other, so that test skips). Everything is on loopback.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from damier.compiled import build_cache
from tests.server.conftest import REDIS_URL, database_url, game_of, wait_until_ready

websockets_sync = pytest.importorskip("websockets.sync.client")

SECRET = "two-servers-test-secret-not-for-production"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _wait_for_port(port: int, process: subprocess.Popen[bytes], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return True
        except OSError:
            time.sleep(0.05)
    return False


@dataclass
class Servers:
    bases: list[str]
    redis: bool


def _serve_command() -> list[str]:
    script = shutil.which("damier")
    if script:
        return [script]
    return [sys.executable, "-c", "import sys; from damier.cli import main; sys.exit(main())"]


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Servers]:
    directory = tmp_path_factory.mktemp("two-servers")
    started: list[subprocess.Popen[bytes]] = []
    redis_url = REDIS_URL
    binary = shutil.which("redis-server")
    if redis_url is None and binary is not None:
        port = _free_port()
        redis = subprocess.Popen(
            [
                binary,
                "--port",
                str(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--dir",
                str(directory),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        started.append(redis)
        if _wait_for_port(port, redis, 10):
            redis_url = f"redis://127.0.0.1:{port}/0"
    url = database_url(directory / "shared.sqlite3")
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DAMIER_DATABASE_URL", "DAMIER_REDIS_URL")
    }
    env.update(DAMIER_SECRET=SECRET, DAMIER_ENGINE_SECONDS="0.2", DAMIER_ENV="test")
    if redis_url is not None:
        env["DAMIER_REDIS_URL"] = redis_url
    bases = []
    build_cache()  # built here once, the servers' own build at start only loads it
    try:
        for number in (1, 2):
            port = _free_port()
            log = (directory / f"server{number}.log").open("wb")
            process = subprocess.Popen(
                [
                    *_serve_command(),
                    "serve",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(port),
                    "--database",
                    url,
                    "--workers",
                    "1",
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
            )
            started.append(process)
            bases.append(f"http://127.0.0.1:{port}")

        def logs() -> str:
            return "\n".join(
                path.read_text(errors="replace")[-3000:]
                for path in sorted(directory.glob("server*.log"))
            )

        for base, process in zip(bases, started[-2:], strict=True):
            wait_until_ready(base, process, logs)
        yield Servers(bases, redis_url is not None)
    finally:
        for process in reversed(started):
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _player(base: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=10)
    answer = client.post("/api/session", json={"name": name})
    assert answer.status_code == 200, answer.text
    return client


def _on(base: str, player: httpx.Client) -> httpx.Client:
    """The same player (same cookie) on another server."""
    return httpx.Client(base_url=base, timeout=10, cookies=player.cookies)


def _open_game(ana: httpx.Client, bob: httpx.Client) -> dict[str, Any]:
    created = ana.post(
        "/api/games", json={"variant": "international", "opponent": "open", "color": "white"}
    )
    assert created.status_code == 201, created.text
    joined = bob.post(f"/api/games/{created.json()['id']}/join")
    assert joined.status_code == 200, joined.text
    state: dict[str, Any] = joined.json()
    return state


def _socket_url(base: str, game_id: str) -> str:
    return base.replace("http://", "ws://") + f"/ws/games/{game_id}"


def _next_state(connection: Any, timeout: float = 10.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        frame = json.loads(connection.recv(timeout=max(0.01, deadline - time.monotonic())))
        if frame["type"] == "state":
            return game_of(connection, frame)


def test_a_move_on_one_is_seen_on_the_other_over_http(servers: Servers) -> None:
    one, two = servers.bases
    ana, bob = _player(one, "Ana"), _player(one, "Bob")
    state = _open_game(ana, bob)
    game_id = state["id"]
    assert httpx.get(f"{two}/api/games/{game_id}").json()["ply"] == 0
    move = state["legal_moves"][0]["notation"]
    assert ana.post(f"/api/games/{game_id}/moves", json={"move": move, "ply": 0}).is_success
    seen = httpx.get(f"{two}/api/games/{game_id}").json()
    assert seen["ply"] == 1
    assert seen["moves"][0]["notation"] == move
    # Bob answers on the second server with the cookie of the first (one secret).
    bob_on_two = _on(two, bob)
    assert bob_on_two.get("/api/me").json()["name"] == "Bob"
    reply = seen["legal_moves"][0]["notation"]
    answer = bob_on_two.post(f"/api/games/{game_id}/moves", json={"move": reply, "ply": 1})
    assert answer.status_code == 200, answer.text
    back = ana.get(f"/api/games/{game_id}").json()
    assert back["ply"] == 2 and back["you"] == "white"
    assert [m["notation"] for m in back["moves"]] == [move, reply]
    # The first server's copy is behind: a stale move is refused, not applied twice.
    stale = bob.post(f"/api/games/{game_id}/moves", json={"move": reply, "ply": 1})
    assert stale.status_code == 409


def test_a_move_on_one_reaches_a_socket_on_the_other(servers: Servers) -> None:
    if not servers.redis:
        pytest.skip("no Redis (DAMIER_REDIS_URL or redis-server): sockets are per process")
    one, two = servers.bases
    ana, bob = _player(one, "Ana"), _player(two, "Bob")
    state = _open_game(_on(two, ana), bob)  # created and joined on the second server
    game_id = state["id"]
    cookie = f"damier_session={bob.cookies['damier_session']}"
    with (
        websockets_sync.connect(_socket_url(two, game_id)) as spectator,
        websockets_sync.connect(
            _socket_url(two, game_id), additional_headers={"Cookie": cookie}
        ) as bob_socket,
    ):
        assert _next_state(spectator)["ply"] == 0
        assert _next_state(bob_socket)["you"] == "black"
        move = state["legal_moves"][0]["notation"]
        answer = ana.post(f"/api/games/{game_id}/moves", json={"move": move, "ply": 0})
        assert answer.status_code == 200, answer.text
        seen = _next_state(spectator)
        assert seen["ply"] == 1 and seen["you"] is None
        assert seen["moves"][0]["notation"] == move
        mine = _next_state(bob_socket)
        assert mine["ply"] == 1 and mine["you"] == "black"
        # Bob answers over his socket on the second server; the first server sees it, and
        # so does a socket on the first server opened meanwhile.
        with websockets_sync.connect(_socket_url(one, game_id)) as watcher:
            assert _next_state(watcher)["ply"] == 1
            reply = mine["legal_moves"][0]["notation"]
            bob_socket.send(json.dumps({"type": "move", "move": reply, "ply": 1}))
            assert _next_state(watcher)["ply"] == 2
        assert _next_state(spectator)["ply"] == 2
    assert ana.get(f"/api/games/{game_id}").json()["ply"] == 2
