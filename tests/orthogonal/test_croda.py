"""Croda (Dedic 1995): hand-checked move lists (RULES.md section 10).

Every expected value below was worked out by hand from RULES.md; the drawings show
White men as ``w``, White kings as ``W``, Black men ``b``, Black kings ``B``.
White moves up the board (towards rank 8), Black down.
"""

from __future__ import annotations

import pytest

from damier import Board, FenError

from ._util import move_set, notations, q, x

V = "croda"


def _forward_steps(rank: int, to_rank: int) -> list[str]:
    """Straight and diagonal-forward steps of a full rank of men onto an empty rank."""
    files = "abcdefgh"
    out = []
    for i, f in enumerate(files):
        for j in (i - 1, i, i + 1):
            if 0 <= j < 8:
                out.append(f"{f}{rank}-{files[j]}{to_rank}")
    return out


# --------------------------------------------------------------------------------------
# Start position
# --------------------------------------------------------------------------------------


def test_start_position_has_22_moves() -> None:
    # White men fill ranks 1-3. Men on ranks 1 and 2 are blocked: all three squares in
    # front of them (straight and both diagonals) are occupied. The eight men on rank 3
    # step onto the empty rank 4: a3 -> a4, b4 (2); h3 -> h4, g4 (2); b3..g3 -> three
    # squares each (6 x 3 = 18). Total 2 + 2 + 18 = 22. Ranks 4 and 5 separate the armies,
    # so there is no capture.
    b = Board(V)
    assert b.fen == (
        "W:Wa1,b1,c1,d1,e1,f1,g1,h1,a2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3"
        ":Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7,a8,b8,c8,d8,e8,f8,g8,h8"
    )
    expected = _forward_steps(3, 4)
    assert len(expected) == 22
    assert move_set(b) == q(*expected)


def test_black_reply_at_start_has_22_moves() -> None:
    # After 1.d3-d4 no Black man touches d4 (it is two ranks below rank 6), so Black has
    # the mirror-image 22 steps from rank 6 onto rank 5.
    b = Board(V)
    b.push("d3-d4")
    assert move_set(b) == q(*_forward_steps(6, 5))


# --------------------------------------------------------------------------------------
# Men
# --------------------------------------------------------------------------------------


def test_men_step_straight_or_diagonally_forward_only() -> None:
    #     a b c d e f g h
    #   8 . . . . . . . b
    #   7 . . . . . . . .
    #   6 . . . . . . . .
    #   5 . . . . . . . .
    #   4 w . . w . . . .
    #   3 . . . . . . . .
    #   2 . . . . . . . .
    #   1 . . . . . . . .      White to move
    # d4: d5, c5, e5 (no sideways c4/e4, no backward). a4: a5, b5.
    b = Board(V, "W:Wd4,a4:Bh8")
    assert move_set(b) == q("d4-d5", "d4-c5", "d4-e5", "a4-a5", "a4-b5")


def test_black_men_step_down() -> None:
    #   5 . . . . b . . .
    #   1 w . . . . . . .      Black to move (other squares empty)
    b = Board(V, "B:Wa1:Be5")
    assert move_set(b) == q("e5-e4", "e5-d4", "e5-f4")


def test_man_captures_orthogonally_in_all_directions_never_diagonally() -> None:
    #     a b c d e f g h
    #   7 . . . . . . . .
    #   6 . . . . . . . .
    #   5 . . b b . . . .
    #   4 . . . w b . . .
    #   3 . . . b . . . .
    #   2 . . . . . . . .
    #   1 . . . . . . . .      White to move
    # d4xd6 (forward over d5), d4xd2 (backward over d3), d4xf4 (sideways over e4).
    # c5 stands diagonally: it cannot be taken. No landing square leads on (from d6,
    # d2, f4 every orthogonal neighbour is empty or an already-taken piece).
    b = Board(V, "W:Wd4:Bd5,d3,c5,e4")
    assert move_set(b) == {x("d4xd6", "d5"), x("d4xd2", "d3"), x("d4xf4", "e4")}


def test_majority_capture_backward_counts_and_kings_do_not_weigh_more() -> None:
    #     a b c d e f g h
    #   6 . . . . . . . .
    #   5 . . . . w . . .
    #   4 B . . . b . . .
    #   3 w . . . . . . .
    #   2 . . . . b . . .
    #   1 . . . . . . . .      White to move
    # a3xa5 takes one king. e5 jumps backward twice: e5xe3 (over e4), e3xe1 (over e2).
    # Two pieces beat one king: only e5xe3xe1. (Ending on e1, its own first rank, does
    # not crown.)
    b = Board(V, "W:Wa3,e5:BKa4,e4,e2")
    assert move_set(b) == {x("e5xe3xe1", "e4 e2")}
    (m,) = b.legal_moves
    assert m.notation == "e5xe1" and not m.crowns


# --------------------------------------------------------------------------------------
# Kings
# --------------------------------------------------------------------------------------


def test_king_moves_like_a_rook_never_diagonally() -> None:
    #     a b c d e f g h
    #   8 b . . . . . . .
    #   7 . . . . . . . .
    #   6 . . . . . . . .
    #   5 . . . . . . . .
    #   4 . . . W . . . .
    #   3 . . . . . . . .
    #   2 . . . . . . . .
    #   1 . . . . . . . .      White to move
    # d5 d6 d7 d8, d3 d2 d1, c4 b4 a4, e4 f4 g4 h4 = 14; no e5, c3, ...
    b = Board(V, "W:WKd4:Ba8")
    assert move_set(b) == q(
        "d4-d5", "d4-d6", "d4-d7", "d4-d8", "d4-d3", "d4-d2", "d4-d1",
        "d4-c4", "d4-b4", "d4-a4", "d4-e4", "d4-f4", "d4-g4", "d4-h4",
    )  # fmt: skip


def test_king_captures_at_distance_landing_anywhere_beyond() -> None:
    #   5 . . . b . . . .
    #   1 . . . W . . . .      White to move (other squares empty)
    b = Board(V, "W:WKd1:Bd5")
    assert move_set(b) == {x("d1xd6", "d5"), x("d1xd7", "d5"), x("d1xd8", "d5")}


def test_king_does_not_capture_diagonally() -> None:
    #   6 . . . . . b . .
    #   5 . . . . . . . .
    #   4 . . . W . . . .      White to move (other squares empty)
    # f6 is on the king's diagonal with g7 empty behind it: not a capture in Croda.
    # King: d5-d8, d3-d1, a4-c4, e4-h4 = 14 quiet moves.
    b = Board(V, "W:WKd4:Bf6")
    assert all(not m.captured for m in b.legal_moves)
    assert len(b.legal_moves) == 14


# --------------------------------------------------------------------------------------
# End-of-move removal
# --------------------------------------------------------------------------------------

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
    # b4 takes d4 (landing e4..h4); only from f4 it goes on: up over f6 (f7/f8); only from
    # f8 it goes on: left over e8, landing d8, c8, b8 or a8. From d8 the way down the
    # d-file meets d4, which is still on the board (removal at the end) and cannot be
    # jumped twice, so d2 is out of reach (in Turkish it is not). From c8/b8/a8 the files
    # are empty. Maximum 3: four moves.
    b = Board(V, END_REMOVAL)
    assert move_set(b) == {
        x("b4xf4xf8xd8", "d4 f6 e8"),
        x("b4xf4xf8xc8", "d4 f6 e8"),
        x("b4xf4xf8xb8", "d4 f6 e8"),
        x("b4xf4xf8xa8", "d4 f6 e8"),
    }
    b.push("b4xf4xf8xd8")
    assert b.fen == "B:WKd8:Bd2"


# --------------------------------------------------------------------------------------
# Promotion
# --------------------------------------------------------------------------------------


def test_man_touching_last_rank_mid_capture_stays_a_man() -> None:
    #     a b c d e f g h
    #   8 . . . b . . . .
    #   7 . . b . b . . .
    #   6 . . w . . . . .
    #   5 . . . . . . . .      White to move
    # c6xc8 (over c7) reaches the last rank, must go on: c8xe8 (over d8) then backward
    # e8xe6 (over e7). Three pieces, ends on e6: still a man.
    b = Board(V, "W:Wc6:Bc7,d8,e7")
    assert move_set(b) == {x("c6xc8xe8xe6", "c7 d8 e7")}
    (m,) = b.legal_moves
    assert not m.crowns
    b.push(m)
    assert b.piece_at("e6") == (0, False)


def test_capture_ending_on_last_rank_crowns() -> None:
    #   8 . . . . . . . .
    #   7 . . b . . . . .
    #   6 . . w . . . . .      White to move (other squares empty)
    b = Board(V, "W:Wc6:Bc7")
    assert move_set(b) == {x("c6xc8", "c7")}
    (m,) = b.legal_moves
    assert m.crowns
    b.push(m)
    assert b.fen == "B:WKc8:B"


def test_step_onto_last_rank_crowns_and_men_do_not_jump_friends() -> None:
    #     a b c d e f g h
    #   8 . . . . . . . .
    #   7 . w . . . . . .
    #   6 . w . . . . . .
    #   3 . . . . . . . b      White to move (other squares empty)
    # b7: b8, a8, c8 (all crown). b6: a7, c7 (b7 is occupied; Croda has no line move,
    # so no b6-b8).
    b = Board(V, "W:Wb6,b7:Bh3")
    got = {m.notation: m.crowns for m in b.legal_moves}
    assert got == {
        "b7-b8": True,
        "b7-a8": True,
        "b7-c8": True,
        "b6-a7": False,
        "b6-c7": False,
    }


# --------------------------------------------------------------------------------------
# Regression perft (values recorded from the program AFTER the hand-checked move lists
# of the same positions above passed; regression guards, not independent checks).
# --------------------------------------------------------------------------------------

# (fen, hand-checked depth-1 count, regression values depth 1..4)
# Hand checks at depth 2 too: start 484 (22 x 22, no contact after one move each);
# "W:Wd4:Bd5,d3,c5,e4" 25 (after d4xd6: 3+3+2 Black steps, after d4xd2: 2+3+3, after
# d4xf4: 3+3+3); END_REMOVAL 12 (after each of the 4 captures d2 has d1, c1, e1);
# "W:WKd4:Bf6" 42 (14 king moves, each followed by f6-f5, f6-e5, f6-g5).
PERFT: list[tuple[str | None, int, list[int]]] = [
    (None, 22, [22, 484, 10494, 194440]),
    ("W:Wd4:Bd5,d3,c5,e4", 3, [3, 25, 70, 431]),
    (END_REMOVAL, 4, [4, 12, 166, 2101]),
    ("W:WKd4:Bf6", 14, [14, 42, 519, 1413]),
    ("W:Wb6,b7:Bh3", 5, [5, 10, 112, 280]),
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
    ["W:Wi9:Ba7", "W:Wa0:Ba7", "W:Wa2:Bh9", "W:Wa2,a2:Ba7", "W:Wa2:Ba7,a7", "W:Wa2:Ba2"],
)
def test_fen_errors(fen: str) -> None:
    with pytest.raises(FenError):
        Board(V, fen)


# Push/pop, notation and FEN properties over random playouts: tests/test_properties.py.


def test_notations_are_unique() -> None:
    b = Board(V, END_REMOVAL)
    assert len(notations(b)) == len(b.legal_moves) == 4
