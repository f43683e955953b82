"""What every drawing of a board needs from its geometry, whatever draws it (the platform's
board, SVG): each cell's chequer colour, the cells that take no piece, and centres."""

from __future__ import annotations

import dataclasses

from damier.geometry import (
    Geometry,
    HexGeometry,
    Point,
    RadialGeometry,
    SquareGeometry,
    geometry_of,
)
from damier.rules import Variant
from damier.rules.description import BoardKind


def centroid(points: tuple[Point, ...]) -> Point:
    """The mean of ``points`` (a cell's centre, from its outline)."""
    return sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points)


def cell_shade(geometry: Geometry, cell: int) -> int:
    """The chequer colour of a cell: light (0) or dark (1) squares (a radial board's cell is
    dark when its rank and file add up to an even number), three colours (0-2) on the
    hexagon."""
    if isinstance(geometry, SquareGeometry):
        row, column = geometry.coordinates[cell]
        return (row + column) % 2
    if isinstance(geometry, RadialGeometry):
        _, rank, file = geometry.coordinates[cell]
        return 1 - (rank + file) % 2
    if isinstance(geometry, HexGeometry):
        row, column = geometry.coordinates[cell]
        return (column - 3 * row) // 2 % 3
    return 1


def _key(polygon: tuple[Point, ...]) -> tuple[float, float]:
    """A cell's place, to match the cells of two geometries of one board."""
    x, y = centroid(polygon)
    return round(x, 3), round(y, 3)


def unplayable_polygons(variant: Variant) -> list[tuple[Point, ...]]:
    """The outlines of the cells that take no piece (the light squares of a diagonal
    board): the same board with every cell playable, less the playable ones."""
    playable = {_key(polygon) for polygon in geometry_of(variant).polygons}
    full = geometry_of(dataclasses.replace(variant, board=BoardKind.ALL))
    return [polygon for polygon in full.polygons if _key(polygon) not in playable]


def bounds(variant: Variant) -> tuple[float, float, float, float]:
    """The smallest box around the whole board, playable or not: (left, top, right, bottom)."""
    full = geometry_of(dataclasses.replace(variant, board=BoardKind.ALL))
    xs = [x for polygon in full.polygons for x, _ in polygon]
    ys = [y for polygon in full.polygons for _, y in polygon]
    return min(xs), min(ys), max(xs), max(ys)
