"""The learned evaluation: colour-blind and zero-sum by construction, the compiled table
look-ups equal to a plain NumPy reading of the same weights (random ones and the package's),
weights shared only between like boards and rules, and the trainer's fit able to recover a
small problem's weights."""

from __future__ import annotations

import numpy as np
import pytest

from damier.engine.bitsearch import bitboard_position
from damier.engine.evaluation import evaluate, family_weights, tables_from_weights
from damier.engine.patterns import (
    CONFIGURATIONS,
    SHARED,
    pattern_extra,
    pattern_value,
    pattern_weights,
    regions,
    stored_weights,
)
from damier.engine.training import (
    Problem,
    configurations,
    cross_entropy,
    fit,
    joined,
    logits,
    sigmoid,
)
from damier.geometry import geometry_of
from damier.kernel.tables import compile_tables
from damier.rules import get_variant

from .test_evaluation import random_positions, turned

VARIANTS = ["international", "russian", "english", "italian", "turkish"]
LEARNED = [
    "international",
    "russian",
    "brazilian",
    "pool",
    "killer",
    "portuguese",
    "english",
    "italian",
    "spanish",
    "turkish",
    "russian-giveaway",
    "brazilian-giveaway",
    "international-giveaway",
    "english-giveaway",
    "italian-giveaway",
    "spanish-giveaway",
]
"""The variants the package has weights for, its own or shared."""
WEIGHTS = [(variant, "random") for variant in VARIANTS] + [
    (variant, "package") for variant in LEARNED
]


def random_weights(variant: str, seed: int) -> np.ndarray:
    count = len(regions(get_variant(variant)))
    rng = np.random.default_rng(seed)
    return rng.integers(-60, 61, size=(count, CONFIGURATIONS)).astype(np.int32)


def weights_of(variant: str, source: str, seed: int) -> np.ndarray:
    """Random weights (every configuration's look-up exercised), or the package's."""
    if source == "random":
        return random_weights(variant, seed)
    weights = pattern_weights(get_variant(variant))
    assert weights is not None
    return weights


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
def test_regions_are_blocks_of_eight_squares_in_pairs(variant: str) -> None:
    blocks = regions(get_variant(variant))
    height = 10 if variant == "international" else 8
    # Four rows by four columns of dark squares; Turkish plays every square: four by two.
    per_row = height // 2 if variant == "turkish" else height // 2 - 1
    assert blocks.shape == ((height - 3) * per_row, 8)
    assert np.all(blocks[:, 1::2] == blocks[:, ::2] + 1)


@pytest.mark.parametrize(("variant", "source"), WEIGHTS)
def test_the_patterns_are_colour_blind_and_zero_sum(variant: str, source: str) -> None:
    rules = get_variant(variant)
    weights = weights_of(variant, source, 1)
    extra = pattern_extra(rules, weights)
    extra = np.concatenate([np.zeros(4, dtype=np.int32), extra])
    for board in random_positions(variant, 30, seed=3):
        cells = board.cells
        value = pattern_value(*words(cells), extra)
        assert pattern_value(*words(turned(variant, cells)), extra) == -value
        # The table search's evaluation: the side to move's value, the same either way.
        pst, full = tables_from_weights(rules, family_weights(rules), weights)
        t = compile_tables(rules)
        for player in (0, 1):
            mine = evaluate(t, cells, player, pst, full)
            assert mine == -evaluate(t, cells, 1 - player, pst, full)
            assert evaluate(t, turned(variant, cells), 1 - player, pst, full) == mine


@pytest.mark.parametrize(("variant", "source"), WEIGHTS)
def test_the_compiled_look_ups_agree_with_plain_numpy(variant: str, source: str) -> None:
    rules = get_variant(variant)
    weights = weights_of(variant, source, 2)
    # Without the lone-king rule, which scales the whole score, the learned part adds up.
    hand = family_weights(rules) | {"drawn_kings": 0}
    pst, extra = tables_from_weights(rules, hand, weights)
    plain_pst, plain_extra = tables_from_weights(rules, hand)
    t = compile_tables(rules)
    position = bitboard_position(rules, t)  # None: the table search alone (Turkish)
    for board in random_positions(variant, 30, seed=5):
        cells = board.cells
        expected = plain_value(variant, weights, cells)
        for player in (0, 1):
            sign = 1 if player == 0 else -1
            learned = evaluate(t, cells, player, pst, extra)
            assert learned - evaluate(t, cells, player, plain_pst, plain_extra) == sign * expected
            if position is None:
                continue
            assert position.evaluate(cells, player, pst, extra) == learned, board.fen


@pytest.mark.parametrize(("variant", "owner"), sorted(SHARED.items()))
def test_weights_are_shared_only_between_like_boards_and_men(variant: str, owner: str) -> None:
    rules, owners = get_variant(variant), get_variant(owner)
    assert geometry_of(rules).coordinates == geometry_of(owners).coordinates
    assert rules.start_fen[1:] == owners.start_fen[1:]  # the same men (either may start)
    for field in ("man_moves", "man_captures", "men_capture_kings", "king_range", "giveaway"):
        assert getattr(rules, field) == getattr(owners, field), field


def test_a_variant_s_own_weights_come_before_those_it_shares() -> None:
    russian, brazilian = np.full((2, 3), 1, np.int16), np.full((2, 3), 2, np.int16)
    assert stored_weights({"russian": russian}, "brazilian") is russian
    assert stored_weights({"russian": russian, "brazilian": brazilian}, "brazilian") is brazilian
    assert stored_weights({"russian": russian}, "english") is None


@pytest.mark.parametrize(
    "variant",
    ["turkish-giveaway", "italian+dark-first", "czech"],
)
def test_other_variants_keep_the_hand_set_evaluation(variant: str) -> None:
    assert pattern_weights(get_variant(variant)) is None


def test_a_giveaway_form_reads_only_a_giveaway_form_s_weights() -> None:
    own = pattern_weights(get_variant("russian-giveaway"))
    assert own is not None
    assert not np.array_equal(own, pattern_weights(get_variant("russian")))
    shared = pattern_weights(get_variant("brazilian-giveaway"))
    assert shared is not None and np.array_equal(shared, own)


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


def test_a_prior_holds_the_weights_the_positions_say_little_about() -> None:
    """Started from earlier weights and pulled toward them, the fit moves the weights of
    configurations the positions hold and leaves the others where they were."""
    rng = np.random.default_rng(2)
    prior = rng.normal(0, 1, size=(1, 9))
    count = 2000
    white = rng.integers(0, 3, size=(count, 1))  # configurations 3..8 never seen
    black = rng.integers(0, 3, size=(count, 1))
    side = rng.choice([-1.0, 1.0], size=count)
    target = np.where(white[:, 0] > black[:, 0], 0.8, 0.4)
    problem = Problem(white, black, side, np.zeros(count), target)
    weights = fit(problem, 1, 9, l2=1e-3, epochs=20, batch=500, rate=0.05, prior=prior)
    assert np.array_equal(weights[0, 3:], prior[0, 3:])
    assert np.abs(weights[0, :3] - prior[0, :3]).max() > 0.1
    plain = fit(problem, 1, 9, l2=1e-3, epochs=20, batch=500, rate=0.05)
    assert np.array_equal(plain[0, 3:], np.zeros(6))


def test_runs_fitted_together_keep_every_position_in_order() -> None:
    rng = np.random.default_rng(1)

    def run(count: int) -> Problem:
        return Problem(
            rng.integers(0, 9, size=(count, 2)),
            rng.integers(0, 9, size=(count, 2)),
            rng.choice([-1.0, 1.0], size=count),
            rng.normal(size=count),
            rng.uniform(size=count),
        )

    first, second = run(5), run(3)
    both = joined([first, second])
    assert len(both) == 8
    for field in ("white", "black", "side", "offset", "target"):
        assert np.array_equal(getattr(both.take(slice(0, 5)), field), getattr(first, field))
        assert np.array_equal(getattr(both.take(slice(5, None)), field), getattr(second, field))
