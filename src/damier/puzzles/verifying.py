"""Checking a puzzle again: its line legal, its first move the only winning one at its
depth, its end won by its margin (and, on request, every move of the solver unique)."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from itertools import repeat
from multiprocessing import get_context

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


_finders: dict[str, Finder] = {}
"""A worker process's judges, one a variant (their engines are built once)."""


def _verify_here(puzzle: Puzzle, every_move: bool) -> list[str]:
    finder = _finders.get(puzzle.variant)
    if finder is None:
        finder = _finders[puzzle.variant] = Finder(puzzle.variant)
    return verify(puzzle, finder, every_move=every_move)


def verify_many(
    puzzles: Sequence[Puzzle], *, every_move: bool = False, workers: int = 1
) -> Iterator[tuple[Puzzle, list[str]]]:
    """Each of ``puzzles`` with what is wrong with it, in order, judged by ``workers``
    processes, at most one a core (each with its own engines: a verdict starts from a
    cleared table, so it does not depend on the process or on the puzzles judged before)."""
    workers = min(workers, os.cpu_count() or 1, len(puzzles))  # more would only wait
    if workers <= 1:
        for puzzle in puzzles:
            yield puzzle, _verify_here(puzzle, every_move)
        return
    # "spawn": a forked child would inherit the parent's threads' locks in any state.
    with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
        verdicts = pool.map(_verify_here, puzzles, repeat(every_move), chunksize=2)
        yield from zip(puzzles, verdicts, strict=True)
