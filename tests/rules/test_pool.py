"""American pool checkers (APCA): RULES.md section 5 and decision 1 (option).

Drawings: White at the bottom moving up (towards 1-4); each dark square shows its number after
its content: w white man, W white king, b black man, B black king, . empty.
Every expected set below is worked out by hand from RULES.md.
"""

from damier import BLACK, WHITE, Board

V = "pool"
FORWARD_ONLY = "pool+men-capture-forward-only"


def test_dark_side_moves_first_from_the_start(notations):
    # Black (1-12) moves first; its front men 9-12 step down to 13-16.
    assert Board(V).turn == BLACK
    assert notations(V, None) == {
        "9-13",
        "9-14",
        "10-14",
        "10-15",
        "11-15",
        "11-16",
        "12-16",
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
    # APCA rule 4: men jump forward or backward. 22x31 over 26 is compulsory.
    assert captures(V, "W:W22:B26") == {((22, 31), (26,))}


def test_option_men_capture_forward_only(notations):
    #    8     .1      .2      .3      .4
    #    7 .5      .6      .7      .8
    #    6     .9      .10     .11     .12
    #    5 .13     .14     .15     .16
    #    4     .17     .18     .19     .20
    #    3 .21     w22     .23     .24
    #    2     .25     b26     .27     .28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # With the option, 26 behind 22 cannot be taken: only the two forward steps.
    assert notations(FORWARD_ONLY, "W:W22:B26") == {"22-17", "22-18"}


def test_man_reaching_last_row_mid_capture_continues_backward_as_a_man(crowning):
    #    8     .1      .2      .3      .4
    #    7 .5      b6      b7      .8
    #    6     w9      .10     .11     .12
    #    5 .13     .14     .15     .16
    #    4     .17     .18     .19     .20
    #    3 .21     .22     .23     .24
    #    2     .25     .26     .27     .28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # 9x2 over 6 reaches the king row, but from 2 the man can jump 7 backward to 11: it must, and
    # it is not crowned (it does not end on the king row).
    assert crowning(V, "W:W9:B6,7") == {((9, 2, 11), (6, 7), False)}
    board = Board(V, "W:W9:B6,7")
    board.push("9x11")
    assert board.piece_at(11) == (WHITE, False)


def test_option_forward_only_man_stops_and_is_crowned_on_last_row(crowning):
    #    8     .1      .2      .3      .4
    #    7 .5      b6      b7      .8
    #    6     w9      .10     .11     .12
    #    5 .13     .14     .15     .16
    #    4     .17     .18     .19     .20
    #    3 .21     .22     .23     .24
    #    2     .25     .26     .27     .28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # Forward-only men cannot jump 7 backward from 2: the capture ends on 2 and crowns.
    assert crowning(FORWARD_ONLY, "W:W9:B6,7") == {((9, 2), (6,), True)}


def test_man_ending_on_last_row_is_crowned(crowning):
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
    board = Board(V, "W:W9:B6")
    board.push("9x2")
    assert board.piece_at(2) == (WHITE, True)


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
    # 22x13 (17) or 22x15x6 (18, 10); no backward jump is available on the way. Free choice.
    assert captures(V, "W:W22:B10,17,18") == {
        ((22, 13), (17,)),
        ((22, 15, 6), (18, 10)),
    }


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


def test_flying_king_captures_at_distance_and_lands_on_any_square_beyond(captures):
    #    8     .1      .2      .3      .4
    #    7 .5      .6      .7      .8
    #    6     .9      .10     b11     .12
    #    5 .13     .14     .15     .16
    #    4     .17     .18     .19     .20
    #    3 .21     W22     .23     .24
    #    2     .25     .26     .27     .28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # 18, 15 empty, black 11, then 8 and 4 empty: two landing squares, no continuation.
    assert captures(V, "W:WK22:B11") == {((22, 8), (11,)), ((22, 4), (11,))}
