"""Brazilian draughts (International rules on 64 squares): RULES.md section 2.

Drawings: White at the bottom moving up (towards 1-4); each dark square shows its number after
its content: w white man, W white king, b black man, B black king, . empty.
Every expected set below is worked out by hand from RULES.md.
"""

from damier import WHITE, Board

V = "brazilian"


def test_white_moves_first_from_the_start(notations):
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


def test_men_capture_backward(captures):
    #    8     .1      .2      .3      .4
    #    7 .5      .6      .7      .8
    #    6     .9      .10     .11     .12
    #    5 .13     .14     .15     .16
    #    4     .17     .18     .19     .20
    #    3 .21     w22     .23     .24
    #    2     .25     b26     .27     .28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    assert captures(V, "W:W22:B26") == {((22, 31), (26,))}


def test_majority_rule_the_longer_capture_is_compulsory(captures):
    #    8     .1      .2      .3      .4
    #    7 .5      .6      .7      .8
    #    6     .9      b10     .11     .12
    #    5 .13     .14     .15     .16
    #    4     b17     b18     .19     .20
    #    3 .21     w22     .23     .24
    #    2     .25     .26     .27     .28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # 22x13 takes one (17), 22x15x6 takes two (18, 10): only the two-piece capture is legal.
    assert captures(V, "W:W22:B10,17,18") == {((22, 15, 6), (18, 10))}


def test_majority_rule_man_taking_two_beats_king_taking_one(captures):
    #    8     .1      .2      .3      .4
    #    7 .5      .6      .7      .8
    #    6     .9      .10     .11     .12
    #    5 .13     .14     b15     .16
    #    4     .17     .18     .19     .20
    #    3 W21     .22     .23     b24
    #    2     b25     .26     .27     w28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # Man 28: 28x19 over 24, then 19x10 over 15: two. King 21: over 25 to 30 only: one.
    assert captures(V, "W:W28,K21:B15,24,25") == {((28, 19, 10), (24, 15))}


def test_equal_captures_are_free_whether_man_or_king_captures(captures):
    #    8     .1      .2      .3      .4
    #    7 .5      .6      .7      .8
    #    6     .9      .10     .11     .12
    #    5 .13     .14     .15     .16
    #    4     .17     .18     .19     .20
    #    3 W21     .22     .23     b24
    #    2     b25     .26     .27     w28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # Man 28x19 (24) and king 21x30 (25): one piece each, both legal.
    assert captures(V, "W:W28,K21:B24,25") == {((28, 19), (24,)), ((21, 30), (25,))}


def test_man_passing_the_last_row_during_a_capture_stays_a_man(crowning):
    #    8     .1      .2      .3      .4
    #    7 .5      b6      b7      .8
    #    6     w9      .10     .11     .12
    #    5 .13     .14     .15     .16
    #    4     .17     .18     .19     .20
    #    3 .21     .22     .23     .24
    #    2     .25     .26     .27     .28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # 9x2 over 6 touches row 8, continues backward over 7 to 11 and stays a man.
    assert crowning(V, "W:W9:B6,7") == {((9, 2, 11), (6, 7), False)}
    board = Board(V, "W:W9:B6,7")
    board.push("9x11")
    assert board.piece_at(11) == (WHITE, False)


def test_man_ending_on_the_last_row_is_crowned(crowning):
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


def test_flying_king_captures_at_distance(captures):
    #    8     .1      .2      .3      .4
    #    7 .5      .6      .7      .8
    #    6     .9      .10     b11     .12
    #    5 .13     .14     .15     .16
    #    4     .17     .18     .19     .20
    #    3 .21     W22     .23     .24
    #    2     .25     .26     .27     .28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    assert captures(V, "W:WK22:B11") == {((22, 8), (11,)), ((22, 4), (11,))}


def test_majority_counts_pieces_a_captured_king_weighs_no_more(captures):
    #    8     .1      .2      .3      .4
    #    7 .5      .6      .7      .8
    #    6     .9      .10     .11     .12
    #    5 .13     .14     .15     .16
    #    4     .17     .18     .19     .20
    #    3 W21     .22     .23     B24
    #    2     b25     .26     .27     w28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # Man 28 takes the king 24, king 21 takes the man 25: one piece each, both legal.
    assert captures(V, "W:W28,K21:BK24,25") == {((28, 19), (24,)), ((21, 30), (25,))}
