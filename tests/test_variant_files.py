"""User-defined variants in TOML files (damier.rules.variant_file).

The proof that the format can say everything the built-ins say: each built-in variant,
written out with ``variant_to_toml`` and read back, has the same rules and the same perft.
"""

from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path

import pytest

from damier import Board, Variant, all_variants, get_variant
from damier.rules import draws
from damier.rules.variant_file import (
    VariantFileError,
    load_variant_file,
    parse_variant_text,
    variant_to_toml,
)

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "variants"

NOT_RULES = {"name", "title", "summary", "aliases", "options"}
RULE_FIELDS = [field.name for field in dataclasses.fields(Variant) if field.name not in NOT_RULES]

EXTRA_FORMS = [
    "international-giveaway",
    "russian-giveaway",
    "english-giveaway",
    "turkish-giveaway",
    "italian+dark-first",
    "thai+twelve-men",
    "frisian+any-king",
    "turkish+king-beats-man",  # draw rules that are no named set: written rule by rule
    # Multi-player options: teams, elimination, the hub, and a multi-player giveaway.
    "radial4+teams",
    "radial6+teams-alternate",
    "radial8+hub-opposite",
    "cross4+dead-pieces",
    "tripad-orthogonal+pass-when-blocked",
    "hex3+pieces-to-eliminator",
    "tripad-giveaway",
]
VARIANTS = [*all_variants(), *(get_variant(name) for name in EXTRA_FORMS)]
FAST_DEPTH = {"dameo": 4}  # Dameo's line moves make depth 5 ~275 million leaves


def _id(variant: Variant) -> str:
    return variant.name


def _round_trip(variant: Variant) -> Variant:
    """``variant`` written to a file and read back, under another name so that nothing
    compiled for the built-in (the kernel caches its tables per variant) is reused."""
    text = re.sub(r'(?m)^name = "(.*)"$', r'name = "\1-from-file"', variant_to_toml(variant))
    return parse_variant_text(text, source=f"{variant.name}.toml")


def _rule_differences(one: Variant, other: Variant) -> list[str]:
    return [name for name in RULE_FIELDS if getattr(one, name) != getattr(other, name)]


def _perfts(variant: Variant, depth: int) -> list[int]:
    board = Board(variant)
    return [board.perft(d, "drop") for d in range(1, depth + 1)]


# --------------------------------------------------------------------------- built-ins


@pytest.mark.parametrize("builtin", VARIANTS, ids=_id)
def test_builtin_round_trips_with_the_same_rules(builtin: Variant) -> None:
    loaded = _round_trip(builtin)
    assert _rule_differences(loaded, builtin) == []
    assert loaded.first_player == builtin.first_player

    # Every switch is written: the text of the loaded variant is the same file.
    def unnamed(text: str) -> str:
        return re.sub(r'(?m)^name = ".*"$', "", text)

    assert unnamed(variant_to_toml(loaded)) == unnamed(variant_to_toml(builtin))


@pytest.mark.parametrize("builtin", VARIANTS, ids=_id)
def test_builtin_round_trips_with_the_same_perft(builtin: Variant) -> None:
    loaded = _round_trip(builtin)
    assert loaded != builtin and loaded.name.endswith("-from-file")
    depth = FAST_DEPTH.get(builtin.name.split("+")[0].removesuffix("-giveaway"), 5)
    assert _perfts(loaded, depth) == _perfts(builtin, depth)


@pytest.mark.slow
@pytest.mark.parametrize("builtin", VARIANTS, ids=_id)
def test_builtin_round_trips_with_the_same_perft_depth_5(builtin: Variant) -> None:
    loaded = _round_trip(builtin)
    assert Board(loaded).perft(5, "drop") == Board(builtin).perft(5, "drop")


def test_export_is_a_complete_file() -> None:
    text = variant_to_toml(get_variant("russian"))
    for key in (
        "width",
        "height",
        "squares",
        "numbering",
        "fen",
        "first_player",
        "range",
        "landing",
        "stop_behind_king",
        "max_consecutive_moves",
        "counted_moves",
        "choice",
        "removal",
        "no_reversal",
        "men_capture_kings",
        "king_order_matters",
        "promotion",
        "rules",
        "giveaway",
        "line_moves",
        "topology",
        "players",
        "corner",
    ):
        assert re.search(rf"^{key} = ", text, flags=re.MULTILINE), key
    assert "[multiplayer]" not in text and "hub_opposite" not in text
    radial = variant_to_toml(get_variant("radial4+teams"))
    for key in ("topology", "players", "squares", "hub_opposite", "teams", "when_blocked"):
        assert re.search(rf"^{key} = ", radial, flags=re.MULTILINE), key
    # A radial board's size and names follow from its topology: no width, no numbering.
    assert not re.search(r"^(width|height|numbering|corner) = ", radial, flags=re.MULTILINE)
    assert 'teams = [["white", "red"], ["black", "green"]]' in radial
    assert 'rules = "multiplayer"' in radial
    turkish = variant_to_toml(get_variant("turkish+king-beats-man"))
    assert 'kind = "bare-material"' in turkish and "king_beats_man = true" in turkish
    assert 'name = "turkish-king-beats-man"' in turkish  # "+" is not allowed in a name


# --------------------------------------------------------------------------- the format


def test_base_keeps_every_switch_the_file_does_not_set() -> None:
    variant = parse_variant_text(
        """
        [variant]
        name = "pool-short"
        base = "pool"
        [kings]
        range = "short"
        """
    )
    assert _rule_differences(variant, get_variant("pool")) == ["king_range", "pdn_game_type"]
    assert variant.pdn_game_type is None  # the rules changed: not APCA's game type any more
    assert variant.title == "pool-short" and variant.aliases == () and variant.options == ()


def test_first_player_rewrites_the_base_start_position() -> None:
    variant = parse_variant_text(
        '[variant]\nname = "italian-black"\nbase = "italian"\n[setup]\nfirst_player = "black"\n'
    )
    assert _rule_differences(variant, get_variant("italian+dark-first")) == ["pdn_game_type"]
    assert variant.first_player == 1


def test_giveaway_without_draws_plays_repetition_only() -> None:
    variant = parse_variant_text(
        '[variant]\nname = "poddavki"\nbase = "russian"\n[goal]\ngiveaway = true\n'
    )
    assert variant.giveaway and variant.draw_rules == draws.REPETITION_ONLY
    assert _rule_differences(variant, get_variant("russian-giveaway")) == []


def test_limit_on_consecutive_king_moves() -> None:
    variant = parse_variant_text(
        '[variant]\nname = "x"\nbase = "russian"\n[kings]\nmax_consecutive_moves = 3\n'
    )
    assert _rule_differences(variant, get_variant("russian")) == [
        "max_consecutive_king_moves",
        "pdn_game_type",
    ]
    assert variant.max_consecutive_king_moves == 3 and variant.counted_king_moves == "same-king"
    frisian = parse_variant_text(
        '[variant]\nname = "x"\nbase = "frisian"\n[kings]\ncounted_moves = "any-king"\n'
    )
    assert _rule_differences(frisian, get_variant("frisian+any-king")) == ["pdn_game_type"]


def test_direction_shorthands() -> None:
    variant = parse_variant_text(
        '[variant]\nname = "x"\nbase = "turkish"\n[kings]\nmoves = ["orthogonal", "diagonal"]\n'
    )
    assert variant.king_moves == get_variant("dameo").king_moves


def test_explicit_draw_rules() -> None:
    variant = parse_variant_text(
        """
        [variant]
        name = "x"
        base = "international"
        [[draws.rule]]
        kind = "repetition"
        [[draws.rule]]
        kind = "endgame"
        limit = 10
        strong = [[2, 0], [1, 1]]
        [[draws.rule]]
        kind = "stable-material"
        plies_by_pieces = [[4, 5, 60]]
        """
    )
    assert variant.draw_rules == (
        draws.Repetition(),
        draws.Endgame(reason="endgame rule", limit=10, strong=frozenset({(2, 0), (1, 1)})),
        draws.StableMaterial(reason="unchanged material", plies_by_pieces=((4, 5, 60),)),
    )


def test_wide_algebraic_board_names_the_k_file() -> None:
    """FEN tells a man on k2 from a king (Kk2): algebraic boards may be 16 files wide."""
    variant = parse_variant_text(
        '[variant]\nname = "x"\nbase = "turkish"\n[board]\nwidth = 12\nheight = 12\n'
        '[setup]\nfen = "W:Wk2,l2,Kk5:Bb11,a10"\n'
    )
    board = Board(variant)
    assert board.fen == "W:Wk2,l2,Kk5:Ba10,b11"
    assert {"k2-j2", "l2-l3", "k5-k9"} <= {move.notation for move in board.legal_moves}


# --------------------------------------------------------------------------- multi-player


# The dark cells of ranks 1-3 of each area: 12 men each (RULES.md 12.2, setup A).
_STANDARD_SQUARES = ("a1", "c1", "e1", "g1", "b2", "d2", "f2", "h2", "a3", "c3", "e3", "g3")
RADIAL5_FEN = "W:" + ":".join(
    letter + ",".join(letter + square for square in _STANDARD_SQUARES) for letter in "WBRGY"
)


def test_radial_board_from_a_two_player_base() -> None:
    """International rules on the tripad: the size and names follow from the topology, and
    the draws become RULES.md 12.2's (a 2-player base's endgame rules do not apply)."""
    variant = parse_variant_text(
        f"""
        [variant]
        name = "x"
        base = "international"
        [board]
        topology = "radial"
        players = 3
        [setup]
        fen = "{get_variant("tripad").start_fen}"
        """
    )
    assert _rule_differences(variant, get_variant("tripad")) == []
    assert (variant.width, variant.height) == (8, 4)


def test_radial_board_with_fewer_players() -> None:
    variant = parse_variant_text(
        '[variant]\nname = "x"\nbase = "radial4"\n[board]\nplayers = 2\n'
        f'[setup]\nfen = "{get_variant("radial2").start_fen}"\n'
    )
    assert _rule_differences(variant, get_variant("radial2")) == []


def test_teams_by_name_in_any_order() -> None:
    variant = parse_variant_text(
        '[variant]\nname = "x"\nbase = "radial4"\n'
        '[multiplayer]\nteams = [["green", "black"], ["red", "white"]]\n'
    )
    assert variant.teams == ((0, 2), (1, 3))
    assert _rule_differences(variant, get_variant("radial4+teams")) == []
    six = parse_variant_text(
        '[variant]\nname = "x"\nbase = "radial6"\n[multiplayer]\n'
        'teams = [["white", "red", "yellow"], ["black", "green", "purple"]]\n'
    )
    assert _rule_differences(six, get_variant("radial6+teams-alternate")) == []


def test_elimination_switches() -> None:
    variant = parse_variant_text(
        '[variant]\nname = "x"\nbase = "cross4"\n'
        '[multiplayer]\nwhen_blocked = "pass"\nleftovers = "dead"\n'
    )
    assert _rule_differences(variant, get_variant("cross4+dead-pieces")) == ["when_blocked"]
    assert variant.when_blocked == "pass"


def test_quiet_rounds_rule() -> None:
    variant = parse_variant_text(
        '[variant]\nname = "x"\nbase = "tripad"\n'
        '[[draws.rule]]\nkind = "repetition"\n[[draws.rule]]\nkind = "quiet-rounds"\nrounds = 25\n'
    )
    assert variant.draw_rules == draws.MULTIPLAYER
    assert variant_to_toml(variant).count('rules = "multiplayer"') == 1


def test_two_player_rules_of_a_multiplayer_base_are_reset() -> None:
    """Elimination switches inherited from a multi-player base mean nothing for two."""
    variant = parse_variant_text(
        '[variant]\nname = "x"\nbase = "radial4+dead-pieces"\n[board]\nplayers = 2\n'
        f'[setup]\nfen = "{get_variant("radial2").start_fen}"\n'
    )
    assert variant.leftovers == "removed"
    assert _rule_differences(variant, get_variant("radial2")) == []


# --------------------------------------------------------------------------- examples


def test_example_russian_short_kings() -> None:
    variant = load_variant_file(EXAMPLES / "russian-short-kings.toml")
    assert variant.name == "russian-short-kings"
    assert _rule_differences(variant, get_variant("russian")) == ["king_range", "pdn_game_type"]
    board = Board(variant)
    assert len(board.legal_moves) == 7  # the Russian opening moves
    assert board.perft(3) > 0
    # A king in the centre steps to its four neighbours instead of flying.
    assert len(Board(variant, "W:WK22:B1").legal_moves) == 4
    assert len(Board("russian", "W:WK22:B1").legal_moves) > 4


def test_example_mini_written_from_scratch() -> None:
    variant = load_variant_file(EXAMPLES / "mini.toml")
    assert (variant.name, variant.width, variant.height) == ("mini", 6, 6)
    assert variant.draw_rules == (
        draws.Repetition(),
        draws.QuietMoves(plies=30, reason="15-move rule"),
    )
    board = Board(variant)
    # White's front men 13, 14, 15: two diagonal steps each, except 15 on the edge.
    assert sorted(move.notation for move in board.legal_moves) == [
        "13-10",
        "13-11",
        "14-11",
        "14-12",
        "15-12",
    ]
    assert board.perft(3) > 0


def test_example_radial5_plays() -> None:
    """A five-player radial board: no built-in has it, but the file needs no code."""
    variant = load_variant_file(EXAMPLES / "radial5.toml")
    assert (variant.name, variant.players, variant.topology) == ("radial5", 5, "radial")
    assert variant.pieces_per_player == (12,) * 5
    assert _rule_differences(variant, get_variant("tripad")) == ["start_fen", "players"]
    assert variant.start_fen == RADIAL5_FEN
    board = Board(variant)
    # Each player has the seven opening moves of the 8x8 board, whoever moved before.
    assert [board.perft(depth, "drop") for depth in (1, 2)] == [7, 49]
    rng = random.Random(5)
    for _ in range(3):
        board = Board(variant)
        while not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
            assert len(board.move_stack) < 2000
        assert len(board.active_players) == 1
        places = board.ranking()
        assert sorted(p for place in places for p in place) == [0, 1, 2, 3, 4]
        assert Board(variant, board.fen).fen == board.fen


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.toml")), ids=lambda path: path.stem)
def test_every_example_loads_and_plays(path: Path) -> None:
    board = Board(load_variant_file(path))
    assert board.perft(3) > 0


# --------------------------------------------------------------------------- errors

RUSSIAN_HEAD = '[variant]\nname = "x"\nbase = "russian"\n'
RADIAL_HEAD = '[variant]\nname = "x"\nbase = "radial4"\n'

MALFORMED = {
    "unknown key": (
        RUSSIAN_HEAD + '[kings]\nrnage = "short"\n',
        5,
        'unknown key "rnage" in [kings] (did you mean "range"?)',
    ),
    "unknown table": (
        RUSSIAN_HEAD + '\n[king]\nrange = "short"\n',
        5,
        "unknown table [king]",
    ),
    "key outside a table": ('width = 8\n[variant]\nname = "x"\n', 1, 'unknown key "width"'),
    "wrong type": (
        RUSSIAN_HEAD + '[board]\nwidth = "10"\n',
        5,
        '[board] width must be a whole number, not the string "10"',
    ),
    "boolean for a number": (RUSSIAN_HEAD + "[board]\nheight = true\n", 5, "whole number"),
    "number for a boolean": (RUSSIAN_HEAD + "[hooks]\nline_moves = 1\n", 5, "true or false"),
    "table expected": ('kings = 3\n[variant]\nname = "x"\n', 1, "[kings] must be a table"),
    "unknown direction": (
        RUSSIAN_HEAD + '[men]\nmoves = [\n  "forward-diagonal",\n  "diagonal-forward",\n]\n',
        5,
        'unknown "diagonal-forward" in [men] moves',
    ),
    "direction twice": (
        RUSSIAN_HEAD + '[men]\ncaptures = ["forward", "forward"]\n',
        5,
        '"forward" is listed twice',
    ),
    "unknown enum value": (
        RUSSIAN_HEAD + '[kings]\nrange = "long"\n',
        5,
        '[kings] range must be one of "short", "flying", not "long"',
    ),
    "negative king move limit": (
        RUSSIAN_HEAD + "[kings]\nmax_consecutive_moves = -1\n",
        5,
        "[kings] max_consecutive_moves must be at least 0, not -1",
    ),
    "unknown counted king moves": (
        RUSSIAN_HEAD + '[kings]\ncounted_moves = "each-king"\n',
        5,
        '[kings] counted_moves must be one of "same-king", "any-king", not "each-king"',
    ),
    "unknown choice": (
        RUSSIAN_HEAD + '[capture]\nchoice = ["most-men"]\n',
        5,
        'unknown "most-men" in [capture] choice',
    ),
    "board too large": (
        RUSSIAN_HEAD + "[board]\nwidth = 20\nheight = 20\n",
        5,
        "[board] width must be between 2 and 16, not 20",
    ),
    "board too small": (RUSSIAN_HEAD + "[board]\nheight = 1\n", 5, "between 2 and 16"),
    "FEN piece off the board": (
        '[variant]\nname = "x"\nbase = "turkish"\n[setup]\nfen = "W:Wa2,i9:Ba7"\n',
        5,
        "[setup] fen does not fit the board",
    ),
    "FEN with more squares than the board": (
        RUSSIAN_HEAD + '[setup]\nfen = "W:W21-40:B1-12"\n',
        5,
        "square 33 in the W pieces does not exist: this board has squares 1-32",
    ),
    "base start position on a smaller board": (
        RUSSIAN_HEAD + "[board]\nwidth = 6\nheight = 6\n",
        4,
        "the start position of russian (W:W21-32:B1-12) does not fit this board",
    ),
    "man on its crowning row": (
        RUSSIAN_HEAD + '[setup]\nfen = "W:W1,21-32:B5-12"\n',
        5,
        "stands on its crowning row",
    ),
    "a side without pieces": (
        RUSSIAN_HEAD + '[setup]\nfen = "W:W21-32"\n',
        5,
        "gives B (black) no pieces",
    ),
    "first player against the FEN": (
        RUSSIAN_HEAD + '[setup]\nfen = "W:W21-32:B1-12"\nfirst_player = "black"\n',
        5,
        'fen starts with W but first_player is "black"',
    ),
    "bad TOML syntax": (RUSSIAN_HEAD + "[kings]\nrange = short\n", 5, "not valid TOML"),
    "unclosed list": (RUSSIAN_HEAD + '[men]\nmoves = ["forward"\n', 5, "not valid TOML"),
    "key given twice": (
        RUSSIAN_HEAD + '[kings]\nrange = "short"\nrange = "flying"\n',
        6,
        "not valid TOML",
    ),
    "unknown base": ('[variant]\nname = "x"\nbase = "nonesuch"\n', 3, "unknown variant 'nonesuch'"),
    "no name": (
        '[variant]\nbase = "russian"\n',
        1,
        '[variant] needs name, e.g. name = "my-variant"',
    ),
    "name with a plus": ('[variant]\nname = "a+b"\nbase = "russian"\n', 2, "lower-case letters"),
    "missing switches without a base": (
        '[variant]\nname = "x"\n[board]\nwidth = 8\nheight = 8\n',
        1,
        "without a base variant the file must set [board] squares, [board] numbering, "
        "[setup] fen, [men] moves, [men] captures",
    ),
    "unknown draw set": (
        RUSSIAN_HEAD + '[draws]\nrules = "fide"\n',
        5,
        '[draws] rules must be one of "fmjd"',
    ),
    "single draw rule table": (
        RUSSIAN_HEAD + '[draws.rule]\nkind = "repetition"\n',
        4,
        "write each draw rule as a [[draws.rule]] table (double brackets)",
    ),
    "unknown draw rule kind": (
        RUSSIAN_HEAD + '[[draws.rule]]\nkind = "repetition"\n[[draws.rule]]\nkind = "quiet"\n',
        7,
        '[[draws.rule]] #2 kind must be one of "repetition"',
    ),
    "draw rule kind that looks like a placeholder": (
        RUSSIAN_HEAD + '[[draws.rule]]\nkind = "{where}"\n',
        5,
        '[[draws.rule]] #1 kind must be one of "repetition"',
    ),
    "draw rule without its count": (
        RUSSIAN_HEAD + '[[draws.rule]]\nkind = "quiet-moves"\n',
        4,
        "a quiet-moves rule needs plies",
    ),
    "unknown draw rule key": (
        RUSSIAN_HEAD + '[[draws.rule]]\nkind = "quiet-moves"\nply = 3\n',
        6,
        'unknown key "ply" in [[draws.rule]] #1',
    ),
    # Multi-player boards (RULES.md 12).
    "unknown topology": (
        RUSSIAN_HEAD + '[board]\ntopology = "triangle"\n',
        5,
        '[board] topology must be one of "square", "radial", "hex", not "triangle"',
    ),
    "nine players": (
        RADIAL_HEAD + "[board]\nplayers = 9\n",
        5,
        "[board] players must be between 2 and 8, not 9",
    ),
    "one player": (RADIAL_HEAD + "[board]\nplayers = 1\n", 5, "between 2 and 8, not 1"),
    "three players on a square board": (
        RUSSIAN_HEAD + "[board]\nplayers = 3\n",
        5,
        "a square board seats 2 players, or 4",
    ),
    "hex board for the inherited four players": (
        RADIAL_HEAD + '[board]\ntopology = "hex"\n',
        5,
        "the hexagonal board seats 3 players, not 4",
    ),
    "hex board not on all cells": (
        '[variant]\nname = "x"\nbase = "hex3"\n[board]\nsquares = "dark"\n',
        5,
        'the hexagonal board is played on all its cells: squares = "all"',
    ),
    "width of a radial board": (
        RADIAL_HEAD + "[board]\nplayers = 4\nwidth = 8\n",
        6,
        "[board] width is for square boards only: a radial board is made of one 8x4 area",
    ),
    "corner of a radial board": (
        RADIAL_HEAD + "[board]\ncorner = 3\n",
        5,
        "[board] corner is for square boards only",
    ),
    "numbering of the hexagon": (
        '[variant]\nname = "x"\nbase = "hex3"\n[board]\nnumbering = "row-by-row"\n',
        5,
        "[board] numbering is for square boards only: the hexagonal board has 61 cells",
    ),
    "corner cutting the whole board": (
        RUSSIAN_HEAD + "[board]\ncorner = 4\n",
        5,
        "[board] corner = 4 cuts away a whole 8x8 board",
    ),
    "negative corner": (RUSSIAN_HEAD + "[board]\ncorner = -1\n", 5, "at least 0, not -1"),
    "hub on a square board": (
        RUSSIAN_HEAD + "[board]\nhub_opposite = true\n",
        5,
        "[board] hub_opposite is for radial boards only",
    ),
    "hub on an orthogonal radial board": (
        '[variant]\nname = "x"\nbase = "radial4-orthogonal"\n[board]\nhub_opposite = true\n',
        5,
        "[board] hub_opposite needs diagonal play",
    ),
    "mirrored radial board": (
        RADIAL_HEAD + '[board]\nsquares = "mirrored"\n',
        5,
        'not on "mirrored" ones',
    ),
    "orthogonal men on a dark radial board": (
        RADIAL_HEAD + '[men]\nmoves = ["forward", "sideways"]\n',
        5,
        '[men] moves lists "forward", "sideways", but a radial board has no ranks or files',
    ),
    "inherited diagonal men on an orthogonal radial board": (
        RADIAL_HEAD + '[board]\nsquares = "all"\n',
        5,  # the men's directions come from the base: the line of [board] squares
        'lists "forward-diagonal", but a radial board has no diagonals',
    ),
    "only diagonals on the hexagon": (
        '[variant]\nname = "x"\nbase = "hex3"\n[kings]\ncaptures = ["diagonal"]\n',
        5,
        "but the hexagonal board has no diagonals",
    ),
    "unknown player in a team": (
        RADIAL_HEAD + '[multiplayer]\nteams = [["white", "pink"], ["black", "green"]]\n',
        5,
        'unknown "pink" in [multiplayer] teams',
    ),
    "team as a name": (
        RADIAL_HEAD + '[multiplayer]\nteams = ["white", "red"]\n',
        5,
        "[multiplayer] teams must be a list of teams, each a list of player names",
    ),
    "team member not at the board": (
        RADIAL_HEAD + '[multiplayer]\nteams = [["white", "red"], ["black", "yellow"]]\n',
        5,
        "yellow is in a team, but only 4 players sit at this board",
    ),
    "player in two teams": (
        RADIAL_HEAD + '[multiplayer]\nteams = [["white", "red"], ["black", "white"]]\n',
        5,
        "white is in two teams",
    ),
    "player in no team": (
        RADIAL_HEAD + '[multiplayer]\nteams = [["white", "red"]]\n',
        5,
        "teams must take in every player; black, green are in no team",
    ),
    "teams of unequal size": (
        '[variant]\nname = "x"\nbase = "radial6"\n[multiplayer]\n'
        'teams = [["white", "black", "red", "green"], ["yellow", "purple"]]\n',
        5,
        "teams must be two or more teams of the same size",
    ),
    "one team of everybody": (
        RADIAL_HEAD + '[multiplayer]\nteams = [["white", "black", "red", "green"]]\n',
        5,
        "teams must be two or more teams of the same size",
    ),
    "inherited teams that no longer fit": (
        '[variant]\nname = "x"\nbase = "radial4+teams"\n[board]\nplayers = 6\n',
        5,
        "teams must take in every player; yellow, purple are in no team",
    ),
    "multiplayer table for two players": (
        RUSSIAN_HEAD + '[multiplayer]\nwhen_blocked = "pass"\n',
        4,
        "[multiplayer] is for games of 3 or more players; this board seats 2",
    ),
    "unknown blocked rule": (
        RADIAL_HEAD + '[multiplayer]\nwhen_blocked = "skip"\n',
        5,
        '[multiplayer] when_blocked must be one of "eliminated", "pass", not "skip"',
    ),
    "unknown leftovers": (
        RADIAL_HEAD + '[multiplayer]\nleftovers = "neutral"\n',
        5,
        '[multiplayer] leftovers must be one of "removed", "dead", "to-eliminator"',
    ),
    "two-sided draw set for four players": (
        RADIAL_HEAD + '[draws]\nrules = "fmjd"\n',
        5,
        'the draw rule "16-move rule" weighs one side against the other',
    ),
    "two-sided draw rule for four players": (
        RADIAL_HEAD + '[[draws.rule]]\nkind = "repetition"\n'
        '[[draws.rule]]\nkind = "bare-material"\n',
        6,
        "so it is for two players only, not 4",
    ),
    "inherited two-sided draws for three players": (
        RUSSIAN_HEAD + '[board]\ntopology = "radial"\nplayers = 3\n[draws]\nrules = "fmjd64"\n',
        8,
        "weighs one side against the other",
    ),
    "quiet rounds without a count": (
        RADIAL_HEAD + '[[draws.rule]]\nkind = "quiet-rounds"\n',
        4,
        "a quiet-rounds rule needs rounds",
    ),
    "first player not at the board": (
        RUSSIAN_HEAD + '[setup]\nfirst_player = "red"\n',
        5,
        '[setup] first_player must be one of "white", "black", not "red"',
    ),
    "side to move not at the board": (
        RADIAL_HEAD + '[setup]\nfen = "Y:WWa1:BBa1:RRa1:GGa1"\n',
        5,
        "[setup] fen must start with the side to move, W:, B:, R: or G:",
    ),
    "dead pieces in a start position": (
        RADIAL_HEAD + '[setup]\nfen = "W:WWa1:BBa1:RRa1:GGa1:XWc1"\n',
        5,
        "a start position holds only the side to move and the pieces of W, B, R or G",
    ),
    "a player without pieces": (
        RADIAL_HEAD + '[setup]\nfen = "W:WWa1:BBa1:RRa1"\n',
        5,
        "the start position gives G (green) no pieces",
    ),
    "more players, the base's start position": (
        '[variant]\nname = "x"\nbase = "tripad"\n[board]\nplayers = 5\n',
        4,
        "gives G (green) no pieces (it is tripad's); give it with [setup] fen",
    ),
    "radial square name on a square board": (
        RUSSIAN_HEAD + '[setup]\nfen = "W:WWa1:Bb8"\n',
        5,
        "[setup] fen does not fit the board",
    ),
}


@pytest.mark.parametrize("case", MALFORMED, ids=list(MALFORMED))
def test_malformed_file_is_rejected_with_line_and_reason(case: str) -> None:
    text, line, reason = MALFORMED[case]
    with pytest.raises(VariantFileError) as caught:
        parse_variant_text(text, source="bad.toml")
    error = caught.value
    assert isinstance(error, ValueError)
    assert error.line == line
    assert str(error).startswith(f"bad.toml, line {line}")
    assert reason in str(error)


def test_file_without_a_variant_table() -> None:
    with pytest.raises(VariantFileError, match=r"needs a \[variant\] table"):
        parse_variant_text("", source="empty.toml")


def test_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(VariantFileError, match="cannot read the file"):
        load_variant_file(tmp_path / "missing.toml")
    latin1 = tmp_path / "latin1.toml"
    latin1.write_bytes(b'[variant]\nname = "x"\ntitle = "Dedi\xe6"\n')
    with pytest.raises(VariantFileError, match=r"line 3: the file is not UTF-8"):
        load_variant_file(latin1)


WRONG_VALUES = [
    *("1", "-1", "99", "1.5", "true", '"x"', '"W:W1"', "[]", '["x"]', "[1]", "{}"),
    *("1979-05-27", "[1979-05-27]"),  # TOML dates: no JSON, no string
]


@pytest.mark.parametrize(
    "name", ["russian", "turkish+king-beats-man", "dameo", "radial4+teams", "hex3", "cross4"]
)
def test_no_edit_of_a_valid_file_crashes(name: str) -> None:
    """Every line dropped, and every value replaced by each wrong value: the file either
    loads, and then plays, or is rejected with a VariantFileError; nothing else escapes."""
    lines = variant_to_toml(get_variant(name)).splitlines()
    texts = ["\n".join(lines[:index] + lines[index + 1 :]) for index in range(len(lines))]
    for index, line in enumerate(lines):
        key, equals, _ = line.partition(" = ")
        if equals:
            for value in WRONG_VALUES:
                texts.append("\n".join([*lines[:index], f"{key} = {value}", *lines[index + 1 :]]))
    rejected = 0
    for text in texts:
        try:
            variant = parse_variant_text(text)
        except VariantFileError as error:
            assert error.line is not None, str(error)
            rejected += 1
        else:
            assert Board(variant).perft(2) >= 0
    assert rejected > len(texts) // 2
