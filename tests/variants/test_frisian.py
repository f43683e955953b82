"""Frisian draughts and Frysk! (docs/VARIANTS.md).

10x10, squares 1-50 row by row from Black's side; White moves up. Men move one square
diagonally forward and capture in all eight directions: diagonally, and orthogonally along a
row (the enemy piece on the next dark square of the row, two columns away, landing on the one
after) or along a file (two rows away, landing two rows further). Kings move diagonally only
and capture in all eight directions at any distance. Choice: the capture of most value (a man
100, a king 199), then a king's capture before a man's.

Drawings: White at the bottom; each dark square shows its content then its number:
w white man, W white king, b black man, B black king, . empty. Every expected set is worked
out by hand.
"""

from damier import Board

from ._util import captures, notations, x

V = "frisian"


# -- men ------------------------------------------------------------------------------


def test_man_moves_only_diagonally_forward():
    #     .1      .2      b3      .4      .5
    # .6      .7      .8      .9      .10
    #     .11     .12     .13     .14     .15
    # .16     .17     .18     .19     .20
    #     .21     .22     .23     .24     .25
    # .26     .27     .28     .29     .30
    #     .31     .32     w33     .34     .35
    # .36     .37     .38     .39     .40
    #     .41     .42     .43     .44     .45
    # .46     .47     .48     .49     .50
    # Nothing to capture; 33 steps to 28 or 29, never to 23 (file) or 32/34 (row).
    assert notations(V, "W:W33:B3") == {"33-28", "33-29"}


def test_man_captures_along_a_row_then_a_file():
    #     .1      .2      .3      .4      .5
    # .6      .7      .8      .9      .10
    #     .11     .12     .13     .14     .15
    # .16     .17     .18     .19     b20
    #     .21     .22     .23     .24     .25
    # .26     .27     w28     b29     .30
    #     .31     .32     .33     .34     .35
    # .36     .37     .38     .39     .40
    #     .41     .42     .43     .44     .45
    # .46     .47     .48     .49     .50
    # 28 jumps 29 (next dark square on its row) to 30, then 20 (two rows up the file) to 10.
    assert captures(V, "W:W28:B20,29") == {x(28, 30, 10, took=(29, 20))}


def test_man_captures_along_the_file_forward_and_backward():
    #     .1      .2      .3      .4      .5
    # .6      .7      .8      .9      .10
    #     .11     .12     .13     .14     .15
    # .16     .17     b18     .19     .20
    #     .21     .22     .23     .24     .25
    # .26     .27     w28     .29     .30
    #     .31     .32     .33     .34     .35
    # .36     .37     b38     .39     .40
    #     .41     .42     .43     .44     .45
    # .46     .47     .48     .49     .50
    # 18 is two rows above 28 (land 8), 38 two rows below (land 48); one man each: free.
    assert captures(V, "W:W28:B18,38") == {x(28, 8, took=(18,)), x(28, 48, took=(38,))}


def test_man_does_not_capture_at_a_distance():
    #     .1      .2      .3      .4      .5
    # .6      .7      .8      .9      .10
    #     .11     .12     .13     .14     .15
    # .16     .17     .18     .19     .20
    #     .21     .22     .23     .24     .25
    # w26     .27     b28     .29     .30
    #     .31     .32     .33     .34     .35
    # .36     .37     .38     .39     .40
    #     .41     .42     .43     .44     .45
    # .46     .47     .48     .49     .50
    # 28 is two dark squares along the row (27 between is empty): no capture for a man.
    assert notations(V, "W:W26:B28") == {"26-21"}


# -- kings ----------------------------------------------------------------------------


def test_king_moves_only_diagonally():
    #     .1      .2      b3      .4      .5
    # .6      .7      .8      .9      .10
    #     .11     .12     .13     .14     .15
    # .16     .17     .18     .19     .20
    #     .21     .22     .23     .24     .25
    # .26     .27     W28     .29     .30
    #     .31     .32     .33     .34     .35
    # .36     .37     .38     .39     .40
    #     .41     .42     .43     .44     .45
    # .46     .47     .48     .49     .50
    # 3 is on none of 28's lines; the four diagonals only, never 18/8, 38/48, 27/26, 29/30.
    assert notations(V, "W:WK28:B3") == {
        *(f"28-{s}" for s in (22, 17, 11, 6)),
        *(f"28-{s}" for s in (23, 19, 14, 10, 5)),
        *(f"28-{s}" for s in (32, 37, 41, 46)),
        *(f"28-{s}" for s in (33, 39, 44, 50)),
    }


def test_king_captures_along_a_row_at_a_distance():
    #     .1      .2      .3      .4      .5
    # .6      .7      .8      .9      .10
    #     .11     .12     .13     .14     .15
    # .16     .17     .18     .19     .20
    #     .21     .22     .23     .24     .25
    # W26     .27     .28     b29     .30
    #     .31     .32     .33     .34     .35
    # .36     .37     .38     .39     .40
    #     .41     .42     .43     .44     .45
    # .46     .47     .48     .49     .50
    # Along row 26-30: 27, 28 empty, 29 black, 30 the only square behind.
    assert captures(V, "W:WK26:B29") == {x(26, 30, took=(29,))}


def test_king_captures_up_a_file_then_along_a_row():
    #     .1      .2      .3      .4      .5
    # .6      .7      .8      .9      .10
    #     .11     .12     .13     .14     .15
    # .16     .17     b18     .19     .20
    #     .21     .22     .23     .24     .25
    # b26     .27     .28     .29     .30
    #     .31     .32     .33     .34     .35
    # .36     .37     .38     .39     .40
    #     .41     .42     .43     .44     .45
    # W46     .47     .48     .49     .50
    # Up the file 46-36-26-16-6: 26 taken, landing 16 or 6; only from 16 does the row
    # 16-17-18-19-20 give a second capture (18, landing 19 or 20), so 16 is forced.
    assert captures(V, "W:WK46:B18,26") == {
        x(46, 16, 19, took=(26, 18)),
        x(46, 16, 20, took=(26, 18)),
    }


# -- the value rule -------------------------------------------------------------------


def test_two_men_beat_one_king():
    #     .1      .2      .3      .4      .5
    # .6      .7      .8      .9      .10
    #     .11     .12     .13     .14     .15
    # b16     .17     .18     .19     .20
    #     .21     .22     .23     .24     .25
    # .26     .27     w28     B29     .30
    #     .31     .32     .33     .34     .35
    # b36     .37     .38     .39     .40
    #     .41     .42     .43     .44     .45
    # w46     .47     .48     .49     .50
    # 28x30 takes the king (199); 46 takes 36 and 16 up the file (200): two men win.
    assert captures(V, "W:W28,46:B16,36,K29") == {x(46, 26, 6, took=(36, 16))}


def test_one_king_beats_one_man():
    #     .1      .2      .3      .4      .5
    # .6      .7      .8      .9      .10
    #     .11     .12     .13     .14     .15
    # .16     .17     .18     .19     .20
    #     .21     .22     .23     .24     .25
    # .26     .27     w28     B29     .30
    #     .31     .32     .33     .34     .35
    # b36     .37     .38     .39     .40
    #     .41     .42     .43     .44     .45
    # w46     .47     .48     .49     .50
    # 28x30 takes the king (199), 46x26 one man (100).
    assert captures(V, "W:W28,46:B36,K29") == {x(28, 30, took=(29,))}


def test_two_kings_beat_three_men():
    #     .1      .2      .3      .4      .5
    # .6      b7      .8      .9      .10
    #     .11     .12     .13     .14     .15
    # b16     .17     .18     .19     B20
    #     .21     .22     .23     .24     .25
    # .26     .27     w28     B29     .30
    #     .31     .32     .33     .34     .35
    # b36     .37     .38     .39     .40
    #     .41     .42     .43     .44     .45
    # w46     .47     .48     .49     .50
    # 46x26x6x8 takes the men 36, 16, 7 (300); 28x30x10 the kings 29, 20 (398).
    assert captures(V, "W:W28,46:B7,16,36,K20,K29") == {x(28, 30, 10, took=(29, 20))}


def test_on_equal_value_the_king_must_capture():
    #     .1      .2      .3      .4      .5
    # .6      .7      .8      .9      .10
    #     .11     .12     .13     .14     .15
    # .16     .17     .18     .19     .20
    #     .21     .22     .23     .24     .25
    # .26     .27     W28     b29     .30
    #     .31     .32     .33     .34     .35
    # b36     .37     .38     .39     .40
    #     .41     .42     .43     .44     .45
    # w46     .47     .48     .49     .50
    # King 28 takes 29 along the row, man 46 takes 36 up the file: one man each, the king's.
    assert captures(V, "W:WK28,46:B29,36") == {x(28, 30, took=(29,))}


def test_value_comes_before_the_king_preference():
    #     .1      .2      .3      .4      .5
    # .6      .7      .8      .9      .10
    #     .11     .12     .13     .14     .15
    # .16     .17     .18     .19     .20
    #     .21     .22     .23     .24     .25
    # .26     .27     W28     b29     .30
    #     .31     .32     .33     .34     .35
    # B36     .37     .38     .39     .40
    #     .41     .42     .43     .44     .45
    # w46     .47     .48     .49     .50
    # The king would take a man (100); the man 46 takes the king 36 (199): the man's.
    assert captures(V, "W:WK28,46:B29,K36") == {x(46, 26, took=(36,))}


# -- Frysk! ---------------------------------------------------------------------------

FRYSK_START = "W:W46-50:B1-5"


def test_frysk_start_position():
    assert Board("frysk").fen == Board("frysk", FRYSK_START).fen


def test_frysk_first_moves():
    #     b1      b2      b3      b4      b5
    # .6      .7      .8      .9      .10
    #     .11     .12     .13     .14     .15
    # .16     .17     .18     .19     .20
    #     .21     .22     .23     .24     .25
    # .26     .27     .28     .29     .30
    #     .31     .32     .33     .34     .35
    # .36     .37     .38     .39     .40
    #     .41     .42     .43     .44     .45
    # w46     w47     w48     w49     w50
    # Each back-rank man steps to 41-45; 46 has only 41 (the edge).
    assert notations("frysk") == {
        "46-41",
        "47-41",
        "47-42",
        "48-42",
        "48-43",
        "49-43",
        "49-44",
        "50-44",
        "50-45",
    }


def test_frysk_black_replies():
    # After 46-41, Black's 1-5 step to 6-10; 5 (right edge) has only 10.
    board = Board("frysk")
    board.push("46-41")
    assert {m.notation for m in board.legal_moves} == {
        "1-6",
        "1-7",
        "2-7",
        "2-8",
        "3-8",
        "3-9",
        "4-9",
        "4-10",
        "5-10",
    }


def test_frysk_men_capture_along_a_row():
    # Same drawing as test_man_captures_along_a_row_then_a_file without 20.
    assert captures("frysk", "W:W28:B29") == {x(28, 30, took=(29,))}
