"""The board as an SVG picture, for notebooks, documents and web pages:
``svg(board, lastmove=move, arrows=[move], flipped=True)``; a :class:`~damier.board.Board`
shows itself this way in Jupyter (``_repr_svg_``).

Every board is drawn from its geometry's cell outlines (:mod:`damier.render.shapes`), so
the square boards, the radial multi-player boards and the hexagon come out alike: dark and
light cells, each player's men as discs of his colour and kings with a crown ring, the
square numbers (numbered boards) or the files and ranks (algebraic ones) around them, and
the cell names on the radial boards and the hexagon. Square boards are drawn with White at
the bottom, as their names are read (``flipped``: Black).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from damier.geometry import Point, SquareGeometry
from damier.render.shapes import bounds, cell_shade, centroid, unplayable_polygons

if TYPE_CHECKING:  # the board draws itself with this module: no import back at run time
    from damier.board import Board, Move, Square

SHADES = ("#f0d9b5", "#b58863", "#d4a76a")
"""Light, dark and (on the hexagon) the third cell colour."""
PIECES = (
    ("#f7f3ea", "#5a5046"),
    ("#2b2b2b", "#000000"),
    ("#c62828", "#6d1010"),
    ("#2e7d32", "#12421a"),
    ("#f9c31f", "#8a6a00"),
    ("#7b1fa2", "#3d0a52"),
    ("#ef6c00", "#7a3700"),
    ("#00838f", "#00454c"),
)
"""Each player's piece colour and its outline, in turn order (White, Black, Red, ...)."""
DEAD = ("#9e9e9e", "#555555")
"""The pieces an eliminated player left on the board."""
HIGHLIGHT = "#cdd26a"
"""The cells of the last move."""
ARROW = "#15781b"
MARGIN = 0.45
"""The frame around the board, in cells (the files and ranks are written in it)."""


def svg(
    board: Board,
    *,
    size: int = 400,
    flipped: bool = False,
    lastmove: Move | None = None,
    arrows: Iterable[Move | tuple[Square, Square]] = (),
    coordinates: bool = True,
) -> str:
    """``board`` as an SVG document ``size`` pixels wide. ``lastmove``: its cells are
    highlighted; ``arrows``: moves (along their path) or (from, to) pairs of squares
    (``(32, 28)``, ``("c3", "d4")``), drawn as arrows; ``coordinates``: the square
    numbers, files and ranks, or cell names."""
    geometry = board.geometry
    variant = board.variant
    left, top, right, bottom = bounds(variant)
    frame = MARGIN if coordinates and isinstance(geometry, SquareGeometry) else 0.1
    left, top, right, bottom = left - frame, top - frame, right + frame, bottom + frame
    width, height = right - left, bottom - top
    pixels = size * height / width

    def turn(point: Point) -> Point:  # half a turn about the board's centre
        x, y = point
        return (left + right - x, top + bottom - y) if flipped else (x, y)

    def outline(polygon: Sequence[Point]) -> str:
        return " ".join(f"{x:.3f},{y:.3f}" for x, y in map(turn, polygon))

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{size}" '
        f'height="{pixels:.0f}" viewBox="{left:.3f} {top:.3f} {width:.3f} {height:.3f}">',
        f"<title>{escape(variant.title)}: {escape(board.fen)}</title>",
        f'<rect x="{left:.3f}" y="{top:.3f}" width="{width:.3f}" height="{height:.3f}" '
        'fill="#6b4f35"/>',
    ]
    for polygon in unplayable_polygons(variant):
        parts.append(f'<polygon class="light" points="{outline(polygon)}" fill="{SHADES[0]}"/>')
    cell_of = {  # a square by its name or its second name (``32`` or ``c3``)
        name: cell
        for names in (geometry.algebraic_names, geometry.names)
        for cell, name in enumerate(names)
    }

    def cell(square: Square) -> int:
        if str(square) not in cell_of:
            raise ValueError(f"no square {square!r} on the {variant.title} board")
        return cell_of[str(square)]

    path = {cell(square) for square in lastmove.path} if lastmove is not None else set()
    for index, polygon in enumerate(geometry.polygons):
        fill = HIGHLIGHT if index in path else SHADES[cell_shade(geometry, index)]
        parts.append(f'<polygon class="cell" points="{outline(polygon)}" fill="{fill}"/>')
    if coordinates:
        parts.extend(_labels(board, turn))
    players = variant.players
    for index, code in enumerate(board.cells):
        if code:
            x, y = turn(centroid(geometry.polygons[index]))
            parts.append(_piece(int(code), players, x, y, _radius(geometry.polygons[index])))
    for arrow in arrows:
        squares = arrow if isinstance(arrow, tuple) else arrow.path
        points = [turn(centroid(geometry.polygons[cell(s)])) for s in squares]
        parts.append(_arrow(points))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _radius(polygon: Sequence[Point]) -> float:
    """A disc that fits the cell: 40% of its shorter extent."""
    xs = [x for x, _ in polygon]
    ys = [y for _, y in polygon]
    return 0.4 * min(max(xs) - min(xs), max(ys) - min(ys))


def _piece(code: int, players: int, x: float, y: float, radius: float) -> str:
    player = (code - 1) // 2
    fill, stroke = PIECES[player] if player < players else DEAD
    king = code % 2 == 0
    shape = (
        f'<circle class="{"king" if king else "man"}" cx="{x:.3f}" cy="{y:.3f}" '
        f'r="{radius:.3f}" fill="{fill}" stroke="{stroke}" stroke-width="{radius * 0.1:.3f}"/>'
    )
    if king:  # a crown: a ring of the outline's colour inside the disc
        shape += (
            f'<circle cx="{x:.3f}" cy="{y:.3f}" r="{radius * 0.55:.3f}" fill="none" '
            f'stroke="{stroke}" stroke-width="{radius * 0.16:.3f}"/>'
        )
    return shape


def _labels(board: Board, turn: Callable[[Point], Point]) -> list[str]:
    """Files and ranks in the frame (algebraic square boards), else each cell's name: in
    the corner of a square (the square numbers), in the middle of other cells."""
    geometry = board.geometry
    labels = []
    if isinstance(geometry, SquareGeometry) and not geometry.numeric:
        size, colour = MARGIN * 0.6, SHADES[0]
        for column in range(geometry.width):
            x, _ = turn((column + 0.5, 0.0))
            labels.append(_text(chr(ord("a") + column), x, geometry.height + size, size, colour))
        for row in range(geometry.height):
            _, y = turn((0.0, row + 0.5))
            labels.append(
                _text(str(geometry.height - row), -MARGIN / 2, y + size / 3, size, colour)
            )
        return labels
    for cell, polygon in enumerate(geometry.polygons):
        corners = [turn(point) for point in polygon]
        xs = [x for x, _ in corners]
        ys = [y for _, y in corners]
        extent = min(max(xs) - min(xs), max(ys) - min(ys))
        if isinstance(geometry, SquareGeometry):  # in the corner, by a piece's edge
            x, y, anchor = min(xs) + 0.06, min(ys) + 0.22, "start"
        else:
            (x, y), anchor = centroid(tuple(corners)), "middle"
            y += extent * 0.1
        labels.append(_text(geometry.names[cell], x, y, extent * 0.22, "#3a2a1a", anchor))
    return labels


def _text(text: str, x: float, y: float, size: float, fill: str, anchor: str = "middle") -> str:
    return (
        f'<text x="{x:.3f}" y="{y:.3f}" font-size="{size:.3f}" font-family="sans-serif" '
        f'text-anchor="{anchor}" fill="{fill}">{escape(text)}</text>'
    )


def _arrow(points: Sequence[Point]) -> str:
    """A line through ``points`` with a head at the last, drawn a little short of it."""
    (x0, y0), (x1, y1) = points[-2], points[-1]
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    tip = (x1 - ux * 0.15, y1 - uy * 0.15)
    base = (tip[0] - ux * 0.35, tip[1] - uy * 0.35)
    wing = (-uy * 0.2, ux * 0.2)
    line = " ".join(f"{x:.3f},{y:.3f}" for x, y in (*points[:-1], base))
    head = (
        f"{tip[0]:.3f},{tip[1]:.3f} {base[0] + wing[0]:.3f},{base[1] + wing[1]:.3f} "
        f"{base[0] - wing[0]:.3f},{base[1] - wing[1]:.3f}"
    )
    return (
        f'<g class="arrow" opacity="0.8"><polyline points="{line}" fill="none" stroke="{ARROW}" '
        f'stroke-width="0.15" stroke-linejoin="round"/>'
        f'<polygon points="{head}" fill="{ARROW}"/></g>'
    )
