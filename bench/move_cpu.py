"""CPU time of one move through the server, in process: the rules, the store (SQLite), the
new state and its publication to the game's room, without the network. Prints the CPU
milliseconds a move (process time, so other work on the machine counts little) and, with
``--profile FILE``, writes a cProfile of the moves.

    python bench/move_cpu.py --games 50 --moves 40

Each game is played between two guests from the start, a random legal move at a time,
through ``services.games.play_move`` (the path a WebSocket move takes).
"""

from __future__ import annotations

import argparse
import cProfile
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from machine import describe_machine

from damier.server.app import create_app
from damier.server.services import games
from damier.server.settings import Settings


async def _play(
    services: Any,
    players: list[tuple[str, str, str]],
    moves: int,
    seed: int,
    profile: cProfile.Profile | None,
) -> int:
    """Play ``moves`` plies in each game, the games in turn (``profile``, if any, on);
    returns the moves played."""
    rng = random.Random(seed)
    states = {
        game_id: await games.game_state(services=services, game_id=game_id, viewer=white)
        for game_id, white, _ in players
    }
    played = 0
    if profile is not None:
        profile.enable()
    for _ in range(moves):
        for game_id, white, black in players:
            state = states[game_id]
            if state.status != "playing" or not state.legal_moves:
                continue
            mover = white if state.turn == "white" else black
            move = rng.choice(state.legal_moves).notation
            states[game_id] = await games.play_move(
                services=services, game_id=game_id, move=move, ply=state.ply, player_id=mover
            )
            played += 1
    if profile is not None:
        profile.disable()
    return played


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=40, help="plies a game at most")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--variant", default="international")
    parser.add_argument("--profile", default=None, help="write a cProfile of the moves to FILE")
    args = parser.parse_args()
    print(f"machine: {describe_machine()}")
    print(f"command: python {' '.join(sys.argv)}")
    with tempfile.TemporaryDirectory() as scratch:
        settings = Settings(
            database_url=f"sqlite+aiosqlite:///{Path(scratch) / 'cpu.sqlite3'}",
            secret="move-cpu-bench-secret-0123456789",
            env="test",
            guest_capacity=100_000,
            guest_per_second=100_000,
            rate_capacity=100_000,
            rate_per_second=100_000,
        )
        with TestClient(create_app(settings)) as client:
            services = client.app.state.services  # type: ignore[attr-defined]
            per_move = []
            for run in range(args.runs):
                players = []
                for number in range(args.games):
                    white, black = TestClient(client.app), TestClient(client.app)
                    white.portal = black.portal = client.portal
                    ids = []
                    for side, name in ((white, "W"), (black, "B")):
                        answer = side.post("/api/session", json={"name": f"{name}{run}x{number}"})
                        ids.append(answer.json()["id"])
                    created = white.post(
                        "/api/games",
                        json={"variant": args.variant, "opponent": "open", "color": "white"},
                    ).json()
                    black.post(f"/api/games/{created['id']}/join")
                    players.append((created["id"], ids[0], ids[1]))
                profile = cProfile.Profile(time.process_time) if args.profile else None
                began = time.process_time()
                played = client.portal.call(_play, services, players, args.moves, run, profile)
                if profile is not None:
                    profile.dump_stats(args.profile)
                spent = time.process_time() - began
                per_move.append(spent / played * 1000)
                print(f"run {run + 1}: {played} moves, {per_move[-1]:.3f} ms of CPU a move")
    print(f"median {statistics.median(per_move):.3f} ms of CPU a move")
    return 0


if __name__ == "__main__":
    sys.exit(main())
