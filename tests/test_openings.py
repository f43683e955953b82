"""Computing opening decks (damier.engine.openings)."""

from __future__ import annotations

import pytest

from damier import Board
from damier.engine import Engine
from damier.engine.openings import (
    DECKS,
    RatedOpening,
    deck_spec,
    deck_text,
    openings,
    rate_openings,
    rate_position,
)
from damier.match import OpeningDeck


def test_the_openings_of_two_and_three_moves() -> None:
    assert len(openings("english", 2)) == 49
    three = openings("english", 3)
    assert len(three) == 302 == len(set(three))
    captures = [line for line in three if "x" in line[2]]
    assert ("11-15", "22-18", "15x22") in captures and len(captures) == 11


def test_decks_by_name() -> None:
    assert deck_spec("spanish") == DECKS["spanish"]
    assert deck_spec("spanish").plies == 2 and deck_spec("spanish").keep == 43
    assert deck_spec("russian").variant == "russian"
    with pytest.raises(ValueError):
        deck_spec("no-such-variant")


def test_a_forced_move_is_played_before_the_position_is_valued() -> None:
    board = Board("english")
    for move in ("10-14", "22-17", "11-15"):
        board.push(move)
    assert len(board.legal_moves) == 1
    fen = board.fen
    value = rate_position(board, 4)
    assert board.fen == fen  # the board is given back as it came
    forced = []
    while len(board.legal_moves) == 1:  # 17x10, then Black's only recapture
        forced.append(board.legal_moves[0].notation)
        board.push(board.legal_moves[0])
    assert len(forced) == 2
    info = Engine("english").search(board, depth=4)
    assert value == (info.score if board.turn == 0 else -info.score)


def test_rated_openings_come_most_balanced_first() -> None:
    rated = rate_openings("english", depth=2)
    assert len(rated) == 49
    keys = [(abs(opening.score), opening.moves) for opening in rated]
    assert keys == sorted(keys)


def test_deck_text_is_a_deck_that_says_how_it_was_made() -> None:
    rated = [
        RatedOpening(("11-15", "23-19", "8-11"), 0),
        RatedOpening(("9-13", "22-17", "13x22"), -3),
        RatedOpening(("9-13", "22-18", "5-9"), 117),
    ]
    text = deck_text(
        "english",
        rated,
        keep=2,
        depth=6,
        plies=3,
        command="python -m damier.engine.openings english --plies 3 --depth 6",
        made="2026-11-22",
    )
    deck = OpeningDeck.parse("english-three", text)
    assert deck.variant == "english"
    assert deck.openings == (("11-15", "23-19", "8-11"), ("9-13", "22-17", "13x22"))
    assert "three-move openings" in text and "at depth 6: every opening of 3" in text
    assert "dropped 9-13 22-18 5-9 (+117)" in deck.note
    assert "kept (values -3 to +0;" in deck.note
    assert "Made on 2026-11-22." in deck.note
    assert "Regenerate: python -m damier.engine.openings english --plies 3 --depth 6" in deck.note
