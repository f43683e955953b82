"""Multi-player search: speed per board, and paranoid against max-n in whole games.

    PYTHONPATH=src python bench/multiplayer.py              # everything (about 15 minutes)
    PYTHONPATH=src python bench/multiplayer.py --games 6    # a quick look
    PYTHONPATH=src python bench/multiplayer.py --speed-only

Speed: from the start position and from a middle game, each search at level 10 with one
second: depth reached, nodes, nodes per second. Games: the two searches share the seats of
tripad (3 players) and radial4 (4 players), every arrangement of seats in turn, with the
same node budget per move (so the figures do not depend on the machine's load); then each
search alone against random movers. The first round of every game is random, so that games
differ. A game ends when one player is left, or as drawn by threefold repetition, 25 quiet
rounds or a ply limit; a draw's point is shared by the players still in.
"""

from __future__ import annotations

import argparse
import itertools
import random
import time
from collections import Counter

import numpy as np

from damier import Board
from damier.engine.levels import LEVELS, Level
from damier.engine.multiplayer import ALGORITHMS, MAXN, PARANOID, MultiplayerSearch
from damier.rules import get_variant
from damier.rules.multiplayer import MULTIPLAYER

RANDOM = "random"


def speed(boards: list[str], seconds: float) -> None:
    print(f"speed: level 10, {seconds:g} s per search (start position / after 30 random plies)")
    print(f"{'board':<22}{'search':<10}{'depth':>6}{'nodes':>10}{'nodes/s':>10}   middle game")
    for name in boards:
        variant = get_variant(name)
        middle = Board(variant)
        rng = random.Random(name)
        for _ in range(30):
            if middle.is_game_over():
                break
            middle.push(rng.choice(list(middle.legal_moves)))
        for algorithm in ALGORITHMS:
            searcher = MultiplayerSearch(variant, LEVELS[10], algorithm=algorithm)
            figures = []
            for board in (Board(variant), middle):
                if board.is_game_over():
                    continue
                searcher.clear()
                info = list(searcher.iterate(board, seconds, None, None))[-1]
                figures.append((info.depth, info.nodes, info.nps))
            (d, n, s), rest = figures[0], figures[1:]
            tail = "".join(
                f"   {d2:>2} {n2:>9} {s2:>9}" if n2 else "   (one legal move)"
                for d2, n2, s2 in rest
            )
            print(f"{name:<22}{algorithm:<10}{d:>6}{n:>10}{s:>10}{tail}")


def play(
    name: str,
    seats: tuple[str, ...],
    searchers: dict[str, MultiplayerSearch],
    seed: int,
    max_plies: int,
) -> tuple[list[float], str, int, Board]:
    """One game; each player's points, how it ended, its length in plies, the last
    position."""
    variant = get_variant(name)
    rng = random.Random(seed)
    board = Board(variant)
    for searcher in searchers.values():
        searcher.clear()
    seen: Counter[int] = Counter()
    quiet = 0
    for ply in range(max_plies):
        if board.is_game_over():
            break
        key = board.zobrist_hash()
        seen[key] += 1
        if seen[key] >= 3:
            return _shared(board), "repetition", ply, board
        if quiet >= 25 * len(board.active_players):
            return _shared(board), "25 quiet rounds", ply, board
        seat = seats[board.turn]
        moves = list(board.legal_moves)
        if seat == RANDOM or ply < variant.players:
            move = rng.choice(moves)
        else:
            info = list(searchers[seat].iterate(board, None, None, None))[-1]
            assert info.best_move is not None
            move = info.best_move
        man = board.piece_at(move.from_square)
        quiet = 0 if move.is_capture or (man is not None and not man[1]) else quiet + 1
        board.push(move)
    else:
        return _shared(board), "ply limit", max_plies, board
    if board.winner() is None:
        return _shared(board), "all blocked", len(board.move_stack), board
    points = [0.0] * variant.players
    winners = board.ranking()[0]
    for player in winners:
        points[player] = 1.0 / len(winners)
    return points, "won", len(board.move_stack), board


def _shared(board: Board) -> list[float]:
    """A draw: one point shared by the players still in."""
    points = [0.0] * board.variant.players
    for player in board.active_players:
        points[player] = 1.0 / len(board.active_players)
    return points


def _by_material(board: Board, points: list[float]) -> list[float]:
    """Option SCORE_TIEBREAK of RULES.md 12.2: a draw's point goes to the players still in
    with the most material (man 1, king 2), shared on a tie."""
    if sum(1 for p in points if p) <= 1:
        return points
    cells = board.cells
    material = {
        p: int(np.sum(cells == 2 * p + 1) + 2 * np.sum(cells == 2 * p + 2))
        for p in board.active_players
    }
    most = max(material.values())
    leaders = [p for p, m in material.items() if m == most]
    return [1.0 / len(leaders) if p in leaders else 0.0 for p in range(len(points))]


def match(
    name: str, kinds: tuple[str, ...], games: int, nodes: int, max_plies: int, label: str
) -> None:
    """Games with every arrangement of ``kinds`` over the seats, in turn."""
    variant = get_variant(name)
    level = Level(depth=64, nodes=nodes, seconds=60.0, noise=0)
    searchers = {
        kind: MultiplayerSearch(variant, level, algorithm=kind) for kind in kinds if kind != RANDOM
    }
    arrangements = sorted(set(itertools.permutations(_seat_mix(kinds, variant.players))))
    points: dict[str, float] = dict.fromkeys(kinds, 0.0)
    material_points: dict[str, float] = dict.fromkeys(kinds, 0.0)
    seat_games: Counter[str] = Counter()
    endings: Counter[str] = Counter()
    lengths = []
    started = time.perf_counter()
    for game in range(games):
        seats = arrangements[game % len(arrangements)]
        result, ending, length, board = play(name, seats, searchers, game, max_plies)
        endings[ending] += 1
        lengths.append(length)
        by_material = _by_material(board, result)
        for player, kind in enumerate(seats):
            points[kind] += result[player]
            material_points[kind] += by_material[player]
            seat_games[kind] += 1
    fair = 1 / variant.players
    print(
        f"{label}: {name}, {games} games, {nodes} nodes per move, "
        f"{time.perf_counter() - started:.0f} s, mean length {np.mean(lengths):.0f} plies, "
        f"endings {dict(endings)}"
    )
    for kind in sorted(seat_games):
        share = points[kind] / seat_games[kind]
        tiebroken = material_points[kind] / seat_games[kind]
        print(
            f"    {kind:<10} {points[kind]:6.2f} points in {seat_games[kind]:3d} seats: "
            f"{share:.3f} per seat, {tiebroken:.3f} with draws broken by material "
            f"(an equal share is {fair:.3f})"
        )


def _seat_mix(kinds: tuple[str, ...], players: int) -> tuple[str, ...]:
    """Seats as evenly shared as the number allows: PPM-style for 3, PPMM for 4."""
    return tuple(kinds[p % len(kinds)] for p in range(players))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--nodes", type=int, default=20_000, help="node budget per move")
    parser.add_argument("--seconds", type=float, default=1.0, help="time per speed search")
    parser.add_argument("--max-plies", type=int, default=400)
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--speed-only", action="store_true")
    args = parser.parse_args()
    if not args.skip_speed:
        speed([v.name for v in MULTIPLAYER], args.seconds)
        print()
    if args.speed_only:
        return
    for name in ("tripad", "radial4"):
        match(name, (PARANOID, MAXN), args.games, args.nodes, args.max_plies, "paranoid v max-n")
        if get_variant(name).players == 3:
            # The other mix of three seats: one paranoid, two max-n (and the reverse above).
            match(
                name, (MAXN, PARANOID), args.games, args.nodes, args.max_plies, "max-n v paranoid"
            )
    for name in ("tripad", "radial4"):
        for algorithm in ALGORITHMS:
            match(
                name,
                (algorithm,) + (RANDOM,) * (get_variant(name).players - 1),
                max(6, args.games // 3),
                args.nodes,
                args.max_plies,
                f"{algorithm} v random",
            )


if __name__ == "__main__":
    main()
