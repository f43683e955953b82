"""The board as text, for terminals and ``repr``: pieces on the left, square names on the
right on numbered boards, files and ranks around."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from damier.board import Board

PIECE_SYMBOLS = ".wWbB"
"""Symbol of each piece code: empty, white man, white king, black man, black king."""


def render_board(board: Board) -> str:
    """A drawing of ``board`` with coordinates, White at the bottom."""
    geometry = board.geometry
    cells = board.cells
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
                pieces.append(PIECE_SYMBOLS[int(cells[cell])])
                numbers.append(geometry.names[cell].rjust(number_width))
        line = f"{rank:>3} {' '.join(pieces)}"
        if numbered:
            line += "    " + " ".join(numbers)
        lines.append(line.rstrip())
    player = ("white", "black")[board.turn]
    lines.append(f"    {player} to move")
    return "\n".join(lines)
