"""The plain-words rules follow the variant description, switch by switch."""

from __future__ import annotations

import pytest

from damier.rules import all_variants
from damier.rules.explain import explain


@pytest.mark.parametrize("name", [v.name for v in all_variants()])
def test_every_variant_is_explained(name: str) -> None:
    paragraphs = explain(name)
    assert len(paragraphs) == 8
    assert all(p.endswith(".") for p in paragraphs)


@pytest.mark.parametrize(
    ("name", "phrase"),
    [
        ("international", "the 50 dark squares of a 10x10 board"),
        ("international", "the capture that takes the most pieces"),
        ("international", "passing that row during a capture, it goes on as a man"),
        ("russian", "continues as a king"),
        ("russian", "may choose any of them"),
        ("english", "Black moves first"),
        ("english", "Kings step one square"),
        ("italian", "an enemy man (never a king)"),
        ("italian", "then the capture that meets a king first"),
        ("spanish", "near right"),
        ("turkish", "its square may be crossed again"),
        ("turkish", "may not turn back 180 degrees"),
        ("turkish", "one piece each"),
        ("dameo", "move as a line"),
        ("frisian", "a man counts 1, a king 1.99"),
        ("frisian", "at most 3 moves in a row"),
        ("killer", "a king taking a king must stop directly behind it"),
        ("thai", "only on the square directly behind it"),
        ("breakthrough", "The first player to crown a king wins."),
        ("russian-giveaway", "Giveaway: a player who cannot move on his turn"),
        ("pool", "three kings v one"),
    ],
)
def test_the_words_follow_the_switches(name: str, phrase: str) -> None:
    assert phrase in " ".join(explain(name))


def test_giveaway_has_only_repetition() -> None:
    draws = explain("international-giveaway")[-1]
    assert "3 times with the same player to move" in draws
    assert "25-move" not in draws
