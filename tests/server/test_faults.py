"""Faults survived in the open (issue 30): the database stopped or restarting, Redis stopped
and started again, a ``damier serve`` process killed.

The first test refuses the database's connections to one app (PostgreSQL:
``DAMIER_DATABASE_URL``). The second runs two real ``damier serve`` processes on that
database and on a ``redis-server`` of its own (so that it may stop and start it), stops
Redis mid-game, restarts PostgreSQL with ``DAMIER_TEST_PG_RESTART`` (a command, e.g.
``pg_ctlcluster 15 main restart``; the step is left out without it), kills one process with
SIGKILL, and counts the moves acknowledged, stored and delivered to the sockets.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shlex
import shutil
import signal
import sqlite3
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import WebSocketDisconnect
from fastapi.testclient import TestClient
from sqlalchemy import exc
from sqlalchemy.engine import make_url

from damier.compiled import build_cache
from damier.server.store.db import LOST, UNAVAILABLE, unavailable
from tests.server.conftest import (
    SERVER_DATABASE,
    AppFactory,
    _admin,
    another,
    database_url,
    open_game,
    receive,
    sign_in,
    wait_until_ready,
)
from tests.server.test_redis import RedisServer
from tests.server.test_two_servers import SECRET, _free_port, _serve_command, _socket_url

websockets_sync = pytest.importorskip("websockets.sync.client")

needs_postgres = pytest.mark.skipif(
    SERVER_DATABASE is None, reason="needs DAMIER_DATABASE_URL (PostgreSQL)"
)


class _Refused(Exception):
    """A driver's error carrying a SQLSTATE, as asyncpg's do."""

    def __init__(self, sqlstate: str) -> None:
        super().__init__(sqlstate)
        self.sqlstate = sqlstate


def test_only_the_errors_of_a_database_away_are_told_apart(tmp_path: Path) -> None:
    path = tmp_path / "locked.sqlite3"
    holder, other = sqlite3.connect(path), sqlite3.connect(path, timeout=0)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN EXCLUSIVE")
    with pytest.raises(sqlite3.OperationalError) as locked:
        other.execute("SELECT * FROM t")
    holder.rollback()
    with pytest.raises(sqlite3.OperationalError) as missing:
        other.execute("SELECT * FROM nowhere")
    holder.close()
    other.close()
    with pytest.raises(ConnectionRefusedError) as refused:
        asyncio.run(_connect_to_nothing())
    away = {
        "locked file": locked.value,
        "locked file, wrapped": exc.OperationalError("SELECT", None, locked.value),
        "refused connection": refused.value,
        "server shutting down": _Refused("57P01"),
        "too many connections": _Refused("53300"),
        "no pooled connection free": exc.TimeoutError("QueuePool limit"),
    }
    for name, error in away.items():
        assert unavailable(error) == UNAVAILABLE, name
    lost = exc.DBAPIError("SELECT 1", None, _Refused("08006"), connection_invalidated=True)
    assert unavailable(lost) == LOST
    bugs = {
        "no such table": exc.OperationalError("SELECT", None, missing.value),
        "duplicate key": exc.IntegrityError("INSERT", None, _Refused("23505")),
        "an OSError of the app's own": OSError("no such file"),
        "a plain bug": ValueError("bad"),
    }
    for name, error in bugs.items():
        assert unavailable(error) is None, name


async def _connect_to_nothing() -> None:
    asyncpg = pytest.importorskip("asyncpg")
    await asyncpg.connect(host="127.0.0.1", port=_free_port(), user="x", database="x")


def _refuse_connections(url: str, refuse: bool) -> None:
    """Make the database of ``url`` refuse (or accept again) new connections, and drop its
    open ones."""
    name = make_url(url).database
    statements = [f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS {str(not refuse).lower()}']
    if refuse:
        statements.append(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            f" WHERE datname = '{name}' AND pid <> pg_backend_pid()"
        )
    assert SERVER_DATABASE is not None
    asyncio.run(_admin(make_url(SERVER_DATABASE), statements))


@needs_postgres
def test_while_the_database_is_away_every_request_gets_503_and_sockets_stay(
    make_app: AppFactory,
) -> None:
    with TestClient(make_app(clock_tick=3600.0)) as ana:
        sign_in(ana, "Ana")
        bob = another(ana)
        sign_in(bob, "Bob")
        game = open_game(ana, bob)
        url = ana.app.state.settings.database_url  # type: ignore[attr-defined]
        move = game["legal_moves"][0]["notation"]
        with ana.websocket_connect(f"/ws/games/{game['id']}") as socket_:
            assert receive(socket_)["game"]["ply"] == 0
            _refuse_connections(url, True)
            try:
                answers = []
                for _ in range(5):
                    answers.append(ana.get(f"/api/games/{game['id']}"))
                    answers.append(
                        ana.post(f"/api/games/{game['id']}/moves", json={"move": move, "ply": 0})
                    )
                assert [answer.status_code for answer in answers] == [503] * 10
                assert all("nothing was changed" in a.json()["detail"] for a in answers)
                socket_.send_json({"type": "move", "move": move, "ply": 0})
                refused = receive(socket_)
                assert refused["type"] == "error"
                assert "nothing was changed" in refused["message"]
                with (
                    pytest.raises(WebSocketDisconnect) as closed,  # 1013: try again later
                    bob.websocket_connect(f"/ws/games/{game['id']}"),
                ):
                    pass
                assert closed.value.code == 1013
            finally:
                _refuse_connections(url, False)
            socket_.send_json({"type": "ping"})  # the socket is still open
            assert receive(socket_)["type"] == "pong"
            moved = ana.post(f"/api/games/{game['id']}/moves", json={"move": move, "ply": 0})
            assert moved.status_code == 200, moved.text
            assert receive(socket_)["game"]["ply"] == 1


# -- two processes --------------------------------------------------------------------


@dataclass
class Watched:
    """A socket of the test and the game as its frames give it."""

    connection: Any
    version: int = -1
    game: dict[str, Any] = field(default_factory=dict)
    states: int = 0

    def next_state(self, timeout: float = 60.0) -> dict[str, Any]:
        """The next state (a delta that does not follow asks for the whole state, as the
        page does); a guard against a hang, not a measure."""
        deadline = time.monotonic() + timeout
        while True:
            wait = max(0.01, deadline - time.monotonic())
            frame = json.loads(self.connection.recv(timeout=wait))
            if frame["type"] != "state":
                continue
            if "after" in frame:
                if frame["after"] != self.version:
                    self.connection.send(json.dumps({"type": "sync"}))
                    continue
                moves = self.game["moves"] + frame["played"]
                self.game = {**frame["game"], "moves": moves}
            else:
                self.game = frame["game"]
            self.version = frame["version"]
            self.states += 1
            return self.game

    def until_ply(self, ply: int) -> dict[str, Any]:
        while self.game.get("ply", -1) < ply:
            self.next_state()
        return self.game

    def next_presence(self, timeout: float = 90.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            wait = max(0.01, deadline - time.monotonic())
            frame: dict[str, Any] = json.loads(self.connection.recv(timeout=wait))
            if frame["type"] == "presence":
                return frame


@dataclass
class Cluster:
    directory: Path
    redis: RedisServer
    processes: list[subprocess.Popen[bytes]]
    bases: list[str]

    def logs(self) -> str:
        return "\n".join(
            path.read_text(errors="replace")[-4000:]
            for path in sorted(self.directory.glob("server*.log"))
        )


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    binary = shutil.which("redis-server")
    if SERVER_DATABASE is None or binary is None:
        pytest.skip("needs DAMIER_DATABASE_URL (PostgreSQL) and redis-server")
    redis = RedisServer(binary, tmp_path)
    redis.start()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DAMIER_DATABASE_URL", "DAMIER_REDIS_URL")
    }
    env.update(
        DAMIER_SECRET=SECRET,
        DAMIER_ENGINE_SECONDS="0.2",
        DAMIER_ENV="test",
        DAMIER_REDIS_URL=redis.url,
        DAMIER_CLAIM_SECONDS="1",
        DAMIER_DATABASE_CONNECTIONS="4",
    )
    url = database_url(tmp_path / "faults.sqlite3")
    build_cache()
    processes, bases = [], []
    try:
        for number in (1, 2):
            port = _free_port()
            log = (tmp_path / f"server{number}.log").open("wb")
            command = [*_serve_command(), "serve", "--host", "127.0.0.1", "--port", str(port)]
            command += ["--workers", "1"]  # one process: the one SIGKILL kills
            processes.append(
                subprocess.Popen(
                    [*command, "--database", url], stdout=log, stderr=subprocess.STDOUT, env=env
                )
            )
            bases.append(f"http://127.0.0.1:{port}")
        running = Cluster(tmp_path, redis, processes, bases)
        for base, process in zip(bases, processes, strict=True):
            wait_until_ready(base, process, running.logs, timeout=60)
        yield running
    finally:
        for process in processes:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        redis.stop()


def _client(base: str, cookies: httpx.Cookies | None = None) -> httpx.Client:
    return httpx.Client(base_url=base, timeout=30, cookies=cookies)


def _socket(
    sockets: contextlib.ExitStack, base: str, game_id: str, client: httpx.Client | None = None
) -> Watched:
    headers = {}
    if client is not None:
        headers["Cookie"] = f"damier_session={client.cookies['damier_session']}"
    url = _socket_url(base, game_id)
    connection = websockets_sync.connect(url, additional_headers=headers)
    return Watched(sockets.enter_context(connection))


@pytest.mark.slow
def test_two_servers_survive_redis_and_postgresql_going_away_and_a_killed_peer(
    cluster: Cluster,
) -> None:
    one, two = cluster.bases
    ana, bob = _client(one), _client(two)
    for player, name in ((ana, "Ana"), (bob, "Bob")):
        assert player.post("/api/session", json={"name": name}).status_code == 200
    created = ana.post(
        "/api/games", json={"variant": "international", "opponent": "open", "color": "white"}
    )
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    assert bob.post(f"/api/games/{game_id}/join").status_code == 200
    acknowledged: list[tuple[int, str]] = []
    answers: list[int] = []
    refused = 0

    def play(player: httpx.Client) -> int:
        """One move of ``player`` at the game's ply; the answer's status (200: stored)."""
        state = player.get(f"/api/games/{game_id}")
        answers.append(state.status_code)
        if state.status_code != 200:
            return state.status_code
        ply, move = state.json()["ply"], state.json()["legal_moves"][0]["notation"]
        answer = player.post(f"/api/games/{game_id}/moves", json={"move": move, "ply": ply})
        answers.append(answer.status_code)
        if answer.status_code == 200:
            acknowledged.append((ply, move))
        return answer.status_code

    with contextlib.ExitStack() as opened:
        ana_socket, bob_socket = (
            _socket(opened, one, game_id, ana),
            _socket(opened, two, game_id, bob),
        )
        sockets = [ana_socket, bob_socket]
        for watched in sockets:
            assert watched.next_state()["ply"] == 0
        for player in (ana, bob, ana, bob):
            assert play(player) == 200
        for watched in sockets:
            assert watched.until_ply(4)["turn"] == "white"

        # Redis stops: a move reaches the sockets of its own process; a socket opened then
        # gets its state and stays; when Redis is back every socket is brought up to date.
        cluster.redis.stop()
        assert play(ana) == 200
        assert ana_socket.until_ply(5)["turn"] == "black"
        watcher = _socket(opened, two, game_id)
        sockets.append(watcher)
        assert watcher.next_state()["ply"] == 5
        cluster.redis.start()
        back = time.monotonic()
        for watched in (bob_socket, watcher):
            assert watched.until_ply(5)["turn"] == "black"
        resynced = time.monotonic() - back
        assert play(bob) == 200
        for watched in sockets:
            assert watched.until_ply(6)["turn"] == "white"

        # PostgreSQL restarts while moves are sent: each gets an answer, never a 500; the
        # pools recover without a restart of the servers.
        restart = os.environ.get("DAMIER_TEST_PG_RESTART")
        if restart:
            restarting = threading.Thread(
                target=subprocess.run, args=(shlex.split(restart),), kwargs={"check": True}
            )
            restarting.start()
            before = len(acknowledged)
            while restarting.is_alive():  # a few moves, and reloads
                if len(acknowledged) < before + 6:
                    play(ana if len(acknowledged) % 2 == 0 else bob)
                else:
                    answers.append(ana.get(f"/api/games/{game_id}").status_code)
            restarting.join()
            plies, refused = len(acknowledged), len(answers)
            for _ in range(20):  # a pooled connection may still find the server gone once
                if play(ana if len(acknowledged) % 2 == 0 else bob) == 200:
                    break
            assert len(acknowledged) == plies + 1
            refused = answers[refused:].count(503)
        assert set(answers) <= {200, 409, 503}, cluster.logs()

        # Server two is killed: Bob's sockets there vanish without a word; once its
        # heartbeat has lapsed Ana is told Bob is gone, and may claim the game.
        plies = len(acknowledged)
        for watched in (ana_socket, bob_socket, watcher):
            watched.until_ply(plies)
        cluster.processes[1].send_signal(signal.SIGKILL)
        cluster.processes[1].wait()
        killed = time.monotonic()
        try:
            while "black" not in ana_socket.next_presence()["gone"]:
                pass
        except TimeoutError:
            pytest.fail(f"Bob's going was not told:\n{cluster.logs()}")
        told = time.monotonic() - killed
        claimed = ana.post(f"/api/games/{game_id}/claim", json={"result": "win"})
        for _ in range(100):  # the claim opens a second (DAMIER_CLAIM_SECONDS) after
            if claimed.status_code != 409 or "connected" in claimed.json()["detail"]:
                break
            time.sleep(0.05)
            claimed = ana.post(f"/api/games/{game_id}/claim", json={"result": "win"})
        assert claimed.status_code == 200, claimed.text
        assert claimed.json()["result"]["reason"] == "opponent left"

        stored = ana.get(f"/api/games/{game_id}").json()
        stored_moves = [(i, m["notation"]) for i, m in enumerate(stored["moves"])]
        assert set(acknowledged) <= set(stored_moves)  # nothing acknowledged was lost
        final = ana_socket.next_state()
        assert final["status"] != "playing" and len(final["moves"]) == len(stored_moves)
        print(
            f"moves acknowledged {len(acknowledged)}, stored {len(stored_moves)};"
            f" answers {sorted((s, answers.count(s)) for s in set(answers))};"
            f" states delivered {[w.states for w in sockets]}; {refused} refused after"
            f" PostgreSQL was back; up to date {resynced:.1f} s"
            f" after Redis came back; Bob gone {told:.1f} s after the kill"
        )
