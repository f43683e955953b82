"""Canadian draughts (docs/VARIANTS.md): International rules on a 12x12 board, 30 men each.

Squares 1-72 row by row from Black's side, six a row; White (43-72) moves up. Drawings:
White at the bottom; each dark square shows its content then its number: w white man,
W white king, b black man, B black king, . empty. Every expected set is worked out by hand.
"""

from damier import Board

from ._util import captures, notations, x

V = "canadian"


def test_start_position_and_first_moves():
    #     b1      b2      b3      b4      b5      b6
    # b7      b8      b9      b10     b11     b12
    #     b13     b14     b15     b16     b17     b18
    # b19     b20     b21     b22     b23     b24
    #     b25     b26     b27     b28     b29     b30
    # .31     .32     .33     .34     .35     .36
    #     .37     .38     .39     .40     .41     .42
    # w43     w44     w45     w46     w47     w48
    #     w49     w50     w51     w52     w53     w54
    # w55     w56     w57     w58     w59     w60
    #     w61     w62     w63     w64     w65     w66
    # w67     w68     w69     w70     w71     w72
    # The front men 43-48 step to 37-42; 43 (left edge) has only 37.
    assert Board(V).fen == Board(V, "W:W43-72:B1-30").fen
    assert notations(V) == {
        "43-37",
        "44-37",
        "44-38",
        "45-38",
        "45-39",
        "46-39",
        "46-40",
        "47-40",
        "47-41",
        "48-41",
        "48-42",
    }


def test_flying_king_capture_with_several_landing_squares():
    #     .1      .2      .3      .4      .5      .6
    # .7      .8      .9      .10     .11     .12
    #     .13     .14     .15     .16     .17     .18
    # .19     .20     .21     .22     .23     .24
    #     .25     .26     .27     .28     .29     .30
    # .31     .32     .33     .34     .35     .36
    #     .37     .38     b39     .40     .41     .42
    # .43     .44     .45     .46     .47     .48
    #     .49     .50     .51     .52     .53     .54
    # .55     .56     .57     .58     .59     .60
    #     .61     .62     .63     .64     .65     .66
    # W67     .68     .69     .70     .71     .72
    # The long diagonal 67-61-56-50-45-39-34-28-23-17-12-6: 39 taken, any square behind.
    assert captures(V, "W:WK67:B39") == {x(67, s, took=(39,)) for s in (34, 28, 23, 17, 12, 6)}


def test_majority_rule():
    #     .1      .2      .3      .4      .5      .6
    # .7      .8      .9      .10     .11     .12
    #     .13     .14     .15     .16     .17     .18
    # .19     .20     .21     .22     .23     .24
    #     .25     .26     .27     .28     .29     .30
    # .31     .32     .33     .34     .35     .36
    #     b37     .38     b39     .40     b41     .42
    # w43     .44     .45     .46     .47     .48
    #     .49     .50     .51     .52     .53     .54
    # .55     .56     .57     .58     .59     .60
    #     .61     .62     .63     .64     .65     .66
    # W67     .68     .69     .70     .71     .72
    # The king takes 39 and must land on 28, the only landing from which it goes on: 41
    # (28-35-41-48-54), landing on 48 or 54. The man 43 could take only 37 (to 32).
    assert captures(V, "W:WK67,43:B37,39,41") == {
        x(67, 28, 48, took=(39, 41)),
        x(67, 28, 54, took=(39, 41)),
    }
