"""Compile a variant description and its geometry into the arrays the kernel runs on."""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from damier.geometry import Geometry, geometry_of
from damier.kernel import layout as L
from damier.rules.description import (
    Choice,
    Direction,
    Landing,
    Promotion,
    Range,
    Removal,
    Variant,
)

_CHOICE_IDS = {
    Choice.MOST_PIECES: L.CHOICE_MOST_PIECES,
    Choice.WITH_KING: L.CHOICE_WITH_KING,
    Choice.MOST_KINGS: L.CHOICE_MOST_KINGS,
    Choice.EARLIEST_KING: L.CHOICE_EARLIEST_KING,
    Choice.MOST_VALUE: L.CHOICE_MOST_VALUE,
}
_PROMOTION_IDS = {
    Promotion.AT_END: L.PROMOTE_AT_END,
    Promotion.CONTINUE_AS_KING: L.PROMOTE_CONTINUE,
    Promotion.ENDS_MOVE: L.PROMOTE_ENDS_MOVE,
}

Int8Array = npt.NDArray[np.int8]


class Tables(NamedTuple):
    """Everything the kernel knows about a variant, as five arrays (Numba's call overhead
    grows with every array argument, so related tables share one array).

    Direction lists are per player and per cell, so that boards where "forward" depends on
    where a piece stands (multi-player boards) need no other kernel code.
    """

    rays: npt.NDArray[np.int16]
    """``rays[cell, d, i]``: the i-th cell walking from ``cell`` in direction ``d``; -1 past
    the edge."""
    dirs: Int8Array
    """``dirs[kind, player, cell, k]``: the k-th direction a man steps (kind ``MAN_STEP``),
    a man captures (``MAN_CAPTURE``), a king moves (``KING_STEP``) or captures
    (``KING_CAPTURE``) in; ``dirs[SHARED, 0, cell, d]``: the leading cells of ray ``d`` that
    belong to another label (a line branching at a hub)."""
    counts: Int8Array
    """``counts[kind, player, cell]``: how many directions ``dirs`` lists; row ``CROWN`` is 1
    where that player's men are crowned; ``counts[AREA, 0, cell]`` is the cell's area."""
    zobrist: npt.NDArray[np.uint64]
    """``zobrist[cell, piece]``: hash key of a piece code on a cell (column 0 unused); the
    last row holds the key of each player to move."""
    rules: npt.NDArray[np.int64]
    """Rule switches, capture-choice criteria and opposite directions, indexed by the
    ``R_*`` constants of :mod:`damier.kernel.layout`."""


def _direction_lists(
    geometry: Geometry, players: int, allowed: frozenset[Direction]
) -> tuple[Int8Array, Int8Array]:
    cells, directions = geometry.cell_count, geometry.direction_count
    table = np.full((players, cells, directions), -1, dtype=np.int8)
    counts = np.zeros((players, cells), dtype=np.int8)
    for player in range(players):
        for cell in range(cells):
            for direction in range(directions):
                if geometry.rays[cell, direction, 0] < 0:
                    continue
                if geometry.direction_class(player, cell, direction) in allowed:
                    table[player, cell, counts[player, cell]] = direction
                    counts[player, cell] += 1
    return table, counts


def _max_captures(variant: Variant) -> int:
    """The most pieces one capture can take: all the opponents' pieces (a position never
    holds more pieces than the start, which FEN reading enforces)."""
    counts = variant.pieces_per_player
    return max(sum(counts) - count for count in counts)


@cache
def compile_tables(variant: Variant) -> Tables:
    """The kernel tables of ``variant`` (built once per variant)."""
    geometry = geometry_of(variant)
    players = variant.players
    cells = geometry.cell_count
    directions = geometry.direction_count
    dirs = np.full((5, players, cells, directions), -1, dtype=np.int8)
    counts = np.zeros((6, players, cells), dtype=np.int8)
    kinds = {
        L.MAN_STEP: variant.man_moves,
        L.MAN_CAPTURE: variant.man_captures,
        L.KING_STEP: variant.king_moves,
        L.KING_CAPTURE: variant.king_captures,
    }
    for kind, allowed in kinds.items():
        dirs[kind], counts[kind] = _direction_lists(geometry, players, allowed)
    dirs[L.SHARED, 0] = geometry.shared
    counts[L.AREA, 0] = geometry.areas
    for player in range(players):
        for cell in range(cells):
            counts[L.CROWN, player, cell] = geometry.crowns(player, cell)
    rng = np.random.default_rng(20261121)
    top = np.iinfo(np.uint64).max
    zobrist = rng.integers(
        0, top, size=(cells + 1, 2 * players + 1), dtype=np.uint64, endpoint=True
    )
    # Then the dead pieces' codes (player ``players``), drawn after the others so that the
    # players' keys stay what they always were.
    dead = rng.integers(0, top, size=(cells + 1, 2), dtype=np.uint64, endpoint=True)
    zobrist = np.hstack([zobrist, dead])
    zobrist[:cells, 0] = 0
    rules = np.zeros(L.R_SIZE, dtype=np.int64)
    rules[L.R_PLAYERS] = players
    rules[L.R_MAXC] = _max_captures(variant)
    rules[L.R_KING_FLYING] = variant.king_range is Range.FLYING
    rules[L.R_LAND_NEXT] = variant.king_landing is Landing.NEXT
    rules[L.R_STOP_BEHIND_KING] = variant.king_stops_behind_king
    rules[L.R_MEN_TAKE_KINGS] = variant.men_capture_kings
    rules[L.R_PROMOTION] = _PROMOTION_IDS[variant.promotion]
    rules[L.R_IMMEDIATE_REMOVAL] = variant.removal is Removal.IMMEDIATE
    rules[L.R_NO_REVERSAL] = variant.no_reversal
    rules[L.R_LINE_MOVES] = variant.line_moves
    rules[L.R_KING_ORDER] = variant.king_order_matters
    rules[L.R_KING_VALUE] = variant.king_value
    rules[L.R_CROWNING_WINS] = variant.crowning_wins
    rules[L.R_CHOICE_COUNT] = len(variant.choice)
    for index, criterion in enumerate(variant.choice):
        rules[L.R_CHOICE + index] = _CHOICE_IDS[criterion]
    for direction in range(directions):
        rules[L.R_OPPOSITE + direction] = geometry.opposite(direction)
    for player, team in enumerate(variant.team_of):
        rules[L.R_TEAM + player] = team
    rules[L.R_TEAM + players] = -1
    rules[L.R_TEAMS] = bool(variant.teams)
    tables = Tables(
        rays=geometry.rays.view(), dirs=dirs, counts=counts, zobrist=zobrist, rules=rules
    )
    # Read-only, like the packed tables' views the Board's entries unpack: one type of
    # tables, so each kernel function is compiled once for the Board and the engine.
    for table in tables:
        table.flags.writeable = False
    return tables


# -- the tables in one array ----------------------------------------------------------------

HEADER = 5 * 5
"""Header of a packed table array: per table (in ``Tables`` order) its byte offset, then its
shape (up to four dimensions), as int64."""
_DTYPES = (np.int16, np.int8, np.int8, np.uint64, np.int64)
"""The dtype of each table, in ``Tables`` order."""


def pack_tables(tables: Tables) -> npt.NDArray[np.uint8]:
    """The five tables in one byte array, each 8-byte aligned, behind a header of offsets and
    shapes (``movegen.unpack_tables`` takes it apart).

    What for: calling a compiled function costs Numba a type check and an unboxing per
    argument, and a ``Tables`` NamedTuple costs some 2 us of them, most of the time of a
    whole move generation. One byte array costs a tenth of that.
    """
    header = np.zeros(HEADER, dtype=np.int64)
    offset = header.nbytes
    arrays: tuple[npt.NDArray[np.generic], ...] = tuple(tables)
    for index, (table, dtype) in enumerate(zip(arrays, _DTYPES, strict=True)):
        assert table.dtype == dtype and table.ndim <= 4
        header[5 * index] = offset
        header[5 * index + 1 : 5 * index + 1 + table.ndim] = table.shape
        offset += -(-table.nbytes // 8) * 8
    packed = np.zeros(offset, dtype=np.uint8)
    packed[: header.nbytes] = header.view(np.uint8)
    for index, table in enumerate(arrays):
        start = int(header[5 * index])
        packed[start : start + table.nbytes] = np.ascontiguousarray(table).view(np.uint8).ravel()
    return packed


@cache
def packed_tables(variant: Variant) -> npt.NDArray[np.uint8]:
    """The kernel tables of ``variant`` in one array (see :func:`pack_tables`)."""
    packed = pack_tables(compile_tables(variant))
    packed.flags.writeable = False
    return packed
