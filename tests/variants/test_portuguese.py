"""Portuguese draughts, damas clássicas (docs/VARIANTS.md; RULES.md section 7): the Spanish
game, numbered as in Spain and Portugal: 1 is White's near-right square, numbers run right to
left, bottom to top (White on 1-12, Black on 21-32). Men move and capture forward only; kings
fly; most pieces, then most kings, then free choice.

Drawings: White at the bottom; each dark square shows its content then its number:
w white man, W white king, b black man, B black king, . empty. Every expected set is worked
out by hand; each is also checked to be Spanish's.
"""

from damier import Board

from ._util import captures, notations, x

V = "portuguese"


def test_start_position_and_first_moves():
    # 8 b32     b31     b30     b29
    # 7     b28     b27     b26     b25
    # 6 b24     b23     b22     b21
    # 5     .20     .19     .18     .17
    # 4 .16     .15     .14     .13
    # 3     w12     w11     w10     w9
    # 2 w8      w7      w6      w5
    # 1     w4      w3      w2      w1
    #   a   b   c   d   e   f   g   h
    # The front men 9-12 (h3 f3 d3 b3) step to 13-16; 9, on the h-file, only to 13.
    expected = {"9-13", "10-13", "10-14", "11-14", "11-15", "12-15", "12-16"}
    assert Board(V).fen == Board(V, "W:W1-12:B21-32").fen
    assert notations(V) == expected
    assert notations("spanish") == expected


def test_quality_rule_most_kings():
    # 8 .32     .31     .30     .29
    # 7     .28     .27     .26     .25
    # 6 .24     .23     .22     .21
    # 5     .20     .19     .18     .17
    # 4 .16     B15     .14     b13
    # 3     .12     w11     .10     w9
    # 2 .8      .7      .6      .5
    # 1     .4      .3      .2      .1
    #   a   b   c   d   e   f   g   h
    # 11 (d3) takes the king 15 (c4) to 20 (b5); 9 (h3) takes the man 13 (g4) to 18 (f5).
    # One piece each: the one with the king.
    fen = "W:W9,11:B13,K15"
    expected = {x(11, 20, took=(15,))}
    assert captures(V, fen) == expected
    assert captures("spanish", fen) == expected


def test_quantity_before_quality():
    # 8 .32     .31     .30     .29
    # 7     .28     .27     .26     .25
    # 6 .24     .23     b22     .21
    # 5     .20     .19     .18     .17
    # 4 .16     B15     .14     b13
    # 3     .12     w11     .10     w9
    # 2 .8      .7      .6      .5
    # 1     .4      .3      .2      .1
    #   a   b   c   d   e   f   g   h
    # 9 takes 13 to 18 (f5), then 22 (e6) to 27 (d7): two men beat 11x20 over the king.
    fen = "W:W9,11:B13,22,K15"
    expected = {x(9, 18, 27, took=(13, 22))}
    assert captures(V, fen) == expected
    assert captures("spanish", fen) == expected
