"""Russian draughts (Shashki, FMJD-64): RULES.md section 3 and decision 7.

Drawings: White at the bottom moving up (towards 1-4); each dark square shows its number after
its content: w white man, W white king, b black man, B black king, . empty.
Every expected set below is worked out by hand from RULES.md.
"""

import pytest

from damier import WHITE, Board, FenError

V = "russian"


def test_white_moves_first_from_the_start(notations):
    # White men 21-24 (a3 c3 e3 g3) step to row 4 (17 b4, 18 d4, 19 f4, 20 h4); 21 is on the
    # a-file and has only 17.
    assert Board(V).turn == WHITE
    assert notations(V, None) == {
        "21-17",
        "22-17",
        "22-18",
        "23-18",
        "23-19",
        "24-19",
        "24-20",
    }


def test_man_steps_forward_only(notations):
    #    8     .1      .2      .3      .4
    #    7 b5      .6      .7      .8
    #    6     .9      .10     .11     .12
    #    5 .13     .14     .15     .16
    #    4     .17     .18     .19     .20
    #    3 .21     w22     .23     .24
    #    2     .25     .26     .27     .28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # 22 (c3) -> 17 (b4) or 18 (d4); never back to 25/26.
    assert notations(V, "W:W22:B5") == {"22-17", "22-18"}


def test_black_man_steps_down_the_board(notations):
    #    8     .1      .2      .3      .4
    #    7 .5      .6      .7      .8
    #    6     .9      b10     .11     .12
    #    5 .13     .14     .15     .16
    #    4     .17     .18     .19     .20
    #    3 .21     .22     .23     .24
    #    2     .25     .26     .27     .28
    #    1 .29     .30     .31     w32
    #      a   b   c   d   e   f   g   h
    # Black 10 (d6) -> 14 (c5) or 15 (e5).
    assert notations(V, "B:W32:B10") == {"10-14", "10-15"}


def test_man_captures_backward(captures):
    #    8     .1      .2      .3      .4
    #    7 .5      .6      .7      .8
    #    6     .9      .10     .11     .12
    #    5 .13     .14     .15     .16
    #    4     .17     .18     .19     .20
    #    3 .21     w22     .23     .24
    #    2     .25     b26     .27     .28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # 26 (d2) is behind 22 (c3), 31 (e1) empty: the backward capture is compulsory.
    assert captures(V, "W:W22:B26") == {((22, 31), (26,))}


def test_free_choice_a_shorter_capture_is_legal(captures):
    #    8     .1      .2      .3      .4
    #    7 .5      .6      .7      .8
    #    6     .9      b10     .11     .12
    #    5 .13     .14     .15     .16
    #    4     b17     b18     .19     .20
    #    3 .21     w22     .23     .24
    #    2     .25     .26     .27     .28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # 22x13 takes one (17); 22x15x6 takes two (18, then 10 from 15). No majority rule: both legal,
    # but a started capture must be finished (22x15 alone is not a move).
    assert captures(V, "W:W22:B10,17,18") == {
        ((22, 13), (17,)),
        ((22, 15, 6), (18, 10)),
    }


def test_man_crowned_mid_capture_continues_as_flying_king(crowning):
    #    8     .1      .2      .3      .4
    #    7 .5      b6      .7      .8
    #    6     w9      .10     b11     .12
    #    5 .13     .14     .15     .16
    #    4     .17     .18     .19     .20
    #    3 .21     .22     .23     .24
    #    2     .25     .26     .27     .28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # 9 (b6) jumps 6 onto 2 (d8, last row) and becomes a king at once; as a flying king it sees
    # 7 empty, 11 black, and lands on 16 or 20 (a man could not take 11: it is not adjacent).
    assert crowning(V, "W:W9:B6,11") == {
        ((9, 2, 16), (6, 11), True),
        ((9, 2, 20), (6, 11), True),
    }
    board = Board(V, "W:W9:B6,11")
    board.push("9x20")
    assert board.piece_at(20) == (WHITE, True)


def test_man_crowned_on_last_row_without_further_capture(crowning):
    #    8     .1      .2      .3      .4
    #    7 .5      b6      .7      .8
    #    6     w9      .10     .11     .12
    #    5 .13     .14     .15     .16
    #    4     .17     .18     .19     .20
    #    3 .21     .22     .23     .24
    #    2     .25     .26     .27     .28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    assert crowning(V, "W:W9:B6") == {((9, 2), (6,), True)}


def test_flying_king_moves_any_distance(notations):
    #    8     b1      .2      .3      .4
    #    7 .5      .6      .7      .8
    #    6     .9      .10     .11     .12
    #    5 .13     .14     .15     .16
    #    4     .17     .18     .19     .20
    #    3 .21     W22     .23     .24
    #    2     .25     .26     .27     .28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # Lines of 22 (c3): 17 13 / 18 15 11 8 4 / 25 29 / 26 31, all empty.
    assert notations(V, "W:WK22:B1") == {
        "22-17",
        "22-13",
        "22-18",
        "22-15",
        "22-11",
        "22-8",
        "22-4",
        "22-25",
        "22-29",
        "22-26",
        "22-31",
    }


def test_flying_king_must_choose_a_landing_square_from_which_the_capture_continues(captures):
    #    8     .1      .2      .3      .4
    #    7 .5      .6      .7      .8
    #    6     .9      b10     .11     .12
    #    5 .13     .14     .15     .16
    #    4     .17     .18     .19     .20
    #    3 .21     b22     .23     .24
    #    2     .25     .26     .27     .28
    #    1 W29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # 29 (a1) takes 22 (c3); it could stop on 18, 15, 11, 8 or 4, but only from 15 (e5) can it
    # take again (10, landing on 6 or 1). So it must land on 15, even under free choice.
    assert captures(V, "W:WK29:B10,22") == {
        ((29, 15, 6), (22, 10)),
        ((29, 15, 1), (22, 10)),
    }


def test_algebraic_squares_are_accepted_on_input():
    # Decision 7: a1 is White's near-left corner; c3 = 22 and d4 = 18.
    board = Board(V)
    move = board.push("c3-d4")
    assert move.path == (22, 18)
    assert not move.captured


@pytest.mark.parametrize(
    ("fen", "square"),
    [
        ("W:W33:B1", "33"),  # an 8x8 board has squares 1-32
        ("W:W21:B32", "32"),  # a black man on White's back row (29-32) must be a king
        ("W:W1:B12", "1"),  # a white man on row 8 (1-4) must be a king
    ],
)
def test_fen_errors_on_the_8x8_board(fen, square):
    with pytest.raises(FenError, match=rf"\b{square}\b"):
        Board(V, fen)
