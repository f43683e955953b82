"""Thai draughts, mak-hot (docs/VARIANTS.md): 8x8, eight men each on the two back rows; men
move and capture forward only; flying kings move any distance but capture landing only on
the square directly behind the captured piece; free choice of capture. The option
``thai+twelve-men`` starts from the usual twelve-man position.

Squares 1-32 row by row from Black's side; White moves up. Drawings: White at the bottom;
each dark square shows its content then its number: w white man, W white king, b black man,
B black king, . empty. Every expected set is worked out by hand.
"""

from damier import Board

from ._util import captures, notations, x

V = "thai"


def test_start_position_and_first_moves():
    #     b1      b2      b3      b4
    # b5      b6      b7      b8
    #     .9      .10     .11     .12
    # .13     .14     .15     .16
    #     .17     .18     .19     .20
    # .21     .22     .23     .24
    #     w25     w26     w27     w28
    # w29     w30     w31     w32
    # The back row 29-32 is blocked; 25-28 step to 21-24 (28 only to 24, the edge).
    assert Board(V).fen == Board(V, "W:W25-32:B1-8").fen
    assert notations(V) == {
        "25-21",
        "25-22",
        "26-22",
        "26-23",
        "27-23",
        "27-24",
        "28-24",
    }


def test_black_first_replies():
    # After 25-21 Black's front men 5-8 step to 9-12 (5 only to 9, the edge).
    board = Board(V)
    board.push("25-21")
    assert {m.notation for m in board.legal_moves} == {
        "5-9",
        "6-9",
        "6-10",
        "7-10",
        "7-11",
        "8-11",
        "8-12",
    }


def test_twelve_men_start():
    #     b1      b2      b3      b4
    # b5      b6      b7      b8
    #     b9      b10     b11     b12
    # .13     .14     .15     .16
    #     .17     .18     .19     .20
    # w21     w22     w23     w24
    #     w25     w26     w27     w28
    # w29     w30     w31     w32
    # 21-24 step to 17-20 (21 only to 17, the edge).
    v = "thai+twelve-men"
    assert Board(v).fen == Board(v, "W:W21-32:B1-12").fen
    assert notations(v) == {
        "21-17",
        "22-17",
        "22-18",
        "23-18",
        "23-19",
        "24-19",
        "24-20",
    }


def test_man_does_not_capture_backward():
    #     .1      .2      .3      .4
    # .5      .6      .7      .8
    #     .9      .10     .11     .12
    # .13     .14     .15     .16
    #     .17     .18     .19     .20
    # .21     w22     .23     .24
    #     b25     b26     .27     .28
    # .29     .30     .31     .32
    assert notations(V, "W:W22:B25,26") == {"22-17", "22-18"}


def test_king_flies_when_not_capturing():
    #     .1      .2      .3      b4
    # .5      .6      .7      .8
    #     .9      .10     .11     .12
    # .13     .14     .15     .16
    #     .17     .18     .19     .20
    # .21     .22     .23     .24
    #     .25     .26     .27     .28
    # W29     .30     .31     .32
    assert notations(V, "W:WK29:B4") == {f"29-{s}" for s in (25, 22, 18, 15, 11, 8)}


def test_king_captures_at_a_distance_landing_directly_behind():
    #     .1      .2      .3      .4
    # .5      .6      .7      .8
    #     .9      .10     .11     .12
    # .13     .14     .15     .16
    #     .17     b18     .19     .20
    # .21     .22     .23     .24
    #     .25     .26     .27     .28
    # W29     .30     .31     .32
    # 25, 22 empty, 18 taken: land on 15 only (11, 8, 4 are not allowed).
    assert captures(V, "W:WK29:B18") == {x(29, 15, took=(18,))}


def test_king_cannot_capture_when_the_square_behind_is_taken():
    #     .1      .2      .3      .4
    # .5      .6      .7      .8
    #     .9      .10     .11     .12
    # .13     .14     b15     .16
    #     .17     b18     .19     .20
    # .21     .22     .23     .24
    #     .25     .26     .27     .28
    # W29     .30     .31     .32
    assert notations(V, "W:WK29:B15,18") == {"29-25", "29-22"}


def test_free_choice_between_a_king_and_a_man_capture():
    #     .1      .2      .3      .4
    # .5      .6      .7      .8
    #     .9      .10     .11     .12
    # .13     b14     .15     .16
    #     .17     .18     .19     .20
    # .21     b22     .23     .24
    #     .25     .26     b27     .28
    # W29     .30     .31     w32
    # King 29 takes 22 (land 18), then 14 (land 9): two pieces; from 18 the man 27 cannot
    # be taken (32 behind it is White's). Man 32 takes 27 to 23: one piece. Both are legal.
    assert captures(V, "W:WK29,32:B14,22,27") == {
        x(29, 18, 9, took=(22, 14)),
        x(32, 23, took=(27,)),
    }
