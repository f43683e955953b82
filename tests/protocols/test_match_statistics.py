"""A match's statistics: the Elo interval by games and by pairs, and the SPRT."""

from __future__ import annotations

import math

import pytest

from damier.protocols.match_statistics import (
    Sprt,
    elo_difference,
    elo_estimate,
    expected_score,
    pair_scores,
)


def test_expected_score_inverts_the_elo_difference() -> None:
    for elo in (-400.0, -100.0, 0.0, 35.0, 191.0):
        assert elo_difference(expected_score(elo)) == pytest.approx(elo)


def test_pairs_are_games_one_and_two_then_three_and_four() -> None:
    assert pair_scores([1.0, 0.0, 0.5, 1.0, 0.0]) == [0.5, 0.75]  # the odd game: no pair
    assert pair_scores([1.0, None, 0.5, 0.5]) == [0.5]  # a pair with a game not over


def test_an_opening_that_favours_one_side_is_no_information_by_pairs() -> None:
    # Each engine wins its game with the favoured colour: by games a wide interval, by
    # pairs nothing to measure it on (every pair is even): no interval at all.
    points = [1.0, 0.0] * 50
    by_games = elo_estimate(points)
    by_pairs = elo_estimate(points, pair_scores(points))
    assert by_games.difference == by_pairs.difference == 0.0
    assert by_games.error == pytest.approx(69.0, abs=0.5)
    assert by_pairs.error == math.inf and by_pairs.pairs == 50
    assert str(by_pairs) == "+0 +/- inf (95%, 100 games in 50 pairs)"


def test_the_interval_by_pairs_from_the_pairs_variance() -> None:
    points = [1.0, 0.5, 0.5, 0.5, 1.0, 1.0, 0.0, 0.5]
    # Pairs 0.75, 0.5, 1, 0.25: mean 0.625, variance (2 x 0.125^2 + 2 x 0.375^2) / 4.
    estimate = elo_estimate(points, pair_scores(points))
    margin = 1.959964 * math.sqrt(0.078125 / 4)
    expected = (elo_difference(0.625 + margin) - elo_difference(0.625 - margin)) / 2
    assert estimate.error == pytest.approx(expected)
    assert estimate.difference == pytest.approx(elo_difference(0.625))
    assert str(estimate) == "+89 +/- 243 (95%, 8 games in 4 pairs)"


def test_sprt_ratio_is_the_normal_likelihood_ratio() -> None:
    sprt = Sprt(0.0, 100.0)
    units = [1.0, 0.0, 1.0, 1.0, 0.5, 0.5, 1.0]
    mean = sum(units) / len(units)
    variance = sum((u - mean) ** 2 for u in units) / len(units)
    s0, s1 = expected_score(0.0), expected_score(100.0)
    # Log of the two normal densities' ratio, summed over the results.
    direct = sum(((u - s0) ** 2 - (u - s1) ** 2) / (2 * variance) for u in units)
    assert sprt.llr(units) == pytest.approx(direct)
    assert sprt.llr([1.0, 0.0, 1.0, 1.0]) == pytest.approx(0.5378, abs=1e-4)


def test_sprt_bounds_and_verdicts() -> None:
    sprt = Sprt(0.0, 10.0)
    assert sprt.bounds == pytest.approx((-math.log(19), math.log(19)))
    assert sprt.verdict([1.0, 0.0]) is None
    strong = [1.0, 1.0, 1.0, 0.5] * 20
    weak = [0.0, 0.0, 0.0, 0.5] * 20
    assert sprt.verdict(strong) == "H1" and "H1 accepted" in sprt.describe(strong)
    assert sprt.verdict(weak) == "H0" and "H0 accepted" in sprt.describe(weak)
    # Until the results differ there is no variance to judge by: no verdict.
    assert sprt.llr([1.0] * 30) == 0.0 and sprt.verdict([1.0] * 30) is None


@pytest.mark.parametrize(
    ("elo0", "elo1", "alpha", "beta"),
    [
        (10, 0, 0.05, 0.05),
        (0, 0, 0.05, 0.05),
        (0, 5, 0, 0.05),
        (-1e308, 0, 0.05, 0.05),  # its expected score would overflow
        (0, math.inf, 0.05, 0.05),
        (math.nan, 5, 0.05, 0.05),
    ],
)
def test_sprt_refuses_a_test_that_means_nothing(
    elo0: float, elo1: float, alpha: float, beta: float
) -> None:
    with pytest.raises(ValueError, match="SPRT"):
        Sprt(elo0, elo1, alpha, beta)
