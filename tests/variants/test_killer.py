"""Killer draughts (docs/VARIANTS.md): International rules, but a king whose capture ends by
taking a king must land on the square directly behind that king. A king taken in the middle
of the capture, or a man taken last, leaves the landing as in International: any empty
square behind it, from which the capture goes on if it can. Men, which land right behind
anyway, are unaffected. The majority rule (most pieces) still decides between captures.

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


def test_a_king_taken_mid_capture_leaves_the_landing_free():
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
    # Behind the king 28 lie 23, 19, 14, 10, 5. Only from 19 does the capture go on: over
    # the man 24 (19-24-30-35), which is taken last, so the king lands on 30 or 35. The
    # king 28 is not the last piece taken: the landing on 19 stands, and the capture must
    # go on from there (majority rule too: two pieces against one).
    expected = {x(46, 19, 30, took=(28, 24)), x(46, 19, 35, took=(28, 24))}
    assert captures(V, "W:WK46:B24,K28") == expected
    assert captures("international", "W:WK46:B24,K28") == expected


def test_a_king_taken_last_stops_the_king_right_behind_it():
    #     .1      .2      .3      .4      .5
    # .6      .7      .8      .9      .10
    #     .11     .12     .13     .14     .15
    # .16     B17     .18     .19     .20
    #     .21     .22     .23     .24     .25
    # .26     .27     .28     .29     .30
    #     .31     .32     .33     .34     .35
    # .36     B37     .38     .39     .40
    #     .41     .42     .43     .44     .45
    # W46     .47     .48     .49     .50
    # The king 37 is taken first: behind it 32, 28, 23, 19, 14, 10, 5 are open, and only
    # from 28 does the capture go on, across 22 over the king 17. That king is the last
    # piece taken: the king stops on 11, right behind it (6 is refused).
    assert captures(V, "W:WK46:BK17,K37") == {x(46, 28, 11, took=(37, 17))}
    # International: 11 or 6.
    assert captures("international", "W:WK46:BK17,K37") == {
        x(46, 28, s, took=(37, 17)) for s in (11, 6)
    }


def test_a_man_takes_kings_as_in_international():
    #     .1      .2      .3      .4      .5
    # .6      .7      .8      .9      .10
    #     .11     .12     .13     .14     .15
    # .16     b17     .18     .19     .20
    #     .21     .22     .23     .24     .25
    # .26     B27     .28     .29     .30
    #     .31     w32     .33     .34     .35
    # .36     .37     .38     .39     .40
    #     .41     .42     .43     .44     .45
    # .46     .47     .48     .49     .50
    # The man 32 takes the king 27 (to 21), then the man 17 (to 12); with the king last
    # (man 27, king 17) it lands the same: a man always lands right behind.
    assert captures(V, "W:W32:B17,K27") == {x(32, 21, 12, took=(27, 17))}
    assert captures(V, "W:W32:BK17,27") == {x(32, 21, 12, took=(27, 17))}
    assert captures("international", "W:W32:BK17,27") == {x(32, 21, 12, took=(27, 17))}


def test_same_position_with_a_man_keeps_the_free_landing():
    # As the mid-capture test with a man on 28: the same two captures.
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
    # The king takes 28 and lands on 23, the one square behind it from which the capture
    # goes on, then takes the man 18 landing on 12, 7 or 1 (two pieces); the man 50 could
    # take only 44 (to 39): the majority rule excludes it.
    assert captures(V, "W:WK46,50:B18,44,K28") == {x(46, 23, s, took=(28, 18)) for s in (12, 7, 1)}
