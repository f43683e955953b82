"""Two servers sharing games through Redis pub/sub: a move made on one reaches a socket
on the other. Needs a Redis server: ``DAMIER_REDIS_URL``, or ``redis-server`` on the PATH
(started here on a free loopback port)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import AppFactory, another, open_game, receive, sign_in

pytest.importorskip("redis")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    url = os.environ.get("DAMIER_REDIS_URL")
    if url:
        yield url
        return
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("no Redis: set DAMIER_REDIS_URL or install redis-server")
    port = _free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.skip("redis-server did not start")
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_a_move_on_one_server_reaches_a_socket_on_the_other(
    make_app: AppFactory, redis_url: str
) -> None:
    with (
        TestClient(make_app(redis_url=redis_url)) as one,
        TestClient(make_app(redis_url=redis_url)) as two,
    ):
        sign_in(one, "Ana")
        bob = another(one)
        sign_in(bob, "Bob")
        state = open_game(one, bob)
        with two.websocket_connect(f"/ws/games/{state['id']}") as spectator:
            assert receive(spectator)["game"]["ply"] == 0
            move = state["legal_moves"][0]["notation"]
            answer = one.post(f"/api/games/{state['id']}/moves", json={"move": move, "ply": 0})
            assert answer.status_code == 200
            frame = receive(spectator)
            assert frame["type"] == "state"
            assert frame["game"]["ply"] == 1
            assert frame["game"]["you"] is None
