"""Texel-style tuning of the evaluation weights, and an old-v-new match to check the result.

The evaluation is linear in its weights, so each weight's feature is the evaluation with
that weight alone; fitting the game results of many positions with a logistic model gives
weights that predict results best (the man's weight is the scale, 100).

    python bench/texel.py generate --variant international --games 400 --depth 5 --out pos.npz
    python bench/texel.py fit pos.npz
    python bench/texel.py match --variant international --weights new.json --games 100 --time 0.1

``generate`` plays the engine against itself at a fixed depth from the opening deck (plus
random plies, so the games differ) and keeps the quiet positions (no capture to play) with
the game's result. ``fit`` prints the fitted weights as JSON. ``match`` plays the engine
with the weights in the JSON file against the engine with the built-in weights, each
opening once with each colour, and prints the new weights' score and Elo.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt

from damier import Board
from damier.engine import Engine
from damier.engine.evaluation import evaluate, family_weights, tables_from_weights
from damier.game import Game
from damier.kernel.tables import compile_tables
from damier.match import OpeningDeck
from damier.protocols.engine_match import DamierPlayer, Limits, run_match
from damier.protocols.match_statistics import elo_estimate
from damier.rules import get_variant

DECKS = {"international": "international-2move", "english": "english-2move"}
SCALE = 1000  # a feature's table is built with its weight at SCALE (kept integral)


def deck_openings(variant: str) -> list[tuple[str, ...]]:
    """The variant's opening deck, or every two-move opening when it has none."""
    if variant in DECKS:
        return list(OpeningDeck.builtin(DECKS[variant]).openings)
    board = Board(variant)
    lines = []
    for first in board.legal_moves:
        board.push(first)
        lines += [(first.notation, reply.notation) for reply in board.legal_moves]
        board.pop()
    return lines


def generate(
    variant: str, games: int, depth: int, extra_plies: int, seed: int
) -> dict[str, npt.NDArray[np.generic]]:
    """Self-play positions (cells, side to move) and each game's result for White."""
    engine = Engine(variant, level=10)
    rng = random.Random(seed)
    openings = deck_openings(variant)
    cells, turns, results = [], [], []
    started = time.perf_counter()
    for number in range(games):
        game = Game(variant)
        for text in openings[number % len(openings)]:
            game.push(text)
        for _ in range(extra_plies):
            if game.result is None:
                game.push(rng.choice(list(game.board.legal_moves)))
        engine.new_game()
        kept = []
        while game.result is None and game.ply < 300:
            moves = game.board.legal_moves
            if game.ply >= 10 and not moves[0].is_capture:
                kept.append((game.board.cells, game.board.turn))
            info = engine.search(game.board, depth=depth)
            assert info.best_move is not None
            game.push(info.best_move)
        winner = None if game.result is None else game.result.winner
        white = 0.5 if winner is None else (1.0 if winner == 0 else 0.0)
        for sq, turn in kept:
            cells.append(sq)
            turns.append(turn)
            results.append(white)
        if (number + 1) % 20 == 0:
            print(
                f"{number + 1} games, {len(cells)} positions, "
                f"{time.perf_counter() - started:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    return {
        "cells": np.array(cells, dtype=np.int8),
        "turns": np.array(turns, dtype=np.int8),
        "results": np.array(results, dtype=np.float64),
        "variant": np.array(variant),
    }


def features(
    variant: str, cells: npt.NDArray[np.int8], turns: npt.NDArray[np.int8]
) -> tuple[list[str], npt.NDArray[np.float64]]:
    """Each weight's feature, for the side to move, position by position."""
    rules = get_variant(variant)
    # (``drawn_kings`` is a switch that scales the whole score, not a linear weight.)
    names = [name for name in family_weights(rules) if name != "drawn_kings"]
    t = compile_tables(rules)
    columns = []
    for name in names:
        unit = {other: 0.0 for other in names}
        unit[name] = SCALE
        pst, extra = tables_from_weights(rules, unit)
        column = [
            evaluate(t, sq.astype(np.int8), int(turn), pst, extra)
            for sq, turn in zip(cells, turns, strict=True)
        ]
        columns.append(np.array(column, dtype=np.float64) / SCALE)
    return names, np.stack(columns, axis=1)


def logistic_fit(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Coefficients minimising the cross-entropy of sigmoid(x @ c) against y (Newton)."""
    c = np.zeros(x.shape[1])
    ridge = 1e-3 * len(y)
    for _ in range(50):
        p = 1 / (1 + np.exp(-(x @ c)))
        gradient = x.T @ (p - y) + ridge * c
        hessian = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(x.shape[1])
        step = np.linalg.solve(hessian, gradient)
        c -= step
        if np.abs(step).max() < 1e-9:
            break
    return c


def cross_entropy(score: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> float:
    p = np.clip(1 / (1 + np.exp(-score)), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit(path: Path) -> None:
    """Print the current weights' fit, the fitted weights and theirs."""
    data = np.load(path)
    variant = str(data["variant"])
    turns = data["turns"]
    y = np.where(turns == 0, data["results"], 1 - data["results"])  # for the side to move
    names, x = features(variant, data["cells"], turns)
    current = family_weights(get_variant(variant))
    now = x @ np.array([current[n] for n in names])
    scale = logistic_fit(now[:, None], y)[0]
    print(f"{len(y)} positions, mean result {y.mean():.3f}")
    print(f"current weights: cross-entropy {cross_entropy(scale * now, y):.5f}")
    c = logistic_fit(x, y)
    print(f"fitted:          cross-entropy {cross_entropy(x @ c, y):.5f}")
    fitted = {
        n: round(float(v * 100 / c[names.index("man")]), 1) for n, v in zip(names, c, strict=True)
    }
    print(json.dumps(fitted))


def match(variant: str, weights_file: Path, games: int, seconds: float, seed: int) -> None:
    """The engine with the file's weights against the built-in one."""
    rules = get_variant(variant)
    weights = family_weights(rules) | json.loads(weights_file.read_text(encoding="utf-8"))
    new = DamierPlayer(rules, 10, name="new")
    new.engine._pst, new.engine._extra = tables_from_weights(rules, weights)
    old = DamierPlayer(rules, 10, name="old")
    deck = OpeningDeck("tuning", variant, tuple(deck_openings(variant)), True, "two-move openings")
    print(f"{variant}: new {weights} v old, {games} games, {seconds} s a move", flush=True)

    def show(record: object, report: object) -> None:
        points = report.points("new")  # type: ignore[attr-defined]
        print(f"game {len(points)}: new {points[-1]:g}, total {sum(points):g}", flush=True)

    report = run_match(rules, [new, old], games, Limits(time=seconds), deck, seed, 250, show)
    points = report.points("new")
    wins, draws, losses = report.tally("new")
    tally = f"+{wins} ={draws} -{losses}"
    print(f"new: {sum(points):g}/{len(points)} ({tally}), Elo {elo_estimate(points)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    g = commands.add_parser("generate")
    g.add_argument("--variant", default="international")
    g.add_argument("--games", type=int, default=400)
    g.add_argument("--depth", type=int, default=5)
    g.add_argument("--extra-plies", type=int, default=2)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--out", type=Path, required=True)
    f = commands.add_parser("fit")
    f.add_argument("data", type=Path)
    m = commands.add_parser("match")
    m.add_argument("--variant", default="international")
    m.add_argument("--weights", type=Path, required=True)
    m.add_argument("--games", type=int, default=100)
    m.add_argument("--time", type=float, default=0.1)
    m.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if args.command == "generate":
        data = generate(args.variant, args.games, args.depth, args.extra_plies, args.seed)
        np.savez_compressed(args.out, **data)  # type: ignore[arg-type]
    elif args.command == "fit":
        fit(args.data)
    else:
        match(args.variant, args.weights, args.games, args.time, args.seed)


if __name__ == "__main__":
    main()
