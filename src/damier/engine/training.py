"""Fitting the learned evaluation's pattern weights (:mod:`damier.engine.patterns`) with
NumPy: the positions' region configurations as index arrays, and a logistic regression by
Adam with an L2 penalty. ``bench/train.py`` makes the positions and writes the weights.

The model of a position is ``sigmoid(offset + side * (sum of u[r, white's configuration
of r] - sum of u[r, Black's configuration of r]))``: ``offset`` is the hand-set evaluation
for the side to move and ``side`` is 1 when White is to move, -1 when Black is, all in units
of the logistic scale. Adding a constant to one region's weights changes nothing (both
views read the same table), so the fit can only say the weights up to that constant.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from damier.engine.patterns import CONFIGURATIONS, DIGITS, regions, turned
from damier.rules import Variant

Indices = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]


def configurations(variant: Variant, cells: npt.NDArray[np.int8]) -> tuple[Indices, Indices]:
    """``(white, black)``: each position's configuration of each region, ``[position,
    region]``, in White's view and in Black's (kernel cell arrays ``cells[position, cell]``:
    1 a White man, 3 a Black man)."""
    blocks = regions(variant)
    powers = 3 ** np.arange(DIGITS - 1, -1, -1, dtype=np.int64)
    white_view = cells[:, blocks]
    black_view = cells[:, turned(variant)[blocks]]
    white = ((white_view == 1) + 2 * (white_view == 3)).astype(np.int64) @ powers
    black = ((black_view == 3) + 2 * (black_view == 1)).astype(np.int64) @ powers
    return white, black


def sigmoid(x: Floats) -> Floats:
    out: Floats = 1 / (1 + np.exp(-np.clip(x, -40, 40)))
    return out


@dataclass(frozen=True)
class Problem:
    """Positions to fit: configurations ``[position, region]`` in each view, the side to
    move (+1 White, -1 Black), the fixed part of the logit and the target probability."""

    white: Indices
    black: Indices
    side: Floats
    offset: Floats
    target: Floats

    def take(self, rows: Indices | slice) -> Problem:
        return Problem(
            self.white[rows],
            self.black[rows],
            self.side[rows],
            self.offset[rows],
            self.target[rows],
        )

    def __len__(self) -> int:
        return len(self.target)


def joined(parts: list[Problem]) -> Problem:
    """The positions of every part in one problem (data sets made by separate runs)."""
    return Problem(
        np.concatenate([part.white for part in parts]),
        np.concatenate([part.black for part in parts]),
        np.concatenate([part.side for part in parts]),
        np.concatenate([part.offset for part in parts]),
        np.concatenate([part.target for part in parts]),
    )


def logits(problem: Problem, weights: Floats) -> Floats:
    """The model's logit of each position under ``weights[region, configuration]``."""
    regions_ = np.arange(weights.shape[0])
    patterns = weights[regions_, problem.white].sum(axis=1)
    patterns -= weights[regions_, problem.black].sum(axis=1)
    out: Floats = problem.offset + problem.side * patterns
    return out


def cross_entropy(logit: Floats, target: Floats) -> float:
    """Mean cross-entropy of ``sigmoid(logit)`` against ``target``."""
    return float(np.mean(np.logaddexp(0, logit) - target * logit))


def gradient(problem: Problem, weights: Floats) -> Floats:
    """The gradient of the mean cross-entropy over ``weights``."""
    count, configurations_ = weights.shape
    error = (sigmoid(logits(problem, weights)) - problem.target) * problem.side / len(problem)
    flat = np.arange(count) * configurations_
    white = np.bincount(
        (problem.white + flat).ravel(),
        weights=np.repeat(error, count),
        minlength=weights.size,
    )
    black = np.bincount(
        (problem.black + flat).ravel(),
        weights=np.repeat(error, count),
        minlength=weights.size,
    )
    out: Floats = (white - black).astype(np.float64).reshape(weights.shape)
    return out


def fit(
    problem: Problem,
    regions_: int,
    configurations_: int = CONFIGURATIONS,
    *,
    l2: float = 0.0,
    epochs: int = 10,
    batch: int = 4096,
    rate: float = 0.01,
    seed: int = 0,
    report: bool = False,
    prior: Floats | None = None,
) -> Floats:
    """Weights ``[region, configuration]`` minimising the mean cross-entropy plus ``l2``
    times the sum of the squared differences from ``prior`` (None: zeros), by Adam on
    shuffled batches starting from ``prior``. A prior of earlier weights keeps what earlier
    runs taught where the new positions say little (a configuration they seldom hold)."""
    rng = np.random.default_rng(seed)
    origin = np.zeros((regions_, configurations_)) if prior is None else prior.astype(np.float64)
    weights = origin.copy()
    first = np.zeros_like(weights)
    second = np.zeros_like(weights)
    beta1, beta2, epsilon = 0.9, 0.999, 1e-8
    steps = 0
    for epoch in range(epochs):
        order = rng.permutation(len(problem))
        for start in range(0, len(problem), batch):
            part = problem.take(order[start : start + batch])
            g = gradient(part, weights) + 2 * l2 * (weights - origin)
            steps += 1
            first = beta1 * first + (1 - beta1) * g
            second = beta2 * second + (1 - beta2) * g * g
            corrected = first / (1 - beta1**steps)
            weights -= rate * corrected / (np.sqrt(second / (1 - beta2**steps)) + epsilon)
        if report:
            loss = cross_entropy(logits(problem, weights), problem.target)
            print(f"epoch {epoch + 1}: training cross-entropy {loss:.5f}", flush=True)
    return weights
