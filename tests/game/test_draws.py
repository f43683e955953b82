"""Every draw rule of every variant, driven to the exact ply where it fires.

Conventions (RULES.md, rules/draws.py): plies are single moves; "25 moves each" is 50
plies; the count of an endgame rule starts with the move that creates its balance (the
start position counts as ply 0 when the FEN already has it), so a rule of N plies fires on
ply start + N; a rule counted in the stronger side's moves fires on that side's N-th move
after the start. Every test also checks the ply before: the game must still be going on.

Main diagonals (hand-derived from each board's numbering, see ``damier show``):
International 46-41-37-32-28-23-19-14-10-5; Russian/Brazilian/English/pool
29-25-22-18-15-11-8-4; Spanish (numbered from White's near-right square) 1-5-10-14-19-23-28-32.
"""

from __future__ import annotations

import pytest

from damier import Board
from damier.game import Game, Result

from ._util import (
    can_capture,
    has_capture,
    on_squares,
    plan,
    play_quiet,
    run_to,
    safe_captures,
    then_quiet,
)

INTERNATIONAL_ROAD = (46, 41, 37, 32, 28, 23, 19, 14, 10, 5)
ROAD_64 = (29, 25, 22, 18, 15, 11, 8, 4)
SPANISH_ROAD = (1, 5, 10, 14, 19, 23, 28, 32)

DRAW = None  # Result.winner of a draw


def drawn(reason: str) -> Result:
    return Result(DRAW, reason)


def push_checked(game: Game, text: str) -> None:
    """Push a move that must be legal; the game must not end on it."""
    assert text in {m.notation for m in game.board.legal_moves}, (text, game.board.fen)
    game.push(text)
    assert game.result is None, game.result


def capture_into(game: Game, plies: int, pieces: int = 1, **options: object) -> str:
    """Play quiet king moves up to ``plies`` such that the side to move then has a safe
    capture of ``pieces`` pieces (the opponent's last quiet move blunders); return it."""
    line = plan(game.board, plies - game.ply, final=can_capture(pieces), **options)  # type: ignore[arg-type]
    play_quiet(game, line)
    return safe_captures(game.board, pieces)[0]


def man_move_on(game: Game, ply: int, move: str, **options: object) -> None:
    """Quiet king moves up to ``ply - 1``, then the man move ``move`` on ply ``ply``."""
    run_to(game, ply - 1, None, final=then_quiet(move), **options)
    push_checked(game, move)
    assert game.ply == ply


# -- threefold repetition, every variant -------------------------------------------------

REPETITION = [
    # variant, FEN, first mover's shuffle, second mover's shuffle
    ("international", "W:WK46,K50:BK1,K4", ("50-45", "45-50"), ("1-6", "6-1")),
    ("brazilian", "W:WK29,K32:BK1,K4", ("32-28", "28-32"), ("1-5", "5-1")),
    ("russian", "W:WK29,K32:BK1,K4", ("32-28", "28-32"), ("1-5", "5-1")),
    ("english", "B:WK29,K32:BK1,K4", ("1-5", "5-1"), ("32-28", "28-32")),
    ("pool", "B:WK29,K32:BK1,K4", ("1-5", "5-1"), ("32-28", "28-32")),
    ("italian", "W:WK29,K32:BK1,K4", ("32-28", "28-32"), ("1-5", "5-1")),
    ("spanish", "W:WK1:BK29", ("1-5", "5-1"), ("29-25", "25-29")),
    ("turkish", "W:WKa1,Kc1:BKh8,Kf8", ("a1-a2", "a2-a1"), ("h8-h7", "h7-h8")),
    ("croda", "W:WKa1,Kc1:BKh8,Kf8", ("a1-a2", "a2-a1"), ("h8-h7", "h7-h8")),
    ("dameo", "W:WKa1,Kc1:BKh8,Kf8", ("a1-a2", "a2-a1"), ("h8-h7", "h7-h8")),
    ("international-giveaway", "W:WK46,K50:BK1,K4", ("50-45", "45-50"), ("1-6", "6-1")),
    ("russian-giveaway", "W:WK29,K32:BK1,K4", ("32-28", "28-32"), ("1-5", "5-1")),
    ("spanish-giveaway", "W:WK1:BK29", ("1-5", "5-1"), ("29-25", "25-29")),
    ("english-giveaway", "B:WK29,K32:BK1,K4", ("1-5", "5-1"), ("32-28", "28-32")),
    ("turkish-giveaway", "W:WKa1,Kc1:BKh8,Kf8", ("a1-a2", "a2-a1"), ("h8-h7", "h7-h8")),
]


@pytest.mark.parametrize(("variant", "fen", "first", "second"), REPETITION)
def test_repetition_on_the_third_occurrence(
    variant: str, fen: str, first: tuple[str, str], second: tuple[str, str]
) -> None:
    game = Game(variant, fen)
    cycle = [first[0], second[0], first[1], second[1]]
    # The start position occurs at plies 0, 4 and 8: the 2nd time (ply 4) is no draw,
    # the 3rd (ply 8) is. (The position after ply 1 would recur a 3rd time only at ply 9.)
    play_quiet(game, cycle)
    assert game.ply == 4 and game.result is None
    play_quiet(game, cycle[:3])
    assert game.ply == 7 and game.result is None
    game.push(cycle[3])
    assert game.ply == 8
    assert game.result == drawn("threefold repetition")


def test_repetition_not_across_a_man_move() -> None:
    """A man move makes the earlier positions unreachable: counting starts again."""
    game = Game("international", "W:WK46,K50,35:BK1,K4,16")
    play_quiet(game, ["50-45", "1-6", "45-50", "6-1"])  # start position, 2nd time (ply 4)
    play_quiet(game, ["35-30", "16-21"])  # men move: plies 5, 6
    cycle = ["50-45", "1-6", "45-50", "6-1"]
    # The position after ply 6 (P) recurs at plies 10 and 14: third time at ply 14.
    play_quiet(game, cycle + cycle[:3])
    assert game.ply == 13
    game.push(cycle[3])
    assert game.ply == 14 and game.result == drawn("threefold repetition")


# -- International (FMJD) ----------------------------------------------------------------


def test_international_25_move_rule() -> None:
    # Only kings from the start: 25 moves each = 50 plies -> fires on ply 50.
    run_to(Game("international", "W:WK46,K50:BK1,K4"), 50, drawn("25-move rule"))


def test_international_25_move_rule_restarts_on_a_man_move() -> None:
    game = Game("international", "W:WK47,K49,35:BK2,K4,16")
    man_move_on(game, 21, "35-30")  # ply 21, a man move: the count restarts
    # 21 + 50 = 71 (without the reset it would have been 50, passed on the way)
    run_to(game, 71, drawn("25-move rule"))


def test_international_25_move_rule_restarts_on_a_capture() -> None:
    game = Game("international", "W:WK46,K50:BK1,K4,K16")
    capture = capture_into(game, 20)  # Black's 10th move (ply 20) drops a king
    game.push(capture)  # ply 21: a king captures a king
    assert game.ply == 21 and game.result is None
    # 2 kings v 2 kings after the capture: no endgame rule.
    # The quiet count restarts at ply 21: the rule fires on ply 21 + 50 = 71.
    run_to(game, 71, drawn("25-move rule"))


@pytest.mark.parametrize("fen", ["W:WK46,K48,K50:BK3", "W:WK46,K48,45:BK3", "W:WK46,40,45:BK3"])
def test_international_16_move_rule_from_the_start(fen: str) -> None:
    # 3 kings / 2 kings + man / king + 2 men v lone king: 16 moves each = 32 plies,
    # counted from the start position (the men never move: only kings are played).
    run_to(Game("international", fen), 32, drawn("16-move rule"))


def test_international_16_move_rule_counts_from_the_capture() -> None:
    # 3 kings v 2 kings: no endgame rule. Black's ply 10 drops a king, White takes it on
    # ply 11: 3 v 1 from ply 11, so the rule fires on 11 + 32 = 43 (not on 32).
    game = Game("international", "W:WK46,K48,K50:BK1,K3")
    game.push(capture_into(game, 10))
    assert game.ply == 11 and game.result is None
    assert game.material_of(1).pieces == 1
    run_to(game, 43, drawn("16-move rule"))


def test_international_16_move_rule_not_restarted_by_a_crowning() -> None:
    # King + 2 men v king from the start (count from ply 0). White crowns a man on ply 3:
    # 2 kings + man v king is the same 16-move balance, nothing is captured, so the count
    # goes on (RULES.md: it starts with the move that *creates* the configuration).
    game = Game("international", "W:WK46,7,45:BK30")
    man_move_on(game, 3, "7-1")
    assert game.board.piece_at(1) == (0, True)
    run_to(game, 32, drawn("16-move rule"))


@pytest.mark.parametrize("fen", ["W:WK46,K50:BK3", "W:WK46,40:BK3", "W:WK46:BK3"])
def test_international_5_move_rule(fen: str) -> None:
    # 2 kings / king + man / king v lone king: 5 moves each = 10 plies.
    run_to(Game("international", fen), 10, drawn("5-move rule"))


def test_international_5_move_rule_counts_from_the_capture_that_creates_it() -> None:
    # 3 kings v king (16-move rule from ply 0); White's ply 5 drops a king and the lone
    # king takes it on ply 6: 2 kings v king from ply 6 -> 5-move rule on 6 + 10 = 16.
    game = Game("international", "W:WK46,K48,K50:BK3")
    game.push(capture_into(game, 5))
    assert game.ply == 6 and game.result is None
    run_to(game, 16, drawn("5-move rule"))


@pytest.mark.parametrize(
    ("fen", "strong"),
    [
        ("W:WK46,K50:BK3", 0),  # White strong; Black's lone king takes a king
        ("B:WK47:BK3,K5", 1),  # Black strong; White's lone king takes a king
    ],
)
def test_international_5_move_rule_never_restarts(fen: str, strong: int) -> None:
    # The count starts at ply 0. The stronger side (moving first) drops a king on ply 5
    # and the lone king takes it on ply 6: king v king is still a 5-move balance and the
    # count never restarts, so the draw comes on ply 10 (a restart would give 16).
    game = Game("international", fen)
    game.push(capture_into(game, 5))
    assert game.ply == 6 and game.result is None
    assert game.material_of(strong).pieces == 1
    run_to(game, 10, drawn("5-move rule"))


def test_international_win_on_the_last_counted_move_is_a_win() -> None:
    # Black moves first: White's 5th move is ply 10, the move on which the 5-move count
    # expires. If it captures the lone king the game is won, not drawn.
    game = Game("international", "B:WK46,K50:BK3")
    capture = capture_into(game, 9)
    assert game.ply == 9 and game.result is None
    game.push(capture)
    assert game.ply == 10
    assert game.result == Result(0, "no pieces")


# -- Russian and Brazilian (FMJD-64 art. 7.2) --------------------------------------------

FMJD64 = ["russian", "brazilian"]


@pytest.mark.parametrize("variant", FMJD64)
def test_fmjd64_three_kings_v_one_15_moves(variant: str) -> None:
    # 7.2.4, lone king kept off the main road (else 7.2.7 would apply): White moves
    # first, so White's moves are plies 1, 3, ..., and the 15th is ply 29.
    game = Game(variant, "W:WK30,K31,K32:BK1")
    off_road = lambda b: on_squares(b, ROAD_64, 1) == 0  # noqa: E731
    run_to(game, 29, drawn("15-move rule (three kings against one)"), keep=off_road)


@pytest.mark.parametrize("variant", FMJD64)
def test_fmjd64_four_kings_v_one_15_moves_black_strong(variant: str) -> None:
    # Three *or more* kings; Black strong and moving first: Black's 15th move is ply 29.
    game = Game(variant, "B:WK32:BK1,K2,K3,K5")
    off_road = lambda b: on_squares(b, ROAD_64, 0) == 0  # noqa: E731
    run_to(game, 29, drawn("15-move rule (three kings against one)"), keep=off_road)


@pytest.mark.parametrize("variant", FMJD64)
def test_fmjd64_only_kings_15_moves(variant: str) -> None:
    # 7.2.5: 15 moves each with only kings = 30 plies (2 kings each: no lone king; the
    # 4-piece unchanged-material count would need 60).
    run_to(Game(variant, "W:WK29,K32:BK1,K4"), 30, drawn("15-move rule (only kings moved)"))


@pytest.mark.parametrize("variant", FMJD64)
def test_fmjd64_only_kings_count_restarts_on_a_man_move(variant: str) -> None:
    game = Game(variant, "W:WK30,K32,21:BK1,K3,12")  # 6 pieces: unchanged material 120
    man_move_on(game, 11, "21-17")  # ply 11, a man move
    run_to(game, 41, drawn("15-move rule (only kings moved)"))  # 11 + 30


@pytest.mark.parametrize("variant", FMJD64)
def test_fmjd64_unchanged_material_4_pieces(variant: str) -> None:
    # 7.2.6: king + man each (4 pieces, both have kings): 30 moves = 60 plies without
    # capture or crowning. Men move on plies 21 and 42 so that the only-kings count
    # (30 plies) never runs out: it is 18 at ply 60.
    game = Game(variant, "W:WK30,21:BK3,12")
    man_move_on(game, 21, "21-17")
    man_move_on(game, 42, "12-16")
    run_to(game, 60, drawn("unchanged material"))


@pytest.mark.parametrize("variant", FMJD64)
def test_fmjd64_unchanged_material_6_pieces(variant: str) -> None:
    # 6 pieces: 60 moves = 120 plies; men move on plies 21, 42, 63, 84, 105 (gaps < 30).
    game = Game(variant, "W:WK14,29,31:BK19,2,4")
    for ply, man_move in ((21, "29-25"), (42, "2-6"), (63, "31-27"), (84, "4-8"), (105, "25-22")):
        man_move_on(game, ply, man_move)
    run_to(game, 120, drawn("unchanged material"))


@pytest.mark.parametrize("variant", FMJD64)
def test_fmjd64_lone_king_on_the_main_road(variant: str) -> None:
    # 7.2.7: 2 kings + man v a lone king that stays on the long diagonal: White's 5th
    # move (plies 1, 3, 5, 7, 9) ends it on ply 9.
    game = Game(variant, "W:WK30,K32,21:BK4")
    road = lambda b: on_squares(b, ROAD_64, 1) == 1 and on_squares(b, ROAD_64, 0) == 0  # noqa: E731
    run_to(game, 9, drawn("5-move rule (lone king on the main road)"), keep=road)


@pytest.mark.parametrize("variant", FMJD64)
def test_fmjd64_main_road_rule_needs_the_lone_king_on_the_road(variant: str) -> None:
    # Same material, the lone king kept off the long diagonal: nothing on ply 9; the
    # only rule left is 7.2.5 (only kings moved), 30 plies (4 pieces: 7.2.6 needs 60).
    game = Game(variant, "W:WK30,K32,21:BK1")
    off_road = lambda b: on_squares(b, ROAD_64, 1) == 0  # noqa: E731
    run_to(game, 9, None, keep=off_road)
    run_to(game, 30, drawn("15-move rule (only kings moved)"), keep=off_road)


@pytest.mark.parametrize("variant", FMJD64)
@pytest.mark.parametrize("fen", ["W:WK30,K32:BK1", "W:WK30,21:BK1", "W:WK30:BK1"])
def test_fmjd64_two_pieces_v_king(variant: str, fen: str) -> None:
    # 7.2.8: two kings / king + man / king v king: 5 moves = 10 plies.
    run_to(Game(variant, fen), 10, drawn("5-move rule"))


# -- English (WCDF) ----------------------------------------------------------------------


def test_english_40_move_rule() -> None:
    # Black moves first; 40 moves each = 80 plies of king moves.
    run_to(Game("english", "B:WK29,K32:BK1,K4"), 80, drawn("40-move rule"))


def test_english_40_move_rule_restarts_on_a_man_move() -> None:
    game = Game("english", "B:WK30,K32,21:BK1,K3,12")
    man_move_on(game, 21, "12-16")  # ply 21 (Black moves the odd plies): a man move
    run_to(game, 101, drawn("40-move rule"))  # 21 + 80


def test_english_has_no_endgame_rule() -> None:
    # Three kings v one: no count in English draughts (only repetition and 40 moves).
    run_to(Game("english", "B:WK29,K30,K32:BK1"), 40, None)


# -- American pool (APCA) ----------------------------------------------------------------


def test_pool_three_kings_v_one_13_moves() -> None:
    # Black strong and first: Black's moves are plies 1, 3, ..., the 13th is ply 25.
    run_to(Game("pool", "B:WK30:BK1,K3,K4"), 25, drawn("three kings v one"))


def test_pool_three_kings_v_one_strong_side_second() -> None:
    # White strong, Black (lone king) first: White's 13th move is ply 26.
    run_to(Game("pool", "B:WK29,K30,K32:BK1"), 26, drawn("three kings v one"))


def test_pool_win_on_the_13th_move_is_a_win() -> None:
    # "Even if the fourteenth move is a capture" it is a draw - but a capture on the
    # 13th move (ply 25 here) wins.
    game = Game("pool", "B:WK30:BK1,K3,K4")
    game.push(capture_into(game, 24))
    assert game.ply == 25 and game.result == Result(1, "no pieces")


def test_pool_has_no_other_counts() -> None:
    # Two kings v one, or kings only: nothing but repetition in pool.
    run_to(Game("pool", "B:WK29,K30:BK1"), 60, None)


# -- Spanish ----------------------------------------------------------------------------


def test_spanish_40_move_rule() -> None:
    # 40 consecutive moves (20 each) without capture or man move.
    run_to(Game("spanish", "W:WK2,K3:BK29,K30"), 40, drawn("40-move rule"))


def test_spanish_40_move_rule_restarts_on_a_man_move() -> None:
    game = Game("spanish", "W:WK2,K3,9:BK29,K30,24")
    man_move_on(game, 16, "24-20")  # ply 16 (Black): a man move
    run_to(game, 56, drawn("40-move rule"))  # 16 + 40


def test_spanish_three_kings_with_one_on_the_main_diagonal() -> None:
    # A White king always on the main diagonal; White first: 13th White move = ply 25.
    game = Game("spanish", "W:WK1,K3,K4:BK30")
    on_road = lambda b: on_squares(b, SPANISH_ROAD, 0) >= 1  # noqa: E731
    run_to(game, 25, drawn("three kings v one"), keep=on_road)


def test_spanish_three_kings_rule_needs_the_main_diagonal() -> None:
    # No White king on the main diagonal: no draw on ply 25; the 40-move rule on ply 40.
    game = Game("spanish", "W:WK2,K3,K4:BK30")
    off_road = lambda b: on_squares(b, SPANISH_ROAD, 0) == 0  # noqa: E731
    run_to(game, 25, None, keep=off_road)
    run_to(game, 40, drawn("40-move rule"), keep=off_road)


# -- Turkish ----------------------------------------------------------------------------


def test_turkish_one_piece_each_from_the_start() -> None:
    game = Game("turkish", "W:WKa1:Bh7")
    assert game.ply == 0 and game.result == drawn("one piece each")


def test_turkish_one_piece_each_after_a_capture() -> None:
    # King v two kings goes on; the capture on ply 5 leaves one piece each: drawn then.
    game = Game("turkish", "W:WKa1:BKh8,Kf7")
    capture = capture_into(game, 4)
    assert game.ply == 4 and game.result is None
    game.push(capture)
    assert game.ply == 5 and game.result == drawn("one piece each")


def test_turkish_has_no_move_count() -> None:
    run_to(Game("turkish", "W:WKa1,Kc1:BKh8,Kf8"), 100, None)


# -- repetition only: Italian, Croda, Dameo, giveaway -----------------------------------


@pytest.mark.parametrize(
    ("variant", "fen"),
    [
        ("italian", "W:WK29,K32:BK1,K4"),
        ("croda", "W:WKa1,Kc1:BKh8,Kf8"),
        ("dameo", "W:WKa1,Kc1:BKh8,Kf8"),
        ("international-giveaway", "W:WK46,K50:BK1,K4"),  # the 25-move situation
        ("russian-giveaway", "W:WK29,K32:BK1,K4"),
        ("spanish-giveaway", "W:WK2,K3:BK29,K30"),
        ("english-giveaway", "B:WK29,K32:BK1,K4"),
    ],
)
def test_no_move_count_in_repetition_only_variants(variant: str, fen: str) -> None:
    run_to(Game(variant, fen), 100, None)


@pytest.mark.parametrize(
    ("variant", "fen", "plies"),
    [
        ("international-giveaway", "W:WK46,K48,K50:BK3", 40),  # 16-move would be 32
        ("international-giveaway", "W:WK46,K50:BK3", 16),  # 5-move would be 10
        ("russian-giveaway", "W:WK30,K31,K32:BK1", 40),  # 7.2.4 would be 29
        ("russian-giveaway", "W:WK30:BK1", 16),  # 7.2.8 would be 10
        ("pool-giveaway", "B:WK30:BK1,K3,K4", 30),  # 13 moves would be 25
        ("spanish-giveaway", "W:WK1,K3,K4:BK30", 30),  # 13 moves would be 25
    ],
)
def test_giveaway_has_no_material_rules(variant: str, fen: str, plies: int) -> None:
    run_to(Game(variant, fen), plies, None)


def test_board_positions_are_legal_starts() -> None:
    """The start positions above are positions where nothing can be captured."""
    for variant, fen, *_ in REPETITION:
        assert not has_capture(Board(variant, fen)), (variant, fen)
