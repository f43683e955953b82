"""Killer draughts (docs/VARIANTS.md): International rules, but a king that captures a king
must land on the square directly behind it; behind a captured man it may still land on any
empty square. The majority rule (most pieces) still decides between captures.

10x10, squares 1-50 row by row from Black's side; White moves up. Drawings: White at the
bottom; each dark square shows its content then its number: w white man, W white king,
b black man, B black king, . empty. Every expected set is worked out by hand.
"""

from ._util import captures, x

V = "killer"


def test_king_taking_a_king_stops_directly_behind_it():
    #     .1      .2      .3      .4      .5
    # .6      .7      .8      .9      .10
    #     .11     .12     .13     .14     .15
    # .16     .17     .18     .19     .20
    #     .21     .22     .23     .24     .25
    # .26     .27     B28     .29     .30
    #     .31     .32     .33     .34     .35
    # .36     .37     .38     .39     .40
    #     .41     .42     .43     .44     .45
    # W46     .47     .48     .49     .50
    # The long diagonal 46-41-37-32-28-23-19-14-10-5: only 23, right behind the king.
    assert captures(V, "W:WK46:BK28") == {x(46, 23, took=(28,))}
    # International (for contrast): any empty square behind it.
    assert captures("international", "W:WK46:BK28") == {
        x(46, s, took=(28,)) for s in (23, 19, 14, 10, 5)
    }


def test_king_taking_a_man_lands_anywhere_behind_it():
    #     .1      .2      .3      .4      .5
    # .6      .7      .8      .9      .10
    #     .11     .12     .13     .14     .15
    # .16     .17     .18     .19     .20
    #     .21     .22     .23     .24     .25
    # .26     .27     b28     .29     .30
    #     .31     .32     .33     .34     .35
    # .36     .37     .38     .39     .40
    #     .41     .42     .43     .44     .45
    # W46     .47     .48     .49     .50
    assert captures(V, "W:WK46:B28") == {x(46, s, took=(28,)) for s in (23, 19, 14, 10, 5)}


def test_stopping_behind_a_king_can_cut_the_capture_short():
    #     .1      .2      .3      .4      .5
    # .6      .7      .8      .9      .10
    #     .11     .12     .13     .14     .15
    # .16     .17     .18     .19     .20
    #     .21     .22     .23     b24     .25
    # .26     .27     B28     .29     .30
    #     .31     .32     .33     .34     .35
    # .36     .37     .38     .39     .40
    #     .41     .42     .43     .44     .45
    # W46     .47     .48     .49     .50
    # Only from 19 could the king go on to take 24 (19-24-30-35); behind the king 28 it must
    # stop on 23, from which no further capture exists.
    assert captures(V, "W:WK46:B24,K28") == {x(46, 23, took=(28,))}
    # International: the majority rule forces the landing on 19 and the second capture.
    assert captures("international", "W:WK46:B24,K28") == {
        x(46, 19, 30, took=(28, 24)),
        x(46, 19, 35, took=(28, 24)),
    }


def test_same_position_with_a_man_keeps_the_free_landing():
    # As above with a man on 28: landing on 19 is allowed, and the majority rule forces it.
    assert captures(V, "W:WK46:B24,28") == {
        x(46, 19, 30, took=(28, 24)),
        x(46, 19, 35, took=(28, 24)),
    }


def test_majority_rule_still_applies():
    #     .1      .2      .3      .4      .5
    # .6      .7      .8      .9      .10
    #     .11     .12     .13     .14     .15
    # .16     .17     b18     .19     .20
    #     .21     .22     .23     .24     .25
    # .26     .27     B28     .29     .30
    #     .31     .32     .33     .34     .35
    # .36     .37     .38     .39     .40
    #     .41     .42     .43     b44     .45
    # W46     .47     .48     .49     w50
    # The king takes 28, stops on 23, then takes the man 18 landing on 12, 7 or 1 (two
    # pieces); the man 50 could take only 44 (to 39): the majority rule excludes it.
    assert captures(V, "W:WK46,50:B18,44,K28") == {x(46, 23, s, took=(28, 18)) for s in (12, 7, 1)}
