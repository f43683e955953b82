"""The learned part of the evaluation: a weight for every configuration of the men on small
regions of the board, fitted on self-play positions (``bench/train.py``).

A region is a block of four rows by four columns, which holds eight dark squares; the blocks
overlap (every row offset, every other column offset: 28 regions on 10x10). On a board
whose every square is played (Turkish) a block is four rows by two columns. Each of the
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
- ``extra[SQUARES + 8 * r + j]``: where pair ``j`` of region ``r`` starts, in White's view
  (``j < 4``) and in Black's (``4 <= j < 8``). A region's squares come in four pairs of
  neighbours on one row, which are neighbouring bits of the words the search passes (cells
  in the table search, bits in the bitboard search); a pair's start is its lower bit. Each
  view gathers its region's men of each colour into a byte, two bits a pair;
- then two tables of 256: the base-3 digits of such a byte as a number (White's view, then
  Black's, whose pairs are the other way round);
- then ``R * 3**8`` weights, region by region, in hundredths of a man;
- then, for each cell, the regions it belongs to (:data:`MEMBERSHIPS` at most): their
  number, then for each the slot of its configuration (``r`` in White's view, ``R + r`` in
  Black's) and how much a White man and a Black man on the cell add to it. The bitboard
  search keeps each ply's configurations and updates them by these as it plays a move,
  rather than reading the regions again at every leaf (:func:`configured_value`).

Weights are kept per variant in ``data/patterns.npz``; a variant of :data:`SHARED` without
its own reads another's, and the others without weights keep the hand-set evaluation
unchanged.
"""

from __future__ import annotations

import os
from functools import cache
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

from damier.geometry import SquareGeometry, geometry_of
from damier.kernel.jit import kernel, kernel_inline
from damier.rules import Variant

DIGITS = 8
"""Squares in a region."""
CONFIGURATIONS = 3**DIGITS
REGIONS = 5
"""Index in ``extra`` of the number of regions (after the hand-set weights and the network's
start, :data:`damier.engine.evaluation.NETWORK`)."""
SQUARES = 6
"""Index in ``extra`` of the first region's pairs."""
PAIRS = 4
MEMBERSHIPS = 16
"""Regions a square belongs to, at most: four row offsets by two column offsets, in each
view."""
MEMBERSHIP_WIDTH = 1 + 3 * MEMBERSHIPS

DATA_FILE = "patterns.npz"
ENVIRONMENT = "DAMIER_EVAL"
"""``hand``, ``patterns`` or ``network``: whether the search uses no learned weights, the
patterns alone, or the patterns and the network (:mod:`damier.engine.network`) where it has
them (unset: :data:`DEFAULT`)."""
DEFAULT = True
"""On: against the engine before the patterns, at 0.1 s a move over 200 games, today's
engine scores 84.2% on Turkish (Elo +291 +/- 54), 74.0% on International (+182 +/- 41),
76.2% on Russian (+203 +/- 37), 71.2% on English, 70.2% on Spanish, 70.2% on Brazilian
and 70.2% on Italian, and 82.8% on Russian giveaway, 77.8% on Spanish giveaway, 66.0% on
English giveaway, 63.5% on Italian giveaway (69.0% on International giveaway over 100
games; the README's design notes have each match)."""


SHARED = {
    "brazilian": "russian",
    "pool": "russian",
    "killer": "international",
    "portuguese": "spanish",
    "brazilian-giveaway": "russian-giveaway",
    "pool-giveaway": "russian-giveaway",
}
"""Variants that read another variant's weights while they have none of their own (the
trainer's ``--warm`` starts their first own weights from those): a weight is about men on
given squares, so it carries over only to the same board seen from the same side (a
mirrored board, Italian's or Spanish's, puts other squares in each region) with the same
moves and captures of men (Brazilian and pool men capture backward as Russian ones do; the
rules differ in which capture must be taken and in a promotion during a capture; Killer is
International but for where a king stops behind a king, Portuguese the Spanish game in
another numbering).
A giveaway form reads only a giveaway form's weights: its aim is the opposite."""


def regions(variant: Variant) -> npt.NDArray[np.int64]:
    """``[region, digit]``: the cells of each region, in cell order. On a board of dark
    squares a region is a block of four rows by four columns; on a board whose every square
    is played (Turkish), four rows by two columns, so that it still holds eight squares in
    pairs of neighbours on a row. Column offsets are even."""
    geometry = geometry_of(variant)
    assert isinstance(geometry, SquareGeometry)
    cell_at = {coordinate: cell for cell, coordinate in enumerate(geometry.coordinates)}
    rows = 4
    columns = 2 if len(cell_at) == geometry.height * geometry.width else 4
    out = []
    for top in range(geometry.height - rows + 1):
        for left in range(0, geometry.width - columns + 1, 2):
            block = sorted(
                cell_at[row, column]
                for row in range(top, top + rows)
                for column in range(left, left + columns)
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
def data_arrays(file_name: str) -> dict[str, npt.NDArray[np.int32]]:
    """The arrays of the package's data file ``file_name`` (none when it is missing), as
    32-bit integers: the learned weights of the patterns and of the networks."""
    path = resources.files("damier") / "data" / file_name
    if not path.is_file():
        return {}
    with path.open("rb") as stream, np.load(stream) as data:
        return {name: data[name].astype(np.int32) for name in data.files}


def _stored() -> dict[str, npt.NDArray[np.int32]]:
    return data_arrays(DATA_FILE)


def stored_weights(stored: dict[str, npt.NDArray[Any]], name: str) -> npt.NDArray[Any] | None:
    """The weights a variant reads from a data file's ``stored`` tables: its own, else those
    of the variant it shares with (:data:`SHARED`)."""
    own = stored.get(name)
    return own if own is not None or name not in SHARED else stored.get(SHARED[name])


def has_own_weights(name: str) -> bool:
    """Whether the variant ``name`` has pattern weights of its own in the data file."""
    return name in _stored()


def pattern_weights(variant: Variant) -> npt.NDArray[np.int32] | None:
    """The learned ``[region, configuration]`` weights of ``variant`` (or, without its own,
    of the variant whose weights it shares), if it has some."""
    stored = stored_weights(_stored(), variant.name)
    if stored is None or stored.shape != (len(regions(variant)), CONFIGURATIONS):
        return None
    return stored.astype(np.int32)


def enabled() -> bool:
    """Whether the engine uses the learned weights (``DAMIER_EVAL``, else the default)."""
    choice = os.environ.get(ENVIRONMENT, "")
    return choice != "hand" if choice in ("patterns", "hand", "network") else DEFAULT


def network_enabled() -> bool:
    """Whether the learned weights include the network (``DAMIER_EVAL`` is not ``patterns``
    nor ``hand``)."""
    return enabled() and os.environ.get(ENVIRONMENT, "") != "patterns"


def _digit_tables() -> npt.NDArray[np.int64]:
    """The number of the base-3 digits of each byte a view gathers: in White's view byte
    bit ``k`` is digit ``k`` (the region's ``k``-th square, the first the most significant);
    in Black's view the two squares of each pair are the other way round."""
    powers = 3 ** np.arange(DIGITS - 1, -1, -1, dtype=np.int64)
    swapped = powers.reshape(PAIRS, 2)[:, ::-1].ravel()
    bits = (np.arange(256)[:, None] >> np.arange(DIGITS)) & 1
    return np.concatenate([bits @ powers, bits @ swapped])


def pattern_extra(variant: Variant, weights: npt.NDArray[np.int32] | None) -> npt.NDArray[np.int32]:
    """The pattern part of ``extra`` (see the module's description) for ``weights``, with
    squares as cells; ``[0]`` when there are none."""
    if weights is None:
        return np.zeros(1, dtype=np.int32)
    blocks = regions(variant)
    assert np.all(blocks[:, 1::2] == blocks[:, ::2] + 1), "a region's pairs are neighbours"
    starts = np.concatenate([blocks[:, ::2], turned(variant)[blocks[:, 1::2]]], axis=1)
    return np.concatenate(
        [
            np.array([len(blocks)]),
            starts.ravel(),
            _digit_tables(),
            weights.ravel(),
            _memberships(variant).ravel(),
        ]
    ).astype(np.int32)


def _memberships(variant: Variant) -> npt.NDArray[np.int64]:
    """``[cell]``: the number of regions the cell belongs to, then (slot, what a White man
    there adds, what a Black man adds) for each. Digit ``k`` of White's view of a region is
    its ``k``-th cell, 1 for a White man and 2 for a Black one; of Black's view, the cell the
    half turn takes it to, 1 for a Black man and 2 for a White one."""
    blocks = regions(variant)
    count = len(blocks)
    powers = 3 ** np.arange(DIGITS - 1, -1, -1, dtype=np.int64)
    half_turn = turned(variant)
    found: list[list[tuple[int, int, int]]] = [[] for _ in range(len(half_turn))]
    for r, block in enumerate(blocks):
        for power, white_cell, black_cell in zip(powers, block, half_turn[block], strict=True):
            found[white_cell].append((r, int(power), 2 * int(power)))
            found[black_cell].append((count + r, 2 * int(power), int(power)))
    out = np.zeros((len(found), MEMBERSHIP_WIDTH), dtype=np.int64)
    for cell, entries in enumerate(found):
        assert len(entries) <= MEMBERSHIPS
        out[cell, 0] = len(entries)
        out[cell, 1 : 1 + 3 * len(entries)] = np.array(entries, dtype=np.int64).ravel()
    return out


def squares_by(extra: npt.NDArray[np.int32], bit_of_cell: npt.NDArray[np.int64]) -> None:
    """Renumber the pattern squares of ``extra`` (in place) from cells to bits."""
    count = int(extra[REGIONS])
    view = extra[SQUARES : SQUARES + 2 * PAIRS * count]
    assert np.all(bit_of_cell[view + 1] == bit_of_cell[view] + 1), "pairs stay neighbours"
    view[:] = bit_of_cell[view]


@kernel_inline
def _configurations(white_men, black_men, extra, r):
    """Region ``r``'s configuration in White's view and in Black's, for the men
    ``white_men`` and ``black_men`` (words whose bits the squares of ``extra`` number)."""
    count = extra[REGIONS]
    digits = SQUARES + 2 * PAIRS * count
    first = SQUARES + 2 * PAIRS * r
    pair = np.uint64(3)
    white_white = np.uint64(0)
    white_black = np.uint64(0)
    black_white = np.uint64(0)
    black_black = np.uint64(0)
    for j in range(PAIRS):
        a = np.uint64(extra[first + j])
        b = np.uint64(extra[first + PAIRS + j])
        shift = np.uint64(2 * j)
        white_white |= ((white_men >> a) & pair) << shift
        white_black |= ((black_men >> a) & pair) << shift
        black_white |= ((white_men >> b) & pair) << shift
        black_black |= ((black_men >> b) & pair) << shift
    white = extra[digits + int(white_white)] + 2 * extra[digits + int(white_black)]
    black = extra[digits + 256 + int(black_black)] + 2 * extra[digits + 256 + int(black_white)]
    return white, black


@kernel_inline
def pattern_value(white_men, black_men, extra):
    """The patterns' value for White of the men ``white_men`` and ``black_men`` (words whose
    bits the squares of ``extra`` number)."""
    count = extra[REGIONS]
    base = SQUARES + 2 * PAIRS * count + 512
    score = 0
    for r in range(count):
        white, black = _configurations(white_men, black_men, extra, r)
        table = base + CONFIGURATIONS * r
        score += extra[table + white] - extra[table + black]
    return score


@kernel
def set_configurations(white_men, black_men, extra, configurations, ply):
    """Fill ``configurations[ply]`` with each region's configuration in White's view (slot
    ``r``) and in Black's (slot ``R + r``)."""
    count = extra[REGIONS]
    for r in range(count):
        white, black = _configurations(white_men, black_men, extra, r)
        configurations[ply, r] = white
        configurations[ply, count + r] = black


@kernel_inline
def configured_value(configurations, ply, extra):
    """:func:`pattern_value` of the men whose configurations are ``configurations[ply]``."""
    count = extra[REGIONS]
    base = SQUARES + 2 * PAIRS * count + 512
    score = 0
    for r in range(count):
        table = base + CONFIGURATIONS * r
        score += extra[table + configurations[ply, r]]
        score -= extra[table + configurations[ply, count + r]]
    return score


@kernel_inline
def reconfigure(configurations, ply, cell, colour, sign, extra):
    """Put (``sign`` 1) or take away (-1) a man of ``colour`` (0 White) on ``cell`` in
    ``configurations[ply]``."""
    count = extra[REGIONS]
    row = SQUARES + 2 * PAIRS * count + 512 + CONFIGURATIONS * count + MEMBERSHIP_WIDTH * cell
    for k in range(extra[row]):
        entry = row + 1 + 3 * k
        configurations[ply, extra[entry]] += sign * extra[entry + 1 + colour]
