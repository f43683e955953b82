"""The whole game on multi-player boards (RULES.md 12.2): eliminations and what happens to
the pieces left, rankings and scores, team mode, the giveaway form, the draw rules,
resignation, time-out and undo; then random games on every board played to a result.

The hand-made positions are on the four-player cross (cross4: a 14x14 board less its 3x3
corners; algebraic names, a1 dark; White moves up from the bottom arm, Black right from the
left arm, Red down from the top arm, Green left from the right arm). Expectations are
derived by hand from the rules; the comments say how.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from damier.clock import Clock
from damier.errors import FenError
from damier.game import Forfeit, Game, GameOverError, Result
from damier.rules import get_variant
from damier.rules.multiplayer import MULTIPLAYER
from tests.game._util import plan, play_quiet

W, B, R, G = 0, 1, 2, 3

# -- elimination -------------------------------------------------------------------------

# White e5 takes Black's only man on f6 (landing g7); h4 is a spare White man. Red (j12)
# and Green (m9) are far from everything.
LAST_PIECE = "W:We5,h4:Bf6:Rj12:Gm9"


def test_capturing_the_last_piece_puts_the_player_out_at_once() -> None:
    game = Game("cross4", LAST_PIECE)
    assert [m.notation for m in game.board.legal_moves] == ["e5xg7"]
    game.push("e5xg7")
    # Black is out with that move; the turn skips him: Red moves next.
    assert game.board.active_players == (W, R, G)
    assert game.board.eliminations() == [(B,)]
    assert game.turn == R and game.result is None
    assert game.board.fen == "R:Wh4,g7:B:Rj12:Gm9"
    assert game.ranking() == ((W, R, G), (B,))


# Black's only man on b4 cannot move: c3 is a cut corner, c5 is White's and the square
# behind it, d6, is White's too (a5 and a3 hold nothing to take). White plays h4-g5.
BLOCKED = "W:Wc5,d6,h4:Bb4:Rj12:Gm9"


@pytest.mark.parametrize(
    ("option", "fen", "active"),
    [
        # Out when his turn comes; his man leaves the board.
        ("", "R:Wc5,g5,d6:B:Rj12:Gm9", (W, R, G)),
        # He passes and stays in, his man where it was.
        ("+pass-when-blocked", "R:Wc5,g5,d6:Bb4:Rj12:Gm9", (W, B, R, G)),
        # Out; his man stays as a dead piece (the X field).
        ("+dead-pieces", "R:Wc5,g5,d6:B:Rj12:Gm9:Xb4", (W, R, G)),
        # Out; his man becomes White's, whose move blocked him.
        ("+pieces-to-eliminator", "R:Wb4,c5,g5,d6:B:Rj12:Gm9", (W, R, G)),
    ],
)
def test_a_blocked_player(option: str, fen: str, active: tuple[int, ...]) -> None:
    game = Game("cross4" + option, BLOCKED)
    assert "b4" not in {m.from_square for m in game.board.copy().legal_moves}
    game.push("h4-g5")
    assert game.turn == R and game.result is None
    assert game.board.fen == fen
    assert game.board.active_players == active


def test_a_start_with_the_player_to_move_blocked_is_refused() -> None:
    # Black to move in BLOCKED cannot; the board would end the game as if nobody could.
    with pytest.raises(FenError, match="black is to move but cannot"):
        Game("cross4", "B" + BLOCKED[1:])


# A lock along Red's edge (Black and Green have nothing): Red's men on d14, f14, h14, j14
# face White's on e13, g13, i13, k13; every jump lands off the board, on a cut corner (c13,
# l12, l14) or on White's men of rank 12. White's one free man plays i11-j12, the last
# square of the lock (only it was free for h14's jump over i13); then nobody can move.
LOCK = "W:Wi11,d12,f12,h12,e13,g13,i13,k13:Rd14,f14,h14,j14"


def test_nobody_can_move_when_blocked_players_pass() -> None:
    game = Game("cross4+pass-when-blocked", LOCK)
    assert [m.notation for m in game.board.legal_moves] == ["i11-j12"]
    game.push("i11-j12")
    # Red passes, White passes: the game is over and those still in share first place.
    assert game.result == Result.ranked(((W, R), (B, G)), "nobody can move", 4)


def test_the_same_lock_puts_the_blocked_player_out() -> None:
    game = Game("cross4", LOCK)
    game.push("i11-j12")
    assert game.result == Result.ranked(((W,), (R,), (B, G)), "last player standing", 4)


def test_dead_pieces_are_taken_by_anyone() -> None:
    # Black resigns while White is to move: his men on f6 and l10 die. White's e5 must
    # take the dead f6 (e5xg7); Red plays j12-i11; Green's m9 must take the dead l10
    # (m9xk11). Nobody could take a dead piece if dead pieces did not count.
    game = Game("cross4+dead-pieces", "W:We5:Bf6,l10:Rj12:Gm9")
    game.resign(B)
    assert game.board.fen == "W:We5:B:Rj12:Gm9:Xf6,l10"
    assert [m.notation for m in game.board.legal_moves] == ["e5xg7"]
    game.push("e5xg7")
    game.push("j12-i11")
    assert [m.notation for m in game.board.legal_moves] == ["m9xk11"]
    game.push("m9xk11")
    assert game.board.fen == "W:Wg7:B:Ri11:Gk11"
    assert game.result is None


def test_players_out_together_share_a_place() -> None:
    # White e5 takes f6 (Black's last) and h8 (Red's last): e5xg7xi9, the majority
    # capture. Both are out with one move and share third place once Green resigns.
    game = Game("cross4", "W:We5:Bf6:Rh8:Gm9")
    game.push("e5xi9")
    assert game.board.eliminations() == [(B, R)]
    assert game.turn == G and game.board.active_players == (W, G)
    result = game.resign(G)
    assert result == Result.ranked(((W,), (G,), (B, R)), "resignation", 4)
    assert result.winner == W
    # Four places worth 3/3, 2/3, 1/3 and 0: Black and Red split 1/3.
    assert result.scores == (1.0, 1 / 6, 1 / 6, 2 / 3)
    assert result.pdn == "*" and result.ranking_text == "W, G, B=R"


# White e5 takes Black's last man (e5xg7); Red k9 then takes Green's last man (k9xm7).
TEAMS = "W:We5:Bf6:Rk9:Gl8"


def test_team_mode_the_last_team_wins() -> None:
    game = Game("cross4+teams", TEAMS)  # partners: White and Red, Black and Green
    game.push("e5xg7")
    assert game.result is None  # Green, Black's partner, is still in
    assert [m.notation for m in game.board.legal_moves] == ["k9xm7"]
    game.push("k9xm7")
    result = game.result
    assert result == Result.ranked(((W, R), (B, G)), "last team standing", 4)
    assert result.winner is None  # first place is the team's
    assert result.scores == (5 / 6, 1 / 6, 5 / 6, 1 / 6)


def test_without_teams_the_same_captures_leave_two_players() -> None:
    game = Game("cross4", TEAMS)
    game.push("e5xg7")
    game.push("k9xm7")
    assert game.result is None
    assert game.board.active_players == (W, R) and game.turn == W


def test_giveaway_the_first_player_out_wins() -> None:
    game = Game("cross4-giveaway", LAST_PIECE)
    game.push("e5xg7")
    assert game.result == Result.ranked(((B,), (W, R, G)), "out first (giveaway: no move wins)", 4)
    assert game.result.winner == B
    with pytest.raises(GameOverError):
        game.push("j12-i11")


def test_giveaway_a_resignation_still_loses() -> None:
    game = Game("cross4-giveaway", LAST_PIECE)
    assert game.resign(G) == Result.ranked(((W, B, R), (G,)), "resignation", 4)


# -- draws -------------------------------------------------------------------------------

# hex3, three kings on three corners of the hexagon: a1 and e9 face each other through
# the centre but nothing lies behind either; none attacks anything.
KINGS = "W:WKa1:BKe9:RKi5"
SHUFFLE = ["a1-b1", "e9-d9", "i5-h4", "b1-a1", "d9-e9", "h4-i5"]


def test_threefold_repetition_with_three_players() -> None:
    # The start comes back after every six plies: its third time is ply 12. (The position
    # after ply 1 first recurs at ply 7 and would be third only at ply 13.)
    game = Game("hex3", KINGS)
    play_quiet(game, SHUFFLE + SHUFFLE[:5])
    game.push(SHUFFLE[5])
    assert game.ply == 12
    assert game.result == Result.ranked(((W, B, R),), "threefold repetition", 3)
    assert game.result.scores == (0.5, 0.5, 0.5)


def test_25_quiet_rounds_of_three_players() -> None:
    # 25 rounds of three moves: 75 king moves with no capture end the game.
    game = Game("hex3", KINGS)
    line = plan(game.board, 75)
    play_quiet(game, line[:-1])
    game.push(line[-1])
    assert game.ply == 75
    reason = "25 rounds without a capture or a man move"
    assert game.result == Result.ranked(((W, B, R),), reason, 3)


def test_quiet_rounds_count_the_players_still_in() -> None:
    # Four kings; Black resigns after White's first move, which restarts the count (pieces
    # leave the board) and leaves three players: 75 more quiet moves end the game.
    game = Game("cross4", "W:WKe1:BKa9:RKj14:GKn6")
    game.push(plan(game.board, 1)[0])
    game.resign(B)
    assert game.turn == R
    line = plan(game.board, 75)
    play_quiet(game, line[:-1])
    game.push(line[-1])
    assert game.ply == 76
    reason = "25 rounds without a capture or a man move"
    assert game.result == Result.ranked(((W, R, G), (B,)), reason, 4)


def test_draw_agreed_by_every_player_still_in() -> None:
    game = Game("tripad")
    game.push(game.board.legal_moves[0])
    assert game.offer_draw(B) is None and game.draw_agreed == {B}
    assert game.accept_draw(W) is None  # Red has not agreed yet
    with pytest.raises(ValueError):
        game.accept_draw(W)  # already agreed
    assert game.accept_draw(R) == Result.ranked(((W, B, R),), "agreement", 3)


def test_a_move_by_a_player_who_has_not_agreed_declines() -> None:
    game = Game("tripad")
    game.offer_draw(W)
    game.push(game.board.legal_moves[0])  # White's own move keeps his offer
    game.accept_draw(B)
    game.push(game.board.legal_moves[0])  # Black agreed: the offer still stands
    assert game.draw_offer == W and game.draw_agreed == {W, B}
    game.push(game.board.legal_moves[0])  # Red moves instead of accepting
    assert game.draw_offer is None and game.draw_agreed == set()


def test_an_elimination_withdraws_the_offer() -> None:
    game = Game("cross4", LAST_PIECE)
    game.offer_draw(W)
    game.push("e5xg7")  # White's own move, but Black is out: the offer lapses
    assert game.draw_offer is None


def test_an_eliminated_player_has_no_say() -> None:
    game = Game("tripad")
    game.resign(B)
    with pytest.raises(ValueError, match="black is not in the game"):
        game.offer_draw(B)
    game.offer_draw(W)
    assert game.accept_draw(R) == Result.ranked(((W, R), (B,)), "agreement", 3)


# -- resignation, time, undo -------------------------------------------------------------


def test_resignation_mid_game() -> None:
    game = Game("tripad")
    game.push("Wc3-Wd4")
    assert game.turn == B
    assert game.resign(R) is None  # not his turn: Black still moves next
    assert game.turn == B and game.board.active_players == (W, B)
    assert game.board.fen.startswith("B:") and game.board.fen.endswith(":R")  # no men left
    game.push(game.board.legal_moves[0])
    assert game.turn == W  # Red is skipped
    assert game.resign(W) == Result.ranked(((B,), (W,), (R,)), "resignation", 3)
    with pytest.raises(GameOverError):
        game.resign(B)


def test_resigning_on_ones_turn_passes_it() -> None:
    game = Game("tripad")
    game.push("Wc3-Wd4")
    game.resign(B)
    assert game.turn == R
    assert [type(e).__name__ for e in game.events] == ["Move", "Forfeit"]
    assert game.events[1] == Forfeit(B, "resignation")
    assert game.ply == 1  # a forfeit is not a move


def test_undo_across_eliminations() -> None:
    game = Game("cross4", "W:We5:Bf6:Rh8:Gm9")
    start = game.board.fen
    game.push("e5xi9")  # Black and Red out
    game.resign(G)
    assert game.result is not None
    game.undo()  # Green's resignation
    assert game.result is None and game.board.active_players == (W, G) and game.turn == G
    game.undo()  # the double capture
    assert game.board.fen == start and game.board.active_players == (W, B, R, G)
    assert game.board.eliminations() == [] and game.ply == 0
    with pytest.raises(IndexError):
        game.undo()


def test_time_out_puts_the_player_out() -> None:
    clock = Clock.sudden_death(60, players=3, now=lambda: 0.0)
    game = Game("tripad", clock=clock)
    game.push("Wc3-Wd4", at=10.0)
    assert clock.running == B
    assert game.check_time(at=59.0) is None and game.turn == B
    assert game.check_time(at=70.0) is None  # Black's 60 s ran out at 70 s
    assert game.board.active_players == (W, R) and game.turn == R
    assert game.events[-1] == Forfeit(B, "time forfeit")
    assert clock.running == R and clock.remaining(R, at=70.0) == 60.0
    game.push(game.board.legal_moves[0], at=75.0)
    assert clock.running == W and clock.remaining(W, at=75.0) == 50.0


def test_a_move_after_the_flag_puts_the_mover_out() -> None:
    clock = Clock.sudden_death(60, players=3, now=lambda: 0.0)
    game = Game("tripad", clock=clock)
    with pytest.raises(GameOverError, match="white is out"):
        game.push("Wc3-Wd4", at=61.0)
    assert game.board.active_players == (B, R) and game.turn == B and game.result is None


def test_the_clock_must_time_every_player() -> None:
    with pytest.raises(ValueError, match="2 players"):
        Game("tripad", clock=Clock.sudden_death(60))


def test_adjudication_keeps_the_order_of_those_out() -> None:
    game = Game("tripad")
    game.resign(B)
    assert game.adjudicate(R).ranking == ((R,), (W,), (B,))


def test_a_player_without_pieces_at_the_start_ranks_last() -> None:
    game = Game("cross4", "W:We5:Bf6:Rj12")  # Green has nothing
    assert game.board.active_players == (W, B, R)
    game.push("e5xg7")
    assert game.resign(R) == Result.ranked(((W,), (R,), (B,), (G,)), "resignation", 4)


# -- random games ------------------------------------------------------------------------

OPTIONS = (
    "radial4+teams",
    "radial6+teams-alternate",
    "cross4-orthogonal+teams",
    "tripad+pass-when-blocked",
    "radial4+dead-pieces",
    "hex3+pieces-to-eliminator",
    "radial6+hub-opposite",
    "radial4+english-rules",
    "tripad-orthogonal+end-of-move-removal",
    "tripad-giveaway",
    "cross4-orthogonal-giveaway",
)
BOARDS = tuple(v.name for v in MULTIPLAYER) + OPTIONS


def play_random(name: str, seed: int) -> Game:
    """A game of random moves (and now and then a resignation) to its end."""
    rng = random.Random(seed)
    game = Game(name)
    while game.result is None:
        if rng.random() < 0.005:
            game.resign(rng.choice(game.board.active_players))
        else:
            game.push(rng.choice(list(game.board.legal_moves)))
    return game


def check_result(game: Game) -> None:
    result = game.result
    assert result is not None
    players = game.variant.players
    ranked = [p for place in result.ranking for p in place]
    assert sorted(ranked) == list(range(players))
    assert sum(result.scores) == pytest.approx(players / 2)
    if players == 2:
        return  # radial2: a two-player result
    first = set(result.ranking[0])
    team_of = game.variant.team_of
    shared = game.variant.giveaway and result.reason == "resignation"
    if game.board.is_game_over() and result.reason != "nobody can move" and not shared:
        if game.variant.giveaway:  # those put out first (maybe together) have won
            assert not first & set(game.board.active_players), result
        else:  # the last player or team left
            assert len({team_of[p] for p in first}) == 1, result
    else:  # a draw, or a giveaway resignation: those still in and partners share first
        teams = {team_of[p] for p in game.board.active_players}
        assert first == {p for p in range(players) if team_of[p] in teams}, result


def run_games(name: str, count: int) -> Counter[str]:
    reasons: Counter[str] = Counter()
    for seed in range(count):
        game = play_random(name, seed)
        check_result(game)
        reasons[game.result.reason if game.result else ""] += 1
    return reasons


@pytest.mark.parametrize("name", BOARDS)
def test_random_games_end_with_a_ranking(name: str) -> None:
    get_variant(name)
    assert sum(run_games(name, 8).values()) == 8


@pytest.mark.slow
@pytest.mark.parametrize("name", BOARDS)
def test_many_random_games_end_with_a_ranking(name: str) -> None:
    assert sum(run_games(name, 100).values()) == 100
