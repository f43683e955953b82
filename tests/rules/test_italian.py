"""Italian draughts (FID): RULES.md section 6 and decisions 1, 5 and 7.

The Italian board is mirrored: square 1 is the top-left corner (a8), 32 White's near-right corner
(h1). Drawings: White at the bottom moving up (towards 1-4); each dark square shows its number
after its content: w white man, W white king, b black man, B black king, . empty.
Every expected set below is worked out by hand from RULES.md.
"""

from damier import BLACK, WHITE, Board

V = "italian"


def test_white_moves_first_from_the_start(notations):
    #    8 b1      b2      b3      b4
    #    7     b5      b6      b7      b8
    #    6 b9      b10     b11     b12
    #    5     .13     .14     .15     .16
    #    4 .17     .18     .19     .20
    #    3     w21     w22     w23     w24
    #    2 w25     w26     w27     w28
    #    1     w29     w30     w31     w32
    #      a   b   c   d   e   f   g   h
    # White's front men 21-24 (b3 d3 f3 h3) step to 17-20 (a4 c4 e4 g4).
    assert Board(V).turn == WHITE
    assert notations(V, None) == {
        "21-17",
        "21-18",
        "22-18",
        "22-19",
        "23-19",
        "23-20",
        "24-20",
    }


def test_option_dark_first(notations):
    # Black's front men 9-12 (a6 c6 e6 g6) step down to 13-16 (b5 d5 f5 h5).
    assert Board("italian+dark-first").turn == BLACK
    assert notations("italian+dark-first", None) == {
        "9-13",
        "10-13",
        "10-14",
        "11-14",
        "11-15",
        "12-15",
        "12-16",
    }


def test_man_does_not_capture_backward(notations):
    #    8 .1      .2      .3      .4
    #    7     .5      .6      .7      .8
    #    6 .9      .10     .11     .12
    #    5     .13     .14     .15     .16
    #    4 .17     .18     .19     .20
    #    3     .21     w22     .23     .24
    #    2 .25     .26     b27     .28
    #    1     .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # 27 (e2) is behind 22 (d3): men capture forward only, so 22 just steps to 18 or 19.
    assert notations(V, "W:W22:B27") == {"22-18", "22-19"}


def test_man_captures_a_man_forward(captures):
    #    8 .1      .2      .3      .4
    #    7     .5      .6      .7      .8
    #    6 .9      .10     .11     .12
    #    5     .13     .14     .15     .16
    #    4 .17     b18     .19     .20
    #    3     .21     w22     .23     .24
    #    2 .25     .26     .27     .28
    #    1     .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    assert captures(V, "W:W22:B18") == {((22, 13), (18,))}


def test_man_cannot_capture_a_king(notations):
    #    8 .1      .2      .3      .4
    #    7     .5      .6      .7      .8
    #    6 .9      .10     .11     .12
    #    5     .13     .14     .15     .16
    #    4 .17     B18     .19     .20
    #    3     .21     w22     .23     .24
    #    2 .25     .26     .27     .28
    #    1     .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # 18 is a king: the man may not take it (13 is empty, but FID 5.3b). 18 is occupied, so the
    # only move is the step to 19.
    assert notations(V, "W:W22:BK18") == {"22-19"}


def test_short_king_moves_one_square(notations):
    #    8 b1      .2      .3      .4
    #    7     .5      .6      .7      .8
    #    6 .9      .10     .11     .12
    #    5     .13     .14     .15     .16
    #    4 .17     .18     .19     .20
    #    3     .21     W22     .23     .24
    #    2 .25     .26     .27     .28
    #    1     .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    assert notations(V, "W:WK22:B1") == {"22-18", "22-19", "22-26", "22-27"}


def test_short_king_does_not_capture_at_distance(notations):
    #    8 .1      .2      .3      .4
    #    7     .5      .6      .7      .8
    #    6 .9      .10     .11     .12
    #    5     .13     .14     b15     .16
    #    4 .17     .18     .19     .20
    #    3     .21     W22     .23     .24
    #    2 .25     .26     .27     .28
    #    1     .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # 15 (f5) is two squares away on the diagonal 22-19-15: no capture.
    assert notations(V, "W:WK22:B15") == {"22-18", "22-19", "22-26", "22-27"}


def test_short_king_lands_right_behind_the_captured_piece(captures):
    #    8 .1      .2      .3      .4
    #    7     .5      .6      .7      .8
    #    6 .9      .10     .11     .12
    #    5     .13     .14     .15     .16
    #    4 .17     .18     b19     .20
    #    3     .21     W22     .23     .24
    #    2 .25     .26     .27     .28
    #    1     .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # 22x15 over 19; not 12 or 8 further along.
    assert captures(V, "W:WK22:B19") == {((22, 15), (19,))}


def test_precedence_1_most_pieces(captures):
    #    8 .1      .2      .3      .4
    #    7     .5      .6      .7      .8
    #    6 .9      .10     .11     .12
    #    5     .13     .14     b15     .16
    #    4 .17     .18     .19     .20
    #    3     .21     b22     .23     .24
    #    2 .25     w26     .27     b28
    #    1     .29     .30     .31     W32
    #      a   b   c   d   e   f   g   h
    # Man 26x19x12 takes two (22, 15); king 32x23 takes one (28). Most pieces first.
    assert captures(V, "W:W26,K32:B15,22,28") == {((26, 19, 12), (22, 15))}


def test_precedence_2_capture_with_a_king_rather_than_a_man(captures):
    #    8 .1      .2      .3      .4
    #    7     .5      .6      .7      .8
    #    6 .9      .10     .11     .12
    #    5     .13     .14     .15     .16
    #    4 .17     .18     .19     .20
    #    3     .21     b22     .23     .24
    #    2 .25     w26     .27     b28
    #    1     .29     .30     .31     W32
    #      a   b   c   d   e   f   g   h
    # One piece either way: man 26x19 (22) or king 32x23 (28). The king must capture.
    assert captures(V, "W:W26,K32:B22,28") == {((32, 23), (28,))}


def test_precedence_3_most_kings(captures):
    #    8 .1      .2      .3      .4
    #    7     .5      .6      .7      .8
    #    6 .9      .10     .11     .12
    #    5     .13     .14     .15     .16
    #    4 .17     b18     B19     .20
    #    3     .21     W22     .23     .24
    #    2 .25     .26     .27     .28
    #    1     .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # King 22 takes one either way: man 18 (to 13) or king 19 (to 15). Take the king.
    assert captures(V, "W:WK22:B18,K19") == {((22, 15), (19,))}


def test_precedence_4_king_met_earliest(captures):
    #    8 .1      .2      .3      .4
    #    7     .5      .6      .7      .8
    #    6 .9      .10     b11     .12
    #    5     .13     .14     .15     .16
    #    4 .17     .18     B19     .20
    #    3     .21     W22     .23     .24
    #    2 .25     .26     b27     B28
    #    1     .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # Two pieces, one of them a king, either way:
    #   22x15x6  takes king 19 first, then man 11;
    #   22x31x24 takes man 27 first, then king 28.
    # The sequence meeting a king earliest is compulsory.
    assert captures(V, "W:WK22:B11,K19,27,K28") == {((22, 15, 6), (19, 11))}


def test_precedence_5_otherwise_free_choice(captures):
    #    8 .1      .2      .3      .4
    #    7     .5      .6      .7      .8
    #    6 .9      .10     .11     .12
    #    5     .13     .14     .15     .16
    #    4 .17     b18     b19     .20
    #    3     .21     W22     .23     .24
    #    2 .25     .26     .27     .28
    #    1     .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # King takes one man either way: both legal.
    assert captures(V, "W:WK22:B18,19") == {((22, 13), (18,)), ((22, 15), (19,))}


def test_crowning_ends_the_move(crowning):
    #    8 .1      .2      .3      .4
    #    7     .5      b6      b7      .8
    #    6 .9      w10     .11     .12
    #    5     .13     .14     .15     .16
    #    4 .17     .18     .19     .20
    #    3     .21     .22     .23     .24
    #    2 .25     .26     .27     .28
    #    1     .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # 10x3 over 6 reaches row 8 and is crowned; a king on 3 could take 7 (to 12), but the move ends.
    assert crowning(V, "W:W10:B6,7") == {((10, 3), (6,), True)}
    board = Board(V, "W:W10:B6,7")
    board.push("10x3")
    assert board.piece_at(3) == (WHITE, True)


def test_a_king_passing_the_last_row_goes_on_capturing(crowning):
    #    8 .1      .2      .3      .4
    #    7     .5      b6      b7      .8
    #    6 .9      W10     .11     .12
    #    5     .13     .14     .15     .16
    #    4 .17     .18     .19     .20
    #    3     .21     .22     .23     .24
    #    2 .25     .26     .27     .28
    #    1     .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # Only a man's crowning ends the move: king 10 takes 6 onto 3 and then 7 onto 12.
    assert crowning(V, "W:WK10:B6,7") == {((10, 3, 12), (6, 7), False)}


def test_man_capture_stops_in_front_of_a_king(captures):
    #    8 .1      .2      .3      .4
    #    7     .5      .6      .7      .8
    #    6 .9      B10     .11     .12
    #    5     .13     .14     .15     .16
    #    4 .17     b18     .19     .20
    #    3     .21     w22     .23     .24
    #    2 .25     .26     .27     .28
    #    1     .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # 22x13 over man 18; from 13 the next piece, 10, is a king, which a man may not take.
    assert captures(V, "W:W22:B18,K10") == {((22, 13), (18,))}
