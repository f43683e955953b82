"""The terminal drawing of every board: a letter per player (upper case for kings, x for
dead pieces), the radial areas as blocks in their owners' frames, the hexagon's offset rows,
the cross with its corners blank, who is to move and who is out."""

from __future__ import annotations

import pytest

from damier import Board
from damier.render.text import piece_symbol
from damier.rules.multiplayer import MULTIPLAYER

# White: a man on his a1, a king on his d4 and a man on Red's b2; Red: a man on his c3 and
# a king on Black's h2. Black has nothing: he is out.
TRIPAD = """\
   W white             B black             R red
 4   .   W   .   .   4   .   .   .   .   4   .   .   .   .
 3 .   .   .   .     3 .   .   .   .     3 .   r   .   .
 2   .   .   .   .   2   .   .   .   R   2   w   .   .   .
 1 w   .   .   .     1 .   .   .   .     1 .   .   .   .
   a b c d e f g h     a b c d e f g h     a b c d e f g h
    seams: a4-d4 touch the next area's h4-e4; all d4s meet at the centre
    red to move; out: black"""

# Rows from White's edge (1, five cells) up through the middle row (5, nine cells).
HEX3 = """\
  9     . . . . R            a b c d e
  8    . . . . . .          a b c d e f
  7   . . . . . . .        a b c d e f g
  6  . b . . . . . .      a b c d e f g h
  5 b . . . W . . . r    a b c d e f g h i
  4  . . . . . . . .      a b c d e f g h
  3   . . . . . . .        a b c d e f g
  2    . . . . . .          a b c d e f
  1     w . . . .            a b c d e
    black to move"""

# The cross's cut corners are blank; the light squares too (a diagonal game). The dead
# pieces (a man on f6, a king on d8) are x and X.
CROSS4 = """\
    a b c d e f g h i j k l m n
 14       .   .   .   .
 13         .   .   .   .
 12       .   .   .   r
 11 .   .   .   .   .   .   .
 10   .   .   .   .   .   .   .
  9 .   .   .   .   .   .   G
  8   .   X   .   .   .   .   .
  7 .   .   .   .   .   .   .
  6   .   .   x   .   .   .   .
  5 .   .   w   .   .   .   .
  4   .   .   .   .   .   .   .
  3         .   .   .   .
  2       .   .   .   .
  1         .   .   .   .
    green to move; out: black"""


@pytest.mark.parametrize(
    ("variant", "fen", "drawing"),
    [
        ("tripad", "R:WWa1,KWd4,Rb2:B:RRc3,KBh2", TRIPAD),
        ("hex3", "B:WKe5,a1:Ba5,b6:RKe9,i5", HEX3),
        ("cross4", "G:We5:B:Rj12:GKm9:Xf6,Kd8", CROSS4),
    ],
)
def test_drawings(variant: str, fen: str, drawing: str) -> None:
    assert str(Board(variant, fen)) == drawing


def test_piece_symbols() -> None:
    letters = [piece_symbol(code, 8) for code in range(1, 17)]
    assert "".join(letters) == "wWbBrRgGyYpPoOcC"
    assert piece_symbol(0, 3) == "."
    assert (piece_symbol(7, 3), piece_symbol(8, 3)) == ("x", "X")  # dead, on a 3-player board


def test_eight_areas_in_two_rows_of_four() -> None:
    lines = str(Board("radial8-orthogonal")).splitlines()
    assert lines[0].split() == ["W", "white", "B", "black", "R", "red", "G", "green"]
    assert lines[7].split() == ["Y", "yellow", "P", "purple", "O", "orange", "C", "cyan"]
    assert lines[2] == (
        " 3 w w w w w w w w   3 b b b b b b b b   3 r r r r r r r r   3 g g g g g g g g"
    )
    assert lines[-2] == "    seams: a4-d4 touch the next area's h4-e4"  # no hub: orthogonal
    assert max(len(line) for line in lines) <= 80


def test_game_over_and_who_is_out() -> None:
    board = Board("cross4", "W:We5:Bf6")  # Red and Green have nothing
    board.push("e5xg7")
    assert str(board).splitlines()[-1] == "    game over; out: black, red, green"


@pytest.mark.parametrize("variant", [v.name for v in MULTIPLAYER if not v.name.startswith("hex")])
def test_every_board_draws_its_start(variant: str) -> None:
    board = Board(variant)
    lines = str(board).splitlines()
    assert lines[-1] == "    white to move"
    assert max(len(line) for line in lines) <= 80
    # The rows of cells start with their rank; each man of the start is one letter there.
    rows = "".join(line for line in lines if line.split() and line.split()[0].isdigit())
    for player, men in enumerate(board.variant.pieces_per_player):
        assert rows.count("wbrgypoc"[player]) == men


def test_two_player_boards_are_unchanged() -> None:
    drawing = str(Board("russian", "B:W21:BK1"))
    assert drawing.splitlines()[1] == "  8   B   .   .   .        1     2     3     4"
    assert drawing.splitlines()[-1] == "    black to move"
