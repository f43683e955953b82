"""PDN for multi-player games: a name tag per player, the Variant and FEN tags, every move
numbered, forfeits written between the moves, the result as a Ranking tag; read back and
replayed to the same game."""

from __future__ import annotations

import random

import pytest

from damier.clock import Clock
from damier.game import Forfeit, Game, Result
from damier.notation.pdn import (
    PdnError,
    dump_pdn,
    forfeit_text,
    normalised,
    parse_forfeit,
    parse_ranking,
    read_pdn,
    write_pdn,
)

W, B, R, G = 0, 1, 2, 3
NAMES = {"White": "Ann", "Black": "Bob", "Red": "Rita", "Green": "Gus"}

# cross4: White e5 takes Black's f6 and Red's h8 in one move (e5xg7xi9), then Green
# resigns: White first, Green second, Black and Red share third.
DOUBLE = """[Event "Test"]
[White "Ann"]
[Black "Bob"]
[Red "Rita"]
[Green "Gus"]
[Result "*"]
[Ranking "W, G, B=R"]
[Variant "cross4"]
[FEN "W:We5:Bf6:Rh8:Gm9"]
[Termination "resignation"]

1. e5xi9 G:resigns *
"""


def test_write_a_finished_four_player_game() -> None:
    game = Game("cross4", "W:We5:Bf6:Rh8:Gm9")
    game.push("e5xi9")
    game.resign(G)
    assert write_pdn(game, {"Event": "Test", **NAMES}) == DOUBLE


def test_read_and_replay_it() -> None:
    (record,) = read_pdn(DOUBLE)
    assert not record.errors
    assert [record.tags[t] for t in ("White", "Black", "Red", "Green")] == list(NAMES.values())
    assert record.variant().name == "cross4"
    assert [node.text for node in record.moves] == ["e5xi9", "G:resigns"]
    assert record.result == "*"
    game = record.replay()
    # The moves and the forfeit decide the game: the result is the board's, not the tag's.
    assert game.result == Result.ranked(((W,), (G,), (B, R)), "resignation", 4)
    assert game.events[1] == Forfeit(G, "resignation")
    assert dump_pdn(record) == DOUBLE


def test_every_move_has_its_number_and_forfeits_none() -> None:
    game = Game("tripad")
    game.push("Wc3-Wd4")
    game.resign(B)
    game.push("Rc3-Rb4")
    game.push("Wb2-Wc3")
    text = write_pdn(game)
    assert text.endswith("\n\n1. Wc3-Wd4 B:resigns 2. Rc3-Rb4 3. Wb2-Wc3 *\n")
    assert '[Ranking "' not in text  # the game goes on
    game = read_pdn(text)[0].replay()
    assert game.result is None and game.board.active_players == (W, R) and game.turn == R


def test_an_agreed_draw_is_read_from_the_ranking_tag() -> None:
    game = Game("tripad")
    game.push("Wc3-Wd4")
    game.offer_draw(B)
    game.accept_draw(W)
    game.accept_draw(R)
    text = write_pdn(game)
    assert '[Ranking "W=B=R"]' in text and '[Termination "agreement"]' in text
    replayed = read_pdn(text)[0].replay()
    assert replayed.result == Result.ranked(((W, B, R),), "agreement", 3)


def test_time_forfeit_word() -> None:
    clock = Clock.sudden_death(60, players=3, now=lambda: 0.0)
    game = Game("tripad", clock=clock)
    game.push("Wc3-Wd4", at=1.0)
    game.check_time(at=100.0)
    text = write_pdn(game)
    assert "1. Wc3-Wd4 B:time *" in text
    assert read_pdn(text)[0].replay().events[1] == Forfeit(B, "time forfeit")


@pytest.mark.parametrize(
    ("forfeit", "text", "reason"),
    [
        (Forfeit(B, "resignation"), "B:resigns", "resignation"),
        (Forfeit(7, "time forfeit"), "C:time", "time forfeit"),  # Cyan, the eighth player
        (Forfeit(R, "disconnected"), "R:forfeits", "forfeit"),  # other reasons: one word
    ],
)
def test_forfeit_words(forfeit: Forfeit, text: str, reason: str) -> None:
    assert forfeit_text(forfeit) == text
    assert parse_forfeit(text) == Forfeit(forfeit.player, reason)


def test_parse_ranking() -> None:
    assert parse_ranking("R, W=B", 3) == ((R,), (W, B))
    assert parse_ranking("W,B,R,G", 4) == ((W,), (B,), (R,), (G,))
    for bad in ("W, B", "W, B, B", "W, B, Q", "W, B=R, G"):
        with pytest.raises(ValueError):
            parse_ranking(bad, 3)


def test_a_wrong_ranking_tag_is_an_error() -> None:
    text = '[Variant "tripad"]\n[Ranking "W, B"]\n\n1. Wc3-Wd4 *\n'
    with pytest.raises(PdnError, match="Ranking"):
        read_pdn(text)[0].replay()


def test_moves_are_normalised() -> None:
    text = '[Variant "tripad"]\n\n1. wc3-wd4 2. b:resigns 3. rc3-rb4 *\n'
    (record,) = read_pdn(text)
    # A forfeit is written with an upper-case letter: lower case is not one.
    assert [n.text for n in record.moves] == ["wc3-wd4", "rc3-rb4"]
    assert len(record.errors) == 1 and "'b:resigns' is not a move" in str(record.errors[0])
    fixed = read_pdn(text.replace("b:resigns", "B:resigns"))[0]
    assert [n.text for n in normalised(fixed).moves] == ["Wc3-Wd4", "B:resigns", "Rc3-Rb4"]


def test_the_two_player_radial_board_keeps_two_player_pdn() -> None:
    game = Game("radial2")
    game.push("Wc3-Wd4")
    game.resign(B)
    text = write_pdn(game)
    assert text.endswith("\n\n1. Wc3-Wd4 2-0\n") and "Ranking" not in text
    assert read_pdn(text)[0].result == "2-0"


def random_game(name: str, seed: int) -> Game:
    rng = random.Random(seed)
    game = Game(name)
    while game.result is None and game.ply < 120:
        if rng.random() < 0.01:
            game.resign(rng.choice(game.board.active_players))
        else:
            game.push(rng.choice(list(game.board.legal_moves)))
    return game


@pytest.mark.parametrize(
    "name", ["tripad", "radial4-orthogonal", "cross4+teams", "hex3", "radial6+dead-pieces"]
)
def test_round_trip_of_random_games(name: str) -> None:
    for seed in range(3):
        game = random_game(name, seed)
        text = write_pdn(game, NAMES)
        (record,) = read_pdn(text)
        assert not record.errors
        replayed = record.replay()
        assert replayed.board.fen == game.board.fen
        assert replayed.events == game.events
        assert replayed.result == game.result
        assert dump_pdn(record) == text
