"""User-defined variants in TOML files (damier.rules.variant_file).

The proof that the format can say everything the built-ins say: each built-in variant,
written out with ``variant_to_toml`` and read back, has the same rules and the same perft.
"""

from __future__ import annotations

import dataclasses
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
    ):
        assert re.search(rf"^{key} = ", text, flags=re.MULTILINE), key
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


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.toml")), ids=lambda path: path.stem)
def test_every_example_loads_and_plays(path: Path) -> None:
    board = Board(load_variant_file(path))
    assert board.perft(3) > 0


# --------------------------------------------------------------------------- errors

RUSSIAN_HEAD = '[variant]\nname = "x"\nbase = "russian"\n'

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
        'unknown direction "diagonal-forward" in [men] moves',
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
        'unknown choice criterion "most-men"',
    ),
    "board too large": (
        RUSSIAN_HEAD + "[board]\nwidth = 20\nheight = 20\n",
        5,
        "board too large: [board] width is 20, but the kernel takes boards of at most 16 x 16",
    ),
    "algebraic board wider than a-j": (
        '[variant]\nname = "x"\nbase = "turkish"\n[board]\nwidth = 12\nheight = 12\n',
        5,
        "an algebraic board may be at most 10 files wide",
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
        "gives B no pieces",
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
    "no name": ('[variant]\nbase = "russian"\n', 1, "[variant] needs a name"),
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


WRONG_VALUES = ["1", "-1", "99", "1.5", "true", '"x"', '"W:W1"', "[]", '["x"]', "[1]", "{}"]


@pytest.mark.parametrize("name", ["russian", "turkish+king-beats-man", "dameo"])
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
