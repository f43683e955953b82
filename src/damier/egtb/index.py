"""Where a position sits in an endgame database: material classes and combinatorial ranks.

A position is always seen from the side to move, who plays as White (player 0, men going
towards row 0): a position with Black to move is turned round first (the board rotated
half a turn, which on these boards is cell ``i`` to cell ``n - 1 - i``, and the colours
swapped), so a database stores each position once. Its *class* is the material
(my men, my kings, their men, their kings); inside a class each group of alike pieces is a
set of squares, ranked in colexicographic order (the set ``p0 < p1 < ...`` has rank
``C(p0, 1) + C(p1, 2) + ...``), and the four ranks are the digits of the position's index.
Men never stand on their crowning row, so a group of men ranks among the other squares.
Two groups may name the same square: such indices are kept (the layout stays a plain
product) and marked invalid.

Everything the compiled code needs is one int64 array (``ix``, see ``H_*`` and the offsets
below) so that the search takes one more argument, not ten.
"""

from __future__ import annotations

import itertools
from math import comb
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from damier.kernel.bitboard import G_CROWN, ONE, ZERO, Spec, bit_index, popcount
from damier.kernel.jit import kernel, kernel_inline

MAX_PIECES = 5
"""The largest databases the layout describes (its binomial table stops at k = 5)."""

# Values, two bits each (for the side to move).
DRAW, WIN, LOSS, INVALID = 0, 1, 2, 3

# The ``ix`` array: a header, then tables.
H_PIECES = 0  # pieces of the largest class (0: no database, the search never probes)
H_CELLS = 1  # playable squares
H_ROW = 2  # squares in a row: men skip their crowning row
CELL_OF = 8  # + bit index: the square (cell) of that bit
ROT = CELL_OF + 64  # + bit index: the word of the square half a turn away
BINOM = ROT + 64  # + m * 6 + k: C(m, k) for m <= 64, k <= 5
OFFSET = BINOM + 65 * 6  # + ((a * 6 + b) * 6 + c) * 6 + d: where class (a, b, c, d) starts
IX_SIZE = OFFSET + 6**4

Material = tuple[int, int, int, int]
"""(my men, my kings, their men, their kings), the side to move first."""


class Layout(NamedTuple):
    """The classes of a database of up to ``pieces`` pieces on one board."""

    ix: npt.NDArray[np.int64]
    """The compiled code's tables (``H_*``, ``CELL_OF``, ``ROT``, ``BINOM``, ``OFFSET``)."""
    classes: list[Material]
    """Every class, in the order they are solved and stored."""
    starts: list[int]
    """Index of each class's first position in the whole database."""
    sizes: list[int]
    """Positions (indices) of each class."""

    @property
    def total(self) -> int:
        return self.starts[-1] + self.sizes[-1] if self.classes else 0


def materials(pieces: int) -> list[Material]:
    """Every class of 2 to ``pieces`` pieces (each side has one), in the order they can be
    solved: fewer pieces first (a capture leads there), then fewer men (a crowning does),
    each class next to its mirror (the other side to move: they are solved together)."""
    found = [
        (a, b, c, d)
        for a, b, c, d in itertools.product(range(pieces + 1), repeat=4)
        if a + b >= 1 and c + d >= 1 and a + b + c + d <= pieces
    ]
    return sorted(found, key=lambda m: (sum(m), m[0] + m[2], min(m, (*m[2:], *m[:2])), m))


def layout(spec: Spec, pieces: int) -> Layout:
    """The database layout of ``pieces`` pieces on the board of ``spec``."""
    if not 2 <= pieces <= MAX_PIECES:
        raise ValueError(f"an endgame database holds 2 to {MAX_PIECES} pieces, not {pieces}")
    cells = len(spec.bits)
    bit_of = [int(b).bit_length() - 1 for b in spec.bits]
    row = popcount(int(spec.geo[G_CROWN]))  # squares of White's crowning row
    ix = np.zeros(IX_SIZE, dtype=np.int64)
    ix[H_PIECES] = pieces
    ix[H_CELLS] = cells
    ix[H_ROW] = row
    ix[CELL_OF : CELL_OF + 64] = -1
    for cell, bit in enumerate(bit_of):
        ix[CELL_OF + bit] = cell
        ix[ROT + bit] = 1 << bit_of[cells - 1 - cell]
    for m in range(65):
        for k in range(6):
            ix[BINOM + m * 6 + k] = comb(m, k)
    ix[OFFSET:] = -1
    squares = (cells - row, cells - row, cells)  # my men, their men, kings
    classes = materials(pieces)
    starts, sizes = [], []
    start = 0
    for a, b, c, d in classes:
        size = 1
        for kind, k in ((0, a), (2, b), (1, c), (2, d)):
            size *= comb(squares[kind], k)
        ix[OFFSET + ((a * 6 + b) * 6 + c) * 6 + d] = start
        starts.append(start)
        sizes.append(size)
        start += size
    return Layout(ix, classes, starts, sizes)


def group_words(spec: Spec, pieces: int) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64]]:
    """Every set of ``k < pieces`` squares of each kind as a word, by rank: (the words,
    where the sets of ``k`` squares of kind ``kind`` start: ``[kind * 6 + k]``). Kinds: 0 my
    men (every square but row 0), 1 their men (but the last row), 2 kings. The builder
    walks a class through them instead of unranking each index."""
    cells = len(spec.bits)
    row = popcount(int(spec.geo[G_CROWN]))
    squares = (cells - row, cells - row, cells)
    first = (row, 0, 0)
    starts = np.zeros(3 * 6, dtype=np.int64)
    chunks: list[npt.NDArray[np.uint64]] = []
    at = 0
    for kind in range(3):
        for k in range(pieces):
            starts[kind * 6 + k] = at
            table = np.zeros(comb(squares[kind], k), dtype=np.uint64)
            for chosen in itertools.combinations(range(squares[kind]), k):
                rank = sum(comb(p, i + 1) for i, p in enumerate(chosen))
                table[rank] = sum(int(spec.bits[first[kind] + p]) for p in chosen)
            chunks.append(table)
            at += len(table)
    return np.concatenate(chunks), starts


# -- compiled ----------------------------------------------------------------------------


@kernel_inline
def rotate(ix, word):
    """``word`` turned half a turn (at most a few pieces: one step per piece)."""
    out = ZERO
    while word != ZERO:
        bit = word & ~(word - ONE)
        word ^= bit
        out |= np.uint64(ix[ROT + bit_index(bit)])
    return out


@kernel_inline
def _rank(ix, word, first):
    """Colexicographic rank of the squares of ``word`` among the squares from ``first`` on
    (bits come out in the order of the squares)."""
    rank = 0
    i = 1
    while word != ZERO:
        bit = word & ~(word - ONE)
        word ^= bit
        rank += ix[BINOM + (ix[CELL_OF + bit_index(bit)] - first) * 6 + i]
        i += 1
    return rank


@kernel_inline
def index_of(ix, me, opp, kings):
    """The database index of a position (``me`` to move, playing as White), or -1 when its
    class is not in the database."""
    a = popcount(me & ~kings)
    b = popcount(me & kings)
    c = popcount(opp & ~kings)
    d = popcount(opp & kings)
    if a + b + c + d > ix[H_PIECES] or a + b == 0 or c + d == 0:
        return -1
    start = ix[OFFSET + ((a * 6 + b) * 6 + c) * 6 + d]
    if start < 0:
        return -1
    cells = ix[H_CELLS]
    row = ix[H_ROW]
    men_squares = cells - row
    index = _rank(ix, me & ~kings, row)
    index = index * ix[BINOM + cells * 6 + b] + _rank(ix, me & kings, 0)
    index = index * ix[BINOM + men_squares * 6 + c] + _rank(ix, opp & ~kings, 0)
    index = index * ix[BINOM + cells * 6 + d] + _rank(ix, opp & kings, 0)
    return start + index


@kernel_inline
def packed_value(values, index):
    """The two-bit value ``index`` of a packed array (four values a byte, lowest first)."""
    return (values[index >> 2] >> (2 * (index & 3))) & 3


@kernel_inline
def probe_index(ix, me, opp, kings, player):
    """The database index of a position (``player``, whose pieces are ``me``, to move), or
    -1 when it is not in the database."""
    if player == 1:
        me = rotate(ix, me)
        opp = rotate(ix, opp)
        kings = rotate(ix, kings)
    return index_of(ix, me, opp, kings)


@kernel_inline
def probe_words(ix, values, me, opp, kings, player):
    """The value for the side to move (``player``, whose pieces are ``me``) from a packed
    database, or -1 when the position is not in it."""
    index = probe_index(ix, me, opp, kings, player)
    if index < 0:
        return -1
    return packed_value(values, index)


@kernel
def probe_position(ix, values, me, opp, kings, player):
    """:func:`probe_words`, called from Python."""
    return probe_words(ix, values, me, opp, kings, player)
