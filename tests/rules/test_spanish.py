"""Spanish draughts: RULES.md section 7 and decisions 4 and 7.

Spanish squares run from White's near-right square (h1 = 1) right to left, bottom to top
(a8 = 32); White moves up, towards 29-32. Drawings: White at the bottom; each dark square shows
its number after its content: w white man, W white king, b black man, B black king, . empty.
Every expected set below is worked out by hand from RULES.md.
"""

from damier import WHITE, Board

V = "spanish"


def test_white_moves_first_from_the_start(notations):
    #    8 b32     b31     b30     b29
    #    7     b28     b27     b26     b25
    #    6 b24     b23     b22     b21
    #    5     .20     .19     .18     .17
    #    4 .16     .15     .14     .13
    #    3     w12     w11     w10     w9
    #    2 w8      w7      w6      w5
    #    1     w4      w3      w2      w1
    #      a   b   c   d   e   f   g   h
    # White's front men 9-12 (h3 f3 d3 b3) step to 13-16 (g4 e4 c4 a4); 9 is on the h-file.
    assert Board(V).turn == WHITE
    assert notations(V, None) == {
        "9-13",
        "10-13",
        "10-14",
        "11-14",
        "11-15",
        "12-15",
        "12-16",
    }


def test_black_man_steps_down_the_board(notations):
    #    8 .32     .31     .30     .29
    #    7     .28     .27     .26     .25
    #    6 .24     .23     b22     .21
    #    5     .20     .19     .18     .17
    #    4 .16     .15     .14     .13
    #    3     .12     .11     .10     .9
    #    2 .8      .7      .6      .5
    #    1     .4      .3      .2      w1
    #      a   b   c   d   e   f   g   h
    # Black 22 (e6) steps to 19 (d5) or 18 (f5).
    assert notations(V, "B:W1:B22") == {"22-18", "22-19"}


def test_man_does_not_capture_backward(notations):
    #    8 .32     .31     .30     .29
    #    7     .28     .27     .26     .25
    #    6 .24     .23     .22     .21
    #    5     .20     .19     .18     .17
    #    4 .16     .15     .14     .13
    #    3     .12     w11     .10     .9
    #    2 .8      .7      b6      .5
    #    1     .4      .3      .2      .1
    #      a   b   c   d   e   f   g   h
    # 6 (e2) is behind 11 (d3): no capture; 11 steps to 14 (e4) or 15 (c4).
    assert notations(V, "W:W11:B6") == {"11-14", "11-15"}


def test_man_captures_forward_and_may_take_a_king(captures):
    #    8 .32     .31     .30     .29
    #    7     .28     .27     .26     .25
    #    6 .24     .23     .22     .21
    #    5     .20     .19     .18     .17
    #    4 .16     .15     B14     .13
    #    3     .12     w11     .10     .9
    #    2 .8      .7      .6      .5
    #    1     .4      .3      .2      .1
    #      a   b   c   d   e   f   g   h
    assert captures(V, "W:W11:BK14") == {((11, 18), (14,))}


def test_flying_king_moves_any_distance(notations):
    #    8 b32     .31     .30     .29
    #    7     .28     .27     .26     .25
    #    6 .24     .23     .22     .21
    #    5     .20     .19     .18     .17
    #    4 .16     .15     .14     .13
    #    3     .12     W11     .10     .9
    #    2 .8      .7      .6      .5
    #    1     .4      .3      .2      .1
    #      a   b   c   d   e   f   g   h
    # Lines of 11 (d3): 15 20 24 / 14 18 21 25 / 7 4 / 6 2.
    assert notations(V, "W:WK11:B32") == {
        "11-15",
        "11-20",
        "11-24",
        "11-14",
        "11-18",
        "11-21",
        "11-25",
        "11-7",
        "11-4",
        "11-6",
        "11-2",
    }


def test_flying_king_captures_at_distance(captures):
    #    8 .32     .31     .30     .29
    #    7     .28     .27     .26     .25
    #    6 .24     .23     .22     b21
    #    5     .20     .19     .18     .17
    #    4 .16     .15     .14     .13
    #    3     .12     W11     .10     .9
    #    2 .8      .7      .6      .5
    #    1     .4      .3      .2      .1
    #      a   b   c   d   e   f   g   h
    # 14, 18 empty, black 21 (g6), then 25 (h7) the only square behind it.
    assert captures(V, "W:WK11:B21") == {((11, 25), (21,))}


def test_flying_king_must_land_where_the_capture_continues(captures):
    #    8 .32     .31     .30     .29
    #    7     .28     .27     b26     .25
    #    6 .24     .23     .22     .21
    #    5     .20     .19     .18     .17
    #    4 .16     .15     .14     .13
    #    3     .12     .11     b10     .9
    #    2 .8      .7      .6      .5
    #    1     .4      .3      .2      W1
    #      a   b   c   d   e   f   g   h
    # 1 (h1) takes 10 (f3) and could stop on 14, 19, 23, 28 or 32; only from 19 (d5) can it take
    # again (22 empty, 26 black, 29 behind). So it lands on 19 and ends on 29.
    assert captures(V, "W:WK1:B10,26") == {((1, 19, 29), (10, 26))}


def test_quantity_most_pieces_even_against_a_king(captures):
    #    8 .32     .31     .30     .29
    #    7     .28     .27     .26     .25
    #    6 .24     .23     .22     b21
    #    5     .20     .19     .18     .17
    #    4 .16     .15     w14     b13
    #    3     .12     .11     .10     w9
    #    2 .8      B7      .6      .5
    #    1     W4      .3      .2      .1
    #      a   b   c   d   e   f   g   h
    # Man 9: 9x18 over 13, 18x25 over 21: two men. King 4: over king 7 to 11 (14 is white): one
    # piece. Quantity comes before quality.
    assert captures(V, "W:W9,14,K4:B13,21,K7") == {((9, 18, 25), (13, 21))}


def test_quality_equal_count_most_kings(captures):
    #    8 .32     .31     .30     .29
    #    7     .28     .27     .26     .25
    #    6 .24     .23     .22     .21
    #    5     .20     .19     .18     .17
    #    4 .16     .15     w14     b13
    #    3     .12     .11     .10     w9
    #    2 .8      B7      .6      .5
    #    1     W4      .3      .2      .1
    #      a   b   c   d   e   f   g   h
    # One piece either way: man 9x18 takes man 13; king 4x11 takes king 7. Take the king.
    assert captures(V, "W:W9,14,K4:B13,K7") == {((4, 11), (7,))}


def test_quality_counts_captured_kings_not_the_capturing_piece(captures):
    #    8 .32     .31     .30     .29
    #    7     .28     .27     .26     .25
    #    6 .24     .23     .22     .21
    #    5     .20     .19     .18     .17
    #    4 .16     .15     w14     B13
    #    3     .12     .11     .10     w9
    #    2 .8      b7      .6      .5
    #    1     W4      .3      .2      .1
    #      a   b   c   d   e   f   g   h
    # Now the man takes the king (13) and the king takes a man (7): the man's capture is required.
    assert captures(V, "W:W9,14,K4:BK13,7") == {((9, 18), (13,))}


def test_otherwise_free_choice(captures):
    #    8 .32     .31     .30     .29
    #    7     .28     .27     .26     .25
    #    6 .24     .23     .22     .21
    #    5     .20     .19     .18     .17
    #    4 .16     .15     w14     b13
    #    3     .12     .11     .10     w9
    #    2 .8      b7      .6      .5
    #    1     W4      .3      .2      .1
    #      a   b   c   d   e   f   g   h
    # One man either way: man 9x18 or king 4x11, both legal.
    assert captures(V, "W:W9,14,K4:B13,7") == {((9, 18), (13,)), ((4, 11), (7,))}


def test_crowning_ends_the_move(crowning):
    #    8 .32     .31     .30     .29
    #    7     .28     b27     b26     .25
    #    6 .24     w23     .22     .21
    #    5     .20     .19     .18     .17
    #    4 .16     .15     .14     .13
    #    3     .12     .11     .10     .9
    #    2 .8      .7      .6      .5
    #    1     .4      .3      .2      .1
    #      a   b   c   d   e   f   g   h
    # 23 (c6) takes 27 (d7) to 30 (e8) and is crowned; a flying king on 30 could take 26 (f7) to
    # 21 or 17, but the move ends.
    assert crowning(V, "W:W23:B26,27") == {((23, 30), (27,), True)}
    board = Board(V, "W:W23:B26,27")
    board.push("23x30")
    assert board.piece_at(30) == (WHITE, True)
