"""Move notation (PDN 3.0): ``32-28`` for a step, ``28x19`` for a capture, and the full path
``28x19x10`` when the short form would fit two legal moves. Algebraic boards write
``a3-a4`` and ``d4xd6xf6``.
"""

from __future__ import annotations

import re
from functools import cache

from damier.geometry import Cell, Geometry

_SEPARATORS = re.compile(r"\s*[-x:]\s*", flags=re.IGNORECASE)


@cache
def public_names(geometry: Geometry) -> tuple[int | str, ...]:
    """Every cell's name as users see it (see :func:`square_name`)."""
    return tuple(square_name(geometry, cell) for cell in range(geometry.cell_count))


def square_name(geometry: Geometry, cell: Cell) -> int | str:
    """The name of a cell as users see it: a number on numbered boards, else ``"d4"``."""
    name = geometry.names[cell]
    return int(name) if geometry.numeric else name


def write_move(geometry: Geometry, path: tuple[Cell, ...], capture: bool) -> str:
    """Notation of the move along ``path`` (origin, landing cells...)."""
    separator = "x" if capture else "-"
    return separator.join(geometry.names[cell] for cell in path)


def split_move(geometry: Geometry, text: str) -> tuple[list[Cell], bool]:
    """The cells a move text names, and whether it was written as a capture.

    Raises ValueError naming the part of the text that is not a square.
    """
    cleaned = text.strip()
    parts = [part for part in _SEPARATORS.split(cleaned) if part]
    if len(parts) < 2:
        raise ValueError(f"{text!r} is not a move: write it as from-to or fromxto")
    cells = []
    for part in parts:
        try:
            cells.append(geometry.parse_square(part))
        except ValueError:
            raise ValueError(f"{part!r} in {text!r} is not a square of this board") from None
    return cells, "x" in cleaned.lower()
