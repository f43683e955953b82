"""The learned evaluation: colour-blind and zero-sum by construction, the compiled table
look-ups equal to a plain NumPy reading of the same weights, and the trainer's fit able to
recover a small problem's weights."""

from __future__ import annotations

import numpy as np
import pytest

from damier.engine.bitsearch import bitboard_position, evaluate_bits
from damier.engine.evaluation import evaluate, family_weights, tables_from_weights
from damier.engine.patterns import CONFIGURATIONS, pattern_extra, pattern_value, regions
from damier.engine.training import Problem, configurations, cross_entropy, fit, logits, sigmoid
from damier.kernel.tables import compile_tables
from damier.rules import get_variant

from .test_evaluation import random_positions, turned

VARIANTS = ["international", "russian", "english"]


def random_weights(variant: str, seed: int) -> np.ndarray:
    count = len(regions(get_variant(variant)))
    rng = np.random.default_rng(seed)
    return rng.integers(-60, 61, size=(count, CONFIGURATIONS)).astype(np.int32)


def words(cells: np.ndarray) -> tuple[np.uint64, np.uint64]:
    """White's and Black's men as words whose bits are cells."""
    white = sum(1 << int(cell) for cell in np.flatnonzero(cells == 1))
    black = sum(1 << int(cell) for cell in np.flatnonzero(cells == 3))
    return np.uint64(white), np.uint64(black)


def plain_value(variant: str, weights: np.ndarray, cells: np.ndarray) -> int:
    """The patterns' value for White, read with NumPy from the training code's indices."""
    white, black = configurations(get_variant(variant), cells[None, :])
    rows = np.arange(len(weights))
    return int(weights[rows, white[0]].sum() - weights[rows, black[0]].sum())


@pytest.mark.parametrize("variant", VARIANTS)
def test_regions_are_blocks_of_eight_dark_squares_in_pairs(variant: str) -> None:
    blocks = regions(get_variant(variant))
    height = 10 if variant == "international" else 8
    assert blocks.shape == ((height - 3) * (height // 2 - 1), 8)
    assert np.all(blocks[:, 1::2] == blocks[:, ::2] + 1)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_patterns_are_colour_blind_and_zero_sum(variant: str) -> None:
    rules = get_variant(variant)
    extra = pattern_extra(rules, random_weights(variant, 1))
    extra = np.concatenate([np.zeros(4, dtype=np.int32), extra])
    for board in random_positions(variant, 30, seed=3):
        cells = board.cells
        value = pattern_value(*words(cells), extra)
        assert pattern_value(*words(turned(variant, cells)), extra) == -value
        # The table search's evaluation: the side to move's value, the same either way.
        pst, full = tables_from_weights(rules, family_weights(rules), random_weights(variant, 1))
        t = compile_tables(rules)
        for player in (0, 1):
            mine = evaluate(t, cells, player, pst, full)
            assert mine == -evaluate(t, cells, 1 - player, pst, full)
            assert evaluate(t, turned(variant, cells), 1 - player, pst, full) == mine


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_compiled_look_ups_agree_with_plain_numpy(variant: str) -> None:
    rules = get_variant(variant)
    weights = random_weights(variant, 2)
    # Without the lone-king rule, which scales the whole score, the learned part adds up.
    hand = family_weights(rules) | {"drawn_kings": 0}
    pst, extra = tables_from_weights(rules, hand, weights)
    plain_pst, plain_extra = tables_from_weights(rules, hand)
    t = compile_tables(rules)
    position = bitboard_position(rules, t)
    assert position is not None
    bit_pst, bit_extra = position.by_bit(pst, extra)
    for board in random_positions(variant, 30, seed=5):
        cells = board.cells
        expected = plain_value(variant, weights, cells)
        for player in (0, 1):
            sign = 1 if player == 0 else -1
            learned = evaluate(t, cells, player, pst, extra)
            assert learned - evaluate(t, cells, player, plain_pst, plain_extra) == sign * expected
            me, opp, kings = position.sides(cells, player)
            by_bits = evaluate_bits(
                position.spec.q, me, opp, kings, player, position.wings, bit_pst, bit_extra
            )
            assert by_bits == learned, board.fen


def test_the_trainer_recovers_a_small_problem() -> None:
    """Two regions of two squares (nine configurations), targets made by known weights:
    the fit finds them up to one constant per region (which the two views cancel)."""
    rng = np.random.default_rng(0)
    truth = rng.normal(0, 1, size=(2, 9))
    count = 4000
    white = rng.integers(0, 9, size=(count, 2))
    black = rng.integers(0, 9, size=(count, 2))
    side = rng.choice([-1.0, 1.0], size=count)
    offset = rng.normal(0, 0.5, size=count)
    problem = Problem(white, black, side, offset, np.zeros(count))
    problem = Problem(white, black, side, offset, sigmoid(logits(problem, truth)))
    weights = fit(problem, 2, 9, epochs=300, batch=1000, rate=0.05)
    shift = (weights - truth).mean(axis=1, keepdims=True)
    assert np.abs(weights - shift - truth).max() < 0.02
    best = cross_entropy(logits(problem, truth), problem.target)
    assert cross_entropy(logits(problem, weights), problem.target) - best < 1e-5
