"""Breakthrough draughts (docs/VARIANTS.md): International moves; the game ends as soon as
a king is crowned, won by the side that crowned it.

10x10, squares 1-50 row by row from Black's side; White moves up and crowns on 1-5, Black on
46-50. Drawings: White at the bottom; each dark square shows its content then its number:
w white man, b black man, . empty. Every expected outcome is worked out by hand.
"""

from damier import BLACK, WHITE, Board
from damier.game import Game

from ._util import captures, notations, x

V = "breakthrough"


def test_moves_are_international_from_the_start():
    # The start position has no king: the game is on, White's front men 31-35 step forward.
    board = Board(V)
    assert not board.is_game_over()
    assert board.winner() is None
    assert notations(V) == {
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


def test_white_crowning_by_a_move_wins():
    #     .1      .2      .3      .4      .5
    # .6      w7      .8      .9      .10
    #     .11     .12     .13     .14     .15
    # .16     .17     .18     .19     .20
    #     .21     .22     .23     .24     .25
    # .26     .27     .28     .29     .30
    #     .31     .32     .33     .34     .35
    # .36     .37     .38     .39     .40
    #     .41     .42     .43     .44     b45
    # .46     .47     .48     .49     .50
    fen = "W:W7:B45"
    assert notations(V, fen) == {"7-1", "7-2"}
    game = Game(V, fen)
    game.push("7-1")
    assert game.result is not None
    assert game.result.winner == WHITE
    assert game.result.reason == "crowned first"
    board = Board(V, fen)
    board.push("7-2")
    assert board.is_game_over()
    assert board.winner() == WHITE


def test_the_same_move_does_not_end_an_international_game():
    board = Board("international", "W:W7:B45")
    board.push("7-1")
    assert not board.is_game_over()
    assert board.winner() is None


def test_white_crowning_by_a_capture_wins():
    #     .1      .2      .3      .4      .5
    # .6      b7      .8      .9      .10
    #     .11     w12     .13     .14     .15
    # .16     .17     .18     .19     .20
    #     .21     .22     .23     .24     .25
    # .26     .27     .28     .29     .30
    #     .31     .32     .33     .34     .35
    # .36     .37     .38     .39     .40
    #     .41     .42     .43     .44     b45
    # .46     .47     .48     .49     .50
    # 12 must take 7 and lands on 1, the back row.
    fen = "W:W12:B7,45"
    assert captures(V, fen) == {x(12, 1, took=(7,))}
    game = Game(V, fen)
    game.push("12x1")
    assert game.result is not None
    assert (game.result.winner, game.result.reason) == (WHITE, "crowned first")


def test_black_crowning_wins():
    #     .1      .2      .3      .4      .5
    # .6      .7      .8      .9      .10
    #     .11     .12     .13     .14     .15
    # .16     .17     .18     .19     .20
    #     .21     .22     .23     .24     w25
    # .26     .27     .28     .29     .30
    #     .31     .32     .33     .34     .35
    # .36     .37     .38     .39     .40
    #     .41     .42     .43     b44     .45
    # .46     .47     .48     .49     .50
    fen = "B:W25:B44"
    assert notations(V, fen) == {"44-49", "44-50"}
    game = Game(V, fen)
    game.push("44-49")
    assert game.result is not None
    assert (game.result.winner, game.result.reason) == (BLACK, "crowned first")
    board = Board(V, fen)
    board.push("44-50")
    assert board.is_game_over()
    assert board.winner() == BLACK


def test_passing_the_back_row_during_a_capture_does_not_crown():
    #     .1      .2      .3      .4      .5
    # .6      b7      b8      .9      .10
    #     .11     .12     w13     .14     .15
    # .16     .17     .18     .19     .20
    #     .21     .22     .23     .24     .25
    # .26     .27     .28     .29     .30
    #     .31     .32     .33     .34     .35
    # .36     .37     .38     .39     b40
    #     .41     .42     .43     .44     .45
    # .46     .47     .48     .49     .50
    # 13 takes 8 landing on 2 (back row), must go on taking 7 to 11: it stays a man, no win.
    fen = "W:W13:B7,8,40"
    assert {(m.path, m.captured, m.crowns) for m in Board(V, fen).legal_moves} == {
        ((13, 2, 11), (8, 7), False)
    }
    game = Game(V, fen)
    game.push("13x11")
    assert game.result is None
    assert not game.board.is_game_over()
    assert game.board.winner() is None
