"""Giveaway (qui perd gagne, Antidraughts, Poddavki): RULES.md section 8 and decision 2.

Same moves as the base game; a player with no legal move on his turn WINS.
Drawings: White at the bottom moving up; each dark square shows its number after its content:
w white man, W white king, b black man, B black king, . empty.
Every expected set below is worked out by hand from RULES.md.
"""

import pytest

from damier import BLACK, WHITE, Board


def test_international_giveaway_blocked_player_wins():
    #   10     .1      .2      .3      .4      .5
    #    9 .6      .7      .8      .9      .10
    #    8     .11     .12     .13     .14     .15
    #    7 .16     .17     .18     .19     .20
    #    6     .21     .22     .23     .24     .25
    #    5 .26     .27     .28     .29     .30
    #    4     .31     .32     .33     .34     .35
    #    3 .36     b37     .38     .39     .40
    #    2     b41     .42     .43     .44     .45
    #    1 w46     .47     .48     .49     .50
    #      a   b   c   d   e   f   g   h   i   j
    # White's only man 46 (a1) has one forward square, 41, held by Black; 37 behind it is occupied
    # too, so no capture: White has no move on his turn and wins.
    board = Board("international-giveaway", "W:W46:B37,41")
    assert len(board.legal_moves) == 0
    assert board.is_game_over()
    assert board.winner() == WHITE


def test_international_same_blocked_position_loses():
    board = Board("international", "W:W46:B37,41")
    assert board.is_game_over()
    assert board.winner() == BLACK


def test_international_giveaway_player_without_pieces_wins():
    #   10     .1      .2      .3      .4      .5
    #    9 .6      .7      .8      .9      .10
    #    8     .11     .12     .13     .14     .15
    #    7 .16     .17     .18     .19     .20
    #    6     .21     .22     b23     .24     .25
    #    5 .26     .27     w28     .29     .30
    #    4     .31     .32     .33     .34     .35
    #    3 .36     .37     .38     .39     .40
    #    2     .41     .42     .43     .44     .45
    #    1 .46     .47     .48     .49     .50
    #      a   b   c   d   e   f   g   h   i   j
    # 28x19 takes Black's last piece; Black, to move with no pieces, wins.
    board = Board("international-giveaway", "W:W28:B23")
    assert board.winner() is None
    board.push("28x19")
    assert board.turn == BLACK
    assert len(board.legal_moves) == 0
    assert board.winner() == BLACK


def test_russian_giveaway_blocked_player_wins():
    #    8     .1      .2      .3      .4
    #    7 .5      .6      .7      .8
    #    6     .9      .10     .11     .12
    #    5 .13     .14     .15     .16
    #    4     .17     .18     .19     .20
    #    3 .21     b22     .23     .24
    #    2     b25     .26     .27     .28
    #    1 w29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # 29 (a1) can only go to 25, held by Black, with 22 behind it: White is blocked and wins.
    board = Board("russian-giveaway", "W:W29:B22,25")
    assert len(board.legal_moves) == 0
    assert board.winner() == WHITE
    assert Board("russian", "W:W29:B22,25").winner() == BLACK


def test_russian_giveaway_player_without_pieces_wins():
    #    8     .1      .2      .3      .4
    #    7 .5      .6      .7      .8
    #    6     .9      .10     .11     .12
    #    5 .13     .14     .15     .16
    #    4     .17     b18     .19     .20
    #    3 .21     w22     .23     .24
    #    2     .25     .26     .27     .28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    board = Board("russian-giveaway", "W:W22:B18")
    board.push("22x15")
    assert len(board.legal_moves) == 0
    assert board.winner() == BLACK


def test_game_not_over_while_moves_exist():
    board = Board("russian-giveaway")
    assert not board.is_game_over()
    assert board.winner() is None


@pytest.mark.parametrize("variant", ["international-giveaway", "russian-giveaway"])
def test_giveaway_start_is_the_base_start(variant, notations):
    base = variant.removesuffix("-giveaway")
    assert Board(variant).turn == WHITE
    assert Board(variant).fen == Board(base).fen
    if base == "international":
        expected = {
            "31-26",
            "31-27",
            "32-27",
            "32-28",
            "33-28",
            "33-29",
            "34-29",
            "34-30",
            "35-30",
        }
    else:
        expected = {"21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"}
    assert notations(variant, None) == expected


def test_international_giveaway_keeps_the_majority_rule(captures):
    #   10     .1      .2      .3      .4      .5
    #    9 .6      .7      .8      .9      .10
    #    8     .11     .12     .13     .14     .15
    #    7 .16     .17     .18     b19     .20
    #    6     .21     .22     .23     .24     .25
    #    5 W26     .27     b28     .29     .30
    #    4     .31     w32     .33     .34     .35
    #    3 .36     b37     .38     .39     .40
    #    2     .41     .42     .43     .44     .45
    #    1 .46     .47     .48     .49     .50
    #      a   b   c   d   e   f   g   h   i   j
    # As in International: man 32x23x14 (two) beats every one-piece capture.
    assert captures("international-giveaway", "W:W32,K26:B19,28,37") == {((32, 23, 14), (28, 19))}


def test_international_giveaway_capture_is_compulsory(captures):
    #   10     .1      .2      .3      .4      .5
    #    9 .6      .7      .8      .9      .10
    #    8     .11     .12     .13     .14     .15
    #    7 .16     .17     .18     .19     .20
    #    6     .21     .22     b23     .24     .25
    #    5 .26     .27     w28     .29     .30
    #    4     .31     .32     .33     .34     .35
    #    3 .36     .37     .38     .39     .40
    #    2     .41     .42     .43     .44     .45
    #    1 .46     .47     .48     .49     .50
    #      a   b   c   d   e   f   g   h   i   j
    # Even though losing pieces is the goal, White must take: 28x19 is the only move.
    assert captures("international-giveaway", "W:W28:B23") == {((28, 19), (23,))}


def test_russian_giveaway_keeps_free_choice(captures):
    #    8     .1      .2      .3      .4
    #    7 .5      .6      .7      .8
    #    6     .9      b10     .11     .12
    #    5 .13     .14     .15     .16
    #    4     b17     b18     .19     .20
    #    3 .21     w22     .23     .24
    #    2     .25     .26     .27     .28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    assert captures("russian-giveaway", "W:W22:B10,17,18") == {
        ((22, 13), (17,)),
        ((22, 15, 6), (18, 10)),
    }


def test_russian_giveaway_keeps_promotion_during_capture(crowning):
    #    8     .1      .2      .3      .4
    #    7 .5      b6      .7      .8
    #    6     w9      .10     b11     .12
    #    5 .13     .14     .15     .16
    #    4     .17     .18     .19     .20
    #    3 .21     .22     .23     .24
    #    2     .25     .26     .27     .28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # The man crowned on 2 continues as a flying king over 11 to 16 or 20, as in Russian.
    assert crowning("russian-giveaway", "W:W9:B6,11") == {
        ((9, 2, 16), (6, 11), True),
        ((9, 2, 20), (6, 11), True),
    }


def test_spanish_giveaway_keeps_the_quantity_rule(captures):
    #    8 .32     .31     .30     .29
    #    7     .28     .27     .26     .25
    #    6 .24     .23     .22     b21
    #    5     .20     .19     .18     .17
    #    4 .16     .15     w14     b13
    #    3     .12     .11     .10     w9
    #    2 .8      B7      .6      .5
    #    1     W4      .3      .2      .1
    #      a   b   c   d   e   f   g   h
    # As in Spanish: man 9x18x25 takes two men; king 4x11 takes one king. Quantity first.
    assert captures("spanish-giveaway", "W:W9,14,K4:B13,21,K7") == {((9, 18, 25), (13, 21))}
