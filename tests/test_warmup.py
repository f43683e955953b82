"""The first minute of a server: its compiled code is made ready in the background
(:mod:`damier.compiled`), the lobby answers meanwhile, a game between two people is played
as soon as the kernel is ready, and the computer waits for the engine.

The in-process tests hold the warm-up at a stage with :meth:`Warmup.hold` (a fresh warm-up:
in this process the code itself may long be loaded, the server only knows what its warm-up
says) and see a request wait at the door with :meth:`Warmup.wait_for_waiters`. The slow test
starts a real ``damier serve`` on an empty compiled cache.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damier import Board
from damier.compiled import KERNEL_PARTS, PARTS, Part, ProgressLines, Warmup
from damier.server.app import create_app
from tests.server.conftest import another, settings_for, sign_in, wait_for

WAIT = 120.0
"""Seconds a test waits for what must come (a bound against hanging, not a measurement)."""
CHROMIUM = "/usr/bin/chromium"


def test_parts_run_in_order_and_stages_become_ready_in_turn() -> None:
    done: list[str] = []
    parts = [
        Part(stage, stage, lambda stage=stage: done.append(stage))
        for stage in ("kernel", "engine", "tools")
    ]
    warmup = Warmup(parts)
    gate = warmup.hold("engine")
    warmup.start(("kernel", "engine"))
    assert warmup.wait("kernel", WAIT)
    assert done == ["kernel"]
    assert not warmup.ready("engine")
    assert warmup.status().part is None and warmup.status().done == 1
    gate.set()
    assert warmup.wait("engine", WAIT)
    assert done == ["kernel", "engine"]
    assert not warmup.ready("tools")  # not asked for
    warmup.run(("tools",))
    assert done == ["kernel", "engine", "tools"]


def test_the_computer_of_a_road_is_ready_before_the_other_searches() -> None:
    table_search = threading.Event()
    parts = [
        Part("kernel", "moves", lambda: None),
        Part("engine", "bitboard search", lambda: None, "bitboard"),
        Part("engine", "table search", table_search.wait, "table"),
    ]
    warmup = Warmup(parts)
    warmup.start(("kernel", "engine"))
    try:
        assert warmup.wait(warmup.computer_key("international"), WAIT)  # bitboard
        assert warmup.status().part == "table search"
        assert not warmup.ready(warmup.computer_key("dameo"))
        assert not warmup.ready("engine")
    finally:
        table_search.set()
    assert warmup.wait("engine", WAIT) and warmup.ready(warmup.computer_key("dameo"))


def test_a_failed_part_leaves_nobody_waiting() -> None:
    def broken() -> None:
        raise RuntimeError("no compiler")

    warmup = Warmup([Part("kernel", "broken", broken)])
    with pytest.raises(RuntimeError):
        warmup.run(("kernel", "engine"))
    assert warmup.ready("kernel") and warmup.ready("engine")
    assert isinstance(warmup.error, RuntimeError)


def test_progress_lines_say_nothing_of_a_warm_cache_but_how_long() -> None:
    said: list[str] = []
    Warmup(KERNEL_PARTS).run(("kernel",), ProgressLines(said.append))
    assert len(said) == 1 and said[0].startswith("compiled code loaded in ")


def test_the_server_parts_are_the_kernel_then_the_engine() -> None:
    stages = [part.stage for part in PARTS]
    assert stages == sorted(stages, key=("kernel", "engine", "tools").index)
    kernel = [part.title for part in PARTS if part.stage == "kernel"]
    assert kernel == ["move generation", "making and taking back moves", "position keys"]


def test_lobby_and_two_people_play_before_the_engine_is_ready(tmp_path: Path) -> None:
    warmup = Warmup()
    kernel_gate, engine_gate = warmup.hold("kernel"), warmup.hold("engine")
    app = create_app(settings_for(tmp_path / "damier.sqlite3"), warmup=warmup)
    try:
        with TestClient(app) as alice, ThreadPoolExecutor(1) as pool:
            bob = another(alice)
            # Nothing is ready: the lobby, its files and lists answer.
            assert alice.get("/").status_code == 200
            assert alice.get("/api/variants").status_code == 200
            status = alice.get("/api/status").json()
            assert (status["kernel"], status["engine"], status["state"]) == (
                False,
                False,
                "loading",
            )
            assert "starting" in status["notice"]
            sign_in(alice, "Alice")
            sign_in(bob, "Bob")
            # Creating a game runs the rules: the request waits at the door, off the event
            # loop, which keeps answering the lobby.
            new_game = {"variant": "russian", "opponent": "open", "color": "white"}
            created = pool.submit(alice.post, "/api/games", json=new_game)
            assert warmup.wait_for_waiters("kernel", 1, WAIT)
            assert alice.get("/api/status").json()["kernel"] is False
            assert not created.done()
            kernel_gate.set()
            answer = created.result(WAIT)
            assert answer.status_code == 201, answer.text
            game = answer.json()["id"]
            assert bob.post(f"/api/games/{game}/join").status_code == 200
            # The kernel is ready, the engine is not: two people play.
            status = alice.get("/api/status").json()
            assert (status["kernel"], status["engine"]) == (True, False)
            assert "computer" in status["notice"]
            move = Board("russian").legal_moves[0].notation
            played = alice.post(f"/api/games/{game}/moves", json={"move": move, "ply": 0})
            assert played.status_code == 200, played.text
            assert played.json()["ply"] == 1
            assert not warmup.ready("engine")
            engine_gate.set()
            assert warmup.wait("engine", WAIT)
            status = alice.get("/api/status").json()
            assert (status["engine"], status["state"], status["notice"]) == (True, "ready", None)
    finally:
        kernel_gate.set()
        engine_gate.set()


def test_a_game_against_the_computer_is_created_once_its_search_is_ready(
    tmp_path: Path,
) -> None:
    """The computer's first move has a deadline from the game's creation: the creation
    waits for the computer's search (the first move then comes at once)."""
    warmup = Warmup()
    engine_gate = warmup.hold("engine")
    app = create_app(settings_for(tmp_path / "damier.sqlite3"), warmup=warmup)
    try:
        with TestClient(app) as client, ThreadPoolExecutor(1) as pool:
            sign_in(client, "Carol")
            new_game = {"variant": "russian", "opponent": "computer", "level": 1, "color": "black"}
            created = pool.submit(client.post, "/api/games", json=new_game)
            assert warmup.computer_key("russian") == "bitboard"
            assert warmup.wait_for_waiters("bitboard", 1, WAIT)
            assert client.get("/api/status").json()["engine"] is False
            assert not created.done()
            engine_gate.set()
            answer = created.result(WAIT)
            assert answer.status_code == 201, answer.text
            wait_for(client, answer.json()["id"], lambda state: state["ply"] == 1, WAIT)
    finally:
        engine_gate.set()


@pytest.mark.slow  # a long browser run: CI runs it with -m slow
def test_the_lobby_shows_a_notice_until_the_computer_is_ready(tmp_path: Path) -> None:
    """In a browser (skipped without playwright and Chromium): the lobby's notice follows
    ``GET /api/status`` and goes once everything is ready."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing")
    import uvicorn

    warmup = Warmup()
    kernel_gate, engine_gate = warmup.hold("kernel"), warmup.hold("engine")
    app = create_app(settings_for(tmp_path / "damier.sqlite3"), warmup=warmup)
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=_free_port(), log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"]
            )
            page = browser.new_page()
            while not server.started:  # (no request before it listens)
                assert thread.is_alive(), "the server did not start"
                thread.join(0.05)
            page.goto(f"http://127.0.0.1:{server.config.port}/")
            notice = page.locator("[data-warmup]")
            sync_api.expect(notice).to_contain_text("starting", timeout=WAIT * 1000)
            kernel_gate.set()
            sync_api.expect(notice).to_contain_text("computer", timeout=WAIT * 1000)
            engine_gate.set()
            sync_api.expect(notice).to_have_count(0, timeout=WAIT * 1000)
            browser.close()
    finally:
        kernel_gate.set()
        engine_gate.set()
        server.should_exit = True
        thread.join(WAIT)


# --------------------------------------------------------------------------------------
# A real server on an empty compiled cache
# --------------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Browser:
    """A client of the real server with its own session cookie."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.cookie = ""

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        request.add_header("Origin", self.base)
        if self.cookie:
            request.add_header("Cookie", self.cookie)
        try:
            with urllib.request.urlopen(request, timeout=WAIT) as answer:
                cookie = answer.headers.get("Set-Cookie")
                if cookie:
                    self.cookie = cookie.split(";", 1)[0]
                text = answer.read().decode()
                status: int = answer.status
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()
        return status, json.loads(text) if text.startswith(("{", "[")) else text


@pytest.mark.slow
def test_a_new_server_answers_and_two_people_play_before_the_engine_is_compiled(
    tmp_path: Path,
) -> None:
    port = _free_port()
    environment = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(tmp_path / "numba"),  # empty: everything compiles
        "DAMIER_SECRET": "first-minute-test-secret-0123456789",
    }
    database = f"sqlite+aiosqlite:///{tmp_path / 'damier.sqlite3'}"
    command = [sys.executable, "-m", "damier.cli", "serve", "--port", str(port)]
    server = subprocess.Popen(
        [*command, "--database", database, "--log-level", "warning"],
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert server.stdout is not None
        for line in server.stdout:  # the port is open once this is said
            if "serving on" in line:
                break
        alice, bob = Browser(f"http://127.0.0.1:{port}"), Browser(f"http://127.0.0.1:{port}")
        deadline = time.monotonic() + WAIT
        while True:
            try:
                status, page = alice.call("GET", "/")
                break
            except OSError:
                assert time.monotonic() < deadline, "the lobby never answered"
                assert server.poll() is None, "the server stopped"
        assert status == 200 and "<html" in page.lower()
        assert alice.call("GET", "/api/status")[1]["engine"] is False
        alice.call("POST", "/api/session", {"name": "Alice"})
        bob.call("POST", "/api/session", {"name": "Bob"})
        new_game = {"variant": "international", "opponent": "open", "color": "white"}
        status, game = alice.call("POST", "/api/games", new_game)
        assert status == 201, game
        assert bob.call("POST", f"/api/games/{game['id']}/join")[0] == 200
        body = {"move": "32-28", "ply": 0}
        status, state = alice.call("POST", f"/api/games/{game['id']}/moves", body)
        assert status == 200 and state["ply"] == 1, state
        # Accepted while the engine still compiles.
        assert alice.call("GET", "/api/status")[1]["engine"] is False
    finally:
        server.terminate()
        server.wait(WAIT)
