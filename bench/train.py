"""The learned evaluation's trainer: self-play positions labelled by a search, and a logistic
fit of the pattern weights of :mod:`damier.engine.patterns`.

    python bench/train.py generate --variant international --depth 6 --minutes 35 --out pos.npz
    python bench/train.py fit pos.npz --out src/damier/data/patterns-flying.npz

``generate`` plays the engine against itself at a fixed depth, each game from an opening of
the deck plus a few random plies (so that the games differ), and keeps every quiet position
(no capture to play) with the score of that depth's search and the game's result. It saves
what it has every few games, so that a run cut short still leaves its data.

``fit`` learns, for each region of the board and each configuration of its men, a weight
that corrects today's evaluation: the model is ``sigmoid((evaluation + patterns) / SCALE)``
against the label ``sigmoid(search score / SCALE)`` (mixed with the game's result by
``--result-weight``), fitted with Adam and an L2 penalty on a training part, and judged on
a held-out part (cross-entropy, and how often the sign of the evaluation agrees with the
label's). It writes the weights as the package's data file.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt

from damier.engine import Engine
from damier.game import Game
from damier.match import OpeningDeck

DECKS = {"international": "international-2move"}


def generate(
    variant: str, depth: int, minutes: float, random_plies: int, seed: int, out: Path
) -> None:
    """Self-play quiet positions with their search score (for the side to move) and the
    game's result (for White), saved to ``out`` as they come."""
    engine = Engine(variant, level=10)
    rng = random.Random(seed)
    openings = list(OpeningDeck.builtin(DECKS[variant]).openings) if variant in DECKS else [()]
    cells: list[npt.NDArray[np.int8]] = []
    turns: list[int] = []
    scores: list[int] = []
    results: list[float] = []
    started = time.perf_counter()
    games = 0
    while time.perf_counter() - started < 60 * minutes:
        game = Game(variant)
        for text in rng.choice(openings):
            game.push(text)
        for _ in range(rng.randint(0, random_plies)):
            # A random move among those a shallow search finds no worse than the best by a
            # third of a man: varied games, few of them lost in the opening.
            if game.result is None:
                moves = len(game.board.legal_moves)
                info = engine.search(game.board, depth=4, multipv=max(2, moves))
                lines = info.lines or (info,)
                fair = [line.pv[0] for line in lines if line.score >= lines[0].score - 33]
                game.push(rng.choice(fair))
        engine.new_game()
        kept: list[tuple[npt.NDArray[np.int8], int, int]] = []
        while game.result is None and game.ply < 250:
            board = game.board
            quiet = not board.legal_moves[0].is_capture
            info = engine.search(board, depth=depth)
            assert info.best_move is not None
            if quiet and info.mate is None:
                kept.append((board.cells.copy(), board.turn, info.score))
            game.push(info.best_move)
        winner = None if game.result is None else game.result.winner
        white = 0.5 if winner is None else (1.0 if winner == 0 else 0.0)
        for sq, turn, score in kept:
            cells.append(sq)
            turns.append(turn)
            scores.append(score)
            results.append(white)
        games += 1
        if games % 50 == 0:
            save(out, variant, depth, cells, turns, scores, results)
            print(
                f"{games} games, {len(cells)} positions, {time.perf_counter() - started:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    save(out, variant, depth, cells, turns, scores, results)
    print(f"{games} games, {len(cells)} positions, {time.perf_counter() - started:.0f} s")


def save(
    out: Path,
    variant: str,
    depth: int,
    cells: list[npt.NDArray[np.int8]],
    turns: list[int],
    scores: list[int],
    results: list[float],
) -> None:
    """Write the positions so far (through a temporary file: a reader never sees half)."""
    temporary = out.with_suffix(".part.npz")
    np.savez_compressed(
        temporary,
        cells=np.array(cells, dtype=np.int8),
        turns=np.array(turns, dtype=np.int8),
        scores=np.array(scores, dtype=np.int32),
        results=np.array(results, dtype=np.float32),
        variant=np.array(variant),
        depth=np.array(depth),
    )
    temporary.replace(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    g = commands.add_parser("generate", help="self-play positions labelled by a search")
    g.add_argument("--variant", default="international")
    g.add_argument("--depth", type=int, default=6)
    g.add_argument("--minutes", type=float, default=35.0)
    g.add_argument("--random-plies", type=int, default=8)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if args.command == "generate":
        generate(args.variant, args.depth, args.minutes, args.random_plies, args.seed, args.out)


if __name__ == "__main__":
    main()
