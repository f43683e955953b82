"""Checking a puzzle again: its line legal, its first move the only winning one at its
depth, its end won by its margin (and, on request, every move of the solver unique)."""

from __future__ import annotations

from damier.board import Board
from damier.errors import IllegalMoveError
from damier.puzzles.finding import Finder
from damier.puzzles.puzzle import Puzzle, balance


def verify(puzzle: Puzzle, finder: Finder | None = None, *, every_move: bool = False) -> list[str]:
    """What is wrong with ``puzzle`` (an empty list when nothing is), judged by
    ``finder``'s criteria and engine."""
    finder = finder or Finder(puzzle.variant)
    c = finder.criteria
    problems: list[str] = []
    board = Board(puzzle.variant, puzzle.fen)
    solver = board.turn
    if len(puzzle.moves) % 2 == 0:
        problems.append("the line does not end on the solver's move")
    line = board.copy()
    for ply, text in enumerate(puzzle.moves):
        if every_move and ply % 2 == 0 and ply > 0 and len(line.legal_moves) > 1:
            step = finder.lines(line, puzzle.depth)
            if step.second is not None and step.second >= c.bound:
                problems.append(f"move {ply + 1}: a second winning move ({step.second})")
        try:
            line.push(text)
        except IllegalMoveError as error:
            return [*problems, f"move {ply + 1} ({text}) is illegal: {error}"]
    gain = balance(line, solver) - balance(board, solver)
    if gain != puzzle.gain:
        problems.append(f"the line wins {gain}, not the stated {puzzle.gain}")
    if line.legal_moves:
        if gain < c.margin:
            problems.append(f"the line wins {gain}, less than {c.margin}")
        finder.engine.new_game()
        final = -finder.engine.search(line, depth=puzzle.depth).score
        if final < c.margin:
            problems.append(f"the end of the line is not won by {c.margin} ({final})")
    first = finder.lines(board, puzzle.depth)
    if first.best.notation != puzzle.moves[0] and first.best != board.parse_move(puzzle.moves[0]):
        problems.append(f"the engine prefers {first.best.notation} to {puzzle.moves[0]}")
    if first.score < c.margin:
        problems.append(f"the first move scores {first.score}, less than {c.margin}")
    if first.second is not None and first.second >= c.bound:
        problems.append(f"a second first move scores {first.second}, at least {c.bound}")
    return problems
