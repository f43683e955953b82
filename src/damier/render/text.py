"""The board as text, for terminals and ``repr``: one character a cell, a letter a player
(lower case a man, upper case a king: w/W, b/B, r/R, g/G, y/Y, p/P, o/O, c/C; x/X the dead
pieces of eliminated players), ``.`` an empty cell.

Every board is drawn in the frame its cell names use, so a name can be read off the drawing:

- square boards (and the four-player cross, its cut corners blank) with White at the bottom,
  files and ranks around, and square numbers on the right on numbered boards;
- radial boards as one 4x8 block per area, each in its owner's own frame (rank 1, his back
  row, at the bottom; files a-h from his left), labelled with the area's letter and laid out
  clockwise in turn order, left to right;
- the hexagon as its nine rows, offset by half a cell, row 1 (White's edge) at the bottom,
  and the cell letters of each row on the right.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from damier.geometry import HexGeometry, RadialGeometry, SquareGeometry
from damier.geometry.radial import FILES, RANKS
from damier.rules.description import PLAYER_LETTERS, PLAYER_NAMES

if TYPE_CHECKING:  # the board draws itself with this module: no import back at run time
    from damier.board import Board

DEAD_SYMBOL = "x"
"""The letter of the dead pieces left by eliminated players."""


def piece_symbol(code: int, players: int) -> str:
    """The character of a piece code (see :mod:`damier.kernel.layout`); ``.`` if empty."""
    if code == 0:
        return "."
    player = (code - 1) // 2
    letter = PLAYER_LETTERS[player].lower() if player < players else DEAD_SYMBOL
    return letter.upper() if code % 2 == 0 else letter


def render_board(board: Board) -> str:
    """A drawing of ``board``: the cells (see the module docstring), then who is to move
    and, on multi-player boards, who is out."""
    geometry = board.geometry
    if isinstance(geometry, RadialGeometry):
        lines = _radial(board, geometry)
    elif isinstance(geometry, HexGeometry):
        lines = _hexagon(board, geometry)
    else:
        assert isinstance(geometry, SquareGeometry)
        lines = _square(board, geometry)
    return "\n".join([*lines, _status(board)])


def _symbols(board: Board) -> list[str]:
    players = board.variant.players
    return [piece_symbol(int(code), players) for code in board.cells]


def _status(board: Board) -> str:
    """``white to move``; on multi-player boards also who is out, or that it is over."""
    if board.variant.players == 2:
        return f"    {PLAYER_NAMES[board.turn]} to move"
    out = [PLAYER_NAMES[p] for p in range(board.variant.players) if p not in board.active_players]
    text = "game over" if board.is_game_over() else f"{PLAYER_NAMES[board.turn]} to move"
    if out:
        text += f"; out: {', '.join(out)}"
    return f"    {text}"


def _square(board: Board, geometry: SquareGeometry) -> list[str]:
    symbols = _symbols(board)
    numbered = geometry.numeric
    number_width = len(str(geometry.cell_count))
    files = " ".join(chr(ord("a") + column) for column in range(geometry.width))
    lines = [f"    {files}"]
    for row in range(geometry.height):
        rank = geometry.height - row
        pieces, numbers = [], []
        for column in range(geometry.width):
            cell = geometry.cell_at(row, column)
            if cell is None:
                pieces.append(" ")
                numbers.append(" " * number_width)
            else:
                pieces.append(symbols[cell])
                numbers.append(geometry.names[cell].rjust(number_width))
        line = f"{rank:>3} {' '.join(pieces)}"
        if numbered:
            line += "    " + " ".join(numbers)
        lines.append(line.rstrip())
    return lines


def _radial(board: Board, geometry: RadialGeometry) -> list[str]:
    """The areas side by side, up to four to a row (three for six players), and where
    they meet."""
    symbols = _symbols(board)
    at = {coordinate: cell for cell, coordinate in enumerate(geometry.coordinates)}
    players = geometry.players
    per_row = players if players <= 4 else (players + 1) // 2
    files = " ".join(chr(ord("a") + f) for f in range(FILES))
    lines: list[str] = []
    for first in range(0, players, per_row):
        areas = range(first, min(first + per_row, players))
        blocks = [[f"   {PLAYER_LETTERS[a]} {PLAYER_NAMES[a]}".ljust(18)] for a in areas]
        for block, area in zip(blocks, areas, strict=True):
            for rank in range(RANKS, 0, -1):
                row = [at.get((area, rank, f)) for f in range(1, FILES + 1)]
                cells = " ".join(" " if c is None else symbols[c] for c in row)
                block.append(f" {rank} {cells}")
            block.append(f"   {files}")
        if lines:
            lines.append("")
        lines.extend("  ".join(parts).rstrip() for parts in zip(*blocks, strict=True))
    seams = "    seams: a4-d4 touch the next area's h4-e4"
    lines.append(seams + ("; all d4s meet at the centre" if geometry.dark_only else ""))
    return lines


def _hexagon(board: Board, geometry: HexGeometry) -> list[str]:
    symbols = _symbols(board)
    rows: dict[int, list[int]] = {}
    for cell, (row, _) in enumerate(geometry.coordinates):
        rows.setdefault(row, []).append(cell)
    widest = max(len(cells) for cells in rows.values())
    lines = []
    for row in sorted(rows, reverse=True):
        cells = rows[row]
        margin = " " * (widest - len(cells))
        pieces = " ".join(symbols[c] for c in cells)
        letters = " ".join(geometry.names[c][0] for c in cells)
        lines.append(f"{row + 1:>3} {margin}{pieces}{margin}    {margin}{letters}".rstrip())
    return lines
