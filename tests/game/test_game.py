"""Game: how games end (no pieces, blocked, resignation, agreement, adjudication), what a
finished game refuses, and undo restoring every counter."""

from __future__ import annotations

import pytest

from damier.clock import Clock
from damier.errors import IllegalMoveError
from damier.game import Game, GameOverError, Result

from ._util import plan, play_quiet, run_to

# -- no pieces, blocked ----------------------------------------------------------------


def test_capturing_the_last_piece_wins() -> None:
    # International: the white man on 28 jumps the black man on 23 and lands on 19.
    game = Game("international", "W:W28:B23")
    assert [m.notation for m in game.board.legal_moves] == ["28x19"]
    game.push("28x19")
    assert game.result == Result(0, "no pieces")
    assert game.result.pdn == "2-0"
    assert game.result.scores == (1.0, 0.0)


def test_blocked_player_loses() -> None:
    # Russian: the black man on 21 (a3) can only go to 25 (b2), held by a white man
    # whose square behind (30, c1) is also white. After 32-28 Black has no move.
    game = Game("russian", "W:W25,30,32:B21")
    game.push("32-28")
    assert game.result == Result(0, "blocked")
    assert game.result.pdn == "2-0"


def test_blocked_at_the_start() -> None:
    game = Game("russian", "B:W25,30:B21")
    assert game.ply == 0 and game.result == Result(0, "blocked")
    with pytest.raises(GameOverError):
        game.push("21-17")


def test_giveaway_no_pieces_wins() -> None:
    game = Game("international-giveaway", "W:W28:B23")
    game.push("28x19")
    assert game.result == Result(1, "no pieces (giveaway: no move wins)")
    assert game.result.pdn == "0-2"
    assert game.result.scores == (0.0, 1.0)


def test_giveaway_blocked_wins() -> None:
    game = Game("russian-giveaway", "W:W25,30,32:B21")
    game.push("32-28")
    assert game.result == Result(1, "blocked (giveaway: no move wins)")


def test_english_black_moves_first_and_wins() -> None:
    # English: the dark side (Black, 1-12) moves first; 18 is a white man that Black's
    # man on 14 jumps (14x23), leaving White nothing.
    game = Game("english", "B:W18:B14")
    assert game.turn == 1
    game.push("14x23")
    assert game.result == Result(1, "no pieces")
    assert game.result.pdn == "0-2"


# -- resignation, agreement, adjudication ----------------------------------------------


@pytest.mark.parametrize(("player", "pdn"), [(0, "0-2"), (1, "2-0")])
def test_resignation(player: int, pdn: str) -> None:
    game = Game("russian")
    game.push("c3-d4")
    result = game.resign(player)
    assert result == Result(1 - player, "resignation") == game.result
    assert result.pdn == pdn


def test_draw_offer_accepted() -> None:
    game = Game("international")
    game.push("32-28")
    assert game.offer_draw(1) is None
    assert game.draw_offer == 1
    with pytest.raises(ValueError):
        game.accept_draw(1)  # one's own offer
    result = game.accept_draw(0)
    assert result == Result(None, "agreement") == game.result
    assert result.pdn == "1-1" and result.scores == (0.5, 0.5)


def test_two_offers_make_an_agreement() -> None:
    game = Game("international")
    assert game.offer_draw(0) is None
    assert game.offer_draw(0) is None  # offering twice is still one offer
    assert game.offer_draw(1) == Result(None, "agreement")


def test_offer_stands_through_the_offerers_move_and_lapses_on_the_opponents() -> None:
    game = Game("international")
    game.offer_draw(0)  # White offers, then moves: the offer stands
    game.push("32-28")
    assert game.draw_offer == 0
    game.push("18-23")  # Black moves instead of answering: the offer lapses
    assert game.draw_offer is None
    with pytest.raises(ValueError):
        game.accept_draw(1)
    assert game.result is None


def test_decline() -> None:
    game = Game("international")
    game.offer_draw(0)
    game.decline_draw(0)  # not his to decline
    assert game.draw_offer == 0
    game.decline_draw(1)
    assert game.draw_offer is None
    with pytest.raises(ValueError):
        game.accept_draw(1)
    assert game.result is None


@pytest.mark.parametrize(("winner", "pdn"), [(0, "2-0"), (1, "0-2"), (None, "1-1")])
def test_adjudication(winner: int | None, pdn: str) -> None:
    game = Game("spanish")
    result = game.adjudicate(winner, "engine evaluation")
    assert result == Result(winner, "engine evaluation")
    assert game.result is not None and game.result.pdn == pdn
    assert Game("spanish").adjudicate(winner).reason == "adjudication"


def test_result_scores() -> None:
    assert Result(0, "x").scores == (1.0, 0.0)
    assert Result(1, "x").scores == (0.0, 1.0)
    assert Result(None, "x").scores == (0.5, 0.5)
    # Place k of n is worth (n - 1 - k) / (n - 1), split among the players sharing it.
    assert Result(2, "x", players=3).scores == (0.25, 0.25, 1.0)
    assert Result.ranked(((2,), (0,), (1,)), "x", 3).scores == (0.5, 0.0, 1.0)
    assert Result.ranked(((1, 3), (0,), (2,)), "x", 4).scores == (1 / 3, 5 / 6, 0.0, 5 / 6)
    assert Result(None, "x", players=4).scores == (0.5, 0.5, 0.5, 0.5)


# -- a finished game ---------------------------------------------------------------------


def finished() -> Game:
    game = Game("russian")
    game.push("c3-d4")
    game.resign(1)
    return game


@pytest.mark.parametrize(
    "action",
    [
        lambda g: g.push("f6-e5"),
        lambda g: g.resign(0),
        lambda g: g.offer_draw(0),
        lambda g: g.accept_draw(0),
        lambda g: g.adjudicate(None),
    ],
)
def test_game_over_refuses_everything(action: object) -> None:
    game = finished()
    with pytest.raises(GameOverError):
        action(game)  # type: ignore[operator]
    assert game.result == Result(0, "resignation")


def test_illegal_move_changes_nothing() -> None:
    game = Game("russian")
    with pytest.raises(IllegalMoveError):
        game.push("c3-c4")
    assert game.ply == 0 and game.result is None


def test_draw_reason_after_the_end() -> None:
    game = Game("international", "W:WK46,K50:BK1,K4")
    for move in ["50-45", "1-6", "45-50", "6-1"] * 2:
        game.push(move)
    assert game.draw_reason() == "threefold repetition" == game.result.reason


# -- undo ---------------------------------------------------------------------------------


def test_undo_takes_back_the_result_and_redo_reaches_it_again() -> None:
    # 2 kings v king in International: the 5-move rule ends it on ply 10.
    game = Game("international", "W:WK46,K50:BK3")
    run_to(game, 10, Result(None, "5-move rule"))
    line = [m.notation for m in game.moves]
    for _ in range(4):
        game.undo()
    assert game.ply == 6 and game.result is None
    play_quiet(game, line[6:9])
    game.push(line[9])
    assert game.ply == 10 and game.result == Result(None, "5-move rule")


def test_undo_gives_the_clock_back_to_the_player_to_move() -> None:
    game = Game("russian", clock=Clock.fischer(300, 3, now=lambda: 0.0))
    game.push("22-18", at=10.0)
    game.undo(at=12.0)
    assert game.clock is not None and game.clock.running == game.turn == 0
    game.push("22-18", at=20.0)  # the move is recorded, the clock pressed for White
    assert [e.notation for e in game.events] == ["22-18"]
    assert game.clock.running == 1
    assert game.clock.remaining(0) == 300 + 3 - 10 + 3 - 8


def test_undo_of_a_win() -> None:
    game = Game("international", "W:W28:B23")
    game.push("28x19")
    assert game.undo().notation == "28x19"
    assert game.result is None and game.ply == 0
    assert game.board.fen == "W:W28:B23"
    game.push("28x19")
    assert game.result == Result(0, "no pieces")


def test_undo_restores_the_quiet_count() -> None:
    # 40 king plies, then a man move on ply 41 restarts the 25-move count; taking it back
    # must restore the count of 40, so king moves end the game on ply 50 after all.
    game = Game("international", "W:WK47,K49,35:BK2,K4,16")
    run_to(game, 40, None)
    game.push("35-30")
    game.undo()
    assert game.ply == 40
    run_to(game, 50, Result(None, "25-move rule"))


def test_undo_restores_repetition_history() -> None:
    game = Game("international", "W:WK46,K50:BK1,K4")
    cycle = ["50-45", "1-6", "45-50", "6-1"]
    for move in cycle * 2:
        game.push(move)
    assert game.result == Result(None, "threefold repetition")
    game.undo()
    assert game.result is None and game.ply == 7
    game.push("6-1")
    assert game.result == Result(None, "threefold repetition")


def test_undo_restores_the_draw_offer_state() -> None:
    game = Game("international")
    game.push("32-28")
    game.offer_draw(1)
    game.undo()
    assert game.draw_offer is None


def test_undo_with_nothing_played() -> None:
    with pytest.raises(IndexError):
        Game("russian").undo()


def test_moves_and_ply() -> None:
    game = Game("russian")
    line = plan(game.board, 4, men=True)
    for text in line:
        game.push(text)
    assert game.ply == 4
    assert [m.notation for m in game.moves] == line
