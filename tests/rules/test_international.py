"""International draughts (FMJD): RULES.md section 1, decisions 5, 7 and 8, FEN errors.

Drawings: White at the bottom moving up (towards 1-5); each dark square shows its number
after its content: w white man, W white king, b black man, B black king, . empty.
Every expected set below is worked out by hand from RULES.md.
"""

import re

import pytest

from damier import WHITE, Board, FenError

V = "international"


def test_white_moves_first_and_men_step_forward_from_the_start(notations):
    # White's front men 31-35 (row 4) each step to the two squares of row 5 (26-30); 35 is on the
    # edge and has only 30. Black (1-20) does not move first.
    board = Board(V)
    assert board.turn == WHITE
    assert notations(V, None) == {
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


def test_white_man_steps_one_square_diagonally_forward_only(notations):
    #   10     .1      .2      b3      .4      .5
    #    9 .6      .7      .8      .9      .10
    #    8     .11     .12     .13     .14     .15
    #    7 .16     .17     .18     .19     .20
    #    6     .21     .22     .23     .24     .25
    #    5 .26     .27     .28     .29     .30
    #    4     .31     .32     w33     .34     .35
    #    3 .36     .37     .38     .39     .40
    #    2     .41     .42     .43     .44     .45
    #    1 .46     .47     .48     .49     .50
    #      a   b   c   d   e   f   g   h   i   j
    # 33 (f4) steps to 28 (e5) or 29 (g5); never backward to 38/39; black 3 is out of reach.
    assert notations(V, "W:W33:B3") == {"33-28", "33-29"}


def test_black_man_steps_down_the_board(notations):
    #   10     .1      .2      .3      .4      .5
    #    9 .6      .7      .8      .9      .10
    #    8     .11     .12     .13     .14     .15
    #    7 .16     .17     b18     .19     .20
    #    6     .21     .22     .23     .24     .25
    #    5 .26     .27     .28     .29     .30
    #    4     .31     .32     .33     .34     .35
    #    3 .36     .37     .38     .39     .40
    #    2     .41     .42     .43     .44     .45
    #    1 .46     .47     w48     .49     .50
    #      a   b   c   d   e   f   g   h   i   j
    # Black moves towards 46-50: 18 (e7) goes to 22 (d6) or 23 (f6).
    assert notations(V, "B:W48:B18") == {"18-22", "18-23"}


def test_man_captures_backward_and_may_capture_a_king(captures):
    #   10     .1      .2      .3      .4      .5
    #    9 .6      .7      .8      .9      .10
    #    8     .11     .12     .13     .14     .15
    #    7 .16     .17     .18     .19     .20
    #    6     .21     .22     .23     .24     .25
    #    5 .26     .27     w28     .29     .30
    #    4     .31     .32     B33     .34     .35
    #    3 .36     .37     .38     .39     .40
    #    2     .41     .42     .43     .44     .45
    #    1 .46     .47     .48     .49     .50
    #      a   b   c   d   e   f   g   h   i   j
    # 33 (f4, a black king) is behind 28 (e5), 39 (g3) is empty: 28x39 is compulsory.
    assert captures(V, "W:W28:BK33") == {((28, 39), (33,))}


def test_flying_king_moves_any_distance_along_a_diagonal(notations):
    #   10     b1      .2      .3      .4      .5
    #    9 .6      .7      .8      .9      .10
    #    8     .11     .12     .13     .14     .15
    #    7 .16     .17     .18     .19     .20
    #    6     .21     .22     .23     .24     .25
    #    5 .26     .27     .28     .29     .30
    #    4     .31     .32     .33     .34     .35
    #    3 .36     .37     .38     .39     .40
    #    2     .41     .42     .43     .44     .45
    #    1 W46     .47     .48     .49     .50
    #      a   b   c   d   e   f   g   h   i   j
    # King 46 (a1) sees the whole long diagonal 41..5, all empty; black 1 is on no line of 46.
    assert notations(V, "W:WK46:B1") == {
        "46-41",
        "46-37",
        "46-32",
        "46-28",
        "46-23",
        "46-19",
        "46-14",
        "46-10",
        "46-5",
    }


def test_flying_king_captures_at_distance_and_lands_on_any_empty_square_behind(captures):
    #   10     .1      .2      .3      .4      .5
    #    9 .6      .7      .8      .9      w10
    #    8     .11     .12     .13     .14     .15
    #    7 .16     .17     .18     .19     .20
    #    6     .21     .22     .23     .24     .25
    #    5 .26     .27     b28     .29     .30
    #    4     .31     .32     .33     .34     .35
    #    3 .36     .37     .38     .39     .40
    #    2     .41     .42     .43     .44     .45
    #    1 W46     .47     .48     .49     .50
    #      a   b   c   d   e   f   g   h   i   j
    # 41, 37, 32 empty, black 28, then 23, 19, 14 empty and white 10 stops the line: three
    # landing squares, none of which allows a further capture.
    assert captures(V, "W:W10,K46:B28") == {
        ((46, 23), (28,)),
        ((46, 19), (28,)),
        ((46, 14), (28,)),
    }


def test_flying_king_must_land_where_the_capture_continues(captures, notations):
    #   10     .1      .2      .3      .4      .5
    #    9 .6      .7      .8      .9      .10
    #    8     .11     .12     .13     .14     .15
    #    7 .16     .17     .18     .19     .20
    #    6     .21     .22     .23     b24     .25
    #    5 .26     .27     b28     .29     .30
    #    4     .31     .32     .33     .34     .35
    #    3 .36     .37     .38     .39     .40
    #    2     .41     .42     .43     .44     .45
    #    1 W46     .47     .48     .49     .50
    #      a   b   c   d   e   f   g   h   i   j
    # Behind 28 the king could stop on 23, 19, 14, 10 or 5, but only from 19 (g7) can it go on
    # (19 -> 24 -> 30 or 35). The capture must be continued, so it lands on 19.
    expected = {((46, 19, 30), (28, 24)), ((46, 19, 35), (28, 24))}
    assert captures(V, "W:WK46:B24,28") == expected
    assert notations(V, "W:WK46:B24,28") == {"46x30", "46x35"}


def test_majority_rule_man_taking_two_beats_king_taking_one(captures):
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
    # Man 32: 32x23x14 takes 28 and 19 (two); 32x41 takes 37 (one).
    # King 26: 26x42 or 26x48 takes 37 (one). Only the two-piece capture is legal.
    assert captures(V, "W:W32,K26:B19,28,37") == {((32, 23, 14), (28, 19))}


def test_majority_rule_king_taking_two_beats_man_taking_one(captures):
    #   10     .1      .2      .3      .4      .5
    #    9 .6      .7      .8      .9      .10
    #    8     .11     .12     .13     .14     .15
    #    7 .16     .17     .18     .19     .20
    #    6     .21     .22     .23     w24     .25
    #    5 W26     .27     .28     .29     .30
    #    4     .31     w32     .33     .34     .35
    #    3 .36     b37     b38     .39     .40
    #    2     .41     .42     .43     .44     .45
    #    1 .46     .47     .48     .49     .50
    #      a   b   c   d   e   f   g   h   i   j
    # King 26 takes 37, lands on 42, takes 38 and lands on 33 or 29 (24 is white): two pieces.
    # Man 32 can take only one (32x41 over 37, or 32x43 over 38). Landing on 48 after 37 would end
    # the capture, so it is not allowed either.
    assert captures(V, "W:W24,32,K26:B37,38") == {
        ((26, 42, 33), (37, 38)),
        ((26, 42, 29), (37, 38)),
    }


def test_equal_captures_are_free_whether_man_or_king_captures(captures):
    #   10     .1      .2      .3      .4      .5
    #    9 .6      .7      .8      .9      .10
    #    8     .11     .12     .13     .14     .15
    #    7 .16     .17     .18     .19     .20
    #    6     .21     .22     .23     .24     .25
    #    5 W26     .27     .28     .29     .30
    #    4     .31     w32     .33     .34     .35
    #    3 .36     b37     .38     .39     .40
    #    2     .41     .42     .43     .44     .45
    #    1 .46     .47     .48     .49     .50
    #      a   b   c   d   e   f   g   h   i   j
    # One piece whatever white does: king 26 over 37 to 42 or 48, or man 32 backward over 37 to 41.
    assert captures(V, "W:W32,K26:B37") == {
        ((26, 42), (37,)),
        ((26, 48), (37,)),
        ((32, 41), (37,)),
    }


def test_man_passing_the_crowning_row_during_a_capture_stays_a_man(crowning):
    #   10     .1      .2      .3      .4      .5
    #    9 .6      b7      b8      .9      .10
    #    8     .11     .12     w13     .14     .15
    #    7 .16     .17     .18     .19     .20
    #    6     .21     .22     .23     .24     .25
    #    5 .26     .27     .28     .29     .30
    #    4     .31     .32     .33     .34     .35
    #    3 .36     .37     .38     .39     .40
    #    2     .41     .42     .43     .44     .45
    #    1 .46     .47     .48     .49     .50
    #      a   b   c   d   e   f   g   h   i   j
    # 13 jumps 8 onto 2 (crowning row), must go on backward over 7 to 11 and ends there as a man.
    assert crowning(V, "W:W13:B7,8") == {((13, 2, 11), (8, 7), False)}
    board = Board(V, "W:W13:B7,8")
    board.push("13x11")
    assert board.piece_at(11) == (WHITE, False)


def test_man_ending_its_capture_on_the_crowning_row_is_crowned(crowning):
    #   10     .1      .2      .3      .4      .5
    #    9 .6      .7      b8      .9      .10
    #    8     .11     .12     w13     .14     .15
    #    7 .16     .17     .18     .19     .20
    #    6     .21     .22     .23     .24     .25
    #    5 .26     .27     .28     .29     .30
    #    4     .31     .32     .33     .34     .35
    #    3 .36     .37     .38     .39     .40
    #    2     .41     .42     .43     .44     .45
    #    1 .46     .47     .48     .49     .50
    #      a   b   c   d   e   f   g   h   i   j
    # 13x2 over 8 ends on row 10: crowned.
    assert crowning(V, "W:W13:B8") == {((13, 2), (8,), True)}
    board = Board(V, "W:W13:B8")
    board.push("13x2")
    assert board.piece_at(2) == (WHITE, True)


def test_turkish_strike_captured_piece_stays_until_the_end_and_blocks(captures):
    #   10     .1      .2      .3      .4      .5
    #    9 .6      .7      .8      .9      .10
    #    8     .11     .12     .13     .14     .15
    #    7 .16     .17     .18     .19     .20
    #    6     .21     .22     .23     .24     .25
    #    5 .26     .27     .28     b29     .30
    #    4     b31     .32     .33     .34     .35
    #    3 .36     b37     .38     .39     .40
    #    2     .41     .42     b43     .44     .45
    #    1 W46     .47     .48     .49     .50
    #      a   b   c   d   e   f   g   h   i   j
    # 46 takes 37 (c3), lands on 23, takes 29 landing on 34, takes 43 landing on 48 (e1). From 48
    # the line 42-37-31-26 is blocked by 37, which is captured but still on the board, so 31
    # cannot be taken (it could only if pieces were removed at once). The other sequence,
    # 46x32x49 (37, 43), takes two. Majority: three pieces, one move.
    assert captures(V, "W:WK46:B29,31,37,43") == {((46, 23, 34, 48), (37, 29, 43))}


def test_a_piece_cannot_be_jumped_twice(captures):
    #   10     .1      .2      .3      .4      .5
    #    9 .6      .7      .8      .9      .10
    #    8     .11     .12     .13     .14     .15
    #    7 .16     .17     .18     .19     .20
    #    6     .21     .22     .23     .24     .25
    #    5 .26     .27     b28     .29     .30
    #    4     .31     w32     .33     .34     .35
    #    3 .36     .37     .38     .39     .40
    #    2     .41     .42     .43     .44     .45
    #    1 .46     .47     .48     .49     .50
    #      a   b   c   d   e   f   g   h   i   j
    # 32x23 over 28; from 23 jumping 28 again back to the (now empty) 32 is forbidden.
    assert captures(V, "W:W32:B28") == {((32, 23), (28,))}


def test_an_empty_square_may_be_crossed_twice(captures):
    #   10     .1      .2      .3      .4      .5
    #    9 W6      .7      .8      .9      .10
    #    8     .11     .12     .13     .14     .15
    #    7 .16     .17     .18     .19     .20
    #    6     .21     .22     .23     b24     .25
    #    5 .26     .27     .28     .29     .30
    #    4     .31     b32     .33     .34     .35
    #    3 .36     .37     .38     b39     b40
    #    2     .41     .42     .43     .44     .45
    #    1 .46     .47     .48     .49     .50
    #      a   b   c   d   e   f   g   h   i   j
    # 6 runs down 11-17-22-28-33, takes 39 and must land on 44 (from 50 nothing follows), takes
    # 40 to 35 (edge), takes 24 and must land on 19, then runs down 23-28 (28 crossed a second
    # time) and takes 32, landing on 37, 41 or 46. Four pieces each.
    taken = (39, 40, 24, 32)
    assert captures(V, "W:WK6:B24,32,39,40") == {
        ((6, 44, 35, 19, 37), taken),
        ((6, 44, 35, 19, 41), taken),
        ((6, 44, 35, 19, 46), taken),
    }


DUPLICATE_FEN = "W:WK48:B22,29,37,43"


def test_duplicate_captures_same_ends_same_pieces_are_one_move():
    #   10     .1      .2      .3      .4      .5
    #    9 .6      .7      .8      .9      .10
    #    8     .11     .12     .13     .14     .15
    #    7 .16     .17     .18     .19     .20
    #    6     .21     b22     .23     .24     .25
    #    5 .26     .27     .28     b29     .30
    #    4     .31     .32     .33     .34     .35
    #    3 .36     b37     .38     .39     .40
    #    2     .41     .42     b43     .44     .45
    #    1 .46     .47     W48     .49     .50
    #      a   b   c   d   e   f   g   h   i   j
    # The king can go round the rectangle 48-34-18-31 either way, taking all four pieces:
    #   48x34x18x31x48 (43, 29, 22, 37)  and  48x31x18x34x48 (37, 22, 29, 43):
    # same start, same end, same set -> ONE move (decision 5). Going 48-34-18-31 it may also stop
    # on 42 instead of 48 (a different end square -> a second move). Shorter captures (e.g.
    # 48x39x17, two pieces) lose to the majority rule.
    board = Board(V, DUPLICATE_FEN)
    four = frozenset({22, 29, 37, 43})
    got = [(m.from_square, m.to_square, frozenset(m.captured)) for m in board.legal_moves]
    assert sorted(got, key=lambda t: t[1]) == [(48, 42, four), (48, 48, four)]


def test_perft_keep_duplicates_counts_both_orders():
    board = Board(V, DUPLICATE_FEN)
    assert board.perft(1) == 2
    assert board.perft(1, duplicates="drop") == 2
    # keep: 48x34x18x31x42, 48x34x18x31x48, 48x31x18x34x48
    assert board.perft(1, duplicates="keep") == 3


@pytest.mark.parametrize(
    ("fen", "patterns"),
    [
        # square 51 does not exist on a 50-square board
        ("W:W51:B1", [r"\b51\b"]),
        # the same square twice in one list, and in both lists
        ("W:W31,31:B1", [r"\b31\b", r"twice|duplicate|more than once|already"]),
        ("W:W31:B31", [r"\b31\b", r"twice|duplicate|more than once|already|both"]),
        # a white man on row 10 (1-5) or a black man on row 1 (46-50) must be a king
        ("W:W3:B20", [r"\b3\b", r"crown|promot|king|last row"]),
        ("B:W31:B46", [r"\b46\b", r"crown|promot|king|last row"]),
        # 21 white pieces, the start position has 20
        ("W:W26-46:B1", [r"\b2[01]\b"]),
        # side to move must be W or B
        ("X:W31:B1", [r"X", r"side|turn|W or B"]),
    ],
)
def test_fen_errors_name_the_problem(fen, patterns):
    with pytest.raises(FenError) as info:
        Board(V, fen)
    message = str(info.value)
    for pattern in patterns:
        assert re.search(pattern, message, re.IGNORECASE), (pattern, message)


def test_fen_error_is_a_value_error():
    assert issubclass(FenError, ValueError)
    with pytest.raises(ValueError):
        Board(V, "W:W0:B1")
