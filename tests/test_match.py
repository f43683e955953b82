"""Matches and opening decks (RULES.md decision 4 and section 4)."""

from __future__ import annotations

import csv
import random
import re
from pathlib import Path

import pytest

from damier import Board
from damier.game import Result
from damier.match import (
    SINGLE_GAME,
    SPANISH_MATCH,
    VARIANT_DECKS,
    Match,
    MatchFormat,
    OpeningDeck,
    balanced_match,
)
from damier.rules import get_variant

BARRED = {
    ("9-14", "21-17"),
    ("9-14", "23-18"),
    ("10-14", "21-17"),
    ("10-14", "23-18"),
    ("11-16", "23-19"),
    ("12-16", "23-19"),
}


def test_english_two_move_deck_is_the_49_pairs_less_the_six_barred() -> None:
    deck = OpeningDeck.builtin("english-2move")
    assert deck.variant == "english" and deck.complete
    assert len(deck.openings) == 43 == len(set(deck.openings))
    assert not BARRED & set(deck.openings)
    for opening in deck.openings:  # every opening is legal from the start
        board = Board("english")
        for move in opening:
            board.push(move)
    board = Board("english")
    pairs = set()
    for first in board.legal_moves:
        board.push(first)
        pairs |= {(first.notation, reply.notation) for reply in board.legal_moves}
        board.pop()
    assert len(pairs) == 49
    assert set(deck.openings) == pairs - BARRED


def _two_move_openings(variant: str) -> set[tuple[str, str]]:
    board = Board(variant)
    pairs = set()
    for first in board.legal_moves:
        board.push(first)
        pairs |= {(first.notation, reply.notation) for reply in board.legal_moves}
        board.pop()
    return pairs


def test_spanish_deck_is_the_49_less_the_six_it_names() -> None:
    deck = OpeningDeck.builtin("spanish-2move")
    assert deck.variant == "spanish" and deck.complete
    dropped = set(re.findall(r"dropped (\S+) (\S+) \(", deck.note))
    assert len(dropped) == 6 and len(deck.openings) == 43
    assert set(deck.openings) | dropped == _two_move_openings("spanish")
    assert not dropped & set(deck.openings)


def test_russian_deck_is_the_most_balanced_half_of_the_three_move_openings() -> None:
    from damier.engine.openings import openings

    deck = OpeningDeck.builtin("russian-3move")
    assert deck.variant == "russian" and deck.complete
    dropped = set(re.findall(r"dropped (\S+) (\S+) (\S+) \(", deck.note))
    assert len(deck.openings) == 150 and len(dropped) == 152
    assert set(deck.openings) | dropped == set(openings("russian", 3))
    assert not dropped & set(deck.openings)


LOSES_A_MAN = 60
"""Hundredths of a man: an opening valued beyond this loses material, whatever the tuning
of the evaluation (the decks' exact values belong to the engine that made them)."""


def _opening_value(variant: str, moves: tuple[str, ...], depth: int) -> int:
    from damier.engine.openings import rate_position

    board = Board(variant)
    for move in moves:
        board.push(move)
    return rate_position(board, depth)


@pytest.mark.slow
def test_spanish_deck_keeps_no_opening_that_loses_a_man() -> None:
    # The two openings where White wins a man (11-15 24-20, 12-15 24-20) stay out.
    deck = OpeningDeck.builtin("spanish-2move")
    for opening in deck.openings:
        assert abs(_opening_value("spanish", opening, 12)) < LOSES_A_MAN, opening
    for moves in ("11-15 24-20", "12-15 24-20"):
        assert tuple(moves.split()) not in deck.openings
        assert _opening_value("spanish", tuple(moves.split()), 12) > LOSES_A_MAN


def _english_three_move_deck() -> OpeningDeck:
    return OpeningDeck.builtin("english-3move")


ACF_BALLOTS = Path(__file__).resolve().parent / "data" / "english-3move.tsv"
"""The ACF's list of three-move ballots with their status, the deck's source."""


def _acf_ballots() -> list[dict[str, str]]:
    lines = [line for line in ACF_BALLOTS.read_text().splitlines() if not line.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


def test_english_three_move_deck_is_the_acf_list_less_the_barred_ballots() -> None:
    deck = _english_three_move_deck()
    ballots = _acf_ballots()
    assert len(ballots) == 174 and sum(b["status"] == "barred" for b in ballots) == 18
    dealt = [b for b in ballots if b["status"] != "barred"]
    assert deck.variant == "english" and deck.complete
    assert len(deck.openings) == 156 == len(set(deck.openings))
    assert deck.openings == tuple(tuple(b["moves"].split()) for b in dealt)  # in ACF order
    for ballot in dealt:  # the ACF number and the traditional name travel with the opening
        label = f"ACF {ballot['number']} {ballot['name']}".strip()
        assert deck.label(tuple(ballot["moves"].split())) == label
    assert deck.label(("9-13", "22-18", "6-9")) == "ACF 5 Dreaded Edinburgh"
    for ballot in ballots:
        if ballot["status"] == "barred":
            assert tuple(ballot["moves"].split()) not in deck.openings
            assert f"barred: {ballot['moves']} = ACF {ballot['number']}" in deck.note


def test_english_three_move_ballots_are_legal_three_move_openings() -> None:
    from damier.engine.openings import openings

    every = set(openings("english", 3))
    for opening in _english_three_move_deck().openings:  # Black, White, Black
        assert opening in every
        board = Board("english")
        for move in opening:
            board.push(move)
        assert board.turn == 0  # White to move


def test_an_opening_without_a_name_is_labelled_by_its_moves() -> None:
    deck = OpeningDeck.parse("x", "# variant: english\n11-15 23-19\n9-13 22-18 = Double Corner\n")
    assert deck.label(("11-15", "23-19")) == "11-15 23-19"
    assert deck.label(("9-13", "22-18")) == "Double Corner"
    assert OpeningDeck.builtin("spanish-2move").labels == ()


def test_builtin_names_list_the_decks() -> None:
    names = OpeningDeck.builtin_names()
    assert {
        "english-2move",
        "english-3move",
        "international-2move",
        "russian-3move",
        "spanish-2move",
    } <= set(names)
    with pytest.raises(ValueError, match="english-3move"):
        OpeningDeck.builtin("english-4move")


@pytest.mark.parametrize(("variant", "name"), sorted(VARIANT_DECKS.items()))
def test_each_variants_deck_holds_distinct_legal_openings_of_that_variant(
    variant: str, name: str
) -> None:
    deck = OpeningDeck.builtin(name)
    assert deck.variant == variant and name in OpeningDeck.builtin_names()
    assert len(set(deck.openings)) == len(deck.openings) >= 40
    for opening in deck.openings:
        board = Board(variant)
        for move in opening:
            board.push(move)  # raises on an illegal move
        assert board.legal_moves  # the game goes on from there


def test_match_with_the_three_move_deck_starts_from_its_openings() -> None:
    deck = _english_three_move_deck()
    match = Match("english", ("A", "B"), balanced_match(8), deck, random.Random(5))
    seen = _play_out(match, [None] * 8)
    assert len(seen) == 8 and all(opening in deck.openings for _, _, opening in seen)
    assert len({opening for _, _, opening in seen}) == 4  # one per pair of games
    setup = Match("english", ("A", "B"), balanced_match(2), deck, random.Random(5)).next_game()
    assert setup is not None
    game = setup.start("english")
    assert game.ply == 3 and [move.notation for move in game.moves] == list(setup.opening)


def test_cli_match_with_the_three_move_deck(capsys: pytest.CaptureFixture[str]) -> None:
    from damier.cli import main

    args = ["match", "--variant", "english", "--engine", "damier:1", "--engine", "damier:1"]
    assert main([*args, "--games", "2", "--openings", "english-3move", "--depth", "1"]) == 0
    assert "score damier:1 - damier:1" in capsys.readouterr().out


def test_a_deck_serves_its_variant_and_that_variant_s_giveaway_form_only() -> None:
    deck = OpeningDeck.builtin("russian-3move")
    assert deck.serves(get_variant("russian"))
    assert deck.serves(get_variant("russian-giveaway"))
    assert not deck.serves(get_variant("brazilian"))
    assert not deck.serves(get_variant("english-giveaway"))


def test_unknown_and_malformed_decks_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="no opening deck"):
        OpeningDeck.builtin("nope")
    with pytest.raises(ValueError, match="variant"):
        OpeningDeck.parse("x", "11-15 23-19\n")
    with pytest.raises(ValueError, match="no openings"):
        OpeningDeck.parse("x", "# variant: english\n")


def _play_out(match: Match, winners: list[int | None]) -> list[tuple[str, str, tuple[str, ...]]]:
    """Record the given winners (0 White, 1 Black, None draw) until the match ends."""
    seen = []
    for winner in winners:
        setup = match.next_game()
        if setup is None:
            break
        setup.start(match.variant)  # the opening is legal
        seen.append((setup.white, setup.black, setup.opening))
        match.record(setup, Result(winner, "test"))
    return seen


def test_spanish_match_alternates_colours_and_shares_one_opening() -> None:
    deck = OpeningDeck.builtin("spanish-2move")
    match = Match("spanish", ("Ana", "Ben"), SPANISH_MATCH, deck, random.Random(7))
    seen = _play_out(match, [0, 0, None, 1])
    assert [(w, b) for w, b, _ in seen] == [
        ("Ana", "Ben"),
        ("Ben", "Ana"),
        ("Ana", "Ben"),
        ("Ben", "Ana"),
    ]
    assert seen[0][2] == seen[1][2] == ()
    assert seen[2][2] == seen[3][2] != ()
    # Ana: win, loss, draw, win as Black in game 4 -> 2.5; Ben 1.5.
    assert match.scores == {"Ana": 2.5, "Ben": 1.5}
    assert match.finished and match.winner == "Ana"


def test_spanish_match_ends_after_three_games_at_two_and_a_half() -> None:
    deck = OpeningDeck.builtin("spanish-2move")
    match = Match("spanish", ("Ana", "Ben"), SPANISH_MATCH, deck, random.Random(1))
    # Ana wins game 1 (White), Ana wins game 2 (Black), draw in game 3: 2.5 to 0.5.
    seen = _play_out(match, [0, 1, None, 0])
    assert len(seen) == 3
    assert match.scores == {"Ana": 2.5, "Ben": 0.5}
    assert match.finished and match.next_game() is None and match.winner == "Ana"


def test_match_does_not_end_while_the_result_can_change() -> None:
    deck = OpeningDeck.builtin("spanish-2move")
    match = Match("spanish", ("Ana", "Ben"), SPANISH_MATCH, deck, random.Random(1))
    _play_out(match, [0, 1])  # Ana 2, Ben 0, two games left: Ben can still tie
    assert not match.finished


def test_balanced_match_plays_each_opening_with_both_colours() -> None:
    deck = OpeningDeck.builtin("english-2move")
    match = Match("english", ("A", "B"), balanced_match(6), deck, random.Random(3))
    seen = _play_out(match, [None] * 6)
    assert len(seen) == 6
    for first, second in zip(seen[::2], seen[1::2], strict=True):
        assert first[2] == second[2]
        assert (first[0], first[1]) == (second[1], second[0])
    assert match.finished and match.winner is None


def test_losing_mode_plays_the_giveaway_variant() -> None:
    match = Match(
        "spanish",
        ("A", "B"),
        balanced_match(2, losing=True),
        OpeningDeck.builtin("spanish-2move"),
        random.Random(2),
    )
    assert match.variant.name == "spanish-giveaway"
    game = match.next_game()
    assert game is not None and game.start(match.variant).variant.giveaway


def test_single_game_and_record_order() -> None:
    match = Match("russian", ("A", "B"), SINGLE_GAME)
    setup = match.next_game()
    assert setup is not None and setup.opening == ()
    with pytest.raises(ValueError, match="not the next game"):
        match.record(type(setup)(5, "A", "B", ()), Result(0, "test"))
    match.record(setup, Result(1, "test"))
    assert match.finished and match.winner == "B"


def test_a_format_with_openings_needs_a_deck() -> None:
    with pytest.raises(ValueError, match="deck"):
        Match("spanish", ("A", "B"), SPANISH_MATCH)


def test_a_match_is_restored_from_its_results() -> None:
    """A server keeps only the games played: a match built again from them goes on with the
    same colours and, for the second game of a pair, the same opening."""
    deck = OpeningDeck.builtin("spanish-2move")
    match = Match("spanish", ("A", "B"), SPANISH_MATCH, deck, random.Random(3))
    for _ in range(3):
        setup = match.next_game()
        assert setup is not None
        match.record(setup, Result(None, "agreement"))
    restored = Match(
        "spanish", ("A", "B"), SPANISH_MATCH, deck, random.Random(99), list(match.results)
    )
    last = restored.next_game()
    assert last is not None and last.number == 3
    assert (last.white, last.black) == ("B", "A")
    assert last.opening == match.results[2][0].opening != ()


def test_the_schedule_is_the_games_next_game_gives_one_by_one() -> None:
    """Drawn in advance (games played at once), the games are those of a match played one
    by one: the same colours, the same openings, a pair's second game the first's."""
    deck = OpeningDeck.builtin("russian-3move")
    played_out = MatchFormat(games=8, opening_games=tuple(range(8)), stop_when_decided=False)
    one_by_one = Match("russian", ("A", "B"), played_out, deck, random.Random(7))
    setups = []
    while (setup := one_by_one.next_game()) is not None:
        setups.append(setup)
        one_by_one.record(setup, Result(None, "agreement"))
    scheduled = Match("russian", ("A", "B"), played_out, deck, random.Random(7))
    assert scheduled.schedule() == setups
    assert setups[0].opening == setups[1].opening != setups[2].opening
    # A match half played schedules the rest.
    half = Match("russian", ("A", "B"), played_out, deck, random.Random(7))
    half.results = [(setup, Result(None, "agreement")) for setup in setups[:3]]
    assert [s.number for s in half.schedule()] == [3, 4, 5, 6, 7]
    assert half.schedule()[0].opening == setups[2].opening  # the pair's second game
    with pytest.raises(ValueError, match="stops once decided"):
        Match("spanish", ("A", "B"), SPANISH_MATCH, OpeningDeck.builtin("spanish-2move")).schedule()
