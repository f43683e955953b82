"""Board topologies compiled into tables: cells, names, lines, drawable cell outlines."""

from damier.geometry.base import Cell, Geometry, Point
from damier.geometry.hexagon import HexGeometry, hex_geometry
from damier.geometry.radial import RadialGeometry, radial_geometry
from damier.geometry.square import SquareGeometry, square_geometry
from damier.rules.description import BoardKind, Topology, Variant


def geometry_of(variant: Variant) -> Geometry:
    """The board a variant is played on."""
    if variant.topology is Topology.RADIAL:
        return radial_geometry(
            variant.players, variant.board is not BoardKind.ALL, variant.hub_opposite
        )
    if variant.topology is Topology.HEX:
        return hex_geometry()
    return square_geometry(
        variant.width,
        variant.height,
        variant.board,
        variant.numbering,
        variant.corner,
        variant.players,
    )


__all__ = [
    "Cell",
    "Geometry",
    "HexGeometry",
    "Point",
    "RadialGeometry",
    "SquareGeometry",
    "geometry_of",
    "hex_geometry",
    "radial_geometry",
    "square_geometry",
]
