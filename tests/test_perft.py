"""Perft against every published number in tests/data/perft.json (each with its source).

Entries up to two million leaves run by default; the deeper ones are marked slow and run
in CI (``pytest -m slow``).
"""

from __future__ import annotations

from typing import Any

import pytest

from damier import Board
from damier.kernel.bitboard import covers
from damier.rules import UnknownVariantError, get_variant
from tests.conftest import perft_reference

FAST_LIMIT = 2_000_000
SLOW_LIMIT = 200_000_000  # beyond this (Turkish depth 9) the run would not fit CI's budget


def _case_id(entry: dict[str, Any]) -> str:
    return f"{entry['variant']}-{entry['position']}-{entry['duplicates']}-d{entry['depth']}"


def _cases() -> list[Any]:
    cases = []
    for entry in perft_reference():
        if entry["nodes"] > SLOW_LIMIT:
            continue
        marks = [pytest.mark.slow] if entry["nodes"] > FAST_LIMIT else []
        cases.append(pytest.param(entry, marks=marks, id=_case_id(entry)))
    return cases


# Published positions that are not the variant's own start: the variant option that allows
# them (a FEN holding more pieces than the start position is otherwise refused).
POSITION_OPTIONS = {"12-man start (not the Thai start)": "+twelve-men"}


@pytest.mark.parametrize("fast", [False, True], ids=["table", "bitboard"])
@pytest.mark.parametrize("entry", _cases())
def test_published_perft(entry: dict[str, Any], fast: bool) -> None:
    # Both kernels: the table kernel (every variant) and, where it plays the variant, the
    # bitboard fast path that Board.perft prefers.
    try:
        variant = get_variant(entry["variant"] + POSITION_OPTIONS.get(entry["position"], ""))
    except UnknownVariantError:
        pytest.skip(f"variant {entry['variant']} is not built in yet (issue 8)")
    if fast and not covers(variant):
        pytest.skip(f"the bitboard fast path does not play {variant.name}")
    fen = None if entry["fen"] == "start" else entry["fen"]
    board = Board(variant, fen=fen)
    assert board.perft(entry["depth"], entry["duplicates"], fast=fast) == entry["nodes"]


def test_reference_covers_the_diagonal_variants() -> None:
    named = {entry["variant"] for entry in perft_reference()}
    for variant in (
        "international",
        "brazilian",
        "russian",
        "english",
        "pool",
        "italian",
        "spanish",
        "turkish",
    ):
        assert variant in named


def test_perft_depth_zero_is_one_leaf() -> None:
    assert Board("russian").perft(0) == 1


def test_perft_rejects_bad_arguments() -> None:
    board = Board("russian")
    with pytest.raises(ValueError, match="duplicates"):
        board.perft(2, "twice")
    with pytest.raises(ValueError, match="depth"):
        board.perft(-1)


def test_divide_adds_up_to_perft() -> None:
    board = Board(
        "international", "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38"
    )
    rows = board.perft_divide(5)
    assert sum(count for _, count in rows) == board.perft(5) == 215
    assert [move for move, _ in rows] == list(board.legal_moves)


def test_perft_leaves_the_board_unchanged() -> None:
    board = Board("pool")
    board.push("9-13")  # black moves first in pool
    before = (board.fen, board.zobrist_hash())
    board.perft(4)
    board.perft_divide(3, "keep")
    assert (board.fen, board.zobrist_hash()) == before
