"""Dameo (Freeling 2000): hand-checked move lists (RULES.md section 11).

Every expected value below was worked out by hand from RULES.md; the drawings show
White men as ``w``, White kings as ``W``, Black men ``b``, Black kings ``B``.
White moves up the board (towards rank 8), Black down.

Line (linear) move: an unbroken straight line of own men in a forward direction
(straight, or one of the two forward diagonals) advances one square when the square in
front of it is empty; written as the rear man jumping to that square ("d1-d4" for the
line d1 d2 d3). Any man of such a line may be its rear (the men behind it stay), as in
Freeling's "jump over one or more men of the same colour" wording.
"""

from __future__ import annotations

import pytest

from damier import Board, FenError

from ._util import move_set, q, x

V = "dameo"


# --------------------------------------------------------------------------------------
# Start position
# --------------------------------------------------------------------------------------

START_SINGLE_STEPS = [
    # rank 1: only a1 and h1 (forward onto empty a2/h2), b1 (diagonally to a2), g1 (to h2)
    "a1-a2", "b1-a2", "g1-h2", "h1-h2",
    # rank 2: b2 -> b3, a3; c2 -> b3; f2 -> g3; g2 -> g3, h3 (d2, e2 fully blocked)
    "b2-b3", "b2-a3", "c2-b3", "f2-g3", "g2-g3", "g2-h3",
    # rank 3: every man has its three squares on rank 4 free
    "c3-c4", "c3-b4", "c3-d4", "d3-d4", "d3-c4", "d3-e4",
    "e3-e4", "e3-d4", "e3-f4", "f3-f4", "f3-e4", "f3-g4",
]  # fmt: skip
START_LINES_STRAIGHT = [
    # rear man, the own men straight ahead of it, the first empty square beyond
    "b1-b3",  # b2
    "c1-c4",  # c2 c3
    "d1-d4", "e1-e4", "f1-f4",
    "g1-g3",  # g2
    "c2-c4", "d2-d4", "e2-e4", "f2-f4",  # c3 .. f3
]  # fmt: skip
START_LINES_LEFT = [  # up-left diagonal
    "c1-a3",  # over b2
    "d1-b3",  # c2
    "e1-b4",  # d2 c3
    "f1-c4",  # e2 d3
    "g1-d4",  # f2 e3
    "h1-e4",  # g2 f3
    "d2-b4", "e2-c4", "f2-d4", "g2-e4",  # over c3, d3, e3, f3
]  # fmt: skip
START_LINES_RIGHT = [  # up-right diagonal (mirror image)
    "f1-h3", "e1-g3", "d1-g4", "c1-f4", "b1-e4", "a1-d4",
    "e2-g4", "d2-f4", "c2-e4", "b2-d4",
]  # fmt: skip


def test_start_position_has_52_moves() -> None:
    #     a b c d e f g h
    #   8 b b b b b b b b
    #   7 . b b b b b b .
    #   6 . . b b b b . .
    #   5 . . . . . . . .
    #   4 . . . . . . . .
    #   3 . . w w w w . .
    #   2 . w w w w w w .
    #   1 w w w w w w w w      White to move
    # Single steps (straight or diagonally forward onto an empty square): 4 from rank 1,
    # 6 from rank 2, 12 from rank 3 = 22. Line moves: a man whose next square in a forward
    # direction holds an own man jumps the line to the first empty square: 10 straight
    # up, 10 up-left, 10 up-right = 30. No capture (ranks 4 and 5 are empty). 22 + 30 = 52.
    b = Board(V)
    assert b.fen == (
        "W:Wa1,b1,c1,d1,e1,f1,g1,h1,b2,c2,d2,e2,f2,g2,c3,d3,e3,f3"
        ":Bc6,d6,e6,f6,b7,c7,d7,e7,f7,g7,a8,b8,c8,d8,e8,f8,g8,h8"
    )
    expected = START_SINGLE_STEPS + START_LINES_STRAIGHT + START_LINES_LEFT + START_LINES_RIGHT
    assert len(expected) == len(set(expected)) == 52
    assert move_set(b) == q(*expected)


def test_line_move_advances_the_whole_line_and_black_has_52_replies() -> None:
    # 1.d1-d4 moves the line d1 d2 d3 one square up: d1 empties, d2 d3 d4 are White men.
    # Black's moves never reach rank 4 (its longest lines land on rank 5), and no Black
    # man touches d4, so Black has the mirror image of White's 52 moves.
    b = Board(V)
    b.push("d1-d4")
    assert b.piece_at("d1") is None
    assert [b.piece_at(s) for s in ("d2", "d3", "d4")] == [(0, False)] * 3
    mirror = {
        (tuple(f"{sq[0]}{9 - int(sq[1])}" for sq in path), ())
        for path, _ in q(
            *(START_SINGLE_STEPS + START_LINES_STRAIGHT + START_LINES_LEFT + START_LINES_RIGHT)
        )
    }
    assert move_set(b) == mirror


# --------------------------------------------------------------------------------------
# Men: single steps and line moves
# --------------------------------------------------------------------------------------


def test_men_step_straight_or_diagonally_forward() -> None:
    #   8 . . . . . . . b
    #   4 w . . w . . . .      White to move (other squares empty)
    # d4: d5, c5, e5 (no sideways, no backward). a4: a5, b5.
    b = Board(V, "W:Wd4,a4:Bh8")
    assert move_set(b) == q("d4-d5", "d4-c5", "d4-e5", "a4-a5", "a4-b5")


def test_line_of_two() -> None:
    #     a b c d e f g h
    #   8 . . . . . . . b
    #   5 . . . . . . . .
    #   4 . . . w . . . .
    #   3 . . . w . . . .
    #   2 . . . . . . . .      White to move (other squares empty)
    # d4: d5, c5, e5. d3: c4, e4, and the line d3 d4 advances: d3-d5.
    b = Board(V, "W:Wd3,d4:Bh8")
    assert move_set(b) == q("d4-d5", "d4-c5", "d4-e5", "d3-c4", "d3-e4", "d3-d5")


def test_black_line_moves_down() -> None:
    #   6 . . . b . . . .
    #   5 . . . b . . . .
    #   1 w . . . . . . .      Black to move (other squares empty)
    # d5: d4, c4, e4. d6: c5, e5 and the line d6-d4.
    b = Board(V, "B:Wa1:Bd6,d5")
    assert move_set(b) == q("d5-d4", "d5-c4", "d5-e4", "d6-c5", "d6-e5", "d6-d4")


def test_diagonal_line_of_three() -> None:
    #     a b c d e f g h
    #   8 . . . . . . . b
    #   5 . . . . . . . .
    #   4 . . . w . . . .
    #   3 . . w . . . . .
    #   2 . w . . . . . .
    #   1 . . . . . . . .      White to move (other squares empty)
    # d4: d5, c5, e5. c3: c4, b4, line c3 d4 -> c3-e5. b2: b3, a3, line b2 c3 d4 -> b2-e5.
    b = Board(V, "W:Wb2,c3,d4:Bh8")
    assert move_set(b) == q(
        "d4-d5", "d4-c5", "d4-e5",
        "c3-c4", "c3-b4", "c3-e5",
        "b2-b3", "b2-a3", "b2-e5",
    )  # fmt: skip


def test_straight_line_of_four() -> None:
    #     a b c d e f g h
    #   8 . . . . . . . b
    #   6 . . . . . . . .
    #   5 . . . . . w . .
    #   4 . . . . . w . .
    #   3 . . . . . w . .
    #   2 . . . . . w . .
    #   1 . . . . . . . .      White to move (other squares empty)
    # f5: f6, e6, g6. Each man behind it: both diagonal steps and the line jump to f6.
    b = Board(V, "W:Wf2,f3,f4,f5:Bh8")
    assert move_set(b) == q(
        "f5-f6", "f5-e6", "f5-g6",
        "f4-f6", "f4-e5", "f4-g5",
        "f3-f6", "f3-e4", "f3-g4",
        "f2-f6", "f2-e3", "f2-g3",
    )  # fmt: skip


def test_line_lands_on_the_first_empty_square() -> None:
    #     a b c d e f g h
    #   8 . . . . . . . b
    #   6 . . . . . . . .
    #   5 . . . w . . . .
    #   4 . . . . . . . .
    #   3 . . . w . . . .
    #   2 . . . w . . . .
    #   1 . . . . . . . .      White to move (other squares empty)
    # The line d2 d3 advances to d4 (d5 beyond the gap is not part of it): d2-d4, never
    # d2-d6. d5: d6, c6, e6. d3: d4, c4, e4. d2: c3, e3, d2-d4.
    b = Board(V, "W:Wd2,d3,d5:Bh8")
    assert move_set(b) == q(
        "d5-d6", "d5-c6", "d5-e6",
        "d3-d4", "d3-c4", "d3-e4",
        "d2-c3", "d2-e3", "d2-d4",
    )  # fmt: skip


def test_black_line_onto_its_last_rank_crowns() -> None:
    #     a b c d e f g h
    #   6 w . . . . . . .
    #   3 . . . b . . . .
    #   2 . . . b . . . .
    #   1 . . . . . . . .      Black to move (other squares empty)
    # d2: d1, c1, e1 (crown). d3: line d3 d2 -> d3-d1 (crowns), c2, e2.
    b = Board(V, "B:Wa6:Bd2,d3")
    got = {m.notation: m.crowns for m in b.legal_moves}
    assert got == {
        "d2-d1": True,
        "d2-c1": True,
        "d2-e1": True,
        "d3-d1": True,
        "d3-c2": False,
        "d3-e2": False,
    }


def test_line_blocked_by_an_enemy_does_not_move() -> None:
    #     a b c d e f g h
    #   7 . . . . . . . .
    #   6 . . . b . . . .
    #   5 . . . b . . . .
    #   4 . . . w . . . .
    #   3 . . . w . . . .
    #   2 . . . . . . . .      White to move (other squares empty)
    # d5 cannot be taken (d6 behind it is occupied). The line d3 d4 has d5 in front: no
    # line move. d4: c5, e5. d3: c4, e4.
    b = Board(V, "W:Wd3,d4:Bd5,d6")
    assert move_set(b) == q("d4-c5", "d4-e5", "d3-c4", "d3-e4")


def test_line_blocked_by_the_board_edge_does_not_move() -> None:
    #     a b c d e f g h
    #   8 . . . . . . . .
    #   7 . . . . . . . w
    #   6 . . . . . . w .
    #   5 . . . . . w . .
    #   4 . . . . . . . .
    #   3 . . . . . . . .
    #   2 . b . . . . . .
    #   1 . . . . . . . .      White to move
    # The up-right line f5 g6 h7 runs into the edge: no line move from f5 or g6.
    # h7: h8, g8 (both crown). g6: g7, f7. f5: f6, e6.
    b = Board(V, "W:Wf5,g6,h7:Bb2")
    got = {m.notation: m.crowns for m in b.legal_moves}
    assert got == {
        "h7-h8": True,
        "h7-g8": True,
        "g6-g7": False,
        "g6-f7": False,
        "f5-f6": False,
        "f5-e6": False,
    }


def test_man_does_not_line_jump_over_a_king() -> None:
    #     a b c d e f g h
    #   8 b . . . . . . .
    #   4 . . . . . . . .
    #   3 . . . W . . . .
    #   2 . . . w . . . .
    #   1 . . . . . . . .      White to move (other squares empty)
    # d2 d3 is not a line of men (d3 is a king): no d2-d4. Man d2: c3, e3.
    # King d3 (queen moves, d2 blocks the way down): d4-d8 (5), c3 b3 a3 (3),
    # e3-h3 (4), c4 b5 a6 (3), e4 f5 g6 h7 (4), c2 b1 (2), e2 f1 (2) = 23. Total 25.
    b = Board(V, "W:Wd2,Kd3:Ba8")
    assert move_set(b) == q(
        "d2-c3", "d2-e3",
        "d3-d4", "d3-d5", "d3-d6", "d3-d7", "d3-d8",
        "d3-c3", "d3-b3", "d3-a3",
        "d3-e3", "d3-f3", "d3-g3", "d3-h3",
        "d3-c4", "d3-b5", "d3-a6",
        "d3-e4", "d3-f5", "d3-g6", "d3-h7",
        "d3-c2", "d3-b1",
        "d3-e2", "d3-f1",
    )  # fmt: skip


def test_king_behind_a_man_does_not_line_move() -> None:
    #     a b c d e f g h
    #   8 b . . . . . . .
    #   4 . . . . . . . .
    #   3 . . . w . . . .
    #   2 . . . W . . . .
    #   1 . . . . . . . .      White to move (other squares empty)
    # King d2 may not jump its own man d3 (no d2-d4): d1 (1), c2 b2 a2 (3), e2-h2 (4),
    # c3 b4 a5 (3), e3 f4 g5 h6 (4), c1 (1), e1 (1) = 17. Man d3: d4, c4, e4.
    b = Board(V, "W:WKd2,d3:Ba8")
    assert move_set(b) == q(
        "d2-d1",
        "d2-c2", "d2-b2", "d2-a2",
        "d2-e2", "d2-f2", "d2-g2", "d2-h2",
        "d2-c3", "d2-b4", "d2-a5",
        "d2-e3", "d2-f4", "d2-g5", "d2-h6",
        "d2-c1", "d2-e1",
        "d3-d4", "d3-c4", "d3-e4",
    )  # fmt: skip


def test_line_of_kings_does_not_line_move() -> None:
    #     a b c d e f g h
    #   8 b . . . . . . .
    #   5 . . . . . . . .
    #   4 . . . W . . . .
    #   3 . . . W . . . .
    #   2 . . . . . . . .      White to move (other squares empty)
    # No d3-d5. King d3: d2 d1, c3 b3 a3, e3-h3, c4 b5 a6, e4 f5 g6 h7, c2 b1, e2 f1
    # = 2+3+4+3+4+2+2 = 20. King d4: d5-d8, c4 b4 a4, e4-h4, c5 b6 a7, e5 f6 g7 h8,
    # c3 b2 a1, e3 f2 g1 = 4+3+4+3+4+3+3 = 24. Total 44.
    b = Board(V, "W:WKd3,Kd4:Ba8")
    expected = q(
        "d3-d2", "d3-d1",
        "d3-c3", "d3-b3", "d3-a3",
        "d3-e3", "d3-f3", "d3-g3", "d3-h3",
        "d3-c4", "d3-b5", "d3-a6",
        "d3-e4", "d3-f5", "d3-g6", "d3-h7",
        "d3-c2", "d3-b1",
        "d3-e2", "d3-f1",
        "d4-d5", "d4-d6", "d4-d7", "d4-d8",
        "d4-c4", "d4-b4", "d4-a4",
        "d4-e4", "d4-f4", "d4-g4", "d4-h4",
        "d4-c5", "d4-b6", "d4-a7",
        "d4-e5", "d4-f6", "d4-g7", "d4-h8",
        "d4-c3", "d4-b2", "d4-a1",
        "d4-e3", "d4-f2", "d4-g1",
    )  # fmt: skip
    assert len(expected) == 44
    assert move_set(b) == expected


# --------------------------------------------------------------------------------------
# Kings: queen moves, orthogonal captures
# --------------------------------------------------------------------------------------


def test_king_moves_like_a_queen() -> None:
    #     a b c d e f g h
    #   8 . . . . . . . b
    #   7 . . . . . . . .
    #   6 . . . . . . . .
    #   5 . . . . . . . .
    #   4 . . . W . . . .
    #   3 . . . . . . . .
    #   2 . . . . . . . .
    #   1 . . . . . . . .      White to move
    # d5-d8 (4), d3-d1 (3), c4-a4 (3), e4-h4 (4), e5 f6 g7 (3, h8 is occupied and a
    # diagonal piece is never captured), c5 b6 a7 (3), c3 b2 a1 (3), e3 f2 g1 (3) = 26.
    b = Board(V, "W:WKd4:Bh8")
    assert move_set(b) == q(
        "d4-d5", "d4-d6", "d4-d7", "d4-d8",
        "d4-d3", "d4-d2", "d4-d1",
        "d4-c4", "d4-b4", "d4-a4",
        "d4-e4", "d4-f4", "d4-g4", "d4-h4",
        "d4-e5", "d4-f6", "d4-g7",
        "d4-c5", "d4-b6", "d4-a7",
        "d4-c3", "d4-b2", "d4-a1",
        "d4-e3", "d4-f2", "d4-g1",
    )  # fmt: skip


def test_king_captures_only_orthogonally() -> None:
    #     a b c d e f g h
    #   7 . . . . . . . .
    #   6 . . . . . b . .
    #   5 . . . . . . . .
    #   4 . b . W . . . .
    #   3 . . . . . . . .      White to move (other squares empty)
    # f6 is on a diagonal (g7 empty behind it): no capture. b4 on the rank, a4 empty:
    # d4xa4, compulsory; from a4 nothing more.
    b = Board(V, "W:WKd4:Bb4,f6")
    assert move_set(b) == {x("d4xa4", "b4")}


def test_king_captures_at_distance_landing_anywhere_beyond() -> None:
    #   5 . . . b . . . .
    #   1 . . . W . . . .      White to move (other squares empty)
    b = Board(V, "W:WKd1:Bd5")
    assert move_set(b) == {x("d1xd6", "d5"), x("d1xd7", "d5"), x("d1xd8", "d5")}


# --------------------------------------------------------------------------------------
# Men: captures, majority, removal
# --------------------------------------------------------------------------------------


def test_man_captures_orthogonally_in_all_directions_never_diagonally() -> None:
    #     a b c d e f g h
    #   6 . . . . . . . .
    #   5 . . b b . . . .
    #   4 . . . w b . . .
    #   3 . . . b . . . .
    #   2 . . . . . . . .      White to move (other squares empty)
    # d4xd6 (forward), d4xd2 (backward), d4xf4 (sideways); c5 is diagonal.
    b = Board(V, "W:Wd4:Bd5,d3,c5,e4")
    assert move_set(b) == {x("d4xd6", "d5"), x("d4xd2", "d3"), x("d4xf4", "e4")}


def test_majority_capture_kings_and_men_count_the_same() -> None:
    #     a b c d e f g h
    #   5 . . . . w . . .
    #   4 B . . . b . . .
    #   3 w . . . . . . .
    #   2 . . . . b . . .
    #   1 . . . . . . . .      White to move (other squares empty)
    # a3xa5 takes a king (1); e5xe3xe1 takes two men backward: only the latter.
    b = Board(V, "W:Wa3,e5:BKa4,e4,e2")
    assert move_set(b) == {x("e5xe3xe1", "e4 e2")}


END_REMOVAL = "W:WKb4:Bd4,f6,e8,d2"


def test_captured_pieces_block_until_the_move_ends() -> None:
    #     a b c d e f g h
    #   8 . . . . b . . .
    #   7 . . . . . . . .
    #   6 . . . . . b . .
    #   5 . . . . . . . .
    #   4 . W . b . . . .
    #   3 . . . . . . . .
    #   2 . . . b . . . .
    #   1 . . . . . . . .      White to move
    # b4 takes d4 (landing e4..h4); only from f4 it goes on, over f6 (f7/f8); only from f8
    # it goes on, over e8 to d8, c8, b8 or a8. From d8 the d-file is blocked by d4, which
    # stays on the board until the move ends, so d2 is out of reach. (The king's diagonal
    # moves never capture.) Maximum 3: four moves.
    b = Board(V, END_REMOVAL)
    assert move_set(b) == {
        x("b4xf4xf8xd8", "d4 f6 e8"),
        x("b4xf4xf8xc8", "d4 f6 e8"),
        x("b4xf4xf8xb8", "d4 f6 e8"),
        x("b4xf4xf8xa8", "d4 f6 e8"),
    }


# --------------------------------------------------------------------------------------
# Promotion
# --------------------------------------------------------------------------------------


def test_man_touching_last_rank_mid_capture_stays_a_man() -> None:
    #     a b c d e f g h
    #   8 . . . b . . . .
    #   7 . . b . b . . .
    #   6 . . w . . . . .      White to move (other squares empty)
    # c6xc8xe8xe6: touches rank 8 twice, ends on e6 -> stays a man.
    b = Board(V, "W:Wc6:Bc7,d8,e7")
    assert move_set(b) == {x("c6xc8xe8xe6", "c7 d8 e7")}
    (m,) = b.legal_moves
    assert not m.crowns
    b.push(m)
    assert b.piece_at("e6") == (0, False)


def test_capture_ending_on_last_rank_crowns() -> None:
    #   7 . . b . . . . .
    #   6 . . w . . . . .      White to move (other squares empty)
    b = Board(V, "W:Wc6:Bc7")
    (m,) = b.legal_moves
    assert (m.path, m.captured, m.crowns) == (("c6", "c8"), ("c7",), True)


def test_steps_and_line_moves_onto_last_rank_crown() -> None:
    #     a b c d e f g h
    #   8 . . . . . . . .
    #   7 . w . . . . . .
    #   6 . w . . . . . .
    #   3 . . . . . . . b      White to move (other squares empty)
    # b7: b8, a8, c8 (crown). b6: line b6 b7 -> b6-b8 (crowns: the moved man ends on
    # rank 8), a7, c7 (no crown).
    b = Board(V, "W:Wb6,b7:Bh3")
    got = {m.notation: m.crowns for m in b.legal_moves}
    assert got == {
        "b7-b8": True,
        "b7-a8": True,
        "b7-c8": True,
        "b6-b8": True,
        "b6-a7": False,
        "b6-c7": False,
    }
    b.push("b6-b8")
    assert b.piece_at("b8") == (0, True) and b.piece_at("b7") == (0, False)
    assert b.piece_at("b6") is None


# --------------------------------------------------------------------------------------
# Regression perft (values recorded from the program AFTER the hand-checked move lists
# of the same positions above passed; regression guards, not independent checks).
# --------------------------------------------------------------------------------------

# (fen, hand-checked depth-1 count, regression values depth 1..4)
# Hand checks at depth 2 too: start 2704 = 52 x 52 (no move of either side reaches
# the other's reach); "W:Wd3,d4:Bd5,d6" 4 (each White move leaves d5 exactly one forced
# capture: d5xb5, d5xf5, d5xd3, d5xd3); "W:Wb2,c3,d4:Bh8" 18 (9 x h8-h7/h8-g7);
# END_REMOVAL 12 (d2-d1, d2-c1, d2-e1 after each capture); "W:WKd4:Bb4,f6" 3;
# "B:Wa1:Bd6,d5" 12 (6 Black moves x a1-a2, a1-b2).
PERFT: list[tuple[str | None, int, list[int]]] = [
    (None, 52, [52, 2704, 135930, 6253934]),
    ("W:Wd3,d4:Bd5,d6", 4, [4, 4, 12, 58]),
    ("W:Wb2,c3,d4:Bh8", 9, [9, 18, 160, 394]),
    (END_REMOVAL, 4, [4, 12, 250, 4663]),
    ("W:WKd4:Bb4,f6", 1, [1, 3, 63, 177]),
    ("B:Wa1:Bd6,d5", 6, [6, 12, 72, 174]),
]


@pytest.mark.parametrize(("fen", "hand_d1", "expected"), PERFT)
def test_regression_perft(fen: str | None, hand_d1: int, expected: list[int]) -> None:
    b = Board(V, fen)
    assert b.perft(1) == hand_d1 == len(b.legal_moves)
    assert [b.perft(d) for d in range(1, len(expected) + 1)] == expected


# --------------------------------------------------------------------------------------
# FEN errors
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fen",
    ["W:Wi9:Ba7", "W:Wa0:Ba7", "W:Wa2:Bz5", "W:Wa2,a2:Ba7", "W:Wa2:Ba7,a7", "W:Wa2:Ba2"],
)
def test_fen_errors(fen: str) -> None:
    with pytest.raises(FenError):
        Board(V, fen)


# Push/pop, notation and FEN properties over random playouts: tests/test_properties.py.
