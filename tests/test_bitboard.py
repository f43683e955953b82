"""The bitboard perft (``damier.kernel.bitboard``) counts what the table kernel counts.

Two proofs: every published number of perft.json for the variants it covers (the deepest
ones marked slow), and a differential test against ``Board.perft`` (the table kernel) on
positions from seeded random games, chosen to hold kings and multiple captures, depths 1-3,
both duplicate conventions.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import damier
from damier import Board
from damier.kernel import bitboard
from damier.kernel.bitboard import covers, fast_perft
from damier.rules import Variant, get_variant
from damier.rules.description import (
    ALL_DIRECTIONS,
    ORTHOGONAL,
    Choice,
    Direction,
    Landing,
    Promotion,
    Range,
    Removal,
    Topology,
)
from tests.conftest import perft_reference

FAST_LIMIT = 10_000_000  # leaves; the bitboard code counts ~10^8 a second

# Every covered built-in variant, the options that change its moves, and two giveaway forms
# (same moves, other goal).
VARIANTS = [
    *(variant.name for variant in damier.all_variants() if covers(variant)),
    "pool+men-capture-forward-only",
    "italian+dark-first",
    "thai+twelve-men",
    "turkish+promotion-ends-move",
    "international-giveaway",
    "russian-giveaway",
]
POSITION_OPTIONS = {"12-man start (not the Thai start)": "+twelve-men"}


def _count(variant: Variant, fen: str | None, depth: int, duplicates: str) -> int | None:
    board = Board(variant, fen)
    return fast_perft(variant, board.cells, board.turn, depth, duplicates)


def test_covers_the_international_family_turkish_and_no_other() -> None:
    covered = {variant.name for variant in damier.all_variants() if covers(variant)}
    assert {"international", "brazilian", "russian", "english", "pool", "italian"} <= covered
    assert {"frisian", "frysk", "turkish"} <= covered
    # Outside the switches: diagonal moves on a board of all squares (Croda, Dameo's men),
    # a board too large for a word, Breakthrough's crowning win.
    for name in ("croda", "dameo", "canadian", "breakthrough"):
        assert name not in covered


def test_covers_two_players_on_a_plain_square_board_only() -> None:
    # radial2: two players, but on the radial board (two areas round a hub), whose lines
    # no shift follows.
    assert not covers(get_variant("radial2"))
    for variant in damier.all_variants():
        if covers(variant):
            assert variant.players == 2
            assert variant.topology is Topology.SQUARE
            assert variant.corner == 0


def test_an_uncovered_variant_gives_none() -> None:
    board = Board("croda")
    assert fast_perft(board.variant, board.cells, board.turn, 3) is None


def test_depth_zero_and_bad_arguments() -> None:
    board = Board("international")
    assert fast_perft(board.variant, board.cells, board.turn, 0) == 1
    with pytest.raises(ValueError, match="duplicates"):
        fast_perft(board.variant, board.cells, board.turn, 2, "twice")
    with pytest.raises(ValueError, match="depth"):
        fast_perft(board.variant, board.cells, board.turn, -1)


# -- published numbers ---------------------------------------------------------------------


def _published() -> list[Any]:
    cases = []
    for entry in perft_reference():
        name = entry["variant"] + POSITION_OPTIONS.get(entry["position"], "")
        try:
            variant = get_variant(name)
        except ValueError:
            continue
        if not covers(variant):
            continue
        marks = [pytest.mark.slow] if entry["nodes"] > FAST_LIMIT else []
        case_id = f"{name}-{entry['position']}-{entry['duplicates']}-d{entry['depth']}"
        cases.append(pytest.param(entry, marks=marks, id=case_id))
    return cases


@pytest.mark.parametrize("entry", _published())
def test_published_perft(entry: dict[str, Any]) -> None:
    variant = get_variant(entry["variant"] + POSITION_OPTIONS.get(entry["position"], ""))
    fen = None if entry["fen"] == "start" else entry["fen"]
    assert _count(variant, fen, entry["depth"], entry["duplicates"]) == entry["nodes"]


def test_published_numbers_cover_both_conventions() -> None:
    cases = [case.values[0] for case in _published()]
    assert {entry["duplicates"] for entry in cases} == {"drop", "keep"}
    assert {"international", "brazilian", "russian", "english", "pool", "italian"} <= {
        entry["variant"] for entry in cases
    }


# -- against the table kernel ----------------------------------------------------------------

GAMES = 8
PLIES = 200
SAMPLE = 60  # positions per variant


def _positions(variant: Variant, sample: int = SAMPLE) -> tuple[list[str], int, int]:
    """``sample`` FENs from seeded random games, those with kings or a multiple capture
    first; also how many of them hold kings and how many a multiple capture."""
    rng = random.Random(f"bitboard-{variant.name}")
    with_kings: list[str] = []
    multi: list[str] = []
    plain: list[str] = []
    for _ in range(GAMES):
        board = Board(variant)
        for _ in range(PLIES):
            moves = list(board.legal_moves)
            fen = board.fen
            if any(len(move.captured) > 1 for move in moves):
                multi.append(fen)
            elif "K" in fen:
                with_kings.append(fen)
            else:
                plain.append(fen)
            if not moves:
                break
            board.push(rng.choice(moves))
    chosen = rng.sample(multi, min(len(multi), sample // 3))
    chosen += rng.sample(with_kings, min(len(with_kings), sample // 2))
    chosen += rng.sample(plain, min(len(plain), sample - len(chosen)))
    kings = sum("K" in fen for fen in chosen)
    return chosen, kings, min(len(multi), sample // 3)


def _check_against_table_kernel(variant: Variant, sample: int) -> None:
    assert covers(variant)
    fens, kings, multi = _positions(variant, sample)
    assert len(fens) == sample
    assert kings >= sample // 4, "too few positions with kings to prove king moves"
    assert multi >= 2, "too few positions with multiple captures"
    for fen in fens:
        board = Board(variant, fen)
        for depth in (1, 2, 3):
            for duplicates in ("drop", "keep"):
                expected = board.perft(depth, duplicates, fast=False)
                got = fast_perft(variant, board.cells, board.turn, depth, duplicates)
                assert got == expected, (fen, depth, duplicates)


@pytest.mark.parametrize("name", VARIANTS)
def test_same_counts_as_the_table_kernel(name: str) -> None:
    _check_against_table_kernel(get_variant(name), SAMPLE)


# Rule switches in combinations no built-in variant has (a man crowned mid-capture only
# matters where men capture backwards, so English cannot prove "the crowning ends it").
MIXED = [
    ("international", {"promotion": Promotion.ENDS_MOVE}),
    ("international", {"promotion": Promotion.CONTINUE_AS_KING, "king_stops_behind_king": True}),
    ("brazilian", {"choice": (Choice.MOST_PIECES, Choice.MOST_KINGS)}),
    ("russian", {"choice": (Choice.WITH_KING, Choice.MOST_PIECES)}),
    ("english", {"king_range": Range.FLYING, "men_capture_kings": False}),
    ("pool", {"king_landing": Landing.NEXT, "promotion": Promotion.ENDS_MOVE}),
    ("russian", {"man_captures": ALL_DIRECTIONS, "king_captures": ALL_DIRECTIONS}),
    ("brazilian", {"man_captures": ORTHOGONAL | {Direction.FORWARD_DIAGONAL}}),
    ("frisian", {"king_range": Range.SHORT, "choice": (Choice.MOST_VALUE, Choice.MOST_KINGS)}),
    # Turkish's capture rules on the dark squares, and its board with other rules.
    ("international", {"removal": Removal.IMMEDIATE}),
    ("russian", {"removal": Removal.IMMEDIATE, "no_reversal": True}),
    ("frisian", {"no_reversal": True}),
    ("turkish", {"king_range": Range.SHORT, "removal": Removal.AT_END}),
    ("turkish", {"no_reversal": False, "choice": ()}),
    ("turkish", {"man_moves": ORTHOGONAL, "man_captures": frozenset({Direction.FORWARD})}),
]


def _mixed(name: str, changes: dict[str, Any]) -> Variant:
    tag = "+".join(f"{key}={value}" for key, value in changes.items())
    return dataclasses.replace(get_variant(name), name=f"{name}+{tag}", **changes)


@pytest.mark.parametrize(("name", "changes"), MIXED)
def test_mixed_rule_switches(name: str, changes: dict[str, Any]) -> None:
    _check_against_table_kernel(_mixed(name, changes), SAMPLE // 2)


@pytest.mark.parametrize(("width", "height"), [(6, 6), (8, 10), (12, 8), (8, 7)])
@pytest.mark.parametrize("rules", ["international", "italian"])
def test_other_board_sizes(width: int, height: int, rules: str) -> None:
    """The layout is computed from the board, not written for 10x10 and 8x8 (an odd
    height included; Italian's rules bring the mirrored board)."""
    squares, per_row = width * height // 2, width // 2
    rows = 2 if height <= 6 else 3
    fen = f"W:W{squares - rows * per_row + 1}-{squares}:B1-{rows * per_row}"
    variant = dataclasses.replace(
        get_variant(rules),
        name=f"{rules}-{width}x{height}",
        width=width,
        height=height,
        start_fen=fen,
    )
    _check_against_table_kernel(variant, SAMPLE // 3)


@pytest.mark.parametrize("promotion", list(Promotion))
def test_a_man_crowned_in_the_middle_of_a_capture(promotion: Promotion) -> None:
    # 12x3 reaches the crowning row; from 3 the capture could go on backwards over 9 (as
    # a man), or over 9 and 30 as a king: each promotion rule gives another tree.
    variant = _mixed("international", {"promotion": promotion})
    board = Board(variant, "W:W12,46:B8,9,30,45")
    for depth in (1, 2, 3, 4):
        for duplicates in ("drop", "keep"):
            expected = board.perft(depth, duplicates, fast=False)
            got = fast_perft(variant, board.cells, board.turn, depth, duplicates)
            assert got == expected, (depth, duplicates)


# Hand-picked positions: king multi-captures with many landing squares (both conventions
# differ there), a man crowned in the middle of a capture, a king stopped behind a king.
SPECIAL = [
    ("international", "W:WK28:B19,20,30,8"),
    ("international", "W:WK46,K5:B7,8,9,18,19,29,30,32,33,38,39"),
    ("international", "W:W6,7,8,9,10:B41,42,43,44,45"),
    ("international", "B:W8,9,17,18,19,28,29,30,38,39,40:BK1,K50"),
    ("killer", "W:WK46:B37,28,K19,12"),
    ("brazilian", "W:WK29:B25,18,11,10,19"),
    ("russian", "W:W18,K31:B13,14,22,23,K4"),
    ("russian", "W:W10:B6,7,15,23,24"),
    ("pool", "B:WK1,22,23:B10,11,18"),
    ("english", "B:W6,7,15,23,K31:B2,K27"),
    ("spanish", "W:WK1,10:B14,15,22,23"),
    ("italian", "W:WK14,18,19:B10,11,K15,23"),
    ("italian", "W:WK22,K30:BK18,K26,K19,K11,10,3"),
    ("italian", "W:WK10,29:BK14,K15,K7,K6,K26"),  # one round trip, the kings in two orders
    ("czech", "W:WK32,22:B18,10,11,27"),
    ("frisian", "W:W28,K33,43:B17,18,19,22,23,32,K38,39"),
    ("frisian", "W:WK46,K5:B16,17,25,26,35,36,14,15"),
    ("thai", "W:WK32:B27,18,10,11"),
]


@pytest.mark.parametrize(("name", "fen"), SPECIAL)
def test_special_positions(name: str, fen: str) -> None:
    board = Board(name, fen)
    for depth in (1, 2, 3, 4):
        for duplicates in ("drop", "keep"):
            expected = board.perft(depth, duplicates, fast=False)
            got = fast_perft(board.variant, board.cells, board.turn, depth, duplicates)
            assert got == expected, (depth, duplicates)


@pytest.mark.parametrize(
    "fen",
    [
        "W:WK46:B24,K28",  # a king taken mid-capture: the king lands on, and goes on from, 19
        "W:WK46:BK17,K37",  # a king taken mid-capture, then one taken last: stop right behind
        "B:WK17,K37,22,33:BK46,K5,24",  # both, for each side, deeper in the tree
    ],
)
def test_killer_kings_taken_mid_capture_and_last(fen: str) -> None:
    """Killer stops a king only behind a king it takes last (tests/variants/test_killer.py
    checks the moves by hand); the bitboard code counts what the table kernel counts."""
    board = Board("killer", fen)
    for depth in (1, 2, 3, 4):
        for duplicates in ("drop", "keep"):
            expected = board.perft(depth, duplicates, fast=False)
            got = fast_perft(board.variant, board.cells, board.turn, depth, duplicates)
            assert got == expected, (depth, duplicates)


def test_a_move_list_longer_than_the_buffer(monkeypatch: pytest.MonkeyPatch) -> None:
    """A position with more moves than the first buffer holds: the buffer grows."""
    monkeypatch.setattr(bitboard, "FIRST_CAPACITY", 2)
    for name, fen in SPECIAL[:3]:
        board = Board(name, fen)
        assert len(board.legal_moves) > 2
        for duplicates in ("drop", "keep"):
            expected = board.perft(3, duplicates, fast=False)
            assert fast_perft(board.variant, board.cells, board.turn, 3, duplicates) == expected


def test_threads_count_side_by_side() -> None:
    """Each call owns its arrays and the compiled code releases the GIL: calls from several
    threads give the counts of calls made one after the other."""
    boards = [Board(name, fen) for name, fen in SPECIAL]

    def count(board: Board) -> int | None:
        return fast_perft(board.variant, board.cells, board.turn, 4, "keep")

    alone = [count(board) for board in boards]
    with ThreadPoolExecutor(max_workers=4) as pool:
        assert list(pool.map(count, boards)) == alone


SCRIPT = """
import json, sys
from damier import Board
from damier.kernel import bitboard
out = []
for name, fen in json.loads(sys.argv[1]):
    board = Board(name, fen)
    for dup in ("drop", "keep"):
        out.append(bitboard.fast_perft(board.variant, board.cells, board.turn, 3, dup))
# Too many kings met to record their order: the caller is told to use the table kernel.
bitboard.MAX_KINGS_MET = 3
board = Board("italian", "W:WK10,29:BK14,K15,K7,K6,K26")
out.append(bitboard.fast_perft(board.variant, board.cells, board.turn, 1))
print(json.dumps(out))
"""


def test_plain_python_gives_the_same_counts() -> None:
    """With NUMBA_DISABLE_JIT=1 (how test_uncompiled runs the kernel) the code is Python."""
    sample = [*SPECIAL[:2], *SPECIAL[6:8], SPECIAL[-3]]
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(sample)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    expected: list[int | None] = [
        _count(get_variant(name), fen, 3, dup) for name, fen in sample for dup in ("drop", "keep")
    ]
    expected.append(None)
    assert json.loads(result.stdout) == expected
