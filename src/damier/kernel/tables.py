"""Compile a variant description and its geometry into the arrays the kernel runs on."""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from damier.geometry import SquareGeometry, geometry_of
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
}
_PROMOTION_IDS = {
    Promotion.AT_END: L.PROMOTE_AT_END,
    Promotion.CONTINUE_AS_KING: L.PROMOTE_CONTINUE,
    Promotion.ENDS_MOVE: L.PROMOTE_ENDS_MOVE,
}

Int8Array = npt.NDArray[np.int8]


class Tables(NamedTuple):
    """Everything the kernel knows about a variant, as arrays (Numba passes them as one tuple).

    Direction lists are per player and per cell, so that boards where "forward" depends on
    where a piece stands (multi-player boards) need no other kernel code.
    """

    rays: npt.NDArray[np.int16]
    """``rays[cell, d, i]``: the i-th cell walking from ``cell`` in direction ``d``; -1 past
    the edge."""
    opposite: Int8Array
    """``opposite[d]``: the direction walking back along the same line."""
    man_step: Int8Array
    """``man_step[player, cell, k]``: k-th direction a man steps in; ``man_step_n`` counts them."""
    man_step_n: Int8Array
    man_capture: Int8Array
    """Directions a man captures in, as ``man_step``."""
    man_capture_n: Int8Array
    king_step: Int8Array
    """Directions a king moves in."""
    king_step_n: Int8Array
    king_capture: Int8Array
    """Directions a king captures in."""
    king_capture_n: Int8Array
    crown: npt.NDArray[np.uint8]
    """``crown[player, cell]``: 1 where that player's men are crowned."""
    zobrist: npt.NDArray[np.uint64]
    """``zobrist[cell, piece]``: hash key of a piece code on a cell (column 0 unused)."""
    zobrist_turn: npt.NDArray[np.uint64]
    """Hash key of the player to move."""
    rules: npt.NDArray[np.int64]
    """Rule switches, indexed by the ``R_*`` constants of :mod:`damier.kernel.layout`."""
    choice: npt.NDArray[np.int64]
    """Capture-choice criteria ids in priority order."""


def _direction_lists(
    geometry: SquareGeometry, players: int, allowed: frozenset[Direction]
) -> tuple[Int8Array, Int8Array]:
    cells, directions = geometry.cell_count, len(geometry.steps)
    table = np.full((players, cells, directions), -1, dtype=np.int8)
    counts = np.zeros((players, cells), dtype=np.int8)
    for player in range(players):
        for cell in range(cells):
            for direction in range(directions):
                if geometry.rays[cell, direction, 0] < 0:
                    continue
                if geometry.direction_class(player, direction) in allowed:
                    table[player, cell, counts[player, cell]] = direction
                    counts[player, cell] += 1
    return table, counts


def _max_captures(geometry: SquareGeometry) -> int:
    """A safe bound on the pieces one capture takes: the moving piece needs one cell."""
    return geometry.cell_count - 1


@cache
def compile_tables(variant: Variant) -> Tables:
    """The kernel tables of ``variant`` (built once per variant)."""
    geometry = geometry_of(variant)
    players = 2
    cells = geometry.cell_count
    man_step, man_step_n = _direction_lists(geometry, players, variant.man_moves)
    man_capture, man_capture_n = _direction_lists(geometry, players, variant.man_captures)
    king_step, king_step_n = _direction_lists(geometry, players, variant.king_moves)
    king_capture, king_capture_n = _direction_lists(geometry, players, variant.king_captures)
    crown = np.zeros((players, cells), dtype=np.uint8)
    for player in range(players):
        row = geometry.crowning_row(player)
        for cell, (cell_row, _) in enumerate(geometry.coordinates):
            crown[player, cell] = cell_row == row
    rng = np.random.default_rng(20261121)
    top = np.iinfo(np.uint64).max
    zobrist = rng.integers(0, top, size=(cells, 2 * players + 1), dtype=np.uint64, endpoint=True)
    zobrist[:, 0] = 0
    zobrist_turn = rng.integers(0, top, size=players, dtype=np.uint64, endpoint=True)
    rules = np.zeros(L.R_SIZE, dtype=np.int64)
    rules[L.R_PLAYERS] = players
    rules[L.R_MAXC] = _max_captures(geometry)
    rules[L.R_KING_FLYING] = variant.king_range is Range.FLYING
    rules[L.R_LAND_NEXT] = variant.king_landing is Landing.NEXT
    rules[L.R_STOP_BEHIND_KING] = variant.king_stops_behind_king
    rules[L.R_MEN_TAKE_KINGS] = variant.men_capture_kings
    rules[L.R_PROMOTION] = _PROMOTION_IDS[variant.promotion]
    rules[L.R_IMMEDIATE_REMOVAL] = variant.removal is Removal.IMMEDIATE
    rules[L.R_NO_REVERSAL] = variant.no_reversal
    rules[L.R_LINE_MOVES] = variant.line_moves
    rules[L.R_KING_ORDER] = variant.king_order_matters
    choice = np.array([_CHOICE_IDS[c] for c in variant.choice], dtype=np.int64)
    opposite = np.array([geometry.opposite(d) for d in range(len(geometry.steps))], dtype=np.int8)
    return Tables(
        rays=geometry.rays,
        opposite=opposite,
        man_step=man_step,
        man_step_n=man_step_n,
        man_capture=man_capture,
        man_capture_n=man_capture_n,
        king_step=king_step,
        king_step_n=king_step_n,
        king_capture=king_capture,
        king_capture_n=king_capture_n,
        crown=crown,
        zobrist=zobrist,
        zobrist_turn=zobrist_turn,
        rules=rules,
        choice=choice,
    )
