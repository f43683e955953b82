"""The first minute of ``damier serve`` on a new machine: when the lobby answers, when a move
between two people is accepted, when the computer's first move comes.

    python bench/first_minute.py [--warm] [--variant international] [--workers N]

Starts ``damier serve`` on a free port with a fresh SQLite file and, unless ``--warm``, an
empty Numba cache of its own (``NUMBA_CACHE_DIR`` set to a new directory: nobody else's
cache is touched; ``--warm`` uses the usual one). As soon as the process is started, three
clients go: one asks for the lobby (``GET /``) until it answers, then ``GET /api/status``
every 0.2 s (its answer times show how the event loop keeps up while the code compiles);
one, as soon as the lobby answered, creates an open game, has a second player join it and
plays the first move (the requests wait for the kernel); one creates a game against the
computer at level 1, the computer to move first, and waits for its move. Prints the
seconds from the start of the process to each event, among the server's own lines.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

FIRST_MOVES = {"international": "32-28", "russian": "c3-d4", "turkish": "a3-a4"}


class Client:
    """One browser: its own session cookie."""

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
            with urllib.request.urlopen(request, timeout=600) as answer:
                cookie = answer.headers.get("Set-Cookie")
                if cookie:
                    self.cookie = cookie.split(";", 1)[0]
                text = answer.read().decode()
                status: int = answer.status
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()
        return status, json.loads(text) if text.startswith(("{", "[")) else text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warm", action="store_true", help="use the usual (warm) cache")
    parser.add_argument("--variant", default="international", choices=sorted(FIRST_MOVES))
    parser.add_argument("--workers", type=int, default=None, help="server processes")
    args = parser.parse_args()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    work = Path(tempfile.mkdtemp(prefix="damier-first-minute-"))
    environment = dict(os.environ, DAMIER_SECRET="first-minute-bench-secret-0123456789")
    if not args.warm:
        environment["NUMBA_CACHE_DIR"] = str(work / "numba")
    command = [sys.executable, "-m", "damier.cli", "serve", "--port", str(port)]
    command += ["--database", f"sqlite+aiosqlite:///{work / 'db.sqlite3'}"]
    if args.workers is not None:
        command += ["--workers", str(args.workers)]
    events: dict[str, float] = {}
    began = time.perf_counter()
    server = subprocess.Popen(
        [*command, "--log-level", "warning"],
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: list[str] = []

    def read_lines() -> None:
        assert server.stdout is not None
        for line in server.stdout:
            lines.append(f"{time.perf_counter() - began:6.1f} s  {line.rstrip()}")
            print(lines[-1], flush=True)

    def mark(name: str) -> None:
        if name not in events:
            events[name] = time.perf_counter() - began
            print(f"{events[name]:6.1f} s  ** {name}", flush=True)

    lobby = threading.Event()

    def two_people() -> None:
        lobby.wait()
        alice, bob = Client(base), Client(base)
        alice.call("POST", "/api/session", {"name": "Alice"})
        bob.call("POST", "/api/session", {"name": "Bob"})
        new_game = {"variant": args.variant, "opponent": "open", "color": "white"}
        status, game = alice.call("POST", "/api/games", new_game)
        assert status == 201, game
        bob.call("POST", f"/api/games/{game['id']}/join")
        body = {"move": FIRST_MOVES[args.variant], "ply": 0}
        status, state = alice.call("POST", f"/api/games/{game['id']}/moves", body)
        assert status == 200, state
        mark("a move between two people accepted")

    def computer() -> None:
        lobby.wait()
        carol = Client(base)
        carol.call("POST", "/api/session", {"name": "Carol"})
        new_game = {"variant": args.variant, "opponent": "computer", "level": 1}
        status, game = carol.call("POST", "/api/games", {**new_game, "color": "black"})
        assert status == 201, game
        while carol.call("GET", f"/api/games/{game['id']}")[1]["ply"] == 0:
            time.sleep(0.2)
        mark("the computer's first move")

    threads = [threading.Thread(target=work_, daemon=True) for work_ in (two_people, computer)]
    reader = threading.Thread(target=read_lines, daemon=True)
    reader.start()
    for thread in threads:
        thread.start()
    watcher = Client(base)
    answers: list[float] = []
    try:
        while True:
            try:
                status, _ = watcher.call("GET", "/")
                if status == 200:
                    break
            except OSError:
                if server.poll() is not None:
                    raise RuntimeError("the server stopped") from None
                time.sleep(0.05)
        mark("the lobby answers")
        lobby.set()
        while any(thread.is_alive() for thread in threads) or "engine ready" not in events:
            asked = time.perf_counter()
            _, status = watcher.call("GET", "/api/status")
            answers.append(time.perf_counter() - asked)
            if status["kernel"]:
                mark("kernel ready")
            if status["engine"]:
                mark("engine ready")
            time.sleep(0.2)
    finally:
        server.terminate()
        server.wait(30)
        reader.join(5)
    print(f"damier serve, {'warm' if args.warm else 'empty'} cache, {args.variant}:")
    for name, seconds in sorted(events.items(), key=lambda item: item[1]):
        print(f"  {seconds:6.1f} s  {name}")
    if answers:
        p50 = statistics.median(answers) * 1000
        print(f"  GET /api/status while warming: {len(answers)} answers, median {p50:.0f} ms, ")
        print(f"  slowest {max(answers) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
