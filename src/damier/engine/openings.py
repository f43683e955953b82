"""Balanced opening decks, computed by the engine.

Every two-move opening (the first move of each player) is searched to a fixed depth from
the position it leaves; the openings whose value is furthest from equality are dropped. The
Spanish match deck of RULES.md decision 4 is the 43 most balanced of the 49:

    python -m damier.engine.openings spanish --keep 43 --depth 14
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from damier.board import Board
from damier.engine import Engine
from damier.rules import get_variant


@dataclass(frozen=True)
class RatedOpening:
    """An opening and the engine's value of the position it leaves, for White."""

    moves: tuple[str, ...]
    score: int


def rate_openings(variant: str, depth: int, plies: int = 2) -> list[RatedOpening]:
    """Every opening of ``plies`` moves, valued at ``depth`` (most balanced first)."""
    engine = Engine(variant)
    rated = []

    def walk(board: Board, line: tuple[str, ...]) -> None:
        if len(line) == plies:
            engine.new_game()
            info = engine.search(board, depth=depth)
            white_view = info.score if board.turn == 0 else -info.score
            rated.append(RatedOpening(line, white_view))
            return
        for move in board.legal_moves:
            board.push(move)
            walk(board, (*line, move.notation))
            board.pop()

    walk(Board(variant), ())
    return sorted(rated, key=lambda opening: (abs(opening.score), opening.moves))


def deck_text(variant: str, rated: list[RatedOpening], keep: int, depth: int) -> str:
    """The deck file: the ``keep`` most balanced openings, the dropped ones in comments."""
    kept, dropped = rated[:keep], rated[keep:]
    lines = [
        f"# {get_variant(variant).title}: the {keep} most balanced two-move openings.",
        f"# Computed by damier.engine.openings at depth {depth}: every opening of "
        f"{len(rated)} valued by the engine",
        "# (hundredths of a man, for White) and the ones furthest from equality dropped:",
        *(f"#   dropped {' '.join(o.moves)} ({o.score:+d})" for o in dropped),
        f"# variant: {variant}",
        *(" ".join(o.moves) for o in sorted(kept, key=lambda o: o.moves)),
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description="Compute a balanced opening deck.")
    parser.add_argument("variant")
    parser.add_argument("--keep", type=int, default=43)
    parser.add_argument("--depth", type=int, default=14)
    parser.add_argument("--output", type=Path, default=None)
    args = parser.parse_args()
    rated = rate_openings(args.variant, args.depth)
    text = deck_text(args.variant, rated, args.keep, args.depth)
    if args.output:
        args.output.write_text(text, encoding="utf-8")
    else:
        print(text, end="")


if __name__ == "__main__":
    main()
