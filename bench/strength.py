"""Strength: Damier against py-draughts' TurboEngine in international draughts.

Games start from two-move openings (White's first move and Black's reply) drawn at random
with a fixed seed; each opening is played twice, colours swapped. Both engines get the same
time per move. Damier's Game is the referee (every draw rule of the FMJD applies); a game
still running after --max-plies is scored a draw and counted apart.

    python bench/strength.py --games 100 --time 0.2

Prints one line per game, then the score, the Elo difference and its 95% interval.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from machine import describe_machine

from damier import Board
from damier.engine import Engine
from damier.engine_match import elo_estimate
from damier.game import Game


def openings(count: int, seed: int) -> list[tuple[str, str]]:
    """``count`` distinct two-move openings of international draughts."""
    board = Board("international")
    pairs = []
    for first in board.legal_moves:
        board.push(first)
        pairs += [(first.notation, reply.notation) for reply in board.legal_moves]
        board.pop()
    random.Random(seed).shuffle(pairs)
    return pairs[:count]


def turbo_move(turbo: Any, peer_board: Any, game: Game) -> str:
    """TurboEngine's move in ``game``'s position, as Damier notation."""
    chosen = turbo.get_best_move(peer_board)
    key = (
        chosen.square_list[0] + 1,
        chosen.square_list[-1] + 1,
        frozenset(c + 1 for c in chosen.captured_list),
    )
    for move in game.board.legal_moves:
        if (move.from_square, move.to_square, frozenset(move.captured)) == key:
            return move.notation
    raise RuntimeError(f"TurboEngine played {chosen} which Damier does not find legal")


def sync_peer(peer_board: Any, notation: str, game: Game) -> None:
    """Play Damier's last move on py-draughts' board."""
    move = game.moves[-1]
    key = (move.from_square, move.to_square, frozenset(move.captured))
    for candidate in peer_board.legal_moves:
        if (
            candidate.square_list[0] + 1,
            candidate.square_list[-1] + 1,
            frozenset(c + 1 for c in candidate.captured_list),
        ) == key:
            peer_board.push(candidate)
            return
    raise RuntimeError(f"py-draughts does not accept {notation}")


def play(
    opening: tuple[str, str],
    damier_white: bool,
    seconds: float,
    max_plies: int,
    engine: Engine,
    turbo_class: Any,
    board_class: Any,
) -> tuple[float, str]:
    """One game; returns Damier's points and how it ended."""
    game = Game("international")
    peer = board_class()
    turbo = turbo_class(time_limit=seconds, depth_limit=None)
    engine.new_game()
    for text in opening:
        game.push(text)
        sync_peer(peer, text, game)
    while game.result is None and game.ply < max_plies:
        damier_to_move = (game.turn == 0) == damier_white
        if damier_to_move:
            text = engine.search(game.board, time=seconds).best_move.notation  # type: ignore[union-attr]
        else:
            text = turbo_move(turbo, peer, game)
        game.push(text)
        sync_peer(peer, text, game)
    if game.result is None:
        return 0.5, f"unfinished after {max_plies} plies"
    if game.result.winner is None:
        return 0.5, game.result.reason
    won = (game.result.winner == 0) == damier_white
    return (1.0 if won else 0.0), game.result.reason


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--time", type=float, default=0.2, help="seconds per move, both")
    parser.add_argument("--max-plies", type=int, default=250)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    try:
        import draughts
        from draughts.engines.turbo import TurboEngine
    except ImportError:
        print("py-draughts is not installed (pip install -e '.[bench]'); nothing to measure")
        return
    print(f"machine: {describe_machine()}")
    print(
        f"Damier level 10 v py-draughts TurboEngine, {args.time} s a move, "
        f"{args.games} games, seed {args.seed}"
    )
    engine = Engine("international", level=10)
    points, unfinished = [], 0
    started = time.perf_counter()
    for opening in openings((args.games + 1) // 2, args.seed):
        for damier_white in (True, False):
            if len(points) == args.games:
                break
            score, how = play(
                opening,
                damier_white,
                args.time,
                args.max_plies,
                engine,
                TurboEngine,
                draughts.StandardBoard,
            )
            unfinished += how.startswith("unfinished")
            points.append(score)
            colour = "white" if damier_white else "black"
            print(
                f"game {len(points):3d} opening {' '.join(opening)} damier {colour}: "
                f"{score:g} ({how})",
                flush=True,
            )
    games = len(points)
    mean = sum(points) / games
    print(
        f"\nscore {sum(points):g}/{games} = {100 * mean:.1f}% "
        f"(wins {points.count(1.0)}, draws {points.count(0.5)}, losses {points.count(0.0)}; "
        f"{unfinished} unfinished scored as draws)"
    )
    print(f"Elo difference {elo_estimate(points)}; {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
