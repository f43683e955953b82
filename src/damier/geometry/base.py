"""What every board geometry offers the layers above it.

A geometry is cells, their names, the lines through them (rays, one per direction label),
what each direction is for each player on each cell, where each player's men are crowned,
and a polygon per cell for drawing. Rectangular boards, the radial multi-player boards and
the hexagonal board all answer the same questions, so the kernel, notation and renderers
never ask which board they are on.
"""

from __future__ import annotations

from functools import cache
from typing import Protocol

import numpy as np
import numpy.typing as npt

from damier.rules.description import Direction

Cell = int
"""Index of a playable cell, 0..n-1."""

Point = tuple[float, float]
"""A point in board drawing coordinates: x to the right, y downwards, player 0 at the bottom."""


class Geometry(Protocol):
    """The board of a variant, compiled into tables (see the module docstring). Every
    member is read-only: geometries are frozen and shared."""

    def __hash__(self) -> int: ...

    @property
    def cell_count(self) -> int:
        """Number of playable cells."""

    @property
    def numeric(self) -> bool:
        """Whether cell names are numbers (FEN may then use ranges such as ``31-50``)."""

    @property
    def names(self) -> tuple[str, ...]:
        """Each cell's name in the board's own notation."""

    @property
    def algebraic_names(self) -> tuple[str, ...]:
        """Each cell's second accepted name (algebraic on numbered boards)."""

    @property
    def rays(self) -> npt.NDArray[np.int16]:
        """``rays[cell, d, i]``: the i-th cell walking from ``cell`` along direction label
        ``d``; -1 past the edge."""

    @property
    def shared(self) -> npt.NDArray[np.int8]:
        """``shared[cell, d]``: how many leading cells of ray ``d`` another label of the same
        cell already walks (a line that branches at the centre hub); moves to them belong
        to that label."""

    @property
    def areas(self) -> tuple[int, ...]:
        """The area (local frame) of each cell: a line entering another area turns round."""

    @property
    def polygons(self) -> tuple[tuple[Point, ...], ...]:
        """The outline of each cell, for every renderer."""

    @property
    def direction_count(self) -> int:
        """Number of direction labels."""

    def direction_class(self, player: int, cell: Cell, direction: int) -> Direction | None:
        """What ``direction`` is for ``player``'s piece on ``cell`` (forward, sideways, ...)."""

    def opposite(self, direction: int) -> int:
        """The label that walks back along the same line, within one area."""

    def crowns(self, player: int, cell: Cell) -> bool:
        """Whether ``player``'s man is crowned when its move ends on ``cell``."""

    def parse_square(self, text: str) -> Cell:
        """The cell named ``text``; ValueError if there is none."""


@cache
def name_index(geometry: Geometry) -> dict[str, Cell]:
    """Every accepted cell name (lower case) and its cell."""
    index = {name.lower(): cell for cell, name in enumerate(geometry.algebraic_names)}
    index.update({name.lower(): cell for cell, name in enumerate(geometry.names)})
    return index


def parse_name(geometry: Geometry, text: str) -> Cell:
    """The cell named ``text`` (case-insensitive), or ValueError."""
    key = text.strip().lower()
    index = name_index(geometry)
    if key in index:
        return index[key]
    raise ValueError(f"no square {text!r} on this board")


def no_sharing(cells: int, directions: int) -> npt.NDArray[np.int8]:
    """The ``shared`` table of a board whose lines never branch."""
    return np.zeros((cells, directions), dtype=np.int8)
