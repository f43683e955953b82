"""The learned part of the evaluation: a weight for every configuration of the men on small
regions of the board, fitted on self-play positions (``bench/train.py``).

A region is a block of four rows by four columns, which holds eight dark squares; the blocks
overlap (every row offset, every other column offset: 28 regions on 10x10). Each of the
eight squares is empty, a White man or a Black man (kings count as empty: the material
terms value them), so a region's configuration is a base-3 number below ``3**8``, its
first square the most significant digit. White's view reads the region's squares with
White's men as the digit 1; Black's view reads the same region on the board turned half a
turn with Black's men as 1. The patterns' value for White is the sum of the weights of
White's views less the sum of Black's views: with one table for both, a position and its
colour-swapped mirror get opposite values by construction.

The weights correct the hand-set evaluation (:mod:`damier.engine.evaluation`), which keeps
its material and other terms; they travel to the search inside its ``extra`` vector (the
weights that are not per cell), after the hand-set ones:

- ``extra[REGIONS]``: the number of regions ``R`` (0: no learned weights);
- ``extra[SQUARES + 16 * r + k]``: the square of digit ``k`` of region ``r`` in White's
  view (``k < 8``) and in Black's (``8 <= k < 16``), as bit numbers of the words the search
  passes (cells in the table search, bits in the bitboard search);
- then ``R * 3**8`` weights, region by region, in hundredths of a man.

Weights are kept per variant in ``data/patterns.npz``; variants without weights keep the
hand-set evaluation unchanged.
"""

from __future__ import annotations

import os
from functools import cache
from importlib import resources

import numpy as np
import numpy.typing as npt

from damier.geometry import SquareGeometry, geometry_of
from damier.kernel.jit import kernel_inline
from damier.rules import Variant

DIGITS = 8
"""Squares in a region."""
CONFIGURATIONS = 3**DIGITS
REGIONS = 4
"""Index in ``extra`` of the number of regions (after the hand-set weights)."""
SQUARES = 5
"""Index in ``extra`` of the first region's squares."""

DATA_FILE = "patterns.npz"
ENVIRONMENT = "DAMIER_EVAL"
"""``patterns`` or ``hand``: whether the search uses the learned weights where it has them
(unset: :data:`DEFAULT`)."""
DEFAULT = False


def regions(variant: Variant) -> npt.NDArray[np.int64]:
    """``[region, digit]``: the cells of each region (four rows by four columns, column
    offsets even), in cell order."""
    geometry = geometry_of(variant)
    assert isinstance(geometry, SquareGeometry)
    cell_at = {coordinate: cell for cell, coordinate in enumerate(geometry.coordinates)}
    out = []
    for top in range(geometry.height - 3):
        for left in range(0, geometry.width - 3, 2):
            block = sorted(
                cell_at[row, column]
                for row in range(top, top + 4)
                for column in range(left, left + 4)
                if (row, column) in cell_at
            )
            if len(block) == DIGITS:
                out.append(block)
    return np.array(out, dtype=np.int64).reshape(-1, DIGITS)


def turned(variant: Variant) -> npt.NDArray[np.int64]:
    """The cell of each cell on the board turned half a turn."""
    geometry = geometry_of(variant)
    assert isinstance(geometry, SquareGeometry)
    height, width = geometry.height, geometry.width
    cell_at = {coordinate: cell for cell, coordinate in enumerate(geometry.coordinates)}
    return np.array(
        [cell_at[height - 1 - row, width - 1 - column] for row, column in geometry.coordinates],
        dtype=np.int64,
    )


@cache
def _stored() -> dict[str, npt.NDArray[np.int16]]:
    path = resources.files("damier") / "data" / DATA_FILE
    if not path.is_file():
        return {}
    with path.open("rb") as stream, np.load(stream) as data:
        return {name: data[name] for name in data.files}


def pattern_weights(variant: Variant) -> npt.NDArray[np.int32] | None:
    """The learned ``[region, configuration]`` weights of ``variant``, if it has some."""
    stored = _stored().get(variant.name)
    if stored is None or stored.shape != (len(regions(variant)), CONFIGURATIONS):
        return None
    return stored.astype(np.int32)


def enabled() -> bool:
    """Whether the engine uses the learned weights (``DAMIER_EVAL``, else the default)."""
    choice = os.environ.get(ENVIRONMENT, "")
    return choice == "patterns" if choice in ("patterns", "hand") else DEFAULT


def pattern_extra(
    variant: Variant, weights: npt.NDArray[np.int32] | None
) -> npt.NDArray[np.int32]:
    """The pattern part of ``extra`` (see the module's description) for ``weights``, with
    squares as cells; ``[0]`` when there are none."""
    if weights is None:
        return np.zeros(1, dtype=np.int32)
    blocks = regions(variant)
    squares = np.concatenate([blocks, turned(variant)[blocks]], axis=1)
    return np.concatenate(
        [np.array([len(blocks)]), squares.ravel(), weights.ravel()]
    ).astype(np.int32)


def squares_by(extra: npt.NDArray[np.int32], bit_of_cell: npt.NDArray[np.int64]) -> None:
    """Renumber the pattern squares of ``extra`` (in place) from cells to bits."""
    count = int(extra[REGIONS])
    view = extra[SQUARES : SQUARES + 2 * DIGITS * count]
    view[:] = bit_of_cell[view]


@kernel_inline
def pattern_value(white_men, black_men, extra):
    """The patterns' value for White of the men ``white_men`` and ``black_men`` (words whose
    bits the squares of ``extra`` number)."""
    count = extra[REGIONS]
    base = SQUARES + 2 * DIGITS * count
    score = 0
    for r in range(count):
        first = SQUARES + 2 * DIGITS * r
        white = 0
        black = 0
        for k in range(DIGITS):
            a = np.uint64(extra[first + k])
            b = np.uint64(extra[first + DIGITS + k])
            white = white * 3 + int((white_men >> a) & np.uint64(1))
            white += 2 * int((black_men >> a) & np.uint64(1))
            black = black * 3 + int((black_men >> b) & np.uint64(1))
            black += 2 * int((white_men >> b) & np.uint64(1))
        table = base + CONFIGURATIONS * r
        score += extra[table + white] - extra[table + black]
    return score
