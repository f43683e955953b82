"""CPU time of one move through the server, in process: the message, the rules, the store
(SQLite), the new state and its frames for the game's sockets, without the network. Prints
the CPU milliseconds a move (process time, so other work on the machine counts little) and,
with ``--profile FILE``, writes a cProfile of the moves.

    python bench/move_cpu.py --games 50 --moves 40

Each game is played between two guests from the start, a random legal move at a time, each
with a socket's outbox in the game's room; a move is the message a socket sends, handled by
``ws.handle_message`` (the WebSocket's path). Only that call is timed: the choice of the
next move (from the frame the mover's outbox got) is not. The process runs as a server's
does: its compiled code loaded and frozen out of the collector, whose settings it takes.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from machine import describe_machine

from damier.compiled import WARMUP
from damier.server.app import create_app
from damier.server.rooms import Connection
from damier.server.services import games
from damier.server.serving import start_process
from damier.server.settings import Settings
from damier.server.ws import handle_message


async def _play(
    services: Any,
    players: list[tuple[str, str, str]],
    moves: int,
    seed: int,
    profile: cProfile.Profile | None,
) -> tuple[int, float]:
    """Play ``moves`` plies in each game, the games in turn (``profile``, if any, on the
    moves); returns the moves played and the CPU seconds they took."""
    rng = random.Random(seed)
    outboxes = {}
    for game_id, white, black in players:
        outboxes[game_id] = (Connection(white), Connection(black))
        for outbox in outboxes[game_id]:
            services.rooms.join(game_id, outbox)
            outbox.deliver(await games.game_snapshot(services=services, game_id=game_id))
    played, spent = 0, 0.0
    for _ in range(moves):
        for game_id, _white, _black in players:
            outbox = outboxes[game_id][0]
            assert outbox.state is not None
            state = json.loads(outbox.state.game)
            if state["status"] != "playing" or not state["legal_moves"]:
                continue
            mover = outboxes[game_id][0 if state["turn"] == "white" else 1]
            move = rng.choice(state["legal_moves"])["notation"]
            message = json.dumps({"type": "move", "move": move, "ply": state["ply"]})
            for box in outboxes[game_id]:
                while not box.queue.empty():
                    box.queue.get_nowait()
            if profile is not None:
                profile.enable()
            began = time.process_time()
            await handle_message(services=services, game_id=game_id, connection=mover, raw=message)
            spent += time.process_time() - began
            if profile is not None:
                profile.disable()
            played += 1
    return played, spent


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
        app = create_app(settings)
        start_process(lambda text: None)  # the server's warm-up and collector settings
        with TestClient(app) as client:
            WARMUP.wait("engine")  # its loading thread would be timed with the moves
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
                played, spent = client.portal.call(
                    _play, services, players, args.moves, run, profile
                )
                if profile is not None:
                    profile.dump_stats(args.profile)
                per_move.append(spent / played * 1000)
                print(f"run {run + 1}: {played} moves, {per_move[-1]:.3f} ms of CPU a move")
    print(f"median {statistics.median(per_move):.3f} ms of CPU a move")
    return 0


if __name__ == "__main__":
    sys.exit(main())
