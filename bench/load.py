"""Load test of ``damier serve`` on loopback: simulated players in pairs play random legal
games over WebSockets; prints moves per second and the latency of a move (sent on the
mover's socket until the new state comes back on it), p50 and p99.

    python bench/load.py --games 20 --moves 60

Starts the server in a subprocess on a free 127.0.0.1 port with a temporary database, and
stops it at the end. Bounded: --games pairs, --moves plies a game, --timeout seconds.
``--database URL`` runs it on another database (an empty PostgreSQL database, say).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

HOST = "127.0.0.1"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


async def _wait_until_up(base: str, deadline: float) -> None:
    async with httpx.AsyncClient(base_url=base) as client:
        while True:
            try:
                if (await client.get("/api/variants")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the server did not start")
            await asyncio.sleep(0.1)


async def _player(base: str, name: str) -> httpx.AsyncClient:
    client = httpx.AsyncClient(base_url=base, timeout=30)
    answer = await client.post("/api/session", json={"name": name})
    answer.raise_for_status()
    return client


async def _play_game(
    base: str, number: int, variant: str, plies: int, latencies: list[float], rng: random.Random
) -> int:
    """One game between two simulated players; returns the moves played."""
    white = await _player(base, f"white-{number}")
    black = await _player(base, f"black-{number}")
    try:
        created = await white.post(
            "/api/games", json={"variant": variant, "opponent": "open", "color": "white"}
        )
        created.raise_for_status()
        game_id = created.json()["id"]
        (await black.post(f"/api/games/{game_id}/join")).raise_for_status()
        ws_base = base.replace("http://", "ws://")
        sockets = []
        for client in (white, black):
            cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
            sockets.append(
                await connect(
                    f"{ws_base}/ws/games/{game_id}", additional_headers={"Cookie": cookie}
                )
            )
        try:
            states: list[dict[str, Any]] = []
            for ws in sockets:
                states.append(await _next_state(ws))
            played = 0
            state = states[0]
            while played < plies and state["status"] == "playing" and state["legal_moves"]:
                mover = sockets[0 if state["turn"] == "white" else 1]
                other = sockets[1 if mover is sockets[0] else 0]
                move = rng.choice(state["legal_moves"])["notation"]
                sent = time.perf_counter()
                await mover.send(json.dumps({"type": "move", "move": move, "ply": state["ply"]}))
                while True:
                    state = await _next_state(mover)
                    if state["ply"] > played:
                        break
                latencies.append(time.perf_counter() - sent)
                await _next_state(other)
                played += 1
            return played
        finally:
            for ws in sockets:
                await ws.close()
    finally:
        await white.aclose()
        await black.aclose()


async def _next_state(ws: Any) -> dict[str, Any]:
    while True:
        frame = json.loads(await ws.recv())
        if frame["type"] == "state":
            game: dict[str, Any] = frame["game"]
            return game
        if frame["type"] == "error":
            raise RuntimeError(frame["message"])


async def _run(args: argparse.Namespace, base: str) -> None:
    await _wait_until_up(base, time.monotonic() + 60)
    rng = random.Random(args.seed)
    latencies: list[float] = []
    started = time.perf_counter()
    tasks = [
        _play_game(base, n, args.variant, args.moves, latencies, random.Random(rng.random()))
        for n in range(args.games)
    ]
    results = await asyncio.wait_for(asyncio.gather(*tasks), timeout=args.timeout)
    elapsed = time.perf_counter() - started
    moves = sum(results)
    latencies.sort()
    p50 = statistics.median(latencies) if latencies else 0.0
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] if latencies else 0.0
    print(f"{args.games} games ({2 * args.games} players), {moves} moves in {elapsed:.2f} s")
    print(f"moves/s {moves / elapsed:,.1f}")
    print(f"latency per move: p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="games played at once (pairs)")
    parser.add_argument("--moves", type=int, default=40, help="plies per game at most")
    parser.add_argument("--variant", default="international")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds, all in all")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--database",
        default=None,
        help="SQLAlchemy URL of an empty database (default: a temporary SQLite file), "
        "e.g. postgresql+asyncpg://user:password@127.0.0.1/damier_bench",
    )
    args = parser.parse_args()
    if not (1 <= args.games <= 500 and 1 <= args.moves <= 1000):
        parser.error("--games 1-500 and --moves 1-1000")
    port = _free_port()
    base = f"http://{HOST}:{port}"
    with tempfile.TemporaryDirectory() as scratch:
        env = {
            **os.environ,
            "DAMIER_SECRET": "load-test-secret-0123456789",
            "DAMIER_ENV": "test",
            "DAMIER_RATE_CAPACITY": "100000",
            "DAMIER_RATE_PER_SECOND": "100000",
        }
        database = args.database or f"sqlite+aiosqlite:///{Path(scratch) / 'load.sqlite3'}"
        command = [sys.executable, "-m", "damier.cli", "serve", "--host", HOST]
        command += ["--port", str(port), "--database", database, "--log-level", "warning"]
        server = subprocess.Popen(command, env=env)
        try:
            asyncio.run(_run(args, base))
        finally:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
