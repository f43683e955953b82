"""Move notation (PDN 3.0): ``32-28`` for a step, ``28x19`` for a capture, and the full path
``28x19x10`` when the short form would fit two legal moves. Algebraic boards write
``a3-a4`` and ``d4xd6xf6``.
"""

from __future__ import annotations

import re
from functools import cache

from damier.geometry import Cell, Geometry

_SQUARE = re.compile(r"[A-Za-z]*[0-9]+")
"""A square's name as it may stand in a move: letters (a column, an area) then a number.
No name begins with a separator: columns run from a to p, areas are player letters."""
_LETTERS = re.compile(r"[A-Za-z]+")
_SEPARATORS = "-x"


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

    The text is a square, then squares each after a separator, all separators of one kind
    (``-`` or ``x``, PDN's), and nothing else: no spaces, no marks, no empty squares.
    Raises ValueError naming what is wrong.
    """
    if not text:
        raise ValueError("an empty move text: write it as from-to or fromxto")
    names: list[str] = []
    separator = ""
    at = 0
    while True:
        square = _SQUARE.match(text, at)
        if square is None or text[at].lower() in _SEPARATORS:
            raise ValueError(_no_square(text, at))
        names.append(square.group())
        at = square.end()
        if at == len(text):
            break
        mark = text[at].lower()
        if mark not in _SEPARATORS:
            raise ValueError(f"{text[at]!r} in {text!r} is neither a square nor a separator")
        if at + 1 == len(text) or text[at + 1].lower() in _SEPARATORS:
            # the nearer fault first: "2-11x-22" has two separators in a row before it
            # mixes them
            raise ValueError(_no_square(text, at + 1))
        if separator and mark != separator:
            raise ValueError(f"{text!r} mixes the separators '-' and 'x': use one kind")
        separator = mark
        at += 1
    if len(names) < 2:
        raise ValueError(f"{text!r} is not a move: write it as from-to or fromxto")
    cells = []
    for name in names:
        try:
            cells.append(geometry.parse_square(name))
        except ValueError:
            raise ValueError(f"{name!r} in {text!r} is not a square of this board") from None
    return cells, separator == "x"


def _no_square(text: str, at: int) -> str:
    """Why no square name starts at ``at`` of the move text ``text``."""
    if at == len(text):
        return f"{text!r} ends with a separator: a square must follow it"
    if text[at].lower() in _SEPARATORS:
        if at == 0:
            return f"{text!r} starts with a separator: it must start with a square"
        return f"{text!r} has two separators in a row: one stands between two squares"
    letters = _LETTERS.match(text, at)
    end = letters.end() if letters else at
    if end == len(text):
        return f"{text[at:]!r} in {text!r} is not a square: a square's name ends in a number"
    return f"{text[end]!r} in {text!r} is not part of a square's name"
