"""What a match's points say: the Elo difference and its interval, and a sequential test
(SPRT) that stops a match once it has told one hypothesis from the other.

Games played in pairs (one opening, each engine once with each colour) are measured by
pairs: an opening that favours one side gives each engine a point and no information, and
the pairs' variance says so, where the games' variance counts that point as luck. The
games of a pair are not independent: the pairs' interval is the honest one, and the
narrower one the more the openings lean.

The test is the generalized SPRT in its normal approximation, as engine testing frameworks
use it: hypotheses H0 "the first engine is ``elo0`` stronger" and H1 "``elo1`` stronger"
(logistic Elo), the log-likelihood ratio of the points (or pairs) so far against Wald's
bounds for error rates ``alpha`` and ``beta``.

>>> round(elo_difference(0.75))
191
>>> elo_difference(0.5)
0.0
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Z95 = 1.959964
"""The normal distribution's two-sided 95% quantile."""
MAX_ELO = 1000.0
"""The largest Elo difference a test may name (a score of 99.7%: beyond, no match tells)."""


def elo_difference(score: float) -> float:
    """The Elo difference that predicts the score fraction ``score`` (logistic model)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score))


def expected_score(elo: float) -> float:
    """The score fraction an Elo difference predicts (the inverse of :func:`elo_difference`).

    >>> expected_score(0.0), round(expected_score(190.85), 3)
    (0.5, 0.75)
    """
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference and the half-width of its 95% confidence interval."""

    difference: float
    error: float
    games: int
    score: float
    pairs: int = 0
    """The game pairs the interval was measured on (0: measured on single games)."""

    def __str__(self) -> str:
        if not math.isfinite(self.difference):
            return f"{'+' if self.difference > 0 else '-'}inf (score {self.score:.1%})"
        error = f"{self.error:.0f}" if math.isfinite(self.error) else "inf"
        over = f"{self.games} games" + (f" in {self.pairs} pairs" if self.pairs else "")
        return f"{self.difference:+.0f} +/- {error} (95%, {over})"


def pair_scores(points: Sequence[float | None]) -> list[float]:
    """The mean points of each complete pair: games 1 and 2, 3 and 4, and so on (``None``:
    a game not played, whose pair is left out)."""
    pairs = []
    for first, second in zip(points[0::2], points[1::2], strict=False):
        if first is not None and second is not None:
            pairs.append((first + second) / 2)
    return pairs


def _mean_and_variance(units: Sequence[float]) -> tuple[float, float]:
    mean = sum(units) / len(units)
    return mean, sum((u - mean) ** 2 for u in units) / len(units)


def elo_estimate(points: Sequence[float], pairs: Sequence[float] | None = None) -> EloEstimate:
    """The Elo difference from per-game points (1, 0.5, 0) and its 95% error, from the
    variance of the per-game score or, given ``pairs`` (the games' :func:`pair_scores`),
    of the per-pair score. Until they differ (fewer than two, or all alike: every pair even,
    say) there is no spread to measure, and the error is infinite."""
    games = len(points)
    if games == 0:
        return EloEstimate(0.0, math.inf, 0, 0.5)
    mean = sum(points) / games
    units = list(points) if pairs is None else list(pairs)
    counted = 0 if pairs is None else len(units)
    variance = _mean_and_variance(units)[1] if len(units) > 1 else 0.0
    if variance == 0.0:
        return EloEstimate(elo_difference(mean), math.inf, games, mean, counted)
    margin = Z95 * math.sqrt(variance / len(units))
    low, high = mean - margin, mean + margin
    if low <= 0.0 or high >= 1.0:
        error = math.inf
    else:
        error = (elo_difference(high) - elo_difference(low)) / 2
    return EloEstimate(elo_difference(mean), error, games, mean, counted)


Verdict = Literal["H0", "H1"]


@dataclass(frozen=True)
class Sprt:
    """A sequential test between two Elo differences of the first engine over the second."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    """The chance of accepting H1 when H0 holds."""
    beta: float = 0.05
    """The chance of accepting H0 when H1 holds."""

    def __post_init__(self) -> None:
        for elo in (self.elo0, self.elo1):
            if not -MAX_ELO <= elo <= MAX_ELO:
                raise ValueError(f"the SPRT's Elo values must lie within +/- {MAX_ELO:g}")
        if not self.elo0 < self.elo1:
            raise ValueError(f"the SPRT needs elo0 < elo1, not {self.elo0:g} and {self.elo1:g}")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ValueError("the SPRT's error rates must lie between 0 and 0.5")

    @property
    def bounds(self) -> tuple[float, float]:
        """Wald's bounds on the log-likelihood ratio: below the first H0 is accepted, above
        the second H1."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, units: Sequence[float]) -> float:
        """The log-likelihood ratio of H1 against H0 given per-game points or per-pair
        scores (:func:`pair_scores`); 0 while they cannot tell (fewer than two, or all
        alike)."""
        if len(units) < 2:
            return 0.0
        mean, variance = _mean_and_variance(units)
        if variance == 0.0:
            return 0.0
        s0, s1 = expected_score(self.elo0), expected_score(self.elo1)
        return len(units) * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)

    def verdict(self, units: Sequence[float]) -> Verdict | None:
        """The hypothesis accepted, or None while the test goes on."""
        low, high = self.bounds
        llr = self.llr(units)
        if llr >= high:
            return "H1"
        if llr <= low:
            return "H0"
        return None

    def describe(self, units: Sequence[float]) -> str:
        """One line: the test, its ratio and bounds, and where it stands."""
        low, high = self.bounds
        verdict = self.verdict(units)
        stands = {
            "H1": f"H1 accepted ({self.elo1:+g} Elo rather than {self.elo0:+g})",
            "H0": f"H0 accepted ({self.elo0:+g} Elo rather than {self.elo1:+g})",
            None: "undecided",
        }[verdict]
        return (
            f"SPRT elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g} "
            f"beta={self.beta:g}: LLR {self.llr(units):.2f} ({low:.2f}, {high:.2f}), {stands}"
        )
