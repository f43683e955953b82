"""The Board's fast road to the kernel gives what the readable one gives: the packed tables
(one array instead of the ``Tables`` NamedTuple), the compiled entry point called past
Numba's dispatcher, and the shared quiet moves of ``Board._describe``."""

from __future__ import annotations

import random

import numpy as np
import pytest

from damier import Board, Move
from damier.board import _Direct
from damier.kernel import layout as L
from damier.kernel.movegen import (
    Scratch,
    generate,
    make_move,
    position_hash,
    position_hash_packed,
    unpack_tables,
)
from damier.kernel.tables import compile_tables, packed_tables
from damier.rules import all_variants, get_variant
from damier.rules.multiplayer import MULTIPLAYER

VARIANTS = [
    *(v.name for v in all_variants()),
    *(v.name for v in MULTIPLAYER),
    "international-giveaway",
    "dameo-giveaway",
    "tripad-giveaway",
    "radial4+teams+dead-pieces",
]


def _plain_rows(board: Board, dedupe: bool) -> np.ndarray:
    """The position's moves from ``generate`` called with the ``Tables`` NamedTuple."""
    tables = compile_tables(board.variant)
    maxc = int(tables.rules[L.R_MAXC])
    cells = board.cells
    scratch = Scratch(len(cells), maxc)
    moves = np.zeros((4096, L.row_width(maxc)), dtype=np.int32)
    count = generate(tables, cells, board.turn, moves, scratch.work, scratch.frames, dedupe, True)
    assert count >= 0
    return moves[:count]


def _written(rows: np.ndarray, maxc: int) -> list[list[int]]:
    """The columns of each row the generator writes (the others hold stale values)."""
    out = []
    for row in rows.tolist():
        ncap, npath = row[L.NCAP], row[L.NPATH]
        caps = row[L.CAPS : L.CAPS + ncap] + row[L.CAPS + maxc : L.CAPS + maxc + ncap]
        out.append(row[: L.CAPS] + caps + row[L.CAPS + 2 * maxc : L.CAPS + 2 * maxc + npath])
    return out


def _readable_moves(board: Board, rows: np.ndarray) -> list[Move]:
    """Each row as a :class:`Move`, built the plain way (the full path when another move
    has the same ends)."""
    names = [board.geometry.names[c] for c in range(board.geometry.cell_count)]
    public = [int(n) if board.geometry.numeric else n for n in names]
    maxc = int(compile_tables(board.variant).rules[L.R_MAXC])
    ends = [(int(r[L.FROM]), int(r[L.TO])) for r in rows]
    moves = []
    for row, end in zip(rows, ends, strict=True):
        ncap, npath = int(row[L.NCAP]), int(row[L.NPATH])
        landings = [int(c) for c in row[L.CAPS + 2 * maxc : L.CAPS + 2 * maxc + npath]]
        path = [int(row[L.FROM]), *landings]
        shown = path if ends.count(end) > 1 else [path[0], path[-1]]
        moves.append(
            Move(
                tuple(public[c] for c in path),
                tuple(public[int(c)] for c in row[L.CAPS : L.CAPS + ncap]),
                bool(row[L.NEW_PIECE] != row[L.PIECE]),
                ("x" if ncap else "-").join(names[c] for c in shown),
            )
        )
    return moves


@pytest.mark.parametrize("name", VARIANTS)
def test_packed_tables_unpack_to_the_tables(name: str) -> None:
    # As Python (compiled without reference counting, the views cannot be returned to
    # Python; the compiled unpacking is held to the tables by the next test).
    unpack = getattr(unpack_tables, "py_func", unpack_tables)
    variant = get_variant(name)
    for packed, plain in zip(unpack(packed_tables(variant)), compile_tables(variant), strict=True):
        assert packed.dtype == plain.dtype
        assert np.array_equal(packed, plain)


@pytest.mark.parametrize("name", VARIANTS)
def test_fast_entry_agrees_with_plain_generate(name: str) -> None:
    rng = random.Random(name)
    tables = compile_tables(get_variant(name))
    maxc = int(tables.rules[L.R_MAXC])
    for _ in range(6):
        board = Board(name)
        for _ in range(rng.randrange(0, 50)):
            for dedupe in (True, False):
                rows = board._rows(dedupe, history_rules=False)
                assert _written(rows, maxc) == _written(_plain_rows(board, dedupe), maxc)
            rows = board._rows(True, history_rules=False)
            assert board._describe(rows) == _readable_moves(board, rows)
            assert [m.notation for m in board._describe(rows)] == [
                m.notation for m in _readable_moves(board, rows)
            ]
            assert board.zobrist_hash() == board.copy().zobrist_hash()
            if board.variant.players == 2:
                cells = board.cells
                assert board.zobrist_hash() == position_hash(tables, cells, board.turn)
            moves = board.legal_moves
            if not moves:
                break
            index = rng.randrange(len(moves))
            if board.variant.players == 2:
                expected = board.cells
                make_move(tables, expected, board._generate()[0], index)
                board.push(moves[index])
                assert np.array_equal(board.cells, expected)
                board.pop()
            board.push(moves[index])


def test_direct_call_keeps_the_compiled_version() -> None:
    variant = get_variant("russian")
    board = Board(variant)
    direct = _Direct(position_hash_packed)
    packed = packed_tables(variant)
    first = direct.call(packed, board._cells, 0)
    assert direct.call(packed, board._cells, 0) == first
    assert first == position_hash(compile_tables(variant), board._cells, 0)


def test_moves_listed_after_other_generations_are_the_position_s() -> None:
    # The rows of a board's moves stay in the thread's shared buffer until they are needed;
    # other boards' generations in between must not change them.
    first = Board("international", "W:W31,32,33:B18,19,22")
    second = Board("international")
    counted = len(first.legal_moves)
    assert len(second.legal_moves) == 9
    assert second.legal_moves[0].notation == "31-26"
    notations = [m.notation for m in first.legal_moves]
    assert len(notations) == counted
    assert notations == [m.notation for m in Board("international", first.fen).legal_moves]
    lazy = second.copy()
    assert len(lazy.legal_moves) == 9
    second.push("32-28")
    assert len(first.legal_moves) == counted
    assert lazy.legal_moves[0] == Board("international").legal_moves[0]
    assert first.push(notations[0]).notation == notations[0]


def test_moves_counted_in_one_thread_listed_in_another() -> None:
    from concurrent.futures import ThreadPoolExecutor

    board = Board("russian")
    counted = len(board.legal_moves)
    with ThreadPoolExecutor(1) as pool:
        listed = pool.submit(lambda: [m.notation for m in board.legal_moves]).result()
    assert len(listed) == counted == 7


def test_moves_held_across_a_change_of_position_keep_theirs() -> None:
    # Moves whose rows still wait in the shared buffer when the board drops them (pop,
    # set_fen, perft_divide) get their rows then, if anyone holds them.
    board = Board("international")
    start = [m.notation for m in Board("international").legal_moves]
    board.push("32-28")
    held = board.legal_moves
    after = [m.notation for m in Board("international", board.fen).legal_moves]
    board.pop()
    assert len(board.legal_moves) == len(start)
    assert [m.notation for m in held] == after
    held = board.legal_moves
    board.set_fen("W:W31,32:B18,19")
    assert len(board.legal_moves) == 4
    assert [m.notation for m in held] == start
    held = board.legal_moves
    board.perft_divide(1)
    board.set_fen("W:W31:B18")
    board.legal_moves[0]
    assert [m.notation for m in held] == ["31-26", "31-27", "32-27", "32-28"]


def test_the_reference_count_is_calibrated() -> None:
    from damier.board import _UNHELD

    assert _UNHELD > 0  # CPython: dropped moves nobody holds are not given their rows


def test_no_moves_are_cached_too() -> None:
    blocked = Board("international", "B:W6,7,11,12:B1")
    assert len(blocked.legal_moves) == 0
    assert blocked.legal_moves is blocked.legal_moves
    assert blocked.is_game_over()
    assert list(blocked.legal_moves) == []
