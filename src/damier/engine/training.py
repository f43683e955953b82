"""Fitting the learned evaluation with NumPy: the pattern weights
(:mod:`damier.engine.patterns`), from the positions' region configurations as index arrays,
by a logistic regression (Adam, an L2 penalty); and the network
(:mod:`damier.engine.network`), from the positions' input planes, by the same loss through
its hidden layer. ``bench/train.py`` makes the positions and writes the weights.

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

from damier.engine.network import ACTIVATION, OUTPUT
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


NETWORK_OUTPUT = 100.0
"""The network's output unit in hundredths of a man (its last layer's weights stay near 1)."""


def board_inputs(
    variant: Variant, cells: npt.NDArray[np.int8], turns: Indices
) -> npt.NDArray[np.uint8]:
    """The network's inputs ``[position, plane * C + cell]`` (:mod:`damier.engine.network`):
    the pieces from the side to move, on the board turned half a turn when Black is."""
    half_turn = turned(variant)
    black = (turns == 1)[:, None]
    # The piece the side to move sees on each cell of his view.
    view = np.where(black, cells[:, half_turn], cells)
    planes = [(1, 3), (2, 4), (3, 1), (4, 2)]  # (White to move, Black to move): the code
    return np.concatenate(
        [np.where(black, view == theirs, view == ours) for ours, theirs in planes], axis=1
    ).astype(np.uint8)


@dataclass
class Network:
    """A network's layers in floating point: ``w1 [input, H]``, ``b1``, ``w2``, ``b2``, and
    the limit of its output in hundredths of a man."""

    w1: npt.NDArray[np.float32]
    b1: npt.NDArray[np.float32]
    w2: npt.NDArray[np.float32]
    b2: npt.NDArray[np.float32]
    limit: int

    def hidden(self, inputs: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
        """The hidden layer before its clip."""
        out: npt.NDArray[np.float32] = inputs.astype(np.float32) @ self.w1 + self.b1
        return out

    def value(self, inputs: npt.NDArray[np.uint8]) -> Floats:
        """The output in hundredths of a man."""
        active = np.clip(self.hidden(inputs), 0, 1)
        out: Floats = NETWORK_OUTPUT * (active @ self.w2 + self.b2).astype(np.float64)
        return np.clip(out, -self.limit, self.limit)

    def quantized(self) -> dict[str, npt.NDArray[np.int32]]:
        """The integer layers the search reads (:func:`network_extra`)."""
        scale = NETWORK_OUTPUT * OUTPUT
        return {
            "w1": np.round(self.w1 * ACTIVATION).astype(np.int32),
            "b1": np.round(self.b1 * ACTIVATION).astype(np.int32),
            "w2": np.round(self.w2 * scale).astype(np.int32),
            "b2": np.round(self.b2 * scale * ACTIVATION).astype(np.int32).reshape(1),
            "limit": np.array([self.limit], dtype=np.int32),
        }


def quantized_value(
    layers: dict[str, npt.NDArray[np.int32]], inputs: npt.NDArray[np.uint8]
) -> npt.NDArray[np.int64]:
    """The search's integer value of the network ``layers`` (:meth:`Network.quantized`):
    what :func:`damier.engine.network.network_output` computes, for NumPy."""
    units = inputs.astype(np.int64) @ layers["w1"].astype(np.int64) + layers["b1"]
    active = np.clip(units, 0, ACTIVATION)
    out: npt.NDArray[np.int64] = (active @ layers["w2"].astype(np.int64) + layers["b2"][0]) // (
        ACTIVATION * OUTPUT
    )
    limit = int(layers["limit"][0])
    return np.clip(out, -limit, limit)


def fit_network(
    inputs: npt.NDArray[np.uint8],
    offset: Floats,
    target: Floats,
    hidden: int,
    *,
    scale: float,
    limit: int,
    epochs: int = 10,
    batch: int = 1024,
    rate: float = 0.001,
    seed: int = 0,
    report: bool = False,
) -> Network:
    """A network minimising the mean cross-entropy of ``sigmoid((offset + value) / scale)``
    against ``target`` (``offset`` in hundredths of a man: the evaluation it corrects;
    ``value`` within ``limit``), by Adam on shuffled batches; the rate falls to a tenth
    over the last third of the epochs."""
    rng = np.random.default_rng(seed)
    count = inputs.shape[1]
    # Small uniform weights, as the usual initialisation: units start inside their clip,
    # where the gradient flows.
    bound = 1 / np.sqrt(count)
    network = Network(
        rng.uniform(-bound, bound, (count, hidden)).astype(np.float32),
        rng.uniform(-bound, bound, hidden).astype(np.float32),
        rng.uniform(-1 / np.sqrt(hidden), 1 / np.sqrt(hidden), hidden).astype(np.float32),
        np.zeros(1, dtype=np.float32),
        limit,
    )
    layers = [network.w1, network.b1, network.w2, network.b2]
    first = [np.zeros_like(layer) for layer in layers]
    second = [np.zeros_like(layer) for layer in layers]
    beta1, beta2, epsilon = 0.9, 0.999, 1e-8
    steps = 0
    for epoch in range(epochs):
        step = rate if epoch < epochs - epochs // 3 else rate / 10
        order = rng.permutation(len(target))
        for start in range(0, len(target), batch):
            rows = order[start : start + batch]
            x = inputs[rows].astype(np.float32)
            units = x @ network.w1 + network.b1
            active = np.clip(units, 0, 1)
            value = NETWORK_OUTPUT * (active @ network.w2 + network.b2)
            inside = np.abs(value) < limit  # beyond the limit the output does not move
            logit = (offset[rows] + np.clip(value, -limit, limit)) / scale
            error = (
                (sigmoid(logit) - target[rows]) * inside * NETWORK_OUTPUT / scale / len(rows)
            ).astype(np.float32)
            through = np.outer(error, network.w2) * ((units > 0) & (units < 1))
            grads = [x.T @ through, through.sum(axis=0), active.T @ error, error.sum(keepdims=True)]
            steps += 1
            for layer, g, m, v in zip(layers, grads, first, second, strict=True):
                m *= beta1
                m += (1 - beta1) * g
                v *= beta2
                v += (1 - beta2) * g * g
                corrected = m / (1 - beta1**steps)
                layer -= step * corrected / (np.sqrt(v / (1 - beta2**steps)) + epsilon)
        if report:
            print(f"epoch {epoch + 1} done", flush=True)
    return network
