"""Load test of ``damier serve`` on loopback: simulated players in pairs play random legal
games over WebSockets; prints moves per second and the latency of a move (sent on the
mover's socket until the new state comes back on it), p50 and p99.

    python bench/load.py --games 500 --moves 40 --think 1 --client-procs 1

Starts the server in a subprocess on a free 127.0.0.1 port with a temporary database, and
stops it at the end. Every game is set up first (players, game, sockets); the clock starts
when all of them are ready. ``--think`` makes each player pause before moving (uniform,
0.5-1.5 times the value): the default, 0, moves at once and measures the most moves the
server takes; with a pause, ``--games`` is the number of games in play at once and the
latency is that of a server serving them. The server's CPU time per move is printed too:
on a machine shared with other work, it moves less than the wall-clock figures.

The client runs in ``--client-procs`` processes (uvloop when installed), so that a client
on the same machine takes as little as possible from the server. Bounded: --games pairs,
--moves plies a game, --timeout seconds. ``--database URL`` runs it on another database (an
empty PostgreSQL database, say); ``--profile FILE`` profiles the server (cProfile) during
the play phase;
``--analysis`` keeps an engine analysis of the analysis board running all along (the live
games must not slow down for it).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import multiprocessing
import os
import random
import shlex
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx
from machine import describe_machine
from websockets.asyncio.client import connect

HOST = "127.0.0.1"
PROFILED = """
import cProfile, signal, sys, time
from damier.cli import main
profile = cProfile.Profile(time.process_time)
signal.signal(signal.SIGUSR1, lambda *_: profile.enable())
signal.signal(signal.SIGUSR2, lambda *_: profile.disable())
try:
    main(sys.argv[2:])
finally:
    profile.dump_stats(sys.argv[1])
"""
"""``python -c PROFILED FILE serve ...``: the server profiled on CPU time (not wall time:
the idle waits of the event loop would swamp it) between SIGUSR1 and SIGUSR2, sent as the
play phase begins and ends (the setup of a thousand games would swamp the moves). With
``--workers`` only the first process is profiled, which serves no request."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def _cpu_seconds(pid: int) -> float:
    """User and system CPU time so far of a process and its descendants still running (the
    workers of ``--workers``, a private Redis server): Linux; 0 elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    seconds = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    for child in _children(pid):
        seconds += _cpu_seconds(child)
    return seconds


def _children(pid: int) -> list[int]:
    children: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            children += [int(child) for child in task.read_text().split()]
        except OSError:
            continue
    return children


async def wait_until_up(base: str, deadline: float) -> None:
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
    # A connection per request: while hundreds of games are set up, a kept-alive connection
    # may sit idle past the server's keep-alive timeout and be closed under the next request.
    limits = httpx.Limits(max_keepalive_connections=0)
    client = httpx.AsyncClient(base_url=base, timeout=60, limits=limits)
    answer = await client.post("/api/session", json={"name": name})
    answer.raise_for_status()
    return client


async def _set_up(base: str, number: int, variant: str) -> tuple[list[Any], dict[str, Any]]:
    """Two players, their open game joined, a socket each; the sockets and the first
    state."""
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
                    f"{ws_base}/ws/games/{game_id}",
                    additional_headers={"Cookie": cookie},
                    open_timeout=60,
                )
            )
    finally:
        await white.aclose()
        await black.aclose()
    states = [await _next_state(ws) for ws in sockets]
    return sockets, states[0]


async def _play(
    sockets: list[Any],
    state: dict[str, Any],
    plies: int,
    think: float,
    latencies: list[tuple[float, float]],
    rng: random.Random,
) -> int:
    """Random legal moves until the game ends or ``plies``; returns the moves played."""
    played = 0
    try:
        while played < plies and state["status"] == "playing" and state["legal_moves"]:
            if think:
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            mover = sockets[0 if state["turn"] == "white" else 1]
            other = sockets[1 if mover is sockets[0] else 0]
            move = rng.choice(state["legal_moves"])["notation"]
            sent = time.perf_counter()
            await mover.send(json.dumps({"type": "move", "move": move, "ply": state["ply"]}))
            while True:
                state = await _next_state(mover)
                if state["ply"] > played:
                    break
            latencies.append((sent, time.perf_counter() - sent))
            await _next_state(other)
            played += 1
        return played
    finally:
        for ws in sockets:
            await ws.close()


async def _next_state(ws: Any) -> dict[str, Any]:
    while True:
        frame = json.loads(await ws.recv())
        if frame["type"] == "state":
            game: dict[str, Any] = frame["game"]
            return game
        if frame["type"] == "error":
            raise RuntimeError(frame["message"])


async def _clients(
    base: str, numbers: range, args: argparse.Namespace, start: Any
) -> tuple[int, list[float], float]:
    """The games ``numbers``: set up all, wait at the barrier ``start`` for every other
    client process, then play; returns the moves, their latencies and the CPU time the
    play took in this process."""
    await wait_until_up(base, time.monotonic() + 120)
    games = await asyncio.wait_for(
        asyncio.gather(*(_set_up(base, n, args.variant) for n in numbers)), args.timeout
    )
    await asyncio.to_thread(start.wait)
    # The client is the measuring instrument: its collector's full passes over a thousand
    # sockets paused it for up to half a second, counted as the server's latency.
    gc.collect()
    gc.freeze()
    cpu = time.process_time()
    latencies: list[tuple[float, float]] = []
    plays = [
        _play(
            sockets, state, args.moves, args.think, latencies, random.Random(args.seed * 7919 + n)
        )
        for n, (sockets, state) in zip(numbers, games, strict=True)
    ]
    moves = await asyncio.wait_for(asyncio.gather(*plays), args.timeout)
    return sum(moves), latencies, time.process_time() - cpu


def _client_process(
    base: str, numbers: range, args: argparse.Namespace, start: Any, results: Connection
) -> None:
    """One client process: its games on its own event loop (uvloop when installed). A
    failure breaks the barrier, so that nobody waits for this process."""
    try:
        import uvloop

        run: Any = uvloop.run
    except ImportError:
        run = asyncio.run
    try:
        outcome = run(_clients(base, numbers, args, start))
    except BaseException:
        start.abort()
        raise
    results.send(outcome)
    results.close()


async def _keep_analysing(base: str, variant: str) -> None:
    """One engine analysis on the server's analysis board, started again each time its
    time is up: the games must not slow down for it. Ends when its process is ended."""
    await wait_until_up(base, time.monotonic() + 120)
    async with connect(base.replace("http", "ws", 1) + "/ws/analysis") as ws:
        while True:
            await ws.send(json.dumps({"type": "start", "variant": variant, "lines": 3}))
            while True:
                frame = json.loads(await ws.recv())
                if frame["type"] == "error":
                    raise RuntimeError(frame["message"])
                if frame["type"] == "analysis" and frame["done"]:
                    break


def _analysis_process(base: str, variant: str) -> None:
    asyncio.run(_keep_analysing(base, variant))


def _measure(args: argparse.Namespace, base: str, server: subprocess.Popen[bytes]) -> None:
    """Run the client processes; print the figures of the play phase."""
    context = multiprocessing.get_context("spawn")
    start = context.Barrier(args.client_procs + 1)
    share = -(-args.games // args.client_procs)
    workers = []
    for first in range(0, args.games, share):
        receiver, sender = context.Pipe(duplex=False)
        numbers = range(first, min(first + share, args.games))
        process = context.Process(
            target=_client_process, args=(base, numbers, args, start, sender), daemon=True
        )
        process.start()
        sender.close()
        workers.append((process, receiver))
    analysis = None
    if args.analysis:
        analysis = context.Process(target=_analysis_process, args=(base, args.variant), daemon=True)
        analysis.start()
    start.wait(timeout=args.timeout + 120)  # every game is set up
    if args.profile:
        server.send_signal(signal.SIGUSR1)
    began, cpu_began = time.perf_counter(), _cpu_seconds(server.pid)
    moves, client_cpu = 0, 0.0
    latencies: list[tuple[float, float]] = []  # (when the move was sent, its latency)
    try:
        for process, receiver in workers:
            if not receiver.poll(args.timeout + 60):
                raise SystemExit("a client process did not finish in time")
            played, times, cpu = receiver.recv()
            moves += played
            latencies += times
            client_cpu += cpu
            process.join()
        elapsed = time.perf_counter() - began
        server_cpu = _cpu_seconds(server.pid) - cpu_began
        if args.profile:
            server.send_signal(signal.SIGUSR2)
    finally:
        if analysis is not None:
            if not analysis.is_alive():
                raise SystemExit("the analysis stopped early (refused by the server?)")
            analysis.terminate()
    if analysis is not None:
        print("with one engine analysis running on the server all along (its CPU included)")
    p50, p99 = _percentiles([latency for _, latency in latencies])
    print(
        f"{args.games} games ({2 * args.games} players, think {args.think:g} s), "
        f"{moves} moves in {elapsed:.2f} s"
    )
    print(f"moves/s {moves / elapsed:,.1f}")
    print(f"latency per move: p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms")
    for name, cpu in (("server", server_cpu), ("client", client_cpu)):
        if moves:
            print(
                f"{name} CPU: {cpu:.2f} s, {cpu / moves * 1000:.2f} ms per move "
                f"({cpu / elapsed:.0%} of one core)"
            )
    if args.timeline and latencies:
        print("p99 by tenth of the play phase (where the slow moves are):")
        tenth = elapsed / 10
        for k in range(10):
            part = [x for sent, x in latencies if k * tenth <= sent - began < (k + 1) * tenth]
            print(
                f"  {k * tenth:5.1f}-{(k + 1) * tenth:5.1f} s: {len(part):6d} moves, "
                f"p99 {_percentiles(part)[1] * 1000:.1f} ms"
            )


def _percentiles(latencies: list[float]) -> tuple[float, float]:
    """The median and the 99th percentile of ``latencies`` (0 for none)."""
    if not latencies:
        return 0.0, 0.0
    ordered = sorted(latencies)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="games played at once (pairs)")
    parser.add_argument("--moves", type=int, default=40, help="plies per game at most")
    parser.add_argument("--think", type=float, default=0.0, help="mean pause before a move, s")
    parser.add_argument("--client-procs", type=int, default=1, help="client processes")
    parser.add_argument("--variant", default="international")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds, per phase")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--database",
        default=None,
        help="SQLAlchemy URL of an empty database (default: a temporary SQLite file), "
        "e.g. postgresql+asyncpg://user:password@127.0.0.1/damier_bench",
    )
    parser.add_argument(
        "--timeline", action="store_true", help="also the p99 of each tenth of the play phase"
    )
    parser.add_argument(
        "--profile", default=None, help="profile the server (cProfile) while it plays, to FILE"
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="server processes (damier serve --workers)"
    )
    parser.add_argument(
        "--analysis",
        action="store_true",
        help="keep an engine analysis (the analysis board's) running while the games play",
    )
    args = parser.parse_args()
    if not (1 <= args.games <= 2000 and 1 <= args.moves <= 1000):
        parser.error("--games 1-2000 and --moves 1-1000")
    if not (1 <= args.client_procs <= 16 and 0 <= args.think <= 60):
        parser.error("--client-procs 1-16 and --think 0-60")
    if args.profile and args.workers > 1:
        parser.error("--profile profiles the one process serving: not with --workers")
    print(f"machine: {describe_machine()}")
    print(f"load average before: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")
    print(f"command: python {shlex.join(sys.argv)}")
    port = free_port()
    base = f"http://{HOST}:{port}"
    with tempfile.TemporaryDirectory() as scratch:
        env = {
            **os.environ,
            "DAMIER_SECRET": "load-test-secret-0123456789",
            "DAMIER_ENV": "test",
            "DAMIER_RATE_CAPACITY": "100000",
            "DAMIER_RATE_PER_SECOND": "100000",
            # Every player is a guest made from this one address.
            "DAMIER_GUEST_CAPACITY": "100000",
            "DAMIER_GUEST_PER_SECOND": "100000",
            # Every game is set up before any is played: none may be aborted meanwhile
            # for want of a first move.
            "DAMIER_FIRST_MOVE_SECONDS": "86400",
        }
        database = args.database or f"sqlite+aiosqlite:///{Path(scratch) / 'load.sqlite3'}"
        command = [sys.executable]
        command += ["-c", PROFILED, args.profile] if args.profile else ["-m", "damier.cli"]
        command += ["serve", "--host", HOST]
        command += ["--port", str(port), "--database", database, "--log-level", "warning"]
        command += ["--workers", str(args.workers)]
        server = subprocess.Popen(command, env=env)
        try:
            _measure(args, base, server)
        finally:
            # SIGINT: a profiled server writes its profile as it stops.
            server.send_signal(signal.SIGINT if args.profile else signal.SIGTERM)
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
