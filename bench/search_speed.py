"""The search's speed on positions of games: nodes a second, and nodes and time to a depth.

    python bench/search_speed.py [--variant V] [--positions N] [--depth D] [--seconds S]

The positions are made the same way on every run: each of the first ``N`` openings of the
variant's deck (``--positions``, 40) played on for 6 to 20 plies by depth-6 searches (the
engine of this checkout). Then, for each position, from a cleared transposition table:

* a search to ``--depth`` (default 10 on 10x10, 12 on 8x8): the nodes and the time, so that
  two checkouts that search the same tree compare their speed alone;
* a search of ``--seconds`` (0.1, a match's time a move), the table kept from one position
  to the next as in a game: the depth reached and the nodes a second.

``DAMIER_EVAL=hand`` or ``patterns`` chooses the evaluation, as for the engine. Run it on a
quiet machine, twice: the figures of a loaded machine move by a fifth from run to run. To
compare two checkouts, run each with its own ``PYTHONPATH=<checkout>/src`` (each compiles
its own cache first).
"""

from __future__ import annotations

import argparse
import statistics
import time

from damier import Board
from damier.engine import Engine
from damier.match import VARIANT_DECKS, OpeningDeck


def positions(variant: str, count: int) -> list[Board]:
    """Positions of games: openings of the variant's deck played on by depth-6 searches."""
    engine = Engine(variant, book=False)
    deck = OpeningDeck.builtin(VARIANT_DECKS[variant])
    found = []
    for number, opening in enumerate(deck.openings[:count]):
        board = Board(variant)
        for move in opening:
            board.push(move)
        for _ in range(6 + 2 * (number % 8)):
            if board.is_game_over():
                break
            best = engine.search(board, depth=6).best_move
            assert best is not None
            board.push(best)
        if not board.is_game_over():
            found.append(board)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="international", choices=sorted(VARIANT_DECKS))
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--depth", type=int, default=None)
    parser.add_argument("--seconds", type=float, default=0.1)
    args = parser.parse_args()
    boards = positions(args.variant, args.positions)
    depth = args.depth or (10 if len(boards[0].cells) > 32 else 12)
    engine = Engine(args.variant, book=False)
    nodes = 0
    started = time.perf_counter()
    for board in boards:
        engine.new_game()
        nodes += engine.search(board, depth=depth).nodes
    elapsed = time.perf_counter() - started
    print(
        f"{args.variant}, {len(boards)} positions, depth {depth} from a cleared table: "
        f"{nodes / 1e6:.2f}M nodes, {elapsed:.2f} s, {nodes / elapsed / 1e6:.2f}M nodes/s"
    )
    engine.new_game()
    depths, nodes, elapsed = [], 0, 0.0
    for board in boards:
        started = time.perf_counter()
        info = engine.search(board, time=args.seconds)
        elapsed += time.perf_counter() - started
        depths.append(info.depth)
        nodes += info.nodes
    print(
        f"{args.seconds} s a position, the table kept: mean depth "
        f"{statistics.mean(depths):.2f}, {nodes / elapsed / 1e6:.2f}M nodes/s"
    )


if __name__ == "__main__":
    main()
