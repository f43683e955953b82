"""English draughts / American checkers (WCDF): RULES.md section 4; notation (decision 8).

Drawings: White at the bottom moving up (towards 1-4); each dark square shows its number after
its content: w white man, W white king, b black man, B black king, . empty.
Every expected set below is worked out by hand from RULES.md.
"""

import pytest

from damier import BLACK, AmbiguousMoveError, Board, IllegalMoveError

V = "english"


def test_dark_side_moves_first_from_the_start(notations):
    # Start B:W21-32:B1-12; Black's front men 9-12 (b6 d6 f6 h6) step down to 13-16
    # (a5 c5 e5 g5); 12 is on the h-file and has only 16.
    board = Board(V)
    assert board.turn == BLACK
    assert board.fen.startswith("B:")
    assert notations(V, None) == {
        "9-13",
        "9-14",
        "10-14",
        "10-15",
        "11-15",
        "11-16",
        "12-16",
    }


def test_white_man_does_not_capture_backward(notations):
    #    8     .1      .2      .3      .4
    #    7 .5      .6      .7      .8
    #    6     .9      .10     .11     .12
    #    5 .13     .14     .15     .16
    #    4     .17     .18     .19     .20
    #    3 .21     w22     .23     .24
    #    2     .25     b26     .27     .28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # 26 is behind 22: no capture for a man; 22 just steps to 17 or 18.
    assert notations(V, "W:W22:B26") == {"22-17", "22-18"}


def test_black_man_captures_forward_only(captures):
    #    8     .1      .2      .3      .4
    #    7 .5      .6      .7      .8
    #    6     .9      .10     .11     .12
    #    5 .13     w14     .15     .16
    #    4     .17     b18     .19     .20
    #    3 .21     w22     .23     .24
    #    2     .25     .26     .27     .28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # Black 18 takes 22 forward (down) to 25; taking 14 would be backward (up), not allowed.
    assert captures(V, "B:W14,22:B18") == {((18, 25), (22,))}


def test_man_may_capture_a_king(captures):
    #    8     .1      .2      .3      .4
    #    7 .5      .6      .7      .8
    #    6     .9      .10     .11     .12
    #    5 .13     .14     .15     .16
    #    4     .17     B18     .19     .20
    #    3 .21     w22     .23     .24
    #    2     .25     .26     .27     .28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    assert captures(V, "W:W22:BK18") == {((22, 15), (18,))}


def test_short_king_moves_one_square(notations):
    #    8     b1      .2      .3      .4
    #    7 .5      .6      .7      .8
    #    6     .9      .10     .11     .12
    #    5 .13     .14     .15     .16
    #    4     .17     .18     .19     .20
    #    3 .21     W22     .23     .24
    #    2     .25     .26     .27     .28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    assert notations(V, "W:WK22:B1") == {"22-17", "22-18", "22-25", "22-26"}


def test_short_king_does_not_capture_at_distance(notations):
    #    8     .1      .2      .3      .4
    #    7 .5      .6      .7      .8
    #    6     .9      .10     b11     .12
    #    5 .13     .14     .15     .16
    #    4     .17     .18     .19     .20
    #    3 .21     W22     .23     .24
    #    2     .25     .26     .27     .28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # 11 is on 22's diagonal but two empty squares away (18, 15): no capture, only steps.
    assert notations(V, "W:WK22:B11") == {"22-17", "22-18", "22-25", "22-26"}


def test_short_king_captures_backward_landing_immediately_beyond(captures):
    #    8     .1      .2      .3      .4
    #    7 .5      .6      .7      .8
    #    6     .9      .10     .11     .12
    #    5 .13     .14     .15     .16
    #    4     .17     .18     .19     .20
    #    3 .21     W22     .23     .24
    #    2     .25     b26     .27     .28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    assert captures(V, "W:WK22:B26") == {((22, 31), (26,))}


def test_short_king_lands_right_behind_the_captured_piece(captures):
    #    8     .1      .2      .3      .4
    #    7 .5      .6      .7      .8
    #    6     .9      .10     .11     .12
    #    5 .13     .14     .15     .16
    #    4     .17     b18     .19     .20
    #    3 .21     W22     .23     .24
    #    2     .25     .26     .27     .28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # 22x15 only: not 11, 8 or 4 further along the diagonal.
    assert captures(V, "W:WK22:B18") == {((22, 15), (18,))}


def test_crowning_ends_the_move_even_if_the_new_king_could_capture(crowning):
    #    8     .1      .2      .3      .4
    #    7 .5      b6      b7      .8
    #    6     w9      .10     .11     .12
    #    5 .13     .14     .15     .16
    #    4     .17     .18     .19     .20
    #    3 .21     .22     .23     .24
    #    2     .25     .26     .27     .28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # 9x2 over 6 reaches the king row; a king on 2 could take 7 (to 11), but the move ends.
    assert crowning(V, "W:W9:B6,7") == {((9, 2), (6,), True)}


def test_free_choice_a_shorter_capture_is_legal(captures):
    #    8     .1      .2      .3      .4
    #    7 .5      .6      .7      .8
    #    6     .9      b10     .11     .12
    #    5 .13     .14     .15     .16
    #    4     b17     b18     .19     .20
    #    3 .21     w22     .23     .24
    #    2     .25     .26     .27     .28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # 22x13 (one piece) or 22x15x6 (two); both forward jumps; free choice.
    assert captures(V, "W:W22:B10,17,18") == {
        ((22, 13), (17,)),
        ((22, 15, 6), (18, 10)),
    }


AMBIGUOUS = "W:W23:B10,11,18,19"


def test_ambiguous_short_form_is_replaced_by_the_full_path(captures, notations):
    #    8     .1      .2      .3      .4
    #    7 .5      .6      .7      .8
    #    6     .9      b10     b11     .12
    #    5 .13     .14     .15     .16
    #    4     .17     b18     b19     .20
    #    3 .21     .22     w23     .24
    #    2     .25     .26     .27     .28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # 23 (e3) can go 23x16x7 (19, 11) or 23x14x7 (18, 10): same start and end, different pieces.
    # Men capture forward only, so on 7 neither can turn back for the other pair.
    assert captures(V, AMBIGUOUS) == {
        ((23, 16, 7), (19, 11)),
        ((23, 14, 7), (18, 10)),
    }
    assert notations(V, AMBIGUOUS) == {"23x16x7", "23x14x7"}


def test_push_ambiguous_short_form_raises_listing_candidates():
    board = Board(V, AMBIGUOUS)
    with pytest.raises(AmbiguousMoveError) as info:
        board.push("23x7")
    assert "23x16x7" in str(info.value)
    assert "23x14x7" in str(info.value)
    assert board.fen == Board(V, AMBIGUOUS).fen  # nothing was played


def test_push_full_path_resolves_the_ambiguity():
    board = Board(V, AMBIGUOUS)
    move = board.push("23x16x7")
    assert move.captured == (19, 11)
    assert board.piece_at(19) is None and board.piece_at(11) is None
    assert board.piece_at(18) is not None and board.piece_at(10) is not None


def test_push_illegal_move_raises_listing_legal_moves():
    board = Board(V, AMBIGUOUS)
    with pytest.raises(IllegalMoveError) as info:
        board.push("23-19")  # 19 is occupied, and capture is compulsory
    message = str(info.value)
    assert "23x16x7" in message and "23x14x7" in message


@pytest.mark.parametrize("text", ["hello", "23x", "", "23--19", "x23x7", "23-99"])
def test_push_malformed_move_raises_illegal_move_error(text):
    board = Board(V, AMBIGUOUS)
    with pytest.raises(IllegalMoveError):
        board.push(text)


def test_a_king_passing_the_king_row_goes_on_capturing(captures):
    #    8     .1      .2      .3      .4
    #    7 .5      b6      b7      .8
    #    6     W9      .10     .11     .12
    #    5 .13     .14     .15     .16
    #    4     .17     .18     .19     .20
    #    3 .21     .22     .23     .24
    #    2     .25     .26     .27     .28
    #    1 .29     .30     .31     .32
    #      a   b   c   d   e   f   g   h
    # Only a man's crowning ends the move: king 9 takes 6 onto 2 and then 7 onto 11.
    assert captures(V, "W:WK9:B6,7") == {((9, 2, 11), (6, 7))}
