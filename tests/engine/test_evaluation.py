"""The static evaluation: zero-sum (but for the network, which values the side to move's
view), colour-blind, and each weight pulling the right way.

A bias in the evaluation (one colour or one wing favoured) would not show in the search
tests, only as lost games, so it is checked here directly.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from damier import Board
from damier.engine.evaluation import (
    evaluate,
    evaluation_tables,
    family_weights,
    tables_from_weights,
)
from damier.engine.patterns import pattern_weights
from damier.geometry import geometry_of
from damier.kernel.tables import compile_tables
from damier.rules import get_variant

VARIANTS = ["international", "russian", "english", "brazilian", "turkish", "international-giveaway"]


def random_positions(variant: str, count: int, seed: int) -> list[Board]:
    """Positions of seeded random games."""
    rng = random.Random(seed)
    positions = []
    for _ in range(count):
        board = Board(variant)
        for _ in range(rng.randrange(0, 60)):
            moves = board.legal_moves
            if not moves:
                break
            board.push(rng.choice(list(moves)))
        positions.append(board)
    return positions


def value(variant: str, cells: np.ndarray, player: int, network: bool = True) -> int:
    """The evaluation of ``cells`` for ``player``; ``network=False``: without the network."""
    rules = get_variant(variant)
    pst, extra = evaluation_tables(rules)
    if not network:
        pst, extra = tables_from_weights(rules, family_weights(rules), pattern_weights(rules))
    return int(evaluate(compile_tables(rules), cells.astype(np.int8), player, pst, extra))


def turned(variant: str, cells: np.ndarray) -> np.ndarray:
    """The position turned half a turn with the colours swapped."""
    geometry = geometry_of(get_variant(variant))
    where = {rc: cell for cell, rc in enumerate(geometry.coordinates)}
    swap = np.array([0, 3, 4, 1, 2], dtype=np.int8)
    out = np.zeros_like(cells)
    for cell, (row, column) in enumerate(geometry.coordinates):
        out[where[(geometry.height - 1 - row, geometry.width - 1 - column)]] = swap[cells[cell]]
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_zero_sum_and_colour_blind(variant: str) -> None:
    for board in random_positions(variant, 30, seed=5):
        cells = board.cells
        assert value(variant, cells, 0, False) == -value(variant, cells, 1, False)
        assert value(variant, cells, 0) == value(variant, turned(variant, cells), 1)
        assert value(variant, cells, 1) == value(variant, turned(variant, cells), 0)


def test_start_position_is_level() -> None:
    assert value("international", Board("international").cells, 0, network=False) == 0


def test_balance_penalises_a_lopsided_army() -> None:
    rules = get_variant("international")
    weights = family_weights(rules) | {"balance": 10}
    pst, extra = tables_from_weights(rules, weights)
    t = compile_tables(rules)
    # the same four white men against the same black men: on both wings, then on one
    balanced = Board("international", "W:W31,35,41,45:B6,10,16,20").cells
    lopsided = Board("international", "W:W31,36,41,46:B6,10,16,20").cells

    def white(cells: np.ndarray) -> int:
        return int(evaluate(t, cells.astype(np.int8), 0, pst, extra))

    plain_pst, plain_extra = tables_from_weights(rules, weights | {"balance": 0})

    def plain(cells: np.ndarray) -> int:
        return int(evaluate(t, cells.astype(np.int8), 0, plain_pst, plain_extra))

    # balance costs the lopsided side 10 a man of difference between the wings
    assert plain(balanced) - white(balanced) == 0
    assert plain(lopsided) - white(lopsided) == 40


def white_value(variant: str, fen: str, changes: dict[str, float] | None = None) -> int:
    """White's evaluation of ``fen`` with the family's weights, or with ``changes``."""
    rules = get_variant(variant)
    pst, extra = tables_from_weights(rules, family_weights(rules) | (changes or {}))
    cells = Board(variant, fen).cells.astype(np.int8)
    return int(evaluate(compile_tables(rules), cells, 0, pst, extra))


def test_a_lead_counts_for_more_with_fewer_pieces() -> None:
    """The trade term: a man up with 20 against 19 is worth less than with 5 against 4."""
    full = "W:W31-50:B1-19"
    ending = "W:W46-50:B1-4"
    trade = family_weights(get_variant("international"))["trade"]
    assert trade > 0

    def bonus(fen: str) -> int:
        return white_value("international", fen) - white_value("international", fen, {"trade": 0})

    assert bonus(full) == trade * 1 // 39
    assert bonus(ending) == trade * 1 // 9
    assert bonus(ending) > bonus(full) > 0


def test_a_lone_flying_king_against_few_pieces_is_nearly_a_draw() -> None:
    three_kings = white_value("international", "W:WK31,K32,K33:BK5")
    four_kings = white_value("international", "W:WK31,K32,K33,K34:BK5")
    assert 0 < three_kings < 100 < four_kings
    # 8x8 (Russian): two kings against one draw, three win (Petrov's triangle)
    assert 0 < white_value("russian", "W:WKc1,Ke1:BKh8") < 100
    assert white_value("russian", "W:WKc1,Ke1,Kg1:BKh8") > 300
    # short kings (English): two kings beat one, no discount
    assert white_value("english", "W:WK1,K3:BK32") > 100
