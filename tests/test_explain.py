"""The plain-words rules follow the variant description, switch by switch."""

from __future__ import annotations

from pathlib import Path

import pytest

from damier.rules import all_variants, get_variant
from damier.rules.explain import explain
from damier.rules.variant_file import load_variant_file, parse_variant_text

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "variants"


@pytest.mark.parametrize("name", [v.name for v in all_variants()])
def test_every_variant_is_explained(name: str) -> None:
    paragraphs = explain(name)
    # Multi-player boards add their players and turns, and their teams.
    assert len(paragraphs) == (10 if get_variant(name).players > 2 else 8)
    assert all(p.endswith(".") for p in paragraphs)
    assert all("  " not in p and " ." not in p for p in paragraphs)


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
        ("killer", "a king whose last capture is a king must stop directly behind it"),
        ("thai", "only on the square directly behind it"),
        ("breakthrough", "The first player to crown a king wins."),
        ("russian-giveaway", "Giveaway: a player who cannot move on his turn"),
        ("pool", "three kings v one"),
        # Multi-player boards (RULES.md 12): the board, its cells and the players.
        ("tripad", "the 48 dark cells of a radial board for three: a hexagon of three areas"),
        ("tripad", "(96 cells in all)"),
        ("radial8-orthogonal", "all 256 cells of a radial board for eight: a 16-sided polygon"),
        ("radial4", "an octagon"),
        ("radial6", "Six players, White, Black, Red, Green, Yellow and Purple, sit round"),
        ("radial4", "play in turn, clockwise; a player who is out of the game is skipped"),
        ("radial4", "rank 4 of one runs along rank 4 of the next"),
        ("radial4-orthogonal", "16 men in his own area, filling its second and third ranks"),
        ("radial2", "which together make the 8x8 board"),
        ("radial2", "Each player starts with 12 men; White moves first."),
        ("cross4", "the 80 dark squares of a cross of 160 squares"),
        ("cross4", "an 8x8 centre and four 8x3 arms, one per player"),
        ("cross4", "Forward is towards the arm across the board."),
        ("cross4", "the outer row of any other player's arm"),
        ("hex3", "all 61 cells of a hexagon of hexagonal cells"),
        ("hex3", "Each player starts with 11 men on the two rows along his own edge"),
        ("hex3", "Men step to an empty neighbouring cell ahead."),
        ("hex3", "in any of the six directions"),
        ("hex3", "the empty edge opposite its own"),
        ("hex3-orthogonal", "ahead or beside them on their row"),
        # Moves: any opponent, the majority over all of them, forward, the hub, crowning.
        ("tripad", "a piece of any opponent next to them"),
        ("tripad", "the most pieces, those of all opponents counted together"),
        ("tripad", "towards the centre in a man's own area"),
        ("tripad", "a diagonal that reaches the centre goes on into any other area"),
        ("tripad", "through the centre they go on into another area"),
        ("radial4+hub-opposite", "goes on into the opposite area only"),
        ("tripad", "the back row of any other player's area becomes a king"),
        # Elimination and its options, ranking, teams.
        ("tripad", "is out of the game, and so is a player as soon as his last piece is taken"),
        ("tripad", "His pieces leave the board; his area stays on the board"),
        ("tripad+pass-when-blocked", "A player with no legal move on his turn passes"),
        ("tripad+dead-pieces", "dead pieces: they belong to nobody, block the way"),
        ("tripad+pieces-to-eliminator", "they go to the player whose move put him out"),
        ("tripad", "ranked in the reverse order in which they went out"),
        ("tripad", "Every player plays for himself"),
        ("radial4+teams", "Team play: White and Red against Black and Green."),
        ("radial4+teams", "a piece of any opponent (never a partner's)"),
        ("radial4+teams", "The last team left wins"),
        ("radial6+teams", "three teams, White and Green; Black and Yellow; Red and Purple."),
        ("radial6+teams-alternate", "White, Red and Yellow against Black, Green and Purple"),
        ("tripad-giveaway", "the first player to be out of the game wins"),
        # Draws of RULES.md 12.2.
        ("tripad", "the same position 3 times with the same player to move and the same players"),
        ("tripad", "25 full rounds (every player still in the game moved 25 times)"),
        ("tripad", "the players still in it sharing first place"),
    ],
)
def test_the_words_follow_the_switches(name: str, phrase: str) -> None:
    assert phrase in " ".join(explain(name))


def test_giveaway_has_only_repetition() -> None:
    draws = explain("international-giveaway")[-1]
    assert "3 times with the same player to move" in draws
    assert "25-move" not in draws


def test_two_player_texts_say_nothing_of_seats() -> None:
    text = " ".join(explain("russian"))
    for words in ("opponent", "out of the game", "Team", "round", "area", "cell"):
        assert words not in text, words


def test_multiplayer_draws_without_two_sided_rules() -> None:
    draws = explain("radial8")[-1]
    assert draws.startswith("Draws: by agreement of all the players still in")
    assert "lone king" not in draws and "moves each" not in draws


def test_a_start_position_of_ones_own_is_not_described_as_the_usual_one() -> None:
    variant = parse_variant_text(
        '[variant]\nname = "x"\nbase = "radial4"\n[setup]\nfen = "W:WWa1:BBa1:RRa1,Rc1:GGa1"\n'
    )
    players = explain(variant)[1]
    assert players.endswith("White starts with 1 man, Black with 1, Red with 2 and Green with 1.")
    assert "own area" not in players
    radial5 = explain(load_variant_file(EXAMPLES / "radial5.toml"))
    assert "Five players, White, Black, Red, Green and Yellow" in radial5[1]
    assert "12 men in his own area, on the dark cells of its three ranks" in radial5[1]
    assert "a decagon of five areas" in radial5[0]
