"""Board topologies compiled into tables: cells, names, lines."""

from damier.geometry.square import Cell, SquareGeometry, square_geometry
from damier.rules.description import Variant


def geometry_of(variant: Variant) -> SquareGeometry:
    """The board a variant is played on."""
    return square_geometry(variant.width, variant.height, variant.board, variant.numbering)


__all__ = ["Cell", "SquareGeometry", "geometry_of", "square_geometry"]
