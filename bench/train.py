"""The learned evaluation's trainer: self-play positions labelled by a search, and a logistic
fit of the pattern weights of :mod:`damier.engine.patterns`.

    python bench/train.py generate --variant international --depth 6 --minutes 35 --out pos.npz
    python bench/train.py fit pos.npz more.npz    # into src/damier/data/patterns.npz
    python bench/train.py net pos.npz more.npz    # into src/damier/data/network.npz

``generate`` plays the engine against itself at a fixed depth, each game from an opening of
the deck plus a few random plies (so that the games differ), and keeps every quiet position
(no capture to play) with the score of that depth's search and the game's result. It saves
what it has every few games, so that a run cut short still leaves its data.

``fit`` learns, for each region of the board and each configuration of its men, a weight
that corrects today's evaluation: the model is ``sigmoid((evaluation + patterns) / SCALE)``
against the label ``sigmoid(search score / SCALE)`` (mixed with the game's result by
``--result-weight``), fitted with Adam and an L2 penalty on a training part (the first 90%
of each file given: several runs' positions fit together), and judged on a held-out part
(the rest of each file, its later games: cross-entropy, and how often the sign of the
evaluation agrees with the label's; each file on its own too when there are several). It
writes the weights as the package's data file (``--out`` elsewhere). ``--min-pieces 5``
leaves out the positions an endgame database decides (the search never evaluates them);
``--warm`` starts from the weights being replaced (a variant's first own weights: those it
shared) and pulls toward them rather than toward zero, so that a new run refines what the
earlier ones taught instead of starting over.

``net`` fits the network of :mod:`damier.engine.network` on the same files, over the
hand-set evaluation alone (``--over hand``, the default, as the shipped networks: the
patterns are then off where the network is on) or over the evaluation with its patterns
(``--over patterns``: the network corrects what they leave), with the same loss, labels
(``--result-weight`` too), training part and held-out part; it reports the held-out
cross-entropy of the network as fitted and as the search's integers, and that of the
network it replaces in ``--out`` (if one was fitted over the same evaluation) on the same
positions: a fit that does no better there is not worth a match.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from damier.board import Board
from damier.engine import Engine
from damier.engine.evaluation import (
    evaluate,
    evaluation_tables,
    family_weights,
    tables_from_weights,
)
from damier.engine.network import DATA_FILE as NETWORK_FILE
from damier.engine.patterns import DATA_FILE, pattern_weights, regions, stored_weights
from damier.engine.training import (
    Problem,
    board_inputs,
    configurations,
    cross_entropy,
    fit,
    fit_network,
    joined,
    logits,
    quantized_value,
    sigmoid,
)
from damier.game import Game
from damier.kernel.tables import compile_tables
from damier.match import VARIANT_DECKS, OpeningDeck
from damier.rules import Variant, get_variant

SCALE = 200.0
"""Hundredths of a man per unit of the logit (a man up: about 62% for the side ahead)."""
PACKAGE_DATA = Path(__file__).parent.parent / "src" / "damier" / "data" / DATA_FILE
PACKAGE_NETWORK = PACKAGE_DATA.with_name(NETWORK_FILE)


def generate(
    variant: str,
    depth: int,
    minutes: float,
    random_plies: int,
    seed: int,
    out: Path,
    deck: str | None = None,
    explore: float = 0.0,
) -> None:
    """Self-play quiet positions with their search score (for the side to move) and the
    game's result (for White), saved to ``out`` as they come; the games start from the
    openings of ``deck`` (None: the variant's own, if it has one). ``explore``: at each
    ply, the chance of keeping a position off the game's line as well (:func:`astray`)."""
    engine = Engine(variant, level=10)
    rng = random.Random(seed)
    deck = deck or VARIANT_DECKS.get(variant)
    openings: list[tuple[str, ...]] = [()]
    if deck:
        chosen = OpeningDeck.builtin(deck)
        if not chosen.serves(engine.variant):
            raise SystemExit(f"the opening deck {deck!r} is for {chosen.variant}, not {variant}")
        openings = list(chosen.openings)
    cells: list[npt.NDArray[np.int8]] = []
    turns: list[int] = []
    scores: list[int] = []
    results: list[float] = []
    stray: list[tuple[npt.NDArray[np.int8], int, int]] = []
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
            if explore and rng.random() < explore and (found := astray(engine, board, depth, rng)):
                stray.append(found)
            game.push(info.best_move)
        winner = None if game.result is None else game.result.winner
        white = 0.5 if winner is None else (1.0 if winner == 0 else 0.0)
        for (sq, turn, score), result in [(row, white) for row in kept] + [
            (row, 0.5) for row in stray
        ]:
            cells.append(sq)
            turns.append(turn)
            scores.append(score)
            results.append(result)
        stray.clear()
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


def astray(
    engine: Engine, board: Board, depth: int, rng: random.Random
) -> tuple[npt.NDArray[np.int8], int, int] | None:
    """A quiet position off the game's line, with its search score: after a move drawn at
    random from ``board`` and the captures that follow (each side's best, at most eight
    plies). Positions of self-play games alone teach the evaluation that a man less is
    seldom a man lost (a player gives one for a shot): the search, which tries every
    move, then meets positions unlike any it was fitted on, and a network fitted on them
    alone valued a man at 72 on random positions, against 124 for the hand-set evaluation."""
    line = board.copy()
    line.push(rng.choice(line.legal_moves))
    for _ in range(8):
        if not line.legal_moves:
            return None
        if not line.legal_moves[0].is_capture:
            info = engine.search(line, depth=depth)
            return None if info.mate is not None else (line.cells.copy(), line.turn, info.score)
        best = engine.search(line, depth=depth).best_move
        assert best is not None
        line.push(best)
    return None


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


def labels(
    data: Any, keep: npt.NDArray[np.bool_], turns: npt.NDArray[np.int64], result_weight: float
) -> npt.NDArray[np.float64]:
    """The target of each kept position, for the side to move: ``sigmoid(score / SCALE)``,
    mixed with the game's result by ``result_weight`` (the positions off the game's line,
    ``--explore``, carry a drawn result)."""
    white_results, scores = data["results"][keep], data["scores"][keep]
    results = np.where(turns == 0, white_results, 1 - white_results)
    target: npt.NDArray[np.float64] = (1 - result_weight) * sigmoid(scores / SCALE)
    return target + result_weight * results


def problem_of(path: Path, result_weight: float, min_pieces: int = 0) -> tuple[str, Problem]:
    """The positions of ``path`` with more than ``min_pieces`` pieces as a fitting problem:
    the hand-set evaluation as the offset, the search score (mixed with the result) as the
    target, both for the side to move."""
    data = np.load(path)
    variant = get_variant(str(data["variant"]))
    keep = np.count_nonzero(data["cells"], axis=1) > min_pieces
    cells, turns = data["cells"][keep], data["turns"][keep].astype(np.int64)
    t = compile_tables(variant)
    pst, extra = evaluation_tables(variant, learned=False)
    hand = np.array(
        [evaluate(t, sq, int(turn), pst, extra) for sq, turn in zip(cells, turns, strict=True)],
        dtype=np.float64,
    )
    target = labels(data, keep, turns, result_weight)
    white, black = configurations(variant, cells)
    side = np.where(turns == 0, 1.0, -1.0)
    return variant.name, Problem(white, black, side, hand / SCALE, target)


def agreement(logit: npt.NDArray[np.float64], target: npt.NDArray[np.float64]) -> float:
    """How often the model favours the side the target favours (targets within 5% of even
    left out)."""
    clear = np.abs(target - 0.5) > 0.05
    return float(np.mean((logit[clear] > 0) == (target[clear] > 0.5)))


def train(
    paths: list[Path],
    out: Path,
    result_weight: float,
    l2: float,
    epochs: int,
    rate: float,
    min_pieces: int = 0,
    warm: bool = False,
) -> None:
    """Fit the pattern weights on the first 90% of each file's positions, report the fit on
    the other 10% (later games, so that a file's held-out part stays the same whatever it
    is fitted with), and write the weights into ``out``."""
    started = time.perf_counter()
    names: set[str] = set()
    trainings: list[Problem] = []
    held_outs: list[Problem] = []
    for path in paths:
        name, problem = problem_of(path, result_weight, min_pieces)
        names.add(name)
        cut = int(len(problem) * 0.9)
        trainings.append(problem.take(slice(0, cut)))
        held_outs.append(problem.take(slice(cut, None)))
    if len(names) > 1:
        raise SystemExit(f"the files hold different variants: {', '.join(sorted(names))}")
    training, held_out = joined(trainings), joined(held_outs)
    if len(training) == 0 or len(held_out) == 0:
        raise SystemExit(
            f"too few positions with more than {min_pieces} pieces to fit and judge "
            f"({len(training)} to fit, {len(held_out)} held out): nothing written"
        )
    print(f"{name}: {len(training)} training positions, {len(held_out)} held out", flush=True)
    count = len(regions(get_variant(name)))
    stored = dict(np.load(out)) if out.exists() else {}
    # The weights this fit replaces (or that the variant shares), judged on the same
    # positions: is the new fit better?
    replaced = stored_weights(stored, name)
    previous = None if replaced is None else replaced / SCALE
    prior = previous if warm else None
    if warm and previous is None:
        print(f"--warm: {out} has no weights for {name} to start from; fitting from zero")
    weights = fit(training, count, l2=l2, epochs=epochs, rate=rate, report=True, prior=prior)
    zero = np.zeros_like(weights)
    parts = [("training", training), ("held out", held_out)]
    if len(paths) > 1:
        parts += [
            (f"held out of {path}", part) for path, part in zip(paths, held_outs, strict=True)
        ]
    for label, part in parts:
        before, after = logits(part, zero), logits(part, weights)
        clipped = np.clip(part.target, 1e-9, 1 - 1e-9)
        floor = cross_entropy(np.log(clipped / (1 - clipped)), part.target)
        print(
            f"{label}: cross-entropy (floor {floor:.5f}) "
            f"{cross_entropy(before, part.target):.5f} (hand-set) "
            f"-> {cross_entropy(after, part.target):.5f} (learned); "
            f"agreement {agreement(before, part.target):.4f} -> "
            f"{agreement(after, part.target):.4f}"
        )
        if previous is not None:
            old = logits(part, previous)
            print(
                f"  replaced weights: cross-entropy {cross_entropy(old, part.target):.5f}, "
                f"agreement {agreement(old, part.target):.4f}"
            )
    stored[name] = np.clip(np.round(weights * SCALE), -32000, 32000).astype(np.int16)
    np.savez_compressed(out, **stored)  # type: ignore[arg-type]
    used = np.count_nonzero(stored[name])
    print(
        f"wrote {out} ({used} non-zero weights of {weights.size}), "
        f"{time.perf_counter() - started:.0f} s"
    )


def train_network(
    paths: list[Path],
    out: Path,
    hidden: int,
    epochs: int,
    rate: float,
    over_patterns: bool,
    limit: int,
    min_pieces: int = 0,
    result_weight: float = 0.0,
) -> None:
    """Fit a network on the first 90% of each file's positions over the hand-set
    evaluation (and the patterns, ``over_patterns``), report it on the other 10%, floating
    and as the search's integers, and write it into ``out``."""
    started = time.perf_counter()
    parts: dict[str, list[npt.NDArray[Any]]] = {"inputs": [], "offset": [], "target": []}
    held: dict[str, list[npt.NDArray[Any]]] = {"inputs": [], "offset": [], "target": []}
    names = set()
    for path in paths:
        data = np.load(path)
        variant = get_variant(str(data["variant"]))
        names.add(variant.name)
        keep = np.count_nonzero(data["cells"], axis=1) > min_pieces
        cells, turns = data["cells"][keep], data["turns"][keep].astype(np.int64)
        t = compile_tables(variant)
        patterns = pattern_weights(variant) if over_patterns else None
        pst, extra = tables_from_weights(variant, family_weights(variant), patterns)
        offset = np.array(
            [evaluate(t, sq, int(turn), pst, extra) for sq, turn in zip(cells, turns, strict=True)],
            dtype=np.float64,
        )
        columns = {
            "inputs": board_inputs(variant, cells, turns),
            "offset": offset,
            "target": labels(data, keep, turns, result_weight),
        }
        cut = int(len(offset) * 0.9)
        for key, column in columns.items():
            parts[key].append(column[:cut])
            held[key].append(column[cut:])
    if len(names) != 1:
        raise SystemExit(f"the files hold different variants: {', '.join(sorted(names))}")
    name = names.pop()
    if sum(len(part) for part in held["target"]) == 0:
        raise SystemExit(f"too few positions with more than {min_pieces} pieces: nothing written")
    inputs, offset, target = (np.concatenate(parts[key]) for key in ("inputs", "offset", "target"))
    test_inputs, test_offset, test_target = (
        np.concatenate(held[key]) for key in ("inputs", "offset", "target")
    )
    over = (
        "the hand-set evaluation and the patterns" if over_patterns else "the hand-set evaluation"
    )
    print(f"{name}: {len(target)} training positions, {len(test_target)} held out; over {over}")
    network = fit_network(
        inputs,
        offset,
        target,
        hidden,
        scale=SCALE,
        limit=limit,
        epochs=epochs,
        rate=rate,
        report=True,
    )
    clipped = np.clip(test_target, 1e-9, 1 - 1e-9)
    floor = cross_entropy(np.log(clipped / (1 - clipped)), test_target)
    layers = network.quantized()
    before = cross_entropy(test_offset / SCALE, test_target)
    floating = cross_entropy((test_offset + network.value(test_inputs)) / SCALE, test_target)
    integers = quantized_value(layers, test_inputs).astype(np.float64)
    searched = cross_entropy((test_offset + integers) / SCALE, test_target)
    print(
        f"held out: cross-entropy (floor {floor:.5f}) {before:.5f} (without) -> "
        f"{floating:.5f} (network) -> {searched:.5f} (as the search's integers); "
        f"agreement {agreement(test_offset / SCALE, test_target):.4f} -> "
        f"{agreement((test_offset + integers) / SCALE, test_target):.4f}"
    )
    stored = dict(np.load(out)) if out.exists() else {}
    replaced = replaced_network(stored, name, test_inputs.shape[1], over_patterns)
    if replaced is not None:
        kept = quantized_value(replaced, test_inputs).astype(np.float64)
        print(
            "held out, the network it replaces: cross-entropy "
            f"{cross_entropy((test_offset + kept) / SCALE, test_target):.5f}"
        )
    variant = get_variant(name)
    patterns = pattern_weights(variant) if over_patterns else None
    for label, tables in (
        ("hand-set", tables_from_weights(variant, family_weights(variant))),
        (
            "with the network",
            tables_from_weights(variant, family_weights(variant), patterns, layers),
        ),
    ):
        values = man_values(variant, tables)
        print(
            f"a man of the side to move on random games' positions ({label}): "
            f"{np.mean(values):.0f} on average, below 30 in {np.mean(values < 30):.1%}"
        )
    for part, values in layers.items():
        stored[f"{name}/{part}"] = values.astype(np.int16 if part == "w1" else np.int32)
    stored[f"{name}/patterns"] = np.array([int(over_patterns)], dtype=np.int32)
    np.savez_compressed(out, **stored)  # type: ignore[arg-type]
    print(f"wrote {out} ({hidden} hidden units), {time.perf_counter() - started:.0f} s")


def replaced_network(
    stored: dict[str, npt.NDArray[Any]], name: str, inputs: int, over_patterns: bool
) -> dict[str, npt.NDArray[np.int32]] | None:
    """The layers of ``name``'s network in ``stored`` (a network file's arrays), if it has
    one of ``inputs`` inputs fitted over the same evaluation (``over_patterns``): the fit
    it would replace, judged on the same held-out positions. A new fit that scores no
    better there is not worth a match (session 41: Russian's network fitted on 420,000
    positions labelled at depth 10 scored worse on their own held-out part than the
    shipped one, fitted on 1.2M labelled at depth 6, and no better in a match)."""
    parts = ("w1", "b1", "w2", "b2", "limit")
    if any(f"{name}/{part}" not in stored for part in parts):
        return None
    layers = {part: stored[f"{name}/{part}"].astype(np.int32) for part in parts}
    same = int(stored.get(f"{name}/patterns", np.zeros(1))[0]) == int(over_patterns)
    return layers if same and layers["w1"].shape[0] == inputs else None


def man_values(
    variant: Variant, tables: tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]], count: int = 300
) -> npt.NDArray[np.float64]:
    """What the evaluation ``tables`` loses when the side to move loses a man, on the
    positions of seeded random games: a check that a fit holds off the games it learned
    from (a man is worth about 100 there; a network fitted on self-play positions alone
    valued it at 72, and below 30 in a fifth of them)."""
    rng = random.Random(1)
    t = compile_tables(variant)
    out = []
    while len(out) < count:
        board = Board(variant)
        for _ in range(rng.randrange(10, 70)):
            if not board.legal_moves:
                break
            board.push(rng.choice(board.legal_moves))
        cells, player = board.cells.copy(), board.turn
        men = np.flatnonzero(cells == (1 if player == 0 else 3))
        if len(men) < 2:
            continue
        fewer = cells.copy()
        fewer[rng.choice(list(men))] = 0
        out.append(evaluate(t, cells, player, *tables) - evaluate(t, fewer, player, *tables))
    return np.array(out, dtype=np.float64)


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
    g.add_argument(
        "--openings",
        default=None,
        help="built-in opening deck (default: the variant's; a giveaway form has none: "
        "its variant's deck gives varied games)",
    )
    g.add_argument(
        "--explore",
        type=float,
        default=0.0,
        help="at each ply, the chance of also keeping a position after a random move",
    )
    f = commands.add_parser("fit", help="fit the pattern weights and write the data file")
    f.add_argument("data", type=Path, nargs="+")
    f.add_argument("--out", type=Path, default=PACKAGE_DATA)
    f.add_argument("--result-weight", type=float, default=0.0)
    f.add_argument("--l2", type=float, default=1e-5)
    f.add_argument("--epochs", type=int, default=8)
    f.add_argument("--rate", type=float, default=0.01)
    f.add_argument(
        "--min-pieces",
        type=int,
        default=0,
        help="fit only positions with more pieces (fewer: the endgame databases decide)",
    )
    f.add_argument(
        "--warm",
        action="store_true",
        help="start from the weights it replaces and pull toward them, not toward zero",
    )
    n = commands.add_parser("net", help="fit the network and write its data file")
    n.add_argument("data", type=Path, nargs="+")
    n.add_argument("--out", type=Path, default=PACKAGE_NETWORK)
    n.add_argument("--hidden", type=int, default=64)
    n.add_argument("--epochs", type=int, default=12)
    n.add_argument("--rate", type=float, default=0.001)
    n.add_argument(
        "--over",
        choices=("patterns", "hand"),
        default="hand",
        help="what the network corrects: the hand-set evaluation and the patterns (kept "
        "on), or the hand-set evaluation alone (the patterns then off)",
    )
    n.add_argument("--min-pieces", type=int, default=0)
    n.add_argument("--result-weight", type=float, default=0.0)
    n.add_argument(
        "--limit",
        type=int,
        default=75,
        help="the most the network adds or takes away, in hundredths of a man",
    )
    args = parser.parse_args()
    if args.command == "net" and min(args.hidden, args.epochs, args.limit) <= 0:
        parser.error("--hidden, --epochs and --limit must be positive")
    if args.command in ("fit", "net"):
        missing = [str(path) for path in args.data if not path.is_file()]
        if missing:
            parser.error(f"no such data file: {', '.join(missing)}")
    if args.command == "net":
        train_network(
            args.data,
            args.out,
            args.hidden,
            args.epochs,
            args.rate,
            args.over == "patterns",
            args.limit,
            args.min_pieces,
            args.result_weight,
        )
    elif args.command == "generate":
        if args.openings and args.openings not in OpeningDeck.builtin_names():
            parser.error(
                f"no opening deck {args.openings!r}: {', '.join(OpeningDeck.builtin_names())}"
            )
        generate(
            args.variant,
            args.depth,
            args.minutes,
            args.random_plies,
            args.seed,
            args.out,
            args.openings,
            args.explore,
        )
    else:
        train(
            args.data,
            args.out,
            args.result_weight,
            args.l2,
            args.epochs,
            args.rate,
            args.min_pieces,
            args.warm,
        )


if __name__ == "__main__":
    main()
