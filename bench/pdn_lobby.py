"""The lobby's latency while clients import large PDN files on the analysis board (issue 30):
prints p50, p90, p99 and the worst time of ``GET /`` with the server idle, then with
``--clients`` clients each importing a PDN of ``--side-lines`` one-move side lines
(``POST /api/analysis/pdn``) again and again.

    python bench/pdn_lobby.py --clients 2 --side-lines 1800 --seconds 10

Starts ``damier serve`` in a subprocess on a free 127.0.0.1 port with a temporary
database, and stops it at the end. The importers run in a process of their own, so the
process measuring the lobby waits on nothing but the server. Bounded: each phase lasts
``--seconds``. Run it with ``PYTHONPATH`` set to another tree's ``src`` to measure that
tree's server (the code before a change, say).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from multiprocessing.synchronize import Event
from pathlib import Path

import httpx
from load import free_port, wait_until_up
from machine import describe_machine

from damier import Board

HOST = "127.0.0.1"
PROBE_EVERY = 0.05
"""Seconds between two lobby requests."""
PROBE_TIMEOUT = 20.0


def side_lines_pdn(side_lines: int, variant: str = "international") -> str:
    """A game played to its end (the first legal move each time, up to 200 plies), with
    ``side_lines`` one-move side lines spread over its moves: at each move, the other
    legal moves in turn. Side lines late in the game are the costly ones to check."""
    board = Board(variant)
    main: list[str] = []
    others: list[list[str]] = []
    while not board.is_game_over() and len(main) < 200:
        legal = [move.notation for move in board.legal_moves]
        main.append(legal[0])
        others.append(legal[1:] or legal[:1])
        board.push(legal[0])
    counts = [0] * len(main)
    for index in range(side_lines):
        counts[len(main) - 1 - index % len(main)] += 1
    words = []
    for ply, move in enumerate(main):
        words.append(f"{ply // 2 + 1}. {move}" if ply % 2 == 0 else move)
        alternatives = others[ply]
        words += [f"({alternatives[k % len(alternatives)]})" for k in range(counts[ply])]
    return f'[GameType "{board.variant.pdn_game_type}"]\n' + " ".join(words) + " *"


async def _probe(base: str, path: str, seconds: float) -> list[float]:
    """The latency of each ``GET path`` made every PROBE_EVERY seconds for ``seconds``; a
    request with no answer in PROBE_TIMEOUT seconds counts as that long."""
    latencies = []
    async with httpx.AsyncClient(base_url=base, timeout=PROBE_TIMEOUT) as client:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            began = time.perf_counter()
            try:
                answer = await client.get(path)
                answer.raise_for_status()
            except httpx.TimeoutException:
                print(f"GET {path}: no answer in {PROBE_TIMEOUT:g} s")
            latencies.append(time.perf_counter() - began)
            await asyncio.sleep(max(0.0, PROBE_EVERY - latencies[-1]))
    return latencies


async def _import_until(base: str, pdn: str, clients: int, stop: Event, counts: list[int]) -> None:
    async def client(number: int) -> None:
        async with httpx.AsyncClient(base_url=base, timeout=120) as http:
            while not stop.is_set():
                answer = await http.post("/api/analysis/pdn", json={"pdn": pdn})
                if answer.status_code != 200:
                    raise SystemExit(f"import refused: {answer.status_code} {answer.text[:200]}")
                counts[number] += 1

    await asyncio.gather(*(client(number) for number in range(clients)))


def _importers(
    base: str, pdn: str, clients: int, stop: Event, done: multiprocessing.SimpleQueue[int]
) -> None:
    counts = [0] * clients
    asyncio.run(_import_until(base, pdn, clients, stop, counts))
    done.put(sum(counts))


def _report(name: str, latencies: list[float]) -> None:
    ordered = sorted(latencies)

    def at(share: float) -> float:
        return ordered[min(len(ordered) - 1, int(len(ordered) * share))] * 1000

    print(
        f"{name}: {len(ordered)} requests, p50 {at(0.5):.1f} ms, p90 {at(0.9):.1f} ms, "
        f"p99 {at(0.99):.1f} ms, max {ordered[-1] * 1000:.1f} ms"
    )


def _measure(args: argparse.Namespace, base: str) -> None:
    pdn = side_lines_pdn(args.side_lines)
    print(f"PDN: {len(pdn):,} characters, {pdn.count('('):,} side lines")
    with httpx.Client(base_url=base, timeout=120) as client:
        began = time.perf_counter()
        answer = client.post("/api/analysis/pdn", json={"pdn": pdn})
        if answer.status_code != 200:
            raise SystemExit(f"import refused: {answer.status_code} {answer.text[:200]}")
        print(f"one import alone: {(time.perf_counter() - began) * 1000:.0f} ms")
    _report(f"GET {args.path}, idle", asyncio.run(_probe(base, args.path, args.seconds)))
    context = multiprocessing.get_context("spawn")
    stop = context.Event()
    done: multiprocessing.SimpleQueue[int] = context.SimpleQueue()
    importers = context.Process(
        target=_importers, args=(base, pdn, args.clients, stop, done), daemon=True
    )
    importers.start()
    try:
        time.sleep(1.0)  # the importers are at it
        latencies = asyncio.run(_probe(base, args.path, args.seconds))
    finally:
        stop.set()
        importers.join(timeout=120)
    imports = done.get() if not done.empty() else 0
    _report(f"GET {args.path}, {args.clients} clients importing", latencies)
    print(f"imports done meanwhile: {imports} ({imports / (args.seconds + 1):.1f}/s)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=2, help="clients importing at once")
    parser.add_argument("--side-lines", type=int, default=1800, help="side lines in the PDN")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each phase")
    parser.add_argument("--path", default="/", help="the page measured (default: the lobby)")
    args = parser.parse_args()
    if not (1 <= args.clients <= 32 and 1 <= args.side_lines <= 5000):
        parser.error("--clients 1-32 and --side-lines 1-5000")
    if not 1 <= args.seconds <= 120:
        parser.error("--seconds 1-120")
    print(f"machine: {describe_machine()}")
    print(f"load average before: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")
    print(f"command: python {shlex.join(sys.argv)}")
    port = free_port()
    base = f"http://{HOST}:{port}"
    with tempfile.TemporaryDirectory() as scratch:
        env = {
            **os.environ,
            "DAMIER_SECRET": "pdn-lobby-secret-0123456789",
            "DAMIER_ENV": "test",
            "DAMIER_RATE_CAPACITY": "100000",
            "DAMIER_RATE_PER_SECOND": "100000",
        }
        database = f"sqlite+aiosqlite:///{Path(scratch) / 'lobby.sqlite3'}"
        command = [sys.executable, "-m", "damier.cli", "serve", "--host", HOST]
        command += ["--port", str(port), "--database", database, "--log-level", "warning"]
        command += ["--workers", "1"]
        server = subprocess.Popen(command, env=env)
        try:
            asyncio.run(wait_until_up(base, time.monotonic() + 120))
            _measure(args, base)
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
