"""The bitboard search against the table search it mirrors: the same evaluation, and the same
values at depths without reductions, on random positions of every covered variant."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest

from damier import Board, all_variants
from damier.engine import Engine
from damier.engine.bitsearch import _play_carried, bitboard_position
from damier.engine.evaluation import (
    evaluate,
    evaluation_tables,
    family_weights,
    tables_from_weights,
)
from damier.engine.patterns import CONFIGURATIONS, regions
from damier.engine.search import INFINITY, MATE, S_NO_MOVE, SearchContext
from damier.kernel import layout as L
from damier.kernel.bitboard import (
    M_CAPS,
    M_FROM,
    M_KING,
    M_TO,
    count_quiet,
    covers,
    has_quiet,
    list_captures,
    list_quiet,
    threatens,
)
from damier.kernel.jit import FRAME_SLOT, _framed_python, frame_array
from damier.kernel.tables import compile_tables
from damier.rules import get_variant
from tests.engine.test_network import random_network

# Every variant the bitboard code covers, and two giveaway forms.
COVERED = [v.name for v in all_variants() if covers(v)] + [
    "international-giveaway",
    "russian-giveaway",
]
TABLE_ONLY = ["croda", "dameo", "breakthrough", "canadian"]


def random_positions(variant: str, count: int, seed: int) -> list[Board]:
    """Positions met in random games (played on while a move exists)."""
    rng = random.Random(seed)
    positions: list[Board] = []
    while len(positions) < count:
        board = Board(variant)
        for _ in range(rng.randrange(4, 90)):
            moves = board.legal_moves
            if not moves:
                break
            board.push(rng.choice(moves))
        positions.append(board.copy())
    return positions


def test_the_main_games_are_covered() -> None:
    main_games = ("international", "brazilian", "russian", "english", "italian", "frisian")
    for variant in (*main_games, "turkish"):
        assert variant in COVERED


@pytest.mark.parametrize("variant", COVERED + TABLE_ONLY)
def test_the_engine_searches_on_bitboards_exactly_where_they_are_covered(variant: str) -> None:
    rules = get_variant(variant)
    covered = bitboard_position(rules, compile_tables(rules)) is not None
    assert covered == (variant in COVERED)
    assert (Engine(variant, table_megabytes=1)._context.bitboards is not None) == covered


@pytest.mark.parametrize("variant", COVERED)
def test_the_evaluations_agree(variant: str) -> None:
    rules = get_variant(variant)
    t = compile_tables(rules)
    position = bitboard_position(rules, t)
    assert position is not None
    pst, extra = evaluation_tables(rules)
    for board in random_positions(variant, 40, seed=7):
        sq = board.cells
        for player in (0, 1):
            by_bits = position.evaluate(sq, player, pst, extra)
            assert by_bits == evaluate(t, sq, player, pst, extra), board.fen


def both_searches(
    variant: str, seed: int, depth: int, window: tuple[int, int]
) -> Iterator[tuple[Board, list[int]]]:
    """For each of 25 random positions of ``variant``: the table search's value and the
    bitboard search's, ``depth`` plies deep within ``window``, each from fresh tables."""
    rules = get_variant(variant)
    t = compile_tables(rules)
    position = bitboard_position(rules, t)
    pst, extra = evaluation_tables(rules)
    maxc = int(t.rules[L.R_MAXC])
    cells = len(t.rays)
    for board in random_positions(variant, 25, seed=seed):
        values = []
        for bitboards in (None, position):
            context = SearchContext(cells, maxc, 1, bitboards)
            context.new_search()
            context.stats[S_NO_MOVE] = MATE if rules.giveaway else -MATE
            sq = board.cells.copy()
            key = board.zobrist_hash()
            values.append(context.run(t, sq, board.turn, key, depth, 0, *window, pst, extra))
            assert np.array_equal(sq, board.cells)  # the table search restores it
        yield board, values


@pytest.mark.parametrize("variant", COVERED)
def test_the_searches_agree_without_reductions(variant: str) -> None:
    """Depths 0-1 reduce nothing (reductions start at depth 2), so alpha-beta gives the
    exact value whatever the move order: the two searches must match."""
    for depth in (0, 1):
        for board, values in both_searches(variant, 11, depth, (-INFINITY, INFINITY)):
            assert values[0] == values[1], (board.fen, depth)


@pytest.mark.parametrize("variant", COVERED)
def test_the_searches_cut_alike_on_null_windows(variant: str) -> None:
    """One ply from the leaves on a null window (where reverse futility judges a node on
    its static value), the two searches fail to the same side (their bounds may differ:
    each is the best one its own move order found)."""
    for alpha in (-400, -150, -60, -20, 0, 20, 60, 150, 400):
        for board, values in both_searches(variant, 12, 1, (alpha, alpha + 1)):
            assert (values[0] > alpha) == (values[1] > alpha), (board.fen, alpha, values)


@pytest.mark.parametrize("variant", COVERED)
def test_what_the_search_carries_is_what_the_position_says(variant: str) -> None:
    """After every move of every position of random games (men moved, crowned, taken;
    kings too), the pattern configurations, the placement and the network's accumulators
    the search updates equal those of the child read afresh."""
    rules = get_variant(variant)
    position = bitboard_position(rules, compile_tables(rules))
    assert position is not None
    zero = np.zeros((len(regions(rules)), CONFIGURATIONS), dtype=np.int32)
    network = random_network(variant)
    pst, extra = position.by_bit(*tables_from_weights(rules, family_weights(rules), zero, network))
    spec, moves, st = position.spec, position.moves, position.st
    rng = random.Random(13)
    crowned = 0
    for _ in range(6):
        board = Board(variant)
        for _ in range(200):
            if not board.legal_moves:
                break
            player = board.turn
            me, opp, kings = position.sides(board.cells, player)
            carried = position.carried(me, opp, kings, player, pst, extra, 0).copy()
            geo, q, fb, fi = spec.geo, spec.q, position.fb, position.fi
            count = list_captures(geo, q, me, opp, kings, player, moves, 0, fb, fi, st, True)
            if count == 0:
                count = list_quiet(geo, q, me, opp, kings, player, moves, 0, st)
            for i in range(count):
                _play_carried(carried, 0, moves, i, kings, player, position.cell_of, pst, extra)
                origin, to, caps = (moves[0, i, field] for field in (M_FROM, M_TO, M_CAPS))
                child_kings = kings & ~origin & ~caps
                if moves[0, i, M_KING]:
                    child_kings |= to
                    crowned += origin & kings == 0
                child_me, child_opp = (me & ~origin) | to, opp & ~caps
                child = (child_opp, child_me, child_kings, 1 - player)
                afresh = position.carried(*child, pst, extra, 1)
                assert np.array_equal(carried[1], afresh[1]), (board.fen, i)
            board.push(rng.choice(board.legal_moves))
    assert crowned > 0, "some moves crown"


@pytest.mark.parametrize("variant", COVERED)
def test_threatens_is_whether_a_man_may_capture_or_a_king_is_there(variant: str) -> None:
    """``threatens`` (the reverse-futility test of the other side's captures) is True
    exactly when the side has a king or :func:`list_captures` finds a capture, on the
    positions of random games, for either side."""
    rules = get_variant(variant)
    position = bitboard_position(rules, compile_tables(rules))
    assert position is not None
    spec, moves, st = position.spec, position.moves, position.st
    geo, q, fb, fi = spec.geo, spec.q, position.fb, position.fi
    rng = random.Random(17)
    seen = {True: 0, False: 0}
    for _ in range(6):
        board = Board(variant)
        for _ in range(200):
            if not board.legal_moves:
                break
            for player in (0, 1):
                me, opp, kings = position.sides(board.cells, player)
                count = list_captures(geo, q, me, opp, kings, player, moves, 0, fb, fi, st, True)
                expected = bool(me & kings) or count != 0
                assert threatens(geo, q, me, opp, kings, player) == expected, (board.fen, player)
                seen[expected] += 1
            board.push(rng.choice(board.legal_moves))
    assert seen[True] > 0 and seen[False] > 0


@pytest.mark.parametrize("variant", COVERED)
def test_has_quiet_is_whether_a_quiet_move_is_counted(variant: str) -> None:
    """``has_quiet`` (the search's question at a leaf) says True exactly when
    :func:`count_quiet` counts a move, for either side of the positions of random games."""
    rules = get_variant(variant)
    position = bitboard_position(rules, compile_tables(rules))
    assert position is not None
    geo, q = position.spec.geo, position.spec.q
    seen = {True: 0, False: 0}
    for board in random_positions(variant, 150, 23):
        for player in (0, 1):
            me, opp, kings = position.sides(board.cells, player)
            expected = count_quiet(geo, q, me, opp, kings, player) > 0
            assert has_quiet(geo, q, me, opp, kings, player) == expected, (board.fen, player)
            seen[expected] += 1
    assert seen[True] > 0


@pytest.mark.parametrize(
    ("variant", "fen"),
    [
        ("international", "W:W46:B41,37"),  # a man in the corner, walled in
        ("international", "W:WK46:B41,37"),  # a flying king the same
        ("russian", "W:Wa1:Bb2,c3"),
        ("russian", "W:WKa1:Bb2,c3"),
        ("english", "B:W28,27,24,23:BK32"),  # a short king, both ways shut
    ],
)
def test_has_quiet_says_no_for_a_side_walled_in(variant: str, fen: str) -> None:
    """A side with no move at all (nothing to capture, every step shut): ``has_quiet`` says
    False, as the count does; with a piece of the other side taken away, a step opens."""
    board = Board(variant, fen)
    assert not board.legal_moves
    rules = get_variant(variant)
    position = bitboard_position(rules, compile_tables(rules))
    assert position is not None
    geo, q = position.spec.geo, position.spec.q
    me, opp, kings = position.sides(board.cells, board.turn)
    assert count_quiet(geo, q, me, opp, kings, board.turn) == 0
    assert not has_quiet(geo, q, me, opp, kings, board.turn)
    # Take away each piece of the other side in turn: a step opens, and both agree.
    opened = 0
    for bit in (1 << n for n in range(64) if int(opp) >> n & 1):
        rest = type(opp)(int(opp) ^ bit)
        counted = count_quiet(geo, q, me, rest, kings, board.turn) > 0
        assert has_quiet(geo, q, me, rest, kings, board.turn) == counted
        opened += counted
    assert opened > 0


@pytest.mark.parametrize("variant", ["international", "russian", "turkish"])
def test_the_search_remembers_what_it_found(variant: str) -> None:
    """What a search writes last and reads no more, its table entry, killers and history,
    is there after it: the recursion reads its arrays from a frame, and a write to an array
    no later line reads was once dropped as dead code."""
    rules = get_variant(variant)
    t = compile_tables(rules)
    position = bitboard_position(rules, t)
    pst, extra = evaluation_tables(rules)
    killed = 0
    for board in random_positions(variant, 6, seed=21):
        if not board.legal_moves:
            continue
        context = SearchContext(len(t.rays), int(t.rules[L.R_MAXC]), 1, position)
        context.new_search()
        context.stats[S_NO_MOVE] = -MATE
        key = board.zobrist_hash()
        depth = 4
        context.run(
            t, board.cells.copy(), board.turn, key, depth, 0, -INFINITY, INFINITY, pst, extra
        )
        slot = key & (context.table.shape[0] - 1)
        fields = int(context.table[slot, 1])
        assert int(context.table[slot, 0]) ^ fields == key, board.fen  # the root's entry
        assert ((fields >> 34) & 255) - 128 == depth
        best = int(context.pv[0, 1])
        assert fields & 0xFFFFFFFF == (best ^ (best >> 32)) & 0xFFFFFFFF
        killed += int(np.count_nonzero(context.killers)) + int(np.count_nonzero(context.history))
    assert killed > 0  # quiet moves that cut were remembered


@pytest.mark.parametrize(
    "shape, dtype",
    [((5,), np.uint64), ((3, 4), np.int32), ((2, 3, 4), np.int64), ((7,), np.uint8)],
)
def test_a_frame_gives_back_its_arrays(shape: tuple[int, ...], dtype: type) -> None:
    """:func:`frame_array` then :func:`framed` (as plain Python here; compiled, the search
    above) is the array itself: the same numbers, and a write through it lands in it."""
    array = np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)
    frame = np.zeros(3 * FRAME_SLOT, dtype=np.int64)
    frame_array(frame, 2, array)
    back = _framed_python(frame, 2, dtype, len(shape))
    assert back.shape == shape and back.dtype == array.dtype
    assert np.array_equal(back, array)
    back[(0,) * len(shape)] = 99
    assert array[(0,) * len(shape)] == 99
