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

from tests.server.conftest import AppFactory, FakeTime, another, open_game, receive, sign_in

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


def test_who_is_here_is_known_to_every_server(make_app: AppFactory, redis_url: str) -> None:
    time = FakeTime()
    with (
        TestClient(make_app(redis_url=redis_url, now=time, clock_tick=3600)) as one,
        TestClient(make_app(redis_url=redis_url, now=time, clock_tick=3600)) as two,
    ):
        sign_in(one, "Ana")
        bob = another(one)
        sign_in(bob, "Bob")
        state = open_game(one, bob)
        for player, ply in ((one, 0), (bob, 1)):
            move = player.get(f"/api/games/{state['id']}").json()["legal_moves"][0]["notation"]
            moved = player.post(f"/api/games/{state['id']}/moves", json={"move": move, "ply": ply})
            assert moved.status_code == 200, moved.text
        bob_on_two = TestClient(two.app)
        bob_on_two.portal = two.portal
        bob_on_two.cookies.update(dict(bob.cookies))
        claim = f"/api/games/{state['id']}/claim"
        with one.websocket_connect(f"/ws/games/{state['id']}") as ana_socket:
            with bob_on_two.websocket_connect(f"/ws/games/{state['id']}") as bob_socket:
                receive(bob_socket)
                time.advance(60)  # Bob is on the other server: he is here
                refused = one.post(claim, json={"result": "win"})
                assert refused.status_code == 409
                assert "connected" in refused.json()["detail"]
            while True:  # the other server's notice that Bob has gone reaches Ana
                frame = ana_socket.receive_json()
                if frame["type"] == "presence" and frame["gone"]:
                    break
            assert frame["gone"]["black"]["since"] == time()
            time.advance(30)
            won = one.post(claim, json={"result": "win"})
        assert won.status_code == 200, won.text
        assert won.json()["result"]["reason"] == "opponent left"
