"""Where a match's lost games were lost: each position of the games an engine lost, searched
again for longer, and the ply from which its score stayed below a margin.

    python bench/losses.py match.pdn --variant russian --engine new-hub --seconds 0.5

``--engine`` is a part of the engine's name in the PDN's White and Black tags (``damier
match --pdn`` writes each engine's command there). For each lost game it prints the opening,
the ply and the number of pieces from which the engine's score (Damier's full engine, no
book, from that side) stayed at or below ``-margin`` hundredths, and the scores of the few
plies before it (``*``: the move played was not the longer search's choice). Only moves
are skipped: their search says nothing. Session 32 used it to find that half of Russian's
lost games were lost at 17 to 24 pieces, within the first 21 plies (README, issue 35).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from damier.board import Board
from damier.engine import Engine
from damier.notation.pdn import PdnGame, read_pdn

LOST = {0: ("0-2", "0-1"), 1: ("2-0", "1-0")}
"""The result tags of a game lost by White (0) and by Black (1): draughts PDN counts a win
as 2 points, English checkers' PDN as 1."""


@dataclass(frozen=True)
class Ply:
    """One searched position of a lost game."""

    ply: int
    own: bool
    pieces: int
    score: int
    """For the side that lost, in hundredths of a man."""
    agreed: bool
    """Whether the move played is the one the longer search chose."""


def lost_side(game: PdnGame, engine: str) -> int | None:
    """The side (0 White, 1 Black) ``engine`` played in ``game`` if it lost it, else None."""
    for side, tag in enumerate(("White", "Black")):
        if engine in game.tags.get(tag, "") and game.tags.get("Result") in LOST[side]:
            return side
    return None


def searched(game: PdnGame, variant: str, side: int, engine: Engine, seconds: float) -> list[Ply]:
    """Each position of ``game`` with a choice (from its FEN tag's position, if it has
    one), searched for ``seconds``."""
    board = Board(variant, game.tags.get("FEN"))
    plies = []
    for ply, node in enumerate(game.moves):
        if board.is_game_over():
            break
        move = board.parse_move(node.text)
        if len(board.legal_moves) > 1:
            info = engine.search(board, time=seconds)
            score = info.score if board.turn == side else -info.score
            pieces = int((board.cells != 0).sum())
            plies.append(Ply(ply, board.turn == side, pieces, score, move == info.best_move))
        board.push(move)
    return plies


def lost_from(plies: list[Ply], margin: int) -> int | None:
    """The index of the first ply from which every score is at or below ``-margin``."""
    for index in range(len(plies)):
        if all(p.score <= -margin for p in plies[index:]):
            return index
    return None


OPPONENT = "'"
"""The mark of a ply where the opponent moved."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdn", type=Path)
    parser.add_argument("--variant", default="international")
    parser.add_argument("--engine", required=True, help="a part of the engine's name in the PDN")
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--margin", type=int, default=80)
    args = parser.parse_args()
    if not 0 < args.seconds <= 600:
        parser.error(f"--seconds {args.seconds}: a position takes above 0 s, 600 at most")
    try:
        engine = Engine(args.variant, level=10, book=False)
        games = read_pdn(args.pdn.read_text(encoding="utf-8"))
    except (OSError, ValueError, KeyError) as error:  # no file, a bad PDN, no such variant
        parser.error(str(error))
    lost = 0
    for game in games:
        side = lost_side(game, args.engine)
        if side is None:
            continue
        lost += 1
        head = f"round {game.tags.get('Round', '?')} ({game.tags.get('Opening', '')}) as " + (
            "White" if side == 0 else "Black"
        )
        try:
            plies = searched(game, args.variant, side, engine, args.seconds)
        except ValueError as error:  # a bad FEN tag or a move that is not legal there
            print(f"{head}: not replayed: {error}", flush=True)
            continue
        index = lost_from(plies, args.margin)
        if index is None:
            print(f"{head}: the score never stayed below -{args.margin}", flush=True)
            continue
        before = " ".join(
            f"{p.ply}{'' if p.own else OPPONENT}:{p.score}{'' if p.agreed else '*'}"
            for p in plies[max(0, index - 3) : index + 1]
        )
        print(
            f"{head}: lost from ply {plies[index].ply}, {plies[index].pieces} pieces "
            f"(' the opponent's move) {before}",
            flush=True,
        )
    print(f"{lost} of {len(games)} games lost by an engine named like {args.engine!r}")


if __name__ == "__main__":
    main()
