"""Turkish draughts (Dama): hand-checked move lists (RULES.md section 9, decision 3).

Every expected value below was worked out by hand from RULES.md; the drawings show
White men as ``w``, White kings as ``W``, Black men ``b``, Black kings ``B``.
White moves up the board (towards rank 8), Black down.
"""

from __future__ import annotations

import pytest

from damier import Board, FenError

from ._util import move_set, notations, q, x

V = "turkish"


# --------------------------------------------------------------------------------------
# Start position
# --------------------------------------------------------------------------------------


def test_start_position_has_eight_moves() -> None:
    # White men fill ranks 2 and 3. Rank-2 men are blocked (rank 3 in front, rank 2 on
    # both sides); rank-3 men are blocked sideways (rank 3 is full) and may only step
    # forward onto the empty rank 4: a3-a4 ... h3-h4 = 8 moves. No capture: the
    # armies are two ranks apart.
    b = Board(V)
    assert b.fen == (
        "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3"
        ":Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7"
    )
    assert move_set(b) == q(*(f"{f}3-{f}4" for f in "abcdefgh"))
    assert len(b.legal_moves) == 8


def test_black_reply_at_start_has_eight_moves() -> None:
    # After 1.d3-d4 (no contact yet: d4 and d6 are two squares apart) Black's rank-6
    # men step down onto rank 5: 8 moves, same reasoning as for White.
    b = Board(V)
    b.push("d3-d4")
    assert move_set(b) == q(*(f"{f}6-{f}5" for f in "abcdefgh"))


# --------------------------------------------------------------------------------------
# Men: moves
# --------------------------------------------------------------------------------------


def test_men_step_forward_or_sideways_only() -> None:
    #     a b c d e f g h
    #   8 b . . . . . . .
    #   7 . . . . . . . .
    #   6 . . . . . . . .
    #   5 . . . . . . . .
    #   4 . . . w . . . w
    #   3 . . . . . . . .
    #   2 w . . . . . . .
    #   1 . . . . . . . .      White to move
    # d4: forward d5, sideways c4, e4 (never d3, never a diagonal).
    # h4: h5, g4 (the board edge is to its right).   a2: a3, b2.
    b = Board(V, "W:Wd4,a2,h4:Ba8")
    assert move_set(b) == q("d4-d5", "d4-c4", "d4-e4", "h4-h5", "h4-g4", "a2-a3", "a2-b2")
    assert notations(b) == {"d4-d5", "d4-c4", "d4-e4", "h4-h5", "h4-g4", "a2-a3", "a2-b2"}


def test_black_men_step_down_or_sideways() -> None:
    #     a b c d e f g h
    #   5 . . . . b . . .
    #   1 w . . . . . . .      Black to move (ranks not shown are empty)
    # Black's forward is down: e5-e4, and sideways e5-d5, e5-f5. Never e6.
    b = Board(V, "B:Wa1:Be5")
    assert move_set(b) == q("e5-e4", "e5-d5", "e5-f5")


# --------------------------------------------------------------------------------------
# Men: captures
# --------------------------------------------------------------------------------------


def test_man_captures_forward_and_sideways_not_backward() -> None:
    #     a b c d e f g h
    #   5 . . . b . . . .
    #   4 . . b w . . . .
    #   3 . . . b . . . .
    #   2 . . . . . . . .      White to move
    # d4xd6 (over d5, forward) and d4xb4 (over c4, sideways); d3 is behind the man and
    # cannot be taken. Neither landing square allows a second jump (from d6: nothing
    # next to it; from b4: a4/b5 empty, turning back over c4 is a 180-degree turn).
    # Both take one piece, so both are legal.
    b = Board(V, "W:Wd4:Bd5,c4,d3")
    assert move_set(b) == {x("d4xd6", "d5"), x("d4xb4", "c4")}


def test_black_man_cannot_capture_backward_or_into_an_occupied_square() -> None:
    #     a b c d e f g h
    #   6 . . . . w . . .
    #   5 . . . . b w w .
    #   4 . . . . w . . .
    #   3 . . . . . . . .      Black to move
    # Black man e5: e4 is in front (down) with e3 empty -> e5xe3. e6 is behind it (no).
    # f5 is beside it but g5 behind f5 is occupied (no). From e3 nothing more.
    b = Board(V, "B:We6,e4,f5,g5:Be5")
    assert move_set(b) == {x("e5xe3", "e4")}


# --------------------------------------------------------------------------------------
# Kings
# --------------------------------------------------------------------------------------


def test_king_is_a_flying_rook_and_never_passes_own_men() -> None:
    #     a b c d e f g h
    #   8 b . . . . . . .
    #   7 . . . . . . . .
    #   6 . . . w . . . .
    #   5 . . . . . . . .
    #   4 . . . W . w . .
    #   3 . . . . . . . .
    #   2 . . . . . . . .
    #   1 . . . . . . . .      White to move
    # King d4: up d5 only (own man on d6), down d3 d2 d1, left c4 b4 a4, right e4 only
    # (own man on f4): 8 moves, none diagonal. Man d6: d7, c6, e6. Man f4: f5, e4, g4.
    b = Board(V, "W:WKd4,d6,f4:Ba8")
    assert move_set(b) == q(
        "d4-d5", "d4-d3", "d4-d2", "d4-d1", "d4-c4", "d4-b4", "d4-a4", "d4-e4",
        "d6-d7", "d6-c6", "d6-e6",
        "f4-f5", "f4-e4", "f4-g4",
    )  # fmt: skip


def test_king_captures_at_distance_and_lands_anywhere_beyond() -> None:
    #     a b c d e f g h
    #   8 . . . . . . . .
    #   7 . . . . . . . .
    #   6 . . . . . . . .
    #   5 . . . b . . . .
    #   4 . . . . . . . .
    #   3 . . . . . . . .
    #   2 . . . . . . . .
    #   1 . . . W . . . .      White to move
    # d1 flies over d2-d4, takes d5 and may stop on d6, d7 or d8.
    b = Board(V, "W:WKd1:Bd5")
    assert move_set(b) == {x("d1xd6", "d5"), x("d1xd7", "d5"), x("d1xd8", "d5")}


def test_king_cannot_jump_two_adjacent_pieces() -> None:
    #     a b c d e f g h
    #   6 . . . b . . . .
    #   5 . . . b . . . .
    #   4 . . . . . . . .
    #   3 . . . . . . . .
    #   2 . . . . . . . .
    #   1 . B . W . . . .      White to move
    # Up the d-file d5 is followed by d6 (no empty square behind d5): no capture.
    # Left: c1 empty, Kb1, a1 empty -> d1xa1. From a1 the a-file is empty; going back
    # right would be a 180-degree turn. One move.
    b = Board(V, "W:WKd1:Bd5,d6,Kb1")
    assert move_set(b) == {x("d1xa1", "b1")}


def test_king_may_not_jump_its_own_man() -> None:
    #     a b c d e f g h
    #   5 b . . . . . . .
    #   4 . . . . . . . .
    #   3 w . . . . . . .
    #   2 . . . . . . . .
    #   1 W . . . . . . .      White to move
    # The king's way up the a-file stops at a2: it may neither fly over a3 to a4 nor
    # take a5 over its own man. No capture anywhere (a3 has no enemy next to it), so:
    # king a1-a2, a1-b1 ... a1-h1 (8 moves), man a3-a4, a3-b3.
    b = Board(V, "W:WKa1,a3:Ba5")
    assert move_set(b) == q(
        "a1-a2", "a1-b1", "a1-c1", "a1-d1", "a1-e1", "a1-f1", "a1-g1", "a1-h1",
        "a3-a4", "a3-b3",
    )  # fmt: skip


def test_own_man_beyond_the_victim_limits_the_landing_squares() -> None:
    #     a b c d e f g h
    #   6 . . . w . . . .
    #   5 . . . . . . . .
    #   4 . . . b . . . .
    #   3 . . . . . . . .
    #   2 . . . . . . . .
    #   1 . . . W . . . .      White to move
    # d1 takes d4 and can only land on d5 (d6 is its own man). The man d6 has no
    # enemy next to it. From d5 the 5th rank is empty.
    b = Board(V, "W:WKd1,d6:Bd4")
    assert move_set(b) == {x("d1xd5", "d4")}


# --------------------------------------------------------------------------------------
# Capture choice
# --------------------------------------------------------------------------------------


def test_maximum_capture_counts_pieces_not_kings() -> None:
    #     a b c d e f g h
    #   7 . . . . . . . .
    #   6 . . . . b . . .
    #   5 . . . . . . . .
    #   4 B . . . b . . b
    #   3 w . . . w . . w
    #   2 . . . . . . . .      White to move
    # a3xa5 takes one king, h3xh5 one man, e3xe5xe7 two men. Two pieces beat one king:
    # only e3xe5xe7 (from e7 nothing more).
    b = Board(V, "W:Wa3,e3,h3:BKa4,e4,e6,h4")
    assert move_set(b) == {x("e3xe5xe7", "e4 e6")}
    assert notations(b) == {"e3xe7"}


def test_equal_captures_are_free_choice_a_king_is_not_preferred() -> None:
    #     a b c d e f g h
    #   5 . . . . . . . .
    #   4 B . . . . . . b
    #   3 w . . . . . . w
    #   2 . . . . . . . .      White to move
    # a3xa5 (takes a king) and h3xh5 (takes a man): one piece each, both legal.
    b = Board(V, "W:Wa3,h3:BKa4,h4")
    assert move_set(b) == {x("a3xa5", "a4"), x("h3xh5", "h4")}


# --------------------------------------------------------------------------------------
# Immediate removal and the 180-degree rule
# --------------------------------------------------------------------------------------

IMMEDIATE = "W:WKb4:Bd4,f6,e8,d2"


def test_immediate_removal_lets_the_king_recross_a_captured_square() -> None:
    #     a b c d e f g h
    #   8 . . . . b . . .
    #   7 . . . . . . . .
    #   6 . . . . . b . .
    #   5 . . . . . . . .
    #   4 . W . b . . . .
    #   3 . . . . . . . .
    #   2 . . . b . . . .
    #   1 . . . . . . . .      White to move
    # b4 takes d4 (landing e4..h4). Only from f4 can it go on: up over f6 (landing f7
    # or f8). Only from f8 can it go on: left over e8 (landing d8, c8, b8, a8). From d8
    # it flies down the d-file: d7 d6 d5, then d4 -- already removed, so empty -- d3,
    # takes d2 and lands on d1. From d1 nothing remains (up would be a 180-degree turn).
    # Four pieces: b4-f4-f8-d8-d1 is the only maximal capture. With end-of-move
    # removal d4 would still block the d-file and the maximum would be three.
    b = Board(V, IMMEDIATE)
    assert move_set(b) == {x("b4xf4xf8xd8xd1", "d4 f6 e8 d2")}


def test_no_180_degree_turn_between_two_jumps() -> None:
    #     a b c d e f g h
    #   8 . . . . . . . .
    #   7 . . . . . . . .
    #   6 . . . b . . . .
    #   5 . . . . . . . .
    #   4 . . . W . . . .
    #   3 . . . . . . . .
    #   2 . . . b . . . .
    #   1 . . . . . . . .      White to move
    # d4 takes d6 (landing d7 or d8) or d2 (landing d1). After taking d6 the way back
    # down the d-file is clear (d6 is removed at once, d4 has been vacated) and d2 could
    # be jumped -- but that is a 180-degree turn, forbidden; likewise d1 back up to d6.
    # So every capture takes one piece: d4xd7, d4xd8, d4xd1.
    b = Board(V, "W:WKd4:Bd6,d2")
    assert move_set(b) == {x("d4xd7", "d6"), x("d4xd8", "d6"), x("d4xd1", "d2")}


def test_straight_on_is_allowed_and_duplicate_paths_are_one_move() -> None:
    #     a b c d e f g h
    #   8 . . . . . . . .
    #   7 . . . . . . . .
    #   6 . . . b . . . .
    #   5 . . . . . . . .
    #   4 . . . . . . . .
    #   3 . . . b . . . .
    #   2 . . . . . . . .
    #   1 . . . W . . . .      White to move
    # d1 takes d3, lands on d4 or d5, and from either goes straight on over d6 (a 0-degree
    # "turn" is allowed) to d7 or d8. Four paths, but d1-d4-d7 and d1-d5-d7 have the same
    # start, end and captured set (likewise for d8): decision 5 makes them one move each.
    b = Board(V, "W:WKd1:Bd3,d6")
    assert {(m.path[0], m.path[-1], frozenset(m.captured)) for m in b.legal_moves} == {
        ("d1", "d7", frozenset({"d3", "d6"})),
        ("d1", "d8", frozenset({"d3", "d6"})),
    }
    assert notations(b) == {"d1xd7", "d1xd8"}
    assert b.perft(1) == 2
    assert b.perft(1, duplicates="keep") == 4


# --------------------------------------------------------------------------------------
# Promotion
# --------------------------------------------------------------------------------------

CROWN = "W:Wd6:Bd7,f8"


def test_man_crowned_during_capture_continues_as_king() -> None:
    #     a b c d e f g h
    #   8 . . . . . b . .
    #   7 . . . b . . . .
    #   6 . . . w . . . .
    #   5 . . . . . . . .      White to move
    # d6xd8 takes d7 and crowns on d8 (decision 3: it continues as a king). As a king
    # it flies right along rank 8 over e8, takes f8 and lands on g8 or h8 (a man could
    # not: f8 is two squares away). Going back down is a 180-degree turn.
    b = Board(V, CROWN)
    assert move_set(b) == {x("d6xd8xg8", "d7 f8"), x("d6xd8xh8", "d7 f8")}
    assert all(m.crowns for m in b.legal_moves)
    b.push("d6xd8xh8")
    assert b.piece_at("h8") == (0, True)
    assert b.piece_at("d7") is None and b.piece_at("f8") is None


def test_crowned_man_may_not_turn_back_180_degrees() -> None:
    #     a b c d e f g h
    #   8 . . . . . . . .
    #   7 . . . b . . . .
    #   6 . . . w . . . .
    #   5 . . . . . . . .
    #   4 . . . B . . . .
    #   3 . . . . . . . .      White to move
    # d6xd8 crowns. As a king it could fly back down the d-file (d7 is removed, d6 has
    # been vacated) over Kd4 to d3 -- but that reverses its last jump: forbidden.
    # Rank 8 is empty. One move, one piece.
    b = Board(V, "W:Wd6:Bd7,Kd4")
    assert move_set(b) == {x("d6xd8", "d7")}
    assert b.legal_moves[0].crowns


def test_promotion_ends_move_option() -> None:
    # Same position; with "turkish+promotion-ends-move" the capture stops on d8.
    b = Board("turkish+promotion-ends-move", CROWN)
    assert move_set(b) == {x("d6xd8", "d7")}
    (m,) = b.legal_moves
    assert m.crowns


def test_promotion_ends_move_option_even_when_a_man_could_go_on() -> None:
    #     a b c d e f g h
    #   8 . . . . b . . .
    #   7 . . . b . . . .
    #   6 . . . w . . . .      White to move
    # Default: d6xd8 crowns, then the king takes e8 and lands on f8, g8 or h8 (two
    # pieces). With the option the move ends on d8 after one piece.
    fen = "W:Wd6:Bd7,e8"
    b = Board(V, fen)
    assert move_set(b) == {
        x("d6xd8xf8", "d7 e8"),
        x("d6xd8xg8", "d7 e8"),
        x("d6xd8xh8", "d7 e8"),
    }
    assert all(m.crowns for m in b.legal_moves)
    b2 = Board("turkish+promotion-ends-move", fen)
    assert move_set(b2) == {x("d6xd8", "d7")}


def test_quiet_step_onto_last_rank_crowns() -> None:
    #     a b c d e f g h
    #   8 . . . . . . . .
    #   7 . w . . . . . .
    #   6 . . . . . . . .
    #   3 . . . . . . . b      White to move (other ranks empty)
    # b7-b8 crowns; b7-a7 and b7-c7 do not.
    b = Board(V, "W:Wb7:Bh3")
    got = {m.notation: m.crowns for m in b.legal_moves}
    assert got == {"b7-b8": True, "b7-a7": False, "b7-c7": False}


# --------------------------------------------------------------------------------------
# Giveaway form: same moves
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("fen", [IMMEDIATE, CROWN, "W:WKd4,d6,f4:Ba8", "W:Wa3,e3,h3:BKa4,e4,e6,h4"])
def test_giveaway_has_the_same_moves(fen: str) -> None:
    assert move_set(Board("turkish-giveaway", fen)) == move_set(Board(V, fen))


def test_giveaway_no_move_wins() -> None:
    # White's only man a7 is walled in: a8 holds a Black king (nothing behind it to land
    # on), b7 a Black man that cannot be taken (c7 behind it is occupied). White has
    # no move: it loses in Turkish and wins in turkish-giveaway.
    #   8 B . . . . . . .
    #   7 w b b . . . . .
    fen = "W:Wa7:BKa8,b7,c7"
    assert len(Board(V, fen).legal_moves) == 0
    assert Board(V, fen).winner() == 1
    assert Board("turkish-giveaway", fen).winner() == 0


# --------------------------------------------------------------------------------------
# Regression perft (values recorded from the program AFTER the hand-checked move lists
# of the same positions above passed; they guard against regressions, they are not an
# independent check).
# --------------------------------------------------------------------------------------

# (fen, hand-checked move count at depth 1, regression values for depths 1..4)
# Hand checks at depth 2 as well: start 64 (8 quiet replies to each of 8 moves, no
# contact yet); "W:WKd4:Bd6,d2" 9 (after each of the 3 captures the remaining Black man
# has 3 steps); "W:Wd4:Bd5,c4,d3" 12 (2 captures x two Black men with 3 steps each);
# "W:WKd1:Bd5,d6,Kb1" 5 (after d1xa1: d5-d4, d5-c5, d5-e5, d6-c6, d6-e6).
PERFT = [
    (None, 8, [8, 64, 708, 7538]),
    ("W:WKd4,d6,f4:Ba8", 14, [14, 28, 439, 1097]),
    ("W:WKd4:Bd6,d2", 3, [3, 9, 113, 490]),
    ("W:Wd4:Bd5,c4,d3", 2, [2, 12, 36, 187]),
    ("W:WKd1:Bd5,d6,Kb1", 1, [1, 5, 70, 420]),
    ("W:Wa3,e3,h3:BKa4,e4,e6,h4", 1, [1, 3, 3, 30]),
]


@pytest.mark.parametrize(("fen", "hand_d1", "expected"), PERFT)
def test_regression_perft(fen: str | None, hand_d1: int, expected: list[int]) -> None:
    b = Board(V, fen)
    assert b.perft(1) == hand_d1 == len(b.legal_moves)
    assert [b.perft(d) for d in range(1, len(expected) + 1)] == expected
    assert b.perft(len(expected), duplicates="keep") >= expected[-1]


# --------------------------------------------------------------------------------------
# FEN errors
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fen",
    [
        "W:Wi9:Ba7",
        "W:Wa0:Ba7",
        "W:Wa2:Bi4",
        "W:Wa2,a2:Ba7",
        "W:Wa2:Ba7,a7",
        "W:Wa2:Ba2",
        "W:WKa2:Ba2",
    ],
)
def test_fen_errors(fen: str) -> None:
    with pytest.raises(FenError):
        Board(V, fen)


# Push/pop, notation and FEN properties over random playouts: tests/test_properties.py.

VARIANTS = ["turkish", "turkish+promotion-ends-move", "turkish-giveaway"]
