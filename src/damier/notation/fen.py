"""FEN as PDN 3.0 writes it: ``W:W31-50:B1-20``, ``B:WK4,21-32:B1-12``, ``W:Wa2,b2:Ba7``.

Multi-player boards use one field per player, each opened by the player's letter (W, B, R,
G, Y, P, O, C in turn order), and an ``X`` field for dead pieces:
``R:WWa1,Wc1:BBa1:RKRd4``.

Reading is strict: any error names the field and what is wrong with it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

import numpy as np
import numpy.typing as npt

from damier.errors import FenError
from damier.geometry import Geometry, SquareGeometry, geometry_of
from damier.geometry.base import name_index
from damier.rules.description import PLAYER_LETTERS, Variant

DEAD_LETTER = "X"
"""FEN letter of the dead pieces of eliminated players (multi-player option)."""


def letters(variant: Variant) -> str:
    """The FEN letters of the variant's players, in turn order."""
    return PLAYER_LETTERS[: variant.players]


_RANGE = re.compile(r"(\d+)-(\d+)")
"""A range of numbered squares, ``31-50``."""
_TAG = re.compile(r'\[\s*FEN\s+"(.*)"\s*\]', flags=re.DOTALL)
"""A FEN given as its PDN tag."""


def _man(player: int) -> int:
    return 2 * player + 1


def _expand(geometry: Geometry, token: str, letter: str) -> list[int]:
    """Cells named by one comma-separated token that is not a square name: on numbered
    boards a range such as ``31-50``; anything else is an error naming the token."""
    field = f"the {letter} pieces"
    match = _RANGE.fullmatch(token) if geometry.numeric else None
    if match:
        low, high = int(match[1]), int(match[2])
        if low > high:
            raise FenError(f"range {token!r} in {field} runs backwards")
        numbered = _numbered(geometry)
        if low >= 1 and high < len(numbered):
            cells = _ranges(geometry)[token] = numbered[low : high + 1]
            return cells
        return [_cell(geometry, str(n), field) for n in range(low, high + 1)]
    return [_cell(geometry, token, field)]


@cache
def _ranges(geometry: Geometry) -> dict[str, list[int]]:
    """The cells of each range of squares read so far on ``geometry`` (``"31-50"``)."""
    return {}


@cache
def _numbered(geometry: Geometry) -> list[int]:
    """``numbered[n]``: the cell numbered ``n`` on a numbered board (index 0 unused)."""
    cells = [-1] * (geometry.cell_count + 1)
    for cell, name in enumerate(geometry.names):
        cells[int(name)] = cell
    return cells


@cache
def _crowning(geometry: Geometry, players: int) -> tuple[frozenset[int], ...]:
    """Each player's crowning cells, where a FEN may not put his men."""
    return tuple(
        frozenset(c for c in range(geometry.cell_count) if geometry.crowns(p, c))
        for p in range(players)
    )


def _cell(geometry: Geometry, name: str, field: str) -> int:
    try:
        return geometry.parse_square(name)
    except ValueError:
        pass
    if (
        isinstance(geometry, SquareGeometry)
        and re.fullmatch(r"[a-z]\d+", name)
        and len(geometry.algebraic_names) < (geometry.width * geometry.height)
    ):
        raise FenError(f"square {name!r} in {field} is not a playable square") from None
    if name.isdigit():
        raise FenError(
            f"square {name} in {field} does not exist: this board has squares "
            f"1-{geometry.cell_count}"
        ) from None
    raise FenError(f"{name!r} in {field} is not a square of this board") from None


def parse_fen(variant: Variant, text: str) -> tuple[npt.NDArray[np.int8], int]:
    """The cells (piece codes) and the player to move described by ``text``.

    >>> from damier.rules import get_variant
    >>> cells, turn = parse_fen(get_variant("russian"), "B:W21-32:B1-12")
    >>> turn, int(cells.sum() > 0)
    (1, 1)
    """
    geometry = geometry_of(variant)
    index = name_index(geometry)
    body = text.strip()
    wrapped = _TAG.fullmatch(body) if body.startswith("[") else None
    if wrapped:
        body = wrapped.group(1).strip()
    body = body.rstrip(".").replace(" ", "")
    if not body:
        raise FenError("empty FEN")
    fields = body.split(":")
    side = fields[0].upper()
    players = letters(variant)
    if side not in players or len(side) != 1:
        raise FenError(
            f"FEN must start with the side to move, one of {', '.join(players)}, not {fields[0]!r}"
        )
    codes = [0] * geometry.cell_count
    counts = [0] * (variant.players + 1)
    crowning = (*_crowning(geometry, variant.players), frozenset())  # dead men never crown
    seen: set[str] = set()
    numeric = geometry.numeric
    ranges = _ranges(geometry)
    for field in fields[1:]:
        if not field:
            continue
        letter = field[0].upper()
        if letter in "HF" and field[1:].isdigit():
            continue  # move counters of lidraughts-style FEN; the game layer reads them
        owners = players + (DEAD_LETTER if variant.players > 2 else "")
        if letter not in owners:
            raise FenError(f"FEN field {field!r} must start with one of {', '.join(owners)}")
        if letter in seen:
            raise FenError(f"FEN gives the pieces of {letter} twice")
        seen.add(letter)
        player = owners.index(letter)
        man, crowns = _man(player), crowning[player]
        for raw in field[1:].lower().split(","):
            token = raw.strip()
            if not token:
                continue
            # "K" marks a king; on algebraic boards "k2" may also be a man on the k-file.
            king = token[0] == "k" and (numeric or token not in index)
            name = token[1:] if king else token
            found = index.get(name)
            if found is not None:
                named: Sequence[int] = (found,)
            else:
                named = ranges.get(name) or _expand(geometry, name, letter)
            code = man + king
            check_crowns = not king and not crowns.isdisjoint(named)
            for cell in named:
                if codes[cell] != 0:
                    raise FenError(f"square {geometry.names[cell]} is given twice")
                if check_crowns and cell in crowns:
                    square = geometry.names[cell]
                    raise FenError(
                        f"a {letter} man on {square} stands on its crowning row; "
                        f"write it as a king (K{square})"
                    )
                codes[cell] = code
            counts[player] += len(named)
    start = variant.pieces_per_player
    for player, letter in enumerate(players):
        if counts[player] > start[player]:
            raise FenError(
                f"{letter} has {counts[player]} pieces; {variant.name} starts with {start[player]}"
            )
    if sum(counts) > sum(start):
        raise FenError(f"{sum(counts)} pieces; {variant.name} starts with {sum(start)}")
    cells = np.array(codes, dtype=np.int8)
    return cells, players.index(side)


def _runs(numbers: list[int]) -> list[str]:
    """``[31, 32, 33, 35]`` -> ``["31-33", "35"]`` (runs of three or more become ranges)."""
    parts: list[str] = []
    i = 0
    while i < len(numbers):
        j = i
        while j + 1 < len(numbers) and numbers[j + 1] == numbers[j] + 1:
            j += 1
        if j - i >= 2:
            parts.append(f"{numbers[i]}-{numbers[j]}")
            i = j + 1
        else:
            parts.append(str(numbers[i]))
            i += 1
    return parts


def write_fen(variant: Variant, cells: npt.NDArray[np.int8], turn: int) -> str:
    """The FEN of a position, in the variant's square names, men runs as ranges."""
    geometry = geometry_of(variant)
    fields = [PLAYER_LETTERS[turn]]
    owners = letters(variant)
    if variant.players > 2 and np.any(cells >= _man(variant.players)):
        owners += DEAD_LETTER
    for player, letter in enumerate(owners):
        man = _man(player)
        if geometry.numeric:
            numbers = _square_numbers(geometry)
            men = sorted(numbers[cells == man].tolist())
            kings = sorted(numbers[cells == man + 1].tolist())
            tokens = [f"K{k}" for k in kings] + _runs(men)
        else:
            tokens = [
                ("K" if cells[c] == man + 1 else "") + geometry.names[c]
                for c in sorted(range(len(cells)), key=lambda c: _algebraic_key(geometry, c))
                if cells[c] in (man, man + 1)
            ]
        fields.append(letter + ",".join(tokens))
    return ":".join(fields)


@cache
def _square_numbers(geometry: Geometry) -> npt.NDArray[np.int64]:
    """Each cell's square number, on a numbered board (a FEN is written at every move the
    server shows: one array operation, not a loop over the cells)."""
    return np.array([int(name) for name in geometry.names], dtype=np.int64)


def _algebraic_key(geometry: Geometry, cell: int) -> tuple[int, int]:
    """Algebraic squares by rank then file; other boards in cell order."""
    if not isinstance(geometry, SquareGeometry):
        return (cell, 0)
    row, column = geometry.coordinates[cell]
    return (geometry.height - row, column)
