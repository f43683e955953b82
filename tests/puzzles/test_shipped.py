"""The shipped puzzles: well formed, every line legal and winning what it says; a sample
verified again by the engine in the default run, all of them in the slow one."""

from __future__ import annotations

import dataclasses
import os
import random

import pytest

from damier import Board
from damier.puzzles import (
    THEMES,
    VARIANTS,
    Puzzle,
    balance,
    puzzle_id,
    shipped,
    verify_many,
)
from damier.puzzles.build import later_starts
from damier.rules import get_variant

SAMPLE = 2
"""Puzzles per variant verified by the engine in the default run."""


def all_shipped() -> list[Puzzle]:
    return [puzzle for variant in VARIANTS for puzzle in shipped(variant)]


def test_international_has_puzzles() -> None:
    assert len(shipped("international")) >= 20


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_shipped_line_is_legal_and_wins_what_it_says(variant: str) -> None:
    puzzles = shipped(variant)
    tails: set[str] = set()
    for puzzle in puzzles:
        assert puzzle.variant == variant
        assert puzzle.id == puzzle_id(variant, puzzle.fen)
        assert set(puzzle.themes) <= set(THEMES) and puzzle.themes
        assert len(puzzle.moves) % 2 == 1 and len(puzzle.solver_moves) >= 2
        assert puzzle.score >= 190 > 60 > puzzle.second
        board = Board(variant, puzzle.fen)
        assert len(board.legal_moves) >= 2
        end = board.copy()
        for move in puzzle.moves:
            end.push(move)  # raises on an illegal move
        gain = balance(end, board.turn) - balance(board, board.turn)
        assert gain == puzzle.gain
        assert gain >= 190 or not end.legal_moves
        tails |= later_starts(puzzle)
    assert len({p.id for p in puzzles}) == len(puzzles)
    assert not tails & {p.fen for p in puzzles}, "a puzzle is the tail of another"


def verified(variant: str, count: int | None, workers: int = 1) -> None:
    puzzles = list(shipped(variant))
    if not puzzles:
        pytest.skip(f"no {variant} puzzles shipped yet")
    if count is not None and count < len(puzzles):
        puzzles = random.Random(34).sample(puzzles, count)
    verdicts = verify_many(puzzles, workers=workers)
    wrong = {p.id: problems for p, problems in verdicts if problems}
    assert wrong == {}


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_sample_of_the_shipped_puzzles_verifies_again(variant: str) -> None:
    verified(variant, SAMPLE)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_every_shipped_puzzle_verifies_again(variant: str) -> None:
    verified(variant, None, workers=os.cpu_count() or 1)


def test_the_count_table_adds_up(capsys: pytest.CaptureFixture[str]) -> None:
    """``damier puzzles count``: a row per variant with its number of puzzles and of each
    theme, and a last row that sums them."""
    from damier.cli import main

    assert main(["puzzles", "count"]) == 0
    rows = [line.split("|")[1:-1] for line in capsys.readouterr().out.splitlines()]
    header, body = [cell.strip() for cell in rows[0]], rows[2:]
    by_title = {cells[0].strip(): [int(c) for c in cells[1:]] for cells in body}
    for variant in VARIANTS:
        numbers = by_title[get_variant(variant).title]
        assert numbers[0] == len(shipped(variant))
        for theme, count in zip(header[2:], numbers[1:], strict=True):
            assert count == sum(theme in p.themes for p in shipped(variant))
    assert by_title["all"] == [
        sum(column)
        for column in zip(*(by_title[get_variant(v).title] for v in VARIANTS), strict=True)
    ]


def test_verifying_in_two_processes_gives_the_same_verdicts_in_order() -> None:
    """:func:`verify_many`: the verdicts of a pool of processes are those of one, in the
    order of the puzzles, a wrong puzzle among them told apart."""
    puzzles = list(shipped("russian")[:3])
    wrong = dataclasses.replace(puzzles[1], gain=puzzles[1].gain + 100)
    puzzles.insert(2, wrong)
    alone = list(verify_many(puzzles, workers=1))
    shared = list(verify_many(puzzles, workers=2))
    assert shared == alone
    assert [p for p, _ in shared] == puzzles
    assert [bool(problems) for _, problems in shared] == [False, False, True, False]
    assert "not the stated" in shared[2][1][0]
