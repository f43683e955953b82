"""Strength: Damier against py-draughts' engines.

    python bench/strength.py --games 100 --time 0.1   # International v TurboEngine
    python bench/strength.py --variant russian --opponent alphabeta --games 100 --time 0.1
    python bench/strength.py --variant english --opponent alphabeta --games 100 --time 0.1

Opponents: ``turbo`` is py-draughts' TurboEngine (International only); ``alphabeta`` is its
pure-Python alpha-beta engine, ``SimpleEngine`` (any of the three variants).

Openings: International draws random two-move openings (White's first move and Black's
reply) with a fixed seed, as before. Russian draws random three-move openings from the start
(there are only 49 two-move ones, too few for 100 games). English starts from the
two-move-restriction deck (``english-2move``) plus one random reply, a balanced ballot.
Each opening is played twice, colours swapped, so an unbalanced opening costs both sides
equally. Both engines get the same time per move. Damier's Game is the referee (the
variant's draw rules apply); a game still running after --max-plies is scored a draw and
counted apart.

English: py-draughts' ``AmericanBoard`` gets the rules wrong in two ways, and the bench
corrects both rather than adjudicate: (1) it makes captures optional, so the peer plays on
:class:`CompulsoryAmericanBoard`, which offers only the captures when there is one (its
search then obeys the real rule too); (2) its first player is "White" on squares 21-32,
where in English the dark side on 1-12 moves first, so the peer's board is ours turned
half a turn (square ``s`` is its ``33 - s``) with the colours swapped. Any move of the
peer that Damier's rules do not allow stops the bench with an error; none has been seen.

Prints one line per game, then the score, the Elo difference and its 95% interval.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from machine import describe_machine

from damier import Board
from damier.engine import Engine
from damier.game import Game
from damier.match import OpeningDeck
from damier.protocols.match_statistics import elo_estimate

Key = tuple[int, int, frozenset[int]]


def two_move_openings(count: int, seed: int) -> list[tuple[str, ...]]:
    """``count`` distinct two-move openings of International draughts (the old draw, kept
    so that results stay comparable)."""
    board = Board("international")
    pairs: list[tuple[str, ...]] = []
    for first in board.legal_moves:
        board.push(first)
        pairs += [(first.notation, reply.notation) for reply in board.legal_moves]
        board.pop()
    random.Random(seed).shuffle(pairs)
    return pairs[:count]


def extended_openings(
    variant: str, starts: list[tuple[str, ...]], plies: int, count: int, seed: int
) -> list[tuple[str, ...]]:
    """``count`` distinct openings of ``plies`` moves that begin with one of ``starts``."""
    lines: list[tuple[str, ...]] = []

    def walk(board: Board, line: tuple[str, ...]) -> None:
        if len(line) >= plies:
            lines.append(line)
            return
        for move in board.legal_moves:
            board.push(move)
            walk(board, (*line, move.notation))
            board.pop()

    for start in starts:
        board = Board(variant)
        for text in start:
            board.push(text)
        walk(board, start)
    random.Random(seed).shuffle(lines)
    return lines[:count]


def openings(variant: str, count: int, seed: int) -> list[tuple[str, ...]]:
    """The openings of a match in ``variant`` (see the module's docstring)."""
    if variant == "international":
        return two_move_openings(count, seed)
    if variant == "english":
        deck = OpeningDeck.builtin("english-2move")
        return extended_openings(variant, list(deck.openings), 3, count, seed)
    return extended_openings(variant, [()], 3, count, seed)


def compulsory_american_board(base: Any) -> Any:
    """py-draughts' American board with compulsory captures (English rules)."""

    class CompulsoryAmericanBoard(base):  # type: ignore[misc, valid-type]
        """Captures are compulsory: when one exists, only captures are legal."""

        @property
        def legal_moves(self) -> list[Any]:
            moves = super().legal_moves
            captures = [m for m in moves if m.captured_list]
            return captures or moves

    return CompulsoryAmericanBoard


class Peer:
    """A py-draughts engine on its own board, kept in step with Damier's game."""

    def __init__(self, variant: str, engine: Any, board_class: Any) -> None:
        self.engine, self.board = engine, board_class()
        # py-draughts' squares as Damier's (both 1-based); English turns the board round.
        flip = variant == "english"
        self.square: Callable[[int], int] = (lambda s: 33 - s) if flip else (lambda s: s)

    def key(self, candidate: Any) -> Key:
        """A py-draughts move as Damier's (origin, destination, captured squares)."""
        return (
            self.square(candidate.square_list[0] + 1),
            self.square(candidate.square_list[-1] + 1),
            frozenset(self.square(c + 1) for c in candidate.captured_list),
        )

    def choose(self, game: Game) -> str:
        """The peer's move in ``game``'s position, as Damier notation."""
        wanted = self.key(self.engine.get_best_move(self.board))
        for move in game.board.legal_moves:
            if (move.from_square, move.to_square, frozenset(move.captured)) == wanted:
                return move.notation
        raise RuntimeError(f"the peer played {wanted}, which Damier does not find legal")

    def follow(self, game: Game) -> None:
        """Play ``game``'s last move on the peer's board."""
        move = game.moves[-1]
        wanted = (move.from_square, move.to_square, frozenset(move.captured))
        for candidate in self.board.legal_moves:
            if self.key(candidate) == wanted:
                self.board.push(candidate)
                return
        raise RuntimeError(f"py-draughts does not accept {move.notation}")


def play(
    variant: str,
    opening: tuple[str, ...],
    damier_white: bool,
    seconds: float,
    max_plies: int,
    engine: Engine,
    make_peer: Callable[[], Peer],
) -> tuple[float, str]:
    """One game; returns Damier's points and how it ended. ``damier_white`` means Damier
    is the first player (the dark side in English)."""
    game = Game(variant)
    first_player = game.board.turn
    peer = make_peer()
    engine.new_game()
    for text in opening:
        game.push(text)
        peer.follow(game)
    while game.result is None and game.ply < max_plies:
        damier_to_move = (game.board.turn == first_player) == damier_white
        if damier_to_move:
            text = engine.search(game.board, time=seconds).best_move.notation  # type: ignore[union-attr]
        else:
            text = peer.choose(game)
        game.push(text)
        peer.follow(game)
    if game.result is None:
        return 0.5, f"unfinished after {max_plies} plies"
    if game.result.winner is None:
        return 0.5, game.result.reason
    won = (game.result.winner == first_player) == damier_white
    return (1.0 if won else 0.0), game.result.reason


def peer_factory(variant: str, opponent: str, seconds: float) -> tuple[str, Callable[[], Peer]]:
    """The opponent's name and a maker of fresh peers (one a game: a new board and
    tables)."""
    import draughts

    if opponent == "turbo":
        if variant != "international":
            raise SystemExit("TurboEngine plays International draughts only")
        from draughts.engines.turbo import TurboEngine

        return "py-draughts TurboEngine", lambda: Peer(
            variant, TurboEngine(time_limit=seconds, depth_limit=None), draughts.StandardBoard
        )
    from draughts.engines.simple import SimpleEngine

    board_class = {
        "international": draughts.StandardBoard,
        "russian": draughts.RussianBoard,
        "english": compulsory_american_board(draughts.AmericanBoard),
    }[variant]
    # its depth limit bounds iterative deepening: high, so that the time decides
    return "py-draughts SimpleEngine (alpha-beta)", lambda: Peer(
        variant, SimpleEngine(depth_limit=64, time_limit=seconds), board_class
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--variant", default="international", choices=["international", "russian", "english"]
    )
    parser.add_argument("--opponent", default="turbo", choices=["turbo", "alphabeta"])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--time", type=float, default=0.2, help="seconds per move, both")
    parser.add_argument("--max-plies", type=int, default=250)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    try:
        import draughts  # noqa: F401
    except ImportError:
        print("py-draughts is not installed (pip install -e '.[bench]'); nothing to measure")
        return
    import logging

    from loguru import logger

    logger.remove()  # py-draughts logs every move it chooses
    logging.getLogger().setLevel(logging.WARNING)
    name, make_peer = peer_factory(args.variant, args.opponent, args.time)
    print(f"machine: {describe_machine()}")
    print(
        f"{args.variant}: Damier level 10 v {name}, {args.time} s a move, "
        f"{args.games} games, seed {args.seed}"
    )
    engine = Engine(args.variant, level=10)
    points, unfinished = [], 0
    started = time.perf_counter()
    for opening in openings(args.variant, (args.games + 1) // 2, args.seed):
        for damier_white in (True, False):
            if len(points) == args.games:
                break
            score, how = play(
                args.variant, opening, damier_white, args.time, args.max_plies, engine, make_peer
            )
            unfinished += how.startswith("unfinished")
            points.append(score)
            side = "first" if damier_white else "second"
            print(
                f"game {len(points):3d} opening {' '.join(opening)} damier {side}: "
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
