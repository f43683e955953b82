"""Czech draughts (docs/VARIANTS.md): 8x8, men move and capture forward only, flying kings;
when both a king and a man can capture, a king must capture; otherwise free choice (a
shorter capture may be taken).

Squares 1-32 row by row from Black's side; White moves up. Drawings: White at the bottom;
each dark square shows its content then its number: w white man, W white king, b black man,
B black king, . empty. Every expected set is worked out by hand.
"""

from ._util import captures, notations, x

V = "czech"


def test_man_does_not_capture_backward():
    #     .1      .2      .3      .4
    # .5      .6      .7      .8
    #     .9      .10     .11     .12
    # .13     .14     .15     .16
    #     .17     .18     .19     .20
    # .21     w22     .23     .24
    #     b25     b26     .27     .28
    # .29     .30     .31     .32
    # 25 and 26 are behind 22 (29 and 31 empty): no capture; 22 steps to 17 or 18.
    assert notations(V, "W:W22:B25,26") == {"22-17", "22-18"}


def test_man_captures_forward_only():
    #     .1      .2      .3      .4
    # .5      .6      .7      .8
    #     .9      .10     .11     .12
    # .13     .14     .15     .16
    #     .17     b18     .19     .20
    # .21     w22     .23     .24
    #     .25     b26     .27     .28
    # .29     .30     .31     .32
    # 22x15 over 18; 26 (backward, 31 empty) cannot be taken.
    assert captures(V, "W:W22:B18,26") == {x(22, 15, took=(18,))}


def test_king_flies():
    #     .1      .2      .3      b4
    # .5      .6      .7      .8
    #     .9      .10     .11     .12
    # .13     .14     .15     .16
    #     .17     .18     .19     .20
    # .21     .22     .23     .24
    #     .25     .26     .27     .28
    # W29     .30     .31     .32
    # Along 29-25-22-18-15-11-8-4 up to 8; 4 has no square behind it.
    assert notations(V, "W:WK29:B4") == {f"29-{s}" for s in (25, 22, 18, 15, 11, 8)}


def test_king_must_capture_before_a_man():
    #     .1      .2      .3      .4
    # .5      .6      .7      .8
    #     b9      .10     .11     .12
    # .13     .14     w15     .16
    #     b17     .18     .19     .20
    # .21     w22     .23     b24
    #     .25     .26     .27     W28
    # .29     .30     .31     .32
    # King 28 takes 24 (15 behind 19 is White's: land 19 only, nothing more);
    # man 22 could take two (17 to 13, 9 to 6); the king's capture is compulsory.
    assert captures(V, "W:WK28,15,22:B9,17,24") == {x(28, 19, took=(24,))}


def test_men_only_free_choice_allows_the_shorter_capture():
    #     .1      .2      .3      .4
    # .5      .6      .7      .8
    #     b9      b10     .11     .12
    # .13     .14     w15     .16
    #     b17     .18     .19     .20
    # .21     w22     .23     .24
    #     .25     .26     .27     .28
    # .29     .30     .31     .32
    # 15x6 takes one (10); 22x13x6 takes two (17, 9): no king can capture, both are legal.
    assert captures(V, "W:W15,22:B9,10,17") == {
        x(15, 6, took=(10,)),
        x(22, 13, 6, took=(17, 9)),
    }


def test_king_free_choice_between_a_short_and_a_long_capture():
    #     .1      .2      .3      .4
    # .5      .6      .7      .8
    #     .9      .10     .11     .12
    # .13     .14     b15     .16
    #     .17     W18     .19     .20
    # .21     .22     b23     b24
    #     .25     .26     .27     .28
    # .29     .30     .31     .32
    # Up-right: 15 taken, land 11, 8 or 4, nothing further. Down-right: 23 taken; from 27
    # the king goes on over 24 to 20 (32 would end the capture early, so 27 is forced).
    # Free choice: the one-piece captures stand beside the two-piece one.
    assert captures(V, "W:WK18:B15,23,24") == {
        x(18, 11, took=(15,)),
        x(18, 8, took=(15,)),
        x(18, 4, took=(15,)),
        x(18, 27, 20, took=(23, 24)),
    }
