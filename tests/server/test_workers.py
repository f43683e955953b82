"""``damier serve --workers 2``: two processes on one port, sharing the SQLite file and a
private Redis server for the fan-out, so that every socket hears of every move whichever
process took it; the private Redis server goes with them."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from damier.compiled import build_cache
from damier.server.serving import redis_server_binary
from tests.server.conftest import database_url, game_of, wait_until_ready
from tests.server.test_two_servers import _free_port, _serve_command

websockets_sync = pytest.importorskip("websockets.sync.client")

pytestmark = [
    pytest.mark.skipif(
        redis_server_binary() is None, reason="no Redis server to fan out between the workers"
    ),
    pytest.mark.slow,  # real processes started and stopped: CI runs them with -m slow
]


def _descendants(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        for child in task.read_text().split():
            found += [int(child), *_descendants(int(child))]
    return found


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    directory = tmp_path_factory.mktemp("workers")
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DAMIER_REDIS_URL",)}
    env.update(DAMIER_SECRET="workers-test-secret-not-for-production", DAMIER_ENV="test")
    build_cache()  # the workers only load it
    log = (directory / "serve.log").open("wb")
    url = database_url(directory / "shared.sqlite3")
    command = [*_serve_command(), "serve", "--workers", "2", "--port", str(port)]
    process = subprocess.Popen(
        [*command, "--database", url], stdout=log, stderr=subprocess.STDOUT, env=env
    )
    base = f"http://127.0.0.1:{port}"
    try:
        logs = (directory / "serve.log").read_text
        wait_until_ready(base, process, lambda: logs(errors="replace")[-3000:])
        yield base, process.pid
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _player(base: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=10)
    assert client.post("/api/session", json={"name": name}).status_code == 200
    return client


def _next_state(connection: Any) -> dict[str, Any]:
    deadline = time.monotonic() + 10
    while True:
        frame = json.loads(connection.recv(timeout=max(0.01, deadline - time.monotonic())))
        if frame["type"] == "state":
            return game_of(connection, frame)


def test_two_workers_and_their_redis_serve_one_port(server: tuple[str, int]) -> None:
    _, pid = server
    commands = [Path(f"/proc/{child}/cmdline").read_bytes() for child in _descendants(pid)]
    assert sum(b"redis-server" in command for command in commands) == 1
    assert len(commands) >= 3  # two workers and the Redis server (uvicorn may add more)


def test_every_socket_hears_every_move_whichever_worker_took_it(server: tuple[str, int]) -> None:
    base, _ = server
    ana, bob = _player(base, "Ana"), _player(base, "Bob")
    created = ana.post(
        "/api/games", json={"variant": "international", "opponent": "open", "color": "white"}
    )
    game_id = created.json()["id"]
    state = bob.post(f"/api/games/{game_id}/join").json()
    address = base.replace("http://", "ws://") + f"/ws/games/{game_id}"
    # Spectators on new connections: the kernel spreads them over the two workers.
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(websockets_sync.connect(address)) for _ in range(8)]
        for socket in sockets:
            assert _next_state(socket)["ply"] == 0
        for ply in range(4):
            mover = ana if ply % 2 == 0 else bob
            move = state["legal_moves"][0]["notation"]
            answer = mover.post(f"/api/games/{game_id}/moves", json={"move": move, "ply": ply})
            assert answer.status_code == 200, answer.text
            state = answer.json()
            for socket in sockets:
                seen = _next_state(socket)
                assert seen["ply"] == ply + 1
                assert seen["moves"][-1]["notation"] == move


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL])
def test_the_workers_and_the_private_redis_server_stop_with_the_command(
    tmp_path: Path, stop: signal.Signals
) -> None:
    """Stopped (SIGTERM) or killed (SIGKILL), ``damier serve`` leaves nothing behind."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k != "DAMIER_REDIS_URL"}
    env.update(DAMIER_SECRET="workers-test-secret-not-for-production", DAMIER_ENV="test")
    url = database_url(tmp_path / "stop.sqlite3")
    command = [*_serve_command(), "serve", "--workers", "2", "--port", str(port)]
    process = subprocess.Popen(
        [*command, "--database", url], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_ready(base, process, lambda: "(its output is not kept)")
        family = _descendants(process.pid)
    finally:
        process.send_signal(stop)
        process.wait(timeout=30)
    assert len(family) >= 3
    for pid in family:
        deadline = time.monotonic() + 10
        while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
            stat = Path(f"/proc/{pid}/stat").read_text() if Path(f"/proc/{pid}").exists() else ""
            if ") Z " in stat:  # a zombie of an exited parent: gone
                break
            time.sleep(0.05)
        assert (
            not Path(f"/proc/{pid}/cmdline").exists()
            or not Path(f"/proc/{pid}/cmdline").read_bytes()
        ), f"process {pid} outlived damier serve"
