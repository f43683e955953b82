"""Frisian draughts: a king may make at most three quiet moves in a row (docs/VARIANTS.md).

While its owner still has men, a king that has made three non-capturing moves in a row may
not make a fourth; a capture (by any piece, the same king included), a man's move or another
king's move frees it. A player with only kings has no limit. ``frisian+any-king`` counts the
quiet moves of all the player's kings together, and only a man's move or a capture frees them.

Squares 1-50 row by row from Black's side, White at the bottom; each dark square shows its
content then its number: w white man, W white king, b black man, . empty. Every expected set
is worked out by hand; the count lives in the board's history, so every test plays the moves.
"""

import pytest

from damier import Board
from damier.errors import IllegalMoveError
from damier.game import Game
from damier.rules.variant_file import parse_variant_text, variant_to_toml

V = "frisian"

#     b1      .2      .3      .4      .5
# .6      .7      .8      .9      .10
#     .11     .12     .13     .14     .15
# .16     .17     .18     .19     .20
#     .21     .22     .23     .24     .25
# .26     .27     .28     .29     .30
#     .31     .32     .33     .34     .35
# .36     .37     .38     .39     w40
#     .41     .42     .43     w44     .45
# .46     .47     .48     .49     W50
# The king on 50 can only go to 45 (44 is its own man), and from 45 only back to 50 (40 is its
# own man); the men 44 and 40 step to 39, 34 and 35. Black's man walks down the left side,
# out of every line of the white pieces.
SHUTTLE = "W:WK50,40,44:B1"
MEN_MOVES = {"40-34", "40-35", "44-39"}


def notations(board: Board) -> set[str]:
    return {move.notation for move in board.legal_moves}


def play(board: Board, *moves: str) -> Board:
    for move in moves:
        board.push(move)
    return board


def three_king_moves() -> Board:
    """White's king 50-45, 45-50, 50-45, Black's man 1-7-12-18 in between."""
    return play(Board(V, SHUTTLE), "50-45", "1-7", "45-50", "7-12", "50-45", "12-18")


def test_frisian_and_frysk_limit_a_king_to_three_quiet_moves():
    for name in ("frisian", "frysk"):
        board = Board(name)
        assert board.variant.max_consecutive_king_moves == 3
        assert board.variant.counted_king_moves == "same-king"
    assert Board("international").variant.max_consecutive_king_moves == 0


def test_the_fourth_quiet_move_of_the_same_king_is_illegal():
    board = Board(V, SHUTTLE)
    assert notations(board) == {"50-45"} | MEN_MOVES
    play(board, "50-45", "1-7")
    assert notations(board) == {"45-50"} | MEN_MOVES  # 2nd king move allowed
    play(board, "45-50", "7-12")
    assert notations(board) == {"50-45"} | MEN_MOVES  # 3rd king move allowed
    play(board, "50-45", "12-18")
    # Black's man on 18 is out of the king's lines (45: the j file, the diagonal to 40).
    assert notations(board) == MEN_MOVES  # 45-50 would be the 4th: only the men may move
    assert len(board.legal_moves) == 3
    with pytest.raises(IllegalMoveError):
        board.push("45-50")


def test_the_limit_follows_the_board_history_not_the_position():
    # The same position set up from its FEN has no history: the count starts at 0.
    board = three_king_moves()
    assert notations(Board(V, board.fen)) == {"45-50"} | MEN_MOVES
    board.set_fen(board.fen)  # set_fen forgets the history too
    assert notations(board) == {"45-50"} | MEN_MOVES


def test_a_man_move_frees_the_king():
    board = play(three_king_moves(), "44-39", "18-22")
    # 39 now steps to 33 or 34; the king may go back to 50 and starts a new count.
    assert notations(board) == {"45-50", "39-33", "39-34", "40-34", "40-35"}
    # Three more king moves (50 now also reaches 44), Black's man going down the left side:
    play(board, "45-50", "22-27", "50-45", "27-31", "45-50", "31-36")
    assert notations(board) == {"39-33", "39-34", "40-34", "40-35"}


def test_a_capture_stays_legal_for_a_tired_king_and_frees_it():
    #     .1      .2      .3      .4      .5
    # .6      .7      .8      .9      .10
    #     b11     .12     .13     .14     .15
    # .16     .17     .18     .19     .20
    #     .21     .22     .23     .24     b25
    # .26     .27     .28     .29     .30
    #     .31     .32     .33     .34     .35
    # .36     .37     .38     .39     w40
    #     .41     .42     .43     w44     W45
    # .46     .47     .48     .49     .50
    # After 50-45 1-6 45-50 6-11 50-45 20-25 the king has made three quiet moves. It captures
    # 25 up the j file (35 empty) and may land on 15 or 5; nothing more can be taken from
    # either (11 has no square beyond it on its row). The capture is compulsory and legal.
    board = Board(V, "W:WK50,40,44:B1,20")
    play(board, "50-45", "1-6", "45-50", "6-11", "50-45", "20-25")
    assert {(m.path, m.captured) for m in board.legal_moves} == {
        ((45, 15), (25,)),
        ((45, 5), (25,)),
    }
    play(board, "45x5", "11-16")
    # The capture reset the count: the king on 5 has its whole diagonal 10-46 again.
    king = {f"5-{to}" for to in (10, 14, 19, 23, 28, 32, 37, 41, 46)}
    assert notations(board) == king | MEN_MOVES


#     b1      .2      .3      .4      .5
# .6      .7      .8      .9      .10
#     .11     .12     .13     .14     .15
# .16     .17     .18     .19     .20
#     .21     .22     .23     .24     .25
# .26     .27     .28     .29     .30
#     .31     .32     .33     .34     .35
# .36     w37     .38     .39     w40
#     .41     .42     .43     w44     .45
# W46     .47     .48     .49     W50
# A second king on 46, which can only go to 41 (37 is its own man); from 41 it reaches 36,
# 46 and 47. The man on 37 steps to 31 or 32.
TWO_KINGS = "W:WK50,K46,37,40,44:B1"
TWO_KINGS_MEN = {"37-31", "37-32", "40-34", "40-35", "44-39"}


def test_only_the_tired_king_is_held_and_another_king_frees_it():
    board = play(Board(V, TWO_KINGS), "50-45", "1-7", "45-50", "7-12", "50-45", "12-17")
    assert notations(board) == {"46-41"} | TWO_KINGS_MEN  # not 45-50
    play(board, "46-41", "17-22")
    assert notations(board) == {"45-50", "41-36", "41-46", "41-47"} | TWO_KINGS_MEN


def test_moves_of_two_kings_do_not_add_up():
    # 50-45, 46-41, 45-50: no king has made more than one quiet move in a row.
    board = play(Board(V, TWO_KINGS), "50-45", "1-7", "46-41", "7-12", "45-50", "12-17")
    assert notations(board) == {"50-45", "41-36", "41-46", "41-47"} | TWO_KINGS_MEN


DIAGONAL_46_5 = (41, 37, 32, 28, 23, 19, 14, 10, 5)


@pytest.mark.parametrize(
    ("moves", "freed"),
    [
        (  # one king three times; then 45 goes back to 50, 46 has its diagonal (37 left)
            ("50-45", "1-7", "45-50", "7-12", "50-45", "12-17"),
            {"45-50"} | {f"46-{to}" for to in DIAGONAL_46_5},
        ),
        (  # two kings, three moves; then 50 goes to 45, 41 to 36, 46, 47 and up to 5
            ("50-45", "1-7", "46-41", "7-12", "45-50", "12-17"),
            {"50-45", "41-36", "41-46", "41-47"} | {f"41-{to}" for to in DIAGONAL_46_5[1:]},
        ),
    ],
)
def test_any_king_option_counts_every_king_move(moves, freed):
    board = play(Board("frisian+any-king", TWO_KINGS), *moves)
    assert board.variant.counted_king_moves == "any-king"
    assert notations(board) == TWO_KINGS_MEN  # no king may make a quiet move
    play(board, "37-31", "17-22")  # a man's move frees them all; 31 steps to 26 or 27
    men = {"31-26", "31-27", "40-34", "40-35", "44-39"}
    assert notations(board) == freed | men


def test_any_king_option_round_trips_through_a_variant_file():
    variant = Board("frysk+any-king").variant
    text = variant_to_toml(variant)
    assert "max_consecutive_moves = 3" in text and 'counted_moves = "any-king"' in text
    loaded = parse_variant_text(text.replace('name = "frysk-any-king"', 'name = "mine"'))
    assert loaded.max_consecutive_king_moves == 3
    assert loaded.counted_king_moves == "any-king"


#     .1      .2      .3      .4      b5
# .6      .7      .8      .9      .10
#     .11     .12     .13     .14     .15
# .16     .17     .18     .19     .20
#     .21     .22     .23     .24     .25
# .26     b27     .28     .29     .30
#     b31     .32     .33     .34     .35
# w36     .37     .38     .39     .40
#     .41     .42     .43     .44     W45
# .46     .47     .48     .49     .50
# White's man on 36 is stuck: 31 is taken and it cannot jump it (27 is taken too); nothing
# lies on its file or row. Black's man 5 walks 10, 14, 19, out of the king's lines.
BLOCKED_MAN = "W:WK45,36:B5,27,31"
KING_SHUTTLE = ("45-50", "5-10", "50-45", "10-14", "45-50", "14-19")


def test_a_tired_king_that_is_the_only_mobile_piece_leaves_no_move():
    board = play(Board(V, BLOCKED_MAN), *KING_SHUTTLE)
    assert notations(board) == set()
    assert board.is_game_over() and board.winner() == 1  # blocked: White loses
    game = Game(V, BLOCKED_MAN)
    for move in KING_SHUTTLE:
        game.push(move)
    assert game.result is not None and game.result.winner == 1
    assert game.result.reason == "blocked"


def test_only_kings_means_no_limit():
    # The same moves without White's man: the king may go on for ever.
    board = play(Board(V, "W:WK45:B5,27,31"), *KING_SHUTTLE)
    diagonal = {f"50-{to}" for to in (44, 39, 33, 28, 22, 17, 11, 6)}
    assert notations(board) == diagonal | {"50-45"}


def test_pop_restores_the_count():
    board = three_king_moves()
    assert "45-50" not in notations(board)
    board.pop()  # 12-18
    board.pop()  # 50-45, White's third king move
    assert notations(board) == {"50-45"} | MEN_MOVES
    play(board, "50-45", "12-18")
    assert notations(board) == MEN_MOVES
    copy = board.copy()
    copy.pop()
    copy.pop()
    assert notations(copy) == {"50-45"} | MEN_MOVES
    assert notations(board) == MEN_MOVES  # the copy's history is its own


def test_game_undo_restores_the_count():
    game = Game(V, SHUTTLE)
    for move in ("50-45", "1-7", "45-50", "7-12", "50-45", "12-18"):
        game.push(move)
    assert {m.notation for m in game.board.legal_moves} == MEN_MOVES
    with pytest.raises(IllegalMoveError):
        game.push("45-50")
    game.undo()
    game.undo()
    assert {m.notation for m in game.board.legal_moves} == {"50-45"} | MEN_MOVES
    game.push("40-35")  # a man's move instead
    game.push("12-18")
    # 40 went to 35 (it steps on to 30) and freed 40 for the man on 44.
    assert {m.notation for m in game.board.legal_moves} == {"50-45", "35-30", "44-39", "44-40"}


def test_perft_knows_no_history():
    # perft counts the position's own tree: the tired king's moves are in it.
    board = three_king_moves()
    assert board.perft(1) == 4
    assert sum(count for _, count in board.perft_divide(1)) == 4
    assert len(board.legal_moves) == 3
