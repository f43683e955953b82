"""Rectangular boards: the cells, their names, and the lines through them.

Cells are numbered 0..n-1 row by row from the row farthest from White (row 0), left to
right as White sees the board; only playable squares are cells. Every other layer speaks of
cells; names exist for people and files. With ``corner`` > 0 the corners are cut away: the
cross-shaped board of four players (an 8x8 centre and four 8x3 arms, RULES.md 12.2).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

import numpy as np
import numpy.typing as npt

from damier.geometry.base import Cell, Point, no_sharing, parse_name
from damier.rules.description import BoardKind, Direction, Numbering

# The eight line directions as (row step, column step); row 0 is the far side from White.
# On dark-square boards an orthogonal line skips the light square between two dark ones,
# which is how Frisian's orthogonal captures see the board.
_DIAGONAL_STEPS = ((-1, -1), (-1, 1), (1, -1), (1, 1))
_ORTHOGONAL_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
# Each player's forward step: two players face each other; four players sit on the arms of
# the cross, clockwise from the bottom (bottom, left, top, right).
_FORWARD = {2: ((-1, 0), (1, 0)), 4: ((-1, 0), (0, 1), (1, 0), (0, -1))}


@dataclass(frozen=True, eq=False)
class SquareGeometry:
    """A ``width`` x ``height`` board and the tables every layer draws from."""

    width: int
    height: int
    kind: BoardKind
    numbering: Numbering
    coordinates: tuple[tuple[int, int], ...]
    """(row, column) of each cell."""
    steps: tuple[tuple[int, int], ...]
    """(row step, column step) of each line direction."""
    rays: npt.NDArray[np.int16]
    """``rays[cell, direction]``: the cells met walking from ``cell``, padded with -1."""
    names: tuple[str, ...]
    """Each cell's name in the board's own numbering."""
    algebraic_names: tuple[str, ...]
    """Each cell's algebraic name (a1 = White's near-left corner)."""
    corner: int = 0
    """Side of the square cut from each corner (3 on the four-player cross)."""
    players: int = 2
    """Players seated round the board (2, or 4 on the cross)."""
    shared: npt.NDArray[np.int8] = field(default_factory=lambda: no_sharing(0, 0))
    """Lines never branch on a rectangular board: all zero."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "shared", no_sharing(self.cell_count, len(self.steps)))

    @property
    def direction_count(self) -> int:
        """Number of direction labels: four diagonal, then four orthogonal."""
        return len(self.steps)

    @property
    def areas(self) -> tuple[int, ...]:
        """One frame for the whole board."""
        return (0,) * self.cell_count

    @property
    def polygons(self) -> tuple[tuple[Point, ...], ...]:
        """Unit squares at (column, row)."""
        return tuple(
            ((c, r), (c + 1.0, r), (c + 1.0, r + 1.0), (c, r + 1.0)) for r, c in self.coordinates
        )

    @property
    def cell_count(self) -> int:
        """Number of playable squares."""
        return len(self.coordinates)

    @property
    def numeric(self) -> bool:
        """Whether square names are numbers (FEN may then use ranges such as ``31-50``)."""
        return self.numbering is not Numbering.ALGEBRAIC

    def direction_class(self, player: int, cell: Cell, direction: int) -> Direction:
        """What ``direction`` is for ``player``: forward, sideways, backward-diagonal, ..."""
        row_step, column_step = self.steps[direction]
        forward_row, forward_column = _FORWARD[self.players][player]
        ahead = row_step * forward_row + column_step * forward_column
        if column_step != 0 and row_step != 0:
            return Direction.FORWARD_DIAGONAL if ahead > 0 else Direction.BACKWARD_DIAGONAL
        if ahead == 0:
            return Direction.SIDEWAYS
        return Direction.FORWARD if ahead > 0 else Direction.BACKWARD

    def opposite(self, direction: int) -> int:
        """The direction that walks back along the same line."""
        row_step, column_step = self.steps[direction]
        return self.steps.index((-row_step, -column_step))

    def crowning_row(self, player: int) -> int:
        """The row on which ``player``'s men are crowned (two players)."""
        return 0 if player == 0 else self.height - 1

    def crowns(self, player: int, cell: Cell) -> bool:
        """Two players: the far row. The cross: the outer edge of any other player's arm."""
        row, column = self.coordinates[cell]
        if self.players == 2:
            return row == self.crowning_row(player)
        last = self.height - 1
        outer_edges = (row == last, column == 0, row == 0, column == self.width - 1)
        return any(on and arm != player for arm, on in enumerate(outer_edges))

    @property
    def main_diagonal(self) -> frozenset[Cell]:
        """The long diagonal: from White's near-left corner, or near-right on a mirrored
        board (the "main road" of the draw rules)."""
        last = self.height - 1
        if self.kind is BoardKind.MIRRORED:
            on_it = [r == c for r, c in self.coordinates]
        else:
            on_it = [r + c == last for r, c in self.coordinates]
        return frozenset(cell for cell, yes in enumerate(on_it) if yes)

    def cell_at(self, row: int, column: int) -> Cell | None:
        """The cell on (row, column), or None for an unplayable or off-board square."""
        return self._cell_index().get((row, column))

    def _cell_index(self) -> dict[tuple[int, int], Cell]:
        return _coordinate_index(self)

    def parse_square(self, text: str) -> Cell:
        """The cell named ``text`` in this board's numbering or in algebraic notation."""
        return parse_name(self, text)


@cache
def _coordinate_index(geometry: SquareGeometry) -> dict[tuple[int, int], Cell]:
    return {coordinate: cell for cell, coordinate in enumerate(geometry.coordinates)}


def _playable(kind: BoardKind, height: int, width: int, corner: int, row: int, column: int) -> bool:
    if min(row, height - 1 - row) < corner and min(column, width - 1 - column) < corner:
        return False
    if kind is BoardKind.ALL:
        return True
    # White's near-left square (row height-1, column 0) is dark on a DARK board.
    dark_near_left = (row + column) % 2 == (height - 1) % 2
    return dark_near_left if kind is BoardKind.DARK else not dark_near_left


@cache
def square_geometry(
    width: int,
    height: int,
    kind: BoardKind,
    numbering: Numbering,
    corner: int = 0,
    players: int = 2,
) -> SquareGeometry:
    """The geometry of a rectangular board (computed once per shape)."""
    coordinates = tuple(
        (row, column)
        for row in range(height)
        for column in range(width)
        if _playable(kind, height, width, corner, row, column)
    )
    stride = 1 if kind is BoardKind.ALL else 2
    steps = _DIAGONAL_STEPS + tuple((dr * stride, dc * stride) for dr, dc in _ORTHOGONAL_STEPS)
    index = {coordinate: cell for cell, coordinate in enumerate(coordinates)}
    longest = max(width, height)
    rays = np.full((len(coordinates), len(steps), longest), -1, dtype=np.int16)
    for cell, (row, column) in enumerate(coordinates):
        for direction, (dr, dc) in enumerate(steps):
            r, c, length = row + dr, column + dc, 0
            while (r, c) in index:
                rays[cell, direction, length] = index[(r, c)]
                r, c, length = r + dr, c + dc, length + 1
    algebraic = tuple(f"{chr(ord('a') + column)}{height - row}" for row, column in coordinates)
    count = len(coordinates)
    if numbering is Numbering.ROW_BY_ROW:
        names = tuple(str(cell + 1) for cell in range(count))
    elif numbering is Numbering.SPANISH:
        names = tuple(str(count - cell) for cell in range(count))
    else:
        names = algebraic
    return SquareGeometry(
        width=width,
        height=height,
        kind=kind,
        numbering=numbering,
        coordinates=coordinates,
        steps=steps,
        rays=rays,
        names=names,
        algebraic_names=algebraic,
        corner=corner,
        players=players,
    )
