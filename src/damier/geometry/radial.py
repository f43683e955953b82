"""The radial boards R_n of RULES.md 12.2: n areas of 4x8 cells round a centre point.

Area ``a`` belongs to player ``a``. A cell is ``(area, rank, file)`` in its area's own frame
(rank 1 = the area's back row, files a..h from its owner's left). Ranks 4 of neighbouring
areas are glued at the seams, where a line's frame turns round; the dark cells d4 of every
area meet at the centre hub, where a diagonal line branches into every other area. For
n = 2 the board is exactly the 8x8 board.

Cells are named by their area's player letter and the local square: ``Wc3``, ``Rd4``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from damier.geometry.base import Cell, Point, parse_name
from damier.rules.description import PLAYER_LETTERS, Direction

RANKS, FILES = 4, 8

_DIAGONAL = ((-1, -1), (-1, 1), (1, -1), (1, 1))
_ORTHOGONAL = ((-1, 0), (1, 0), (0, -1), (0, 1))
_TO_CENTRE = 3  # the label of step (+1, +1): the one that meets the hub from d4


@dataclass(frozen=True, eq=False)
class RadialGeometry:
    """The board R_n, on its dark cells (diagonal play) or on all cells (orthogonal play)."""

    players: int
    dark_only: bool
    hub_opposite: bool
    """The hub leads only to the opposite area (option), not to every other area."""
    coordinates: tuple[tuple[int, int, int], ...]
    """``(area, rank, file)`` of each cell, ranks and files counted from 1."""
    steps: tuple[tuple[int, int], ...]
    """``(rank step, file step)`` of each direction label in a cell's own frame; the
    labels after the first four (diagonal boards) are the hub branches of step (+1, +1)."""
    branch_offsets: tuple[int, ...]
    """For each label, the area (relative to the cell's) a line through the hub enters."""
    rays: npt.NDArray[np.int16]
    shared: npt.NDArray[np.int8]
    areas: tuple[int, ...]
    names: tuple[str, ...]
    polygons: tuple[tuple[Point, ...], ...]

    @property
    def cell_count(self) -> int:
        """Number of playable cells."""
        return len(self.coordinates)

    @property
    def numeric(self) -> bool:
        """Names are area letter and square, never numbers."""
        return False

    @property
    def algebraic_names(self) -> tuple[str, ...]:
        """The names themselves: the board has one notation."""
        return self.names

    @property
    def direction_count(self) -> int:
        """Number of direction labels."""
        return len(self.steps)

    def direction_class(self, player: int, cell: Cell, direction: int) -> Direction:
        """Forward is towards the centre in the player's own area, and towards the back row
        of any other area; sideways is along the area's rank."""
        rank_step, file_step = self.steps[direction]
        ahead = rank_step if self.coordinates[cell][0] == player else -rank_step
        if file_step != 0 and rank_step != 0:
            return Direction.FORWARD_DIAGONAL if ahead > 0 else Direction.BACKWARD_DIAGONAL
        if rank_step == 0:
            return Direction.SIDEWAYS
        return Direction.FORWARD if ahead > 0 else Direction.BACKWARD

    def opposite(self, direction: int) -> int:
        """The label walking back along the line in the same frame (a hub branch's
        opposite is the step away from the centre)."""
        rank_step, file_step = self.steps[direction]
        return self.steps.index((-rank_step, -file_step))

    def crowns(self, player: int, cell: Cell) -> bool:
        """Rank 1 of any area but the player's own."""
        area, rank, _ = self.coordinates[cell]
        return rank == 1 and area != player

    def parse_square(self, text: str) -> Cell:
        """The cell named ``text``, e.g. ``"Bc3"``."""
        return parse_name(self, text)


def _step(
    n: int, cell: tuple[int, int, int], step: tuple[int, int]
) -> list[tuple[tuple[int, int, int], tuple[int, int]]]:
    """RULES.md 12.2's step function: the cells one step away along ``step`` (in the
    cell's frame), each with the step in the new cell's frame. Several at the hub."""
    area, rank, file = cell
    rank_step, file_step = step
    rank2, file2 = rank + rank_step, file + file_step
    if file2 < 1 or file2 > FILES or rank2 < 1:
        return []
    if rank2 <= RANKS:
        return [((area, rank2, file2), step)]
    if rank_step == 1 and file_step != 0 and {file, file2} == {4, 5}:
        hub_file = 4 if file == 4 else 5
        return [((other, RANKS, hub_file), (-1, -file_step)) for other in range(n) if other != area]
    neighbour = (area + 1) % n if file2 <= 4 else (area - 1) % n
    return [((neighbour, RANKS, FILES + 1 - file2), (-rank_step, -file_step))]


def _through_hub(cell: tuple[int, int, int], step: tuple[int, int]) -> bool:
    """Whether ``step`` from ``cell`` crosses the centre point (from d4 or e4, diagonally
    towards the centre)."""
    _, rank, file = cell
    rank_step, file_step = step
    return (
        rank == RANKS and rank_step == 1 and file_step != 0 and {file, file + file_step} == {4, 5}
    )


def _walk(
    n: int, start: tuple[int, int, int], step: tuple[int, int], offset: int
) -> tuple[list[tuple[int, int, int]], int]:
    """The line from ``start`` along ``step``; at the hub it enters area ``start + offset``
    (offset 0: the line stops there). Returns the cells met and how many of them come
    before the hub (all of them when the line does not cross it)."""
    cells: list[tuple[int, int, int]] = []
    before_hub = -1
    current, heading = start, step
    while True:
        nexts = _step(n, current, heading)
        if not nexts:
            break
        if _through_hub(current, heading):
            target = (current[0] + offset) % n
            nexts = [choice for choice in nexts if choice[0][0] == target and offset != 0]
            if not nexts:
                break
            before_hub = len(cells)
        current, heading = nexts[0]
        cells.append(current)
    return cells, len(cells) if before_hub < 0 else before_hub


def _is_dark(rank: int, file: int) -> bool:
    return (rank + file) % 2 == 0


def _corners(n: int, area: int, left: bool) -> tuple[Point, Point, Point, Point]:
    """The quadrant's corners (back-row outer, back-row middle, seam outer, centre), on a
    regular 2n-gon with area 0's back row at the bottom, areas clockwise."""
    sides = 2 * n
    radius = FILES / (2 * math.sin(math.pi / sides))  # every side is 8 cells long

    def side_angle(k: int) -> float:  # direction of the midpoint of side k (math, y up)
        return -math.pi / 2 - 2 * math.pi * k / sides

    def midpoint(k: int) -> Point:
        a = side_angle(k)
        apothem = radius * math.cos(math.pi / sides)
        return (apothem * math.cos(a), -apothem * math.sin(a))

    def vertex(k: int, after: bool) -> Point:
        a = side_angle(k) + (-1 if after else 1) * math.pi / sides
        return (radius * math.cos(a), -radius * math.sin(a))

    back = 2 * area
    if left:
        seam = (back + 1) % sides
        return vertex(back, after=True), midpoint(back), midpoint(seam), (0.0, 0.0)
    seam = (back - 1) % sides
    return vertex(back, after=False), midpoint(back), midpoint(seam), (0.0, 0.0)


def _bilinear(corners: tuple[Point, Point, Point, Point], u: float, v: float) -> Point:
    """The point at (u across the files from the outer edge, v up the ranks) in a quadrant."""
    outer, middle, seam, centre = corners
    x = (1 - u) * (1 - v) * outer[0] + u * (1 - v) * middle[0] + (1 - u) * v * seam[0]
    y = (1 - u) * (1 - v) * outer[1] + u * (1 - v) * middle[1] + (1 - u) * v * seam[1]
    return (x + u * v * centre[0], y + u * v * centre[1])


def _polygon(n: int, area: int, rank: int, file: int) -> tuple[Point, ...]:
    left = file <= 4
    corners = _corners(n, area, left)
    across = file - 1 if left else FILES - file  # 0 on the outer file of the quadrant
    u0, u1 = across / 4, (across + 1) / 4
    v0, v1 = (rank - 1) / 4, rank / 4
    return tuple(
        (round(x, 4), round(y, 4))
        for x, y in (_bilinear(corners, u, v) for u, v in ((u0, v0), (u1, v0), (u1, v1), (u0, v1)))
    )


@cache
def radial_geometry(players: int, dark_only: bool, hub_opposite: bool = False) -> RadialGeometry:
    """The geometry of R_n (computed once per board)."""
    n = players
    coordinates = tuple(
        (area, rank, file)
        for area in range(n)
        for rank in range(1, RANKS + 1)
        for file in range(1, FILES + 1)
        if not dark_only or _is_dark(rank, file)
    )
    index = {coordinate: cell for cell, coordinate in enumerate(coordinates)}
    if dark_only:
        steps = list(_DIAGONAL)
        offsets = [0, 0, 0, n // 2 if hub_opposite else 1]
        if not hub_opposite:
            for offset in range(2, n):
                steps.append((1, 1))
                offsets.append(offset)
    else:
        steps, offsets = list(_ORTHOGONAL), [0, 0, 0, 0]
    longest = 2 * FILES
    rays = np.full((len(coordinates), len(steps), longest), -1, dtype=np.int16)
    shared = np.zeros((len(coordinates), len(steps)), dtype=np.int8)
    for cell, coordinate in enumerate(coordinates):
        for label, (step, offset) in enumerate(zip(steps, offsets, strict=True)):
            line, before_hub = _walk(n, coordinate, step, offset)
            if label > _TO_CENTRE and before_hub == len(line):
                continue  # a branch label on a line that never reaches the hub
            for i, met in enumerate(line):
                rays[cell, label, i] = index[met]
            if label > _TO_CENTRE:
                shared[cell, label] = before_hub
    names = tuple(f"{PLAYER_LETTERS[a]}{chr(ord('a') + f - 1)}{r}" for a, r, f in coordinates)
    return RadialGeometry(
        players=n,
        dark_only=dark_only,
        hub_opposite=hub_opposite,
        coordinates=coordinates,
        steps=tuple(steps),
        branch_offsets=tuple(offsets),
        rays=rays,
        shared=shared,
        areas=tuple(a for a, _, _ in coordinates),
        names=names,
        polygons=tuple(_polygon(n, a, r, f) for a, r, f in coordinates),
    )
