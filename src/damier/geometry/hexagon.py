"""The hexagonal board of three players (RULES.md decision 6): a hexagon of side 5, 61
hexagonal cells in nine horizontal rows, player 0 along the bottom edge and the others on
the alternate edges, clockwise.

A cell is named by its row from player 0's edge (1..9) and its place in the row from the
left as player 0 sees it: ``a1``..``e1``, ``a5``..``i5`` (the centre is ``e5``), ``a9``..``e9``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from damier.geometry.base import Cell, Point, no_sharing, parse_name
from damier.rules.description import Direction

SIDE = 5
ROWS = 2 * SIDE - 1

# The six neighbour steps as (row step, doubled column step), counter-clockwise from east:
# E, NE, NW, W, SW, SE. Label k points at 60k degrees.
_STEPS = ((0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1))


def _row_length(row: int) -> int:
    return SIDE + min(row, ROWS - 1 - row)


def _inward_angle(player: int) -> float:
    """Degrees of the direction from the player's edge towards the centre (player 0: up)."""
    return 90.0 - 120.0 * player


@dataclass(frozen=True, eq=False)
class HexGeometry:
    """The 61-cell hexagon; every direction exists on every cell, no line branches."""

    coordinates: tuple[tuple[int, int], ...]
    """``(row, doubled column)`` of each cell: rows from player 0's edge, columns from the
    centre line, in half cells."""
    rays: npt.NDArray[np.int16]
    shared: npt.NDArray[np.int8]
    names: tuple[str, ...]
    polygons: tuple[tuple[Point, ...], ...]
    edges: tuple[frozenset[Cell], ...]
    """The cells of each edge; edge ``k``'s outward normal points at ``60k - 30`` degrees
    (5: the bottom edge)."""
    players: int = 3
    steps: tuple[tuple[int, int], ...] = _STEPS

    @property
    def cell_count(self) -> int:
        """61."""
        return len(self.coordinates)

    @property
    def numeric(self) -> bool:
        """Names are letter and row."""
        return False

    @property
    def algebraic_names(self) -> tuple[str, ...]:
        """The names themselves: the board has one notation."""
        return self.names

    @property
    def direction_count(self) -> int:
        """Six."""
        return len(_STEPS)

    @property
    def areas(self) -> tuple[int, ...]:
        """One frame for the whole board."""
        return (0,) * self.cell_count

    def direction_class(self, player: int, cell: Cell, direction: int) -> Direction:
        """The two neighbours towards the opposite edge are forward, the two along the
        player's rows sideways, the other two backward."""
        difference = abs((60.0 * direction - _inward_angle(player) + 180.0) % 360.0 - 180.0)
        if difference < 60:
            return Direction.FORWARD
        if difference < 120:
            return Direction.SIDEWAYS
        return Direction.BACKWARD

    def opposite(self, direction: int) -> int:
        """The step pointing the other way."""
        return (direction + 3) % 6

    def home_edge(self, player: int) -> frozenset[Cell]:
        """The edge the player starts along (player 0: the bottom, then clockwise)."""
        return self.edges[(5 - 2 * player) % 6]

    def home_rows(self, player: int, rows: int) -> frozenset[Cell]:
        """The cells of the ``rows`` rows nearest the player's edge, parallel to it."""
        normal = 60.0 * ((5 - 2 * player) % 6) - 30.0
        reach = [_reach(row, column, normal) for row, column in self.coordinates]
        levels = sorted({round(r, 6) for r in reach}, reverse=True)[:rows]
        return frozenset(c for c, r in enumerate(reach) if round(r, 6) in levels)

    def crowns(self, player: int, cell: Cell) -> bool:
        """The empty edge facing the player's own."""
        return cell in self.edges[(8 - 2 * player) % 6]

    def parse_square(self, text: str) -> Cell:
        """The cell named ``text``, e.g. ``"e5"``."""
        return parse_name(self, text)


def _reach(row: int, column: int, angle: float) -> float:
    """How far a cell centre lies along the direction ``angle`` (degrees) from the centre."""
    x, y = column / 2, (row - SIDE + 1) * math.sqrt(3) / 2
    return x * math.cos(math.radians(angle)) + y * math.sin(math.radians(angle))


def _edges(coordinates: tuple[tuple[int, int], ...]) -> tuple[frozenset[Cell], ...]:
    """The cells of the six edges: those farthest along each edge's outward normal."""
    edges = []
    for k in range(6):
        reach = [_reach(row, column, 60.0 * k - 30.0) for row, column in coordinates]
        far = max(reach)
        edges.append(frozenset(c for c, r in enumerate(reach) if r > far - 1e-6))
    return tuple(edges)


@cache
def hex_geometry() -> HexGeometry:
    """The three-player hexagon (computed once)."""
    coordinates = tuple(
        (row, 2 * place - (_row_length(row) - 1))
        for row in range(ROWS)
        for place in range(_row_length(row))
    )
    index = {coordinate: cell for cell, coordinate in enumerate(coordinates)}
    rays = np.full((len(coordinates), len(_STEPS), ROWS - 1), -1, dtype=np.int16)
    for cell, (row, column) in enumerate(coordinates):
        for label, (row_step, column_step) in enumerate(_STEPS):
            r, c, i = row + row_step, column + column_step, 0
            while (r, c) in index:
                rays[cell, label, i] = index[(r, c)]
                r, c, i = r + row_step, c + column_step, i + 1
    names = tuple(
        f"{chr(ord('a') + (column + _row_length(row) - 1) // 2)}{row + 1}"
        for row, column in coordinates
    )
    polygons = tuple(
        tuple(
            (
                round(column * math.sqrt(3) / 2 + math.cos(math.radians(30 + 60 * k)), 4),
                round(-row * 1.5 + math.sin(math.radians(30 + 60 * k)), 4),
            )
            for k in range(6)
        )
        for row, column in coordinates
    )
    return HexGeometry(
        coordinates=coordinates,
        rays=rays,
        shared=no_sharing(len(coordinates), len(_STEPS)),
        names=names,
        polygons=polygons,
        edges=_edges(coordinates),
    )
