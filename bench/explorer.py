"""The explorer's answer time over a large archive (``GET /api/archive/explorer``).

    python bench/explorer.py [--games 20000] [--lines 400] [--plies 30] [--requests 50]

Fills a new SQLite database (the server's own schema) with ``--games`` finished
International games, each one of ``--lines`` random lines of ``--plies`` moves from the
start (so that every position of a line is reached by many games), then asks the explorer
``--requests`` times for lines of 0, 2, 6, 12 and 20 plies of those games, in process
(the server's app under Starlette's test client), and prints the latency percentiles.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import insert

from damier import Board
from damier.server.app import create_app
from damier.server.settings import Settings
from damier.server.store.models import GameRow, MoveRow


def random_line(rng: random.Random, plies: int) -> list[str]:
    board = Board("international")
    line = []
    for _ in range(plies):
        moves = board.legal_moves
        if not moves:
            break
        line.append(board.push(rng.choice(list(moves))).notation)
    return line


def fill(client: TestClient, games: int, lines: list[list[str]], rng: random.Random) -> None:
    """The games written in one transaction, on the app's own event loop."""
    services = client.app.state.services  # type: ignore[attr-defined]
    start = Board("international").fen

    async def write() -> None:
        async with services.database.session() as session, session.begin():
            game_rows: list[dict[str, object]] = []
            move_rows: list[dict[str, object]] = []
            for number in range(games):
                line = rng.choice(lines)
                winner = rng.choice([0, 1, None])
                game_rows.append(
                    {
                        "id": f"bench{number:07d}",
                        "variant": "international",
                        "players": 2,
                        "status": "finished",
                        "white_kind": "human",
                        "black_kind": "human",
                        "start_fen": start,
                        "ply": len(line),
                        "result_pdn": {0: "2-0", 1: "0-2", None: "1-1"}[winner],
                        "result_winner": winner,
                        "result_reason": "resignation",
                        "created": 1.0e9 + number,
                        "finished": 1.0e9 + number,
                        "updated": 1.0e9 + number,
                        "version": 1,
                    }
                )
                move_rows.extend(
                    {"game_id": f"bench{number:07d}", "ply": ply, "notation": move, "at": 0.0}
                    for ply, move in enumerate(line, start=1)
                )
            await session.execute(insert(GameRow), game_rows)
            await session.execute(insert(MoveRow), move_rows)

    client.portal.call(write)  # type: ignore[union-attr]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--lines", type=int, default=400)
    parser.add_argument("--plies", type=int, default=30)
    parser.add_argument("--requests", type=int, default=50)
    args = parser.parse_args()
    rng = random.Random(1)
    lines = [random_line(rng, args.plies) for _ in range(args.lines)]
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(database_url=f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}")
        with TestClient(create_app(settings)) as client:
            began = time.perf_counter()
            fill(client, args.games, lines, rng)
            moves = args.games * args.plies
            print(
                f"{args.games} games, {moves} moves written in {time.perf_counter() - began:.1f} s"
            )
            for plies in (0, 2, 6, 12, 20):
                times = []
                for _ in range(args.requests):
                    opening = " ".join(rng.choice(lines)[:plies])
                    began = time.perf_counter()
                    answer = client.get(
                        "/api/archive/explorer",
                        params={"variant": "international", "opening": opening},
                    )
                    times.append(time.perf_counter() - began)
                    assert answer.status_code == 200, answer.text
                times.sort()
                p50 = statistics.median(times) * 1000
                p95 = times[int(0.95 * (len(times) - 1))] * 1000
                found = answer.json()["games"]
                figures = f"p50 {p50:6.1f} ms  p95 {p95:6.1f} ms"
                print(f"line of {plies:2d} plies: {figures}  ({found} games)")


if __name__ == "__main__":
    main()
