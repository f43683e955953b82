"""Two servers sharing games through Redis pub/sub: a move made on one reaches a socket
on the other. Needs a Redis server: ``DAMIER_REDIS_URL``, or ``redis-server`` on the PATH
(started here on a free loopback port).

The faults (Redis stopped and started again, a process that dies without a word) need a
``redis-server`` of their own, started and stopped here."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from damier.server import rooms
from damier.server.rooms import Connection, RedisRooms, Refresh, State
from tests.server.conftest import AppFactory, FakeTime, another, open_game, receive, sign_in

pytest.importorskip("redis")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class RedisServer:
    """A ``redis-server`` of a test's own on a free loopback port, which the test may stop
    and start again (on the same port)."""

    def __init__(self, binary: str, directory: Path) -> None:
        self.binary, self.directory = binary, directory
        self.port = _free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--dir", str(self.directory)]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    pytest.skip("redis-server did not start")
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("no redis-server to stop and start")
    server = RedisServer(binary, tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    url = os.environ.get("DAMIER_REDIS_URL")
    if url:
        yield url
        return
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("no Redis: set DAMIER_REDIS_URL or install redis-server")
    server = RedisServer(binary, tmp_path)
    server.start()
    try:
        yield server.url
    finally:
        server.stop()


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


def _rooms(client: TestClient) -> RedisRooms:
    app: FastAPI = client.app  # type: ignore[assignment]
    rooms = app.state.services.rooms
    assert isinstance(rooms, RedisRooms)
    return rooms


def _resubscribed(client: TestClient, after: int) -> int:
    """Wait until the client's app has subscribed to Redis again (and refreshed its
    sockets) since it had subscribed ``after`` times."""
    assert client.portal is not None
    count: int = client.portal.call(_rooms(client).subscribed, after)
    return count


def _until_pong(websocket: Any) -> list[dict[str, Any]]:
    """Ask the socket for a pong; the frames it sent before it (a state queued before the
    ping is sent before the pong)."""
    websocket.send_json({"type": "ping"})
    frames = []
    while (frame := websocket.receive_json())["type"] != "pong":
        frames.append(frame)
    return frames


def _plies(frames: list[dict[str, Any]]) -> list[int]:
    return [frame["game"]["ply"] for frame in frames if frame["type"] == "state"]


def test_without_redis_a_move_still_reaches_the_sockets_of_its_process(
    make_app: AppFactory, own_redis: RedisServer
) -> None:
    with TestClient(make_app(redis_url=own_redis.url, clock_tick=3600)) as one:
        sign_in(one, "Ana")
        bob = another(one)
        sign_in(bob, "Bob")
        state = open_game(one, bob)
        path = f"/ws/games/{state['id']}"
        with one.websocket_connect(path) as ana_socket, bob.websocket_connect(path) as bob_socket:
            assert receive(ana_socket)["game"]["ply"] == 0
            assert receive(bob_socket)["game"]["ply"] == 0
            own_redis.stop()
            move = state["legal_moves"][0]["notation"]
            ana_socket.send_json({"type": "move", "move": move, "ply": 0})
            assert _plies(_until_pong(ana_socket)) == [1]  # the mover's own socket
            assert _plies(_until_pong(bob_socket)) == [1]
            answer = bob.get(f"/api/games/{state['id']}")
            reply = answer.json()["legal_moves"][0]["notation"]
            moved = bob.post(f"/api/games/{state['id']}/moves", json={"move": reply, "ply": 1})
            assert moved.status_code == 200, moved.text
            assert _plies(_until_pong(ana_socket)) == [2]
            assert _plies(_until_pong(bob_socket)) == [2]


def test_when_redis_returns_every_socket_is_brought_to_the_current_state(
    make_app: AppFactory, own_redis: RedisServer
) -> None:
    """A move made on one server while Redis was away reaches the sockets of the other
    server once Redis is back, without waiting for another move."""
    with (
        TestClient(make_app(redis_url=own_redis.url, clock_tick=3600)) as one,
        TestClient(make_app(redis_url=own_redis.url, clock_tick=3600)) as two,
    ):
        sign_in(one, "Ana")
        bob = another(one)
        sign_in(bob, "Bob")
        state = open_game(one, bob)
        bob_on_two = TestClient(two.app)
        bob_on_two.portal = two.portal
        bob_on_two.cookies.update(dict(bob.cookies))
        path = f"/ws/games/{state['id']}"
        with (
            one.websocket_connect(path) as ana_socket,
            bob_on_two.websocket_connect(path) as bob_socket,
            two.websocket_connect(path) as spectator,
        ):
            for socket_ in (ana_socket, bob_socket, spectator):
                assert receive(socket_)["game"]["ply"] == 0
            subscribed = _rooms(two).subscriptions
            own_redis.stop()
            move = state["legal_moves"][0]["notation"]
            ana_socket.send_json({"type": "move", "move": move, "ply": 0})
            assert _plies(_until_pong(ana_socket)) == [1]
            own_redis.start()
            assert _resubscribed(two, subscribed) > subscribed
            mine = [f for f in _until_pong(bob_socket) if f["type"] == "state"]
            assert [(f["game"]["ply"], f["game"]["turn"], f["game"]["you"]) for f in mine] == [
                (1, "black", "black")
            ]
            assert _plies(_until_pong(spectator)) == [1]
            # Bob answers on the second server: the first hears of it through Redis again.
            bob_socket.send_json(
                {"type": "move", "move": mine[0]["game"]["legal_moves"][0]["notation"], "ply": 1}
            )
            assert receive(ana_socket)["game"]["ply"] == 2


def test_a_socket_opened_while_redis_is_away_gets_its_state_and_is_kept(
    make_app: AppFactory, own_redis: RedisServer
) -> None:
    with (
        TestClient(make_app(redis_url=own_redis.url, clock_tick=3600)) as one,
        TestClient(make_app(redis_url=own_redis.url, clock_tick=3600)) as two,
    ):
        sign_in(one, "Ana")
        bob = another(one)
        sign_in(bob, "Bob")
        state = open_game(one, bob)
        path = f"/ws/games/{state['id']}"
        subscribed = _rooms(two).subscriptions
        own_redis.stop()
        with two.websocket_connect(path) as watcher:
            assert receive(watcher)["game"]["ply"] == 0
            assert _plies(_until_pong(watcher)) == []  # still open
            own_redis.start()
            _resubscribed(two, subscribed)
            move = state["legal_moves"][0]["notation"]
            moved = one.post(f"/api/games/{state['id']}/moves", json={"move": move, "ply": 0})
            assert moved.status_code == 200, moved.text
            assert receive(watcher)["game"]["ply"] == 1


def test_the_players_of_a_process_whose_heartbeat_lapsed_are_gone(own_redis: RedisServer) -> None:
    """A process killed says nothing: once its heartbeat has lapsed its sockets count no
    more, its players held by no other process are gone from then, and the sockets of the
    other processes are told who is here."""
    clock = FakeTime()
    told: list[str] = []

    async def state(game_id: str) -> State:
        raise AssertionError("no state is read again: Redis stayed")

    async def presence(game_id: str, state: State) -> str:
        told.append(game_id)
        return f'{{"type":"presence","game":"{game_id}"}}'

    async def scenario() -> None:
        killed = RedisRooms(own_redis.url, clock=clock, heartbeat=3600)
        alive = RedisRooms(own_redis.url, clock=clock, heartbeat=3600)
        await killed.start()
        await alive.start(Refresh(state, presence))
        try:
            sockets = {
                "bob": (killed, Connection("bob"), True),
                "watcher": (killed, Connection(None), False),
                "ana": (alive, Connection("ana"), True),
                "carl": (killed, Connection("carl"), True),
            }
            for rooms, connection, seated in sockets.values():
                rooms.join("g", connection)
                connection.deliver(State(3, (("ana", "white"), ("bob", "black")), True, "{}"))
                await rooms.arrive("g", connection, seated)
            carl = Connection("carl")  # Carl has a socket on the live process too
            alive.join("g", carl)
            await alive.arrive("g", carl, True)
            players = ["ana", "bob", "carl"]
            assert await alive.presence("g", players) == ({}, 1)
            lapsed_at = clock() + 30
            clock.advance(20)  # the live process beats on, the killed one no more
            await alive.heartbeat()
            assert told == []
            clock.advance(11)  # the killed process's heartbeat lapses
            await alive.heartbeat()
            assert told == ["g"]
            frames = [sockets["ana"][1].queue.get_nowait() for _ in range(2)]
            assert frames[-1] == '{"type":"presence","game":"g"}'
            assert await alive.presence("g", players) == ({"bob": lapsed_at}, 0)
            # Bob comes back on the live process: he is here again.
            back = Connection("bob")
            alive.join("g", back)
            await alive.arrive("g", back, True)
            assert await alive.presence("g", players) == ({}, 0)
        finally:
            await alive.stop()
            await killed.stop()

    asyncio.run(scenario())


def test_a_process_stopped_cleanly_counts_no_more_at_once(own_redis: RedisServer) -> None:
    clock = FakeTime()

    async def scenario() -> None:
        one = RedisRooms(own_redis.url, clock=clock)
        two = RedisRooms(own_redis.url, clock=clock)
        await one.start()
        await two.start()
        try:
            bob = Connection("bob")
            one.join("g", bob)
            await one.arrive("g", bob, True)
            assert await two.presence("g", ["bob"]) == ({}, 0)
            await one.stop()
            assert await two.presence("g", ["bob"]) == ({"bob": clock()}, 0)
        finally:
            await two.stop()

    asyncio.run(scenario())


def test_presence_changed_while_redis_was_away_is_stored_when_it_returns(
    own_redis: RedisServer,
) -> None:
    """While Redis is away a process keeps its sockets' comings and goings; the heartbeat
    after Redis returns (empty: it kept nothing) stores them, and meanwhile nobody is taken
    for gone (a claim waits for Redis)."""
    clock = FakeTime()
    playing = State(3, (("ana", "white"), ("bob", "black")), True, "{}")

    async def scenario() -> None:
        one = RedisRooms(own_redis.url, clock=clock, heartbeat=3600)
        two = RedisRooms(own_redis.url, clock=clock, heartbeat=3600)
        await one.start()
        await two.start()
        try:
            bob, watcher = Connection("bob"), Connection(None)
            for connection in (bob, watcher):
                connection.deliver(playing)
            one.join("g", bob)
            await one.arrive("g", bob, True)
            own_redis.stop()
            one.leave("g", bob)
            await one.depart("g", bob, True, clock())
            one.join("g", watcher)
            await one.arrive("g", watcher, False)
            assert await one.presence("g", ["bob"]) == ({}, 1)
            left_at = clock()
            clock.advance(5)
            own_redis.start()
            await one.heartbeat()
            await two.heartbeat()
            assert await two.presence("g", ["bob"]) == ({"bob": left_at}, 1)
        finally:
            await two.stop()
            await one.stop()

    asyncio.run(scenario())


def test_every_process_is_told_of_a_departure_stored_after_redis_returns(
    own_redis: RedisServer,
) -> None:
    """A player who left while Redis was away is known gone once the process he left
    stores it; the sockets of the other processes, brought up to date before that, are
    told then."""
    playing = State(3, (("ana", "white"), ("bob", "black")), True, '{"ply":0}')
    told: list[dict[str, Any]] = []

    async def scenario() -> None:
        async def state(game_id: str) -> State:
            return playing

        async def presence(game_id: str, state: State) -> str:
            gone, _ = await two.presence(game_id, ["ana", "bob"])
            return json.dumps({"type": "presence", "gone": sorted(gone)})

        # The first is not started: it beats when told to, after the second has subscribed
        # again and brought its sockets up to date.
        one = RedisRooms(own_redis.url, refresh=Refresh(state, presence))
        two = RedisRooms(own_redis.url, heartbeat=3600)
        await one.heartbeat()
        await two.start(Refresh(state, presence))
        try:
            bob, ana = Connection("bob"), Connection("ana")
            for rooms, connection in ((one, bob), (two, ana)):
                connection.deliver(playing)
                rooms.join("g", connection)
                await rooms.arrive("g", connection, True)
            subscribed = two.subscriptions
            own_redis.stop()
            one.leave("g", bob)
            await one.depart("g", bob, True, time.time())
            own_redis.start()
            await two.subscribed(subscribed)  # its sockets brought up to date: Bob is here
            await one.heartbeat()  # the process Bob left stores his departure
            while not told or told[-1]["gone"] != ["bob"]:
                frame = json.loads(await asyncio.wait_for(ana.queue.get(), timeout=30))
                if frame["type"] == "presence":
                    told.append(frame)
        finally:
            await two.stop()
            await one.stop()

    asyncio.run(scenario())
    assert told[-1]["gone"] == ["bob"]


class _Subscription:
    """A pub/sub connection whose Redis confirms the patterns only after ``silent`` reads
    that find nothing (a Redis slow to read the command, on a loaded machine)."""

    def __init__(self, silent: int) -> None:
        self.silent = silent
        self.sent: tuple[str, ...] = ()
        self.confirmed: list[str] = []

    async def psubscribe(self, *patterns: str) -> None:
        self.sent = patterns

    async def get_message(self, timeout: float) -> dict[str, Any] | None:
        await asyncio.sleep(0.01)
        if self.silent or len(self.confirmed) == len(self.sent):
            self.silent -= 1
            return None
        pattern = self.sent[len(self.confirmed)]
        self.confirmed.append(pattern)
        return {"type": "psubscribe", "pattern": None, "channel": pattern.encode(), "data": 1}


def test_the_rooms_are_subscribed_only_once_redis_confirmed_each_pattern() -> None:
    subscription = _Subscription(silent=3)
    asyncio.run(rooms._subscribe(subscription, ("damier:game:*", "damier:notice:*")))
    assert subscription.confirmed == ["damier:game:*", "damier:notice:*"]
    assert subscription.silent == 0


def test_a_subscription_redis_never_confirms_is_tried_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(rooms, "CONFIRM_SECONDS", 0.2)
    subscription = _Subscription(silent=1_000)
    with pytest.raises(TimeoutError):  # the listener's loop subscribes again on any error
        asyncio.run(rooms._subscribe(subscription, ("damier:game:*",)))
