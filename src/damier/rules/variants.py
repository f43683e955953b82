"""The named variants, each the rules of its federation (RULES.md), and the registry.

A variant is looked up by name or alias; ``"<name>-giveaway"`` gives its losing form and
``"<name>+<option>"`` switches on one of its named options, e.g. ``"italian+dark-first"``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from damier.rules import draws
from damier.rules.description import (
    ALL_DIRECTIONS,
    DIAGONAL,
    ORTHOGONAL,
    BoardKind,
    Choice,
    CountedKingMoves,
    Direction,
    Landing,
    Numbering,
    Promotion,
    Range,
    Removal,
    Variant,
)
from damier.rules.multiplayer import MULTIPLAYER

_FORWARD_DIAGONAL = frozenset({Direction.FORWARD_DIAGONAL})

INTERNATIONAL = Variant(
    name="international",
    title="International draughts (FMJD)",
    width=10,
    height=10,
    board=BoardKind.DARK,
    numbering=Numbering.ROW_BY_ROW,
    start_fen="W:W31-50:B1-20",
    man_moves=_FORWARD_DIAGONAL,
    man_captures=DIAGONAL,
    choice=(Choice.MOST_PIECES,),
    pdn_game_type=20,
    aliases=("fmjd", "standard", "10x10"),
    draw_rules=draws.FMJD,
    summary="10x10, flying kings, men capture backwards, majority capture",
)

BRAZILIAN = Variant(
    name="brazilian",
    title="Brazilian draughts",
    width=8,
    height=8,
    board=BoardKind.DARK,
    numbering=Numbering.ROW_BY_ROW,
    start_fen="W:W21-32:B1-12",
    man_moves=_FORWARD_DIAGONAL,
    man_captures=DIAGONAL,
    choice=(Choice.MOST_PIECES,),
    pdn_game_type=26,
    draw_rules=draws.FMJD64,
    summary="International rules on 8x8",
)

RUSSIAN = Variant(
    name="russian",
    title="Russian draughts (shashki)",
    width=8,
    height=8,
    board=BoardKind.DARK,
    numbering=Numbering.ROW_BY_ROW,
    start_fen="W:W21-32:B1-12",
    man_moves=_FORWARD_DIAGONAL,
    man_captures=DIAGONAL,
    promotion=Promotion.CONTINUE_AS_KING,
    pdn_game_type=25,
    aliases=("shashki",),
    draw_rules=draws.FMJD64,
    summary="flying kings, free capture choice, a man crowned mid-capture goes on as a king",
)

ENGLISH = Variant(
    name="english",
    title="English draughts / American checkers (WCDF)",
    width=8,
    height=8,
    board=BoardKind.DARK,
    numbering=Numbering.ROW_BY_ROW,
    start_fen="B:W21-32:B1-12",
    man_moves=_FORWARD_DIAGONAL,
    man_captures=_FORWARD_DIAGONAL,
    king_range=Range.SHORT,
    promotion=Promotion.ENDS_MOVE,
    pdn_game_type=21,
    aliases=("checkers", "american", "draughts"),
    draw_rules=draws.WCDF,
    summary="dark moves first, short kings, men capture forwards only, free choice",
)

POOL = Variant(
    name="pool",
    title="American pool checkers (APCA)",
    width=8,
    height=8,
    board=BoardKind.DARK,
    numbering=Numbering.ROW_BY_ROW,
    start_fen="B:W21-32:B1-12",
    man_moves=_FORWARD_DIAGONAL,
    man_captures=DIAGONAL,
    pdn_game_type=23,
    aliases=("american-pool", "pool-checkers"),
    draw_rules=draws.APCA,
    summary="dark moves first, flying kings, men capture backwards, free choice",
    options=(("men-capture-forward-only", (("man_captures", _FORWARD_DIAGONAL),)),),
)

ITALIAN = Variant(
    name="italian",
    title="Italian draughts (FID)",
    width=8,
    height=8,
    board=BoardKind.MIRRORED,
    numbering=Numbering.ROW_BY_ROW,
    start_fen="W:W21-32:B1-12",
    man_moves=_FORWARD_DIAGONAL,
    man_captures=_FORWARD_DIAGONAL,
    king_range=Range.SHORT,
    men_capture_kings=False,
    choice=(Choice.MOST_PIECES, Choice.WITH_KING, Choice.MOST_KINGS, Choice.EARLIEST_KING),
    promotion=Promotion.ENDS_MOVE,
    king_order_matters=True,
    pdn_game_type=22,
    aliases=("dama-italiana",),
    summary="mirrored board, short kings, men cannot take kings, four-step quality rule",
    options=(("dark-first", (("start_fen", "B:W21-32:B1-12"),)),),
)

SPANISH = Variant(
    name="spanish",
    title="Spanish draughts (damas clásicas)",
    width=8,
    height=8,
    board=BoardKind.MIRRORED,
    numbering=Numbering.SPANISH,
    start_fen="W:W1-12:B21-32",
    man_moves=_FORWARD_DIAGONAL,
    man_captures=_FORWARD_DIAGONAL,
    choice=(Choice.MOST_PIECES, Choice.MOST_KINGS),
    promotion=Promotion.ENDS_MOVE,
    pdn_game_type=24,
    aliases=("damas",),
    draw_rules=draws.SPANISH_DRAWS,
    summary="mirrored board, flying kings, men capture forwards, most pieces then most kings",
)

PORTUGUESE = dataclasses.replace(
    SPANISH,
    name="portuguese",
    title="Portuguese draughts (damas clássicas)",
    pdn_game_type=28,
    aliases=("damas-classicas",),
    summary="the Spanish game as the Portuguese federation plays it, in its numbering",
)

KILLER = dataclasses.replace(
    INTERNATIONAL,
    name="killer",
    title="Killer draughts",
    king_stops_behind_king=True,
    pdn_game_type=None,
    aliases=(),
    summary="International, but a king that takes a king last stops right behind it",
)

BREAKTHROUGH = dataclasses.replace(
    INTERNATIONAL,
    name="breakthrough",
    title="Breakthrough draughts",
    crowning_wins=True,
    pdn_game_type=None,
    aliases=("bt",),
    summary="International, but the first player to crown a king wins",
)

CANADIAN = dataclasses.replace(
    INTERNATIONAL,
    name="canadian",
    title="Canadian draughts",
    width=12,
    height=12,
    start_fen="W:W43-72:B1-30",
    pdn_game_type=27,
    aliases=("12x12",),
    summary="International rules on 12x12, 30 men each",
)

CZECH = Variant(
    name="czech",
    title="Czech draughts",
    width=8,
    height=8,
    board=BoardKind.DARK,
    numbering=Numbering.ROW_BY_ROW,
    start_fen="W:W21-32:B1-12",
    man_moves=_FORWARD_DIAGONAL,
    man_captures=_FORWARD_DIAGONAL,
    choice=(Choice.WITH_KING,),
    pdn_game_type=29,
    summary="flying kings, men capture forwards, a king's capture comes before a man's",
)

THAI = Variant(
    name="thai",
    title="Thai draughts (mak-hot)",
    width=8,
    height=8,
    board=BoardKind.DARK,
    numbering=Numbering.ROW_BY_ROW,
    start_fen="W:W25-32:B1-8",
    man_moves=_FORWARD_DIAGONAL,
    man_captures=_FORWARD_DIAGONAL,
    king_landing=Landing.NEXT,
    pdn_game_type=31,
    summary="8 men each on two rows, flying kings land right behind the captured piece",
    options=(("twelve-men", (("start_fen", "W:W21-32:B1-12"),)),),
)


FRISIAN = Variant(
    name="frisian",
    title="Frisian draughts",
    width=10,
    height=10,
    board=BoardKind.DARK,
    numbering=Numbering.ROW_BY_ROW,
    start_fen="W:W31-50:B1-20",
    man_moves=_FORWARD_DIAGONAL,
    man_captures=ALL_DIRECTIONS,
    king_captures=ALL_DIRECTIONS,
    choice=(Choice.MOST_VALUE, Choice.WITH_KING),
    king_value=199,
    max_consecutive_king_moves=3,
    draw_rules=draws.REPETITION_ONLY,
    pdn_game_type=40,
    aliases=("fries",),
    summary="captures along ranks and files too, the capture of most value, a king ~ 2 men",
    options=(("any-king", (("counted_king_moves", CountedKingMoves.ANY_KING),)),),
)

FRYSK = dataclasses.replace(
    FRISIAN,
    name="frysk",
    title="Frysk! (Frisian with five men each)",
    start_fen="W:W46-50:B1-5",
    pdn_game_type=None,
    aliases=("frysk!",),
    summary="Frisian draughts from five men each on the back rank",
)


def _ranks(files: str, *ranks: int) -> str:
    return ",".join(f"{file}{rank}" for rank in ranks for file in files)


_FORWARD_STEPS = frozenset({Direction.FORWARD, Direction.FORWARD_DIAGONAL})

TURKISH = Variant(
    name="turkish",
    title="Turkish draughts (dama)",
    width=8,
    height=8,
    board=BoardKind.ALL,
    numbering=Numbering.ALGEBRAIC,
    start_fen=f"W:W{_ranks('abcdefgh', 2, 3)}:B{_ranks('abcdefgh', 6, 7)}",
    man_moves=frozenset({Direction.FORWARD, Direction.SIDEWAYS}),
    man_captures=frozenset({Direction.FORWARD, Direction.SIDEWAYS}),
    king_moves=ORTHOGONAL,
    king_captures=ORTHOGONAL,
    choice=(Choice.MOST_PIECES,),
    promotion=Promotion.CONTINUE_AS_KING,
    removal=Removal.IMMEDIATE,
    no_reversal=True,
    pdn_game_type=30,
    aliases=("dama",),
    draw_rules=draws.TURKISH_DRAWS,
    summary="all 64 squares, orthogonal moves, flying rook kings, captured pieces leave at once",
    options=(
        ("promotion-ends-move", (("promotion", Promotion.ENDS_MOVE),)),
        (
            "king-beats-man",
            (("draw_rules", (draws.Repetition(), draws.BareMaterial(king_beats_man=True))),),
        ),
    ),
)

CRODA = Variant(
    name="croda",
    title="Croda (Dedić, 1995)",
    width=8,
    height=8,
    board=BoardKind.ALL,
    numbering=Numbering.ALGEBRAIC,
    start_fen=f"W:W{_ranks('abcdefgh', 1, 2, 3)}:B{_ranks('abcdefgh', 6, 7, 8)}",
    man_moves=_FORWARD_STEPS,
    man_captures=ORTHOGONAL,
    king_moves=ORTHOGONAL,
    king_captures=ORTHOGONAL,
    choice=(Choice.MOST_PIECES,),
    summary="all 64 squares, 24 men, men step forward or diagonally forward, capture orthogonally",
)

DAMEO = Variant(
    name="dameo",
    title="Dameo (Freeling, 2000)",
    width=8,
    height=8,
    board=BoardKind.ALL,
    numbering=Numbering.ALGEBRAIC,
    start_fen=(
        f"W:W{_ranks('abcdefgh', 1)},{_ranks('bcdefg', 2)},{_ranks('cdef', 3)}"
        f":B{_ranks('abcdefgh', 8)},{_ranks('bcdefg', 7)},{_ranks('cdef', 6)}"
    ),
    man_moves=_FORWARD_STEPS,
    man_captures=ORTHOGONAL,
    king_moves=ALL_DIRECTIONS,
    king_captures=ORTHOGONAL,
    choice=(Choice.MOST_PIECES,),
    line_moves=True,
    summary="all 64 squares, line moves of men, queen-moving kings that capture orthogonally",
)

BUILTIN: tuple[Variant, ...] = (
    INTERNATIONAL,
    BRAZILIAN,
    RUSSIAN,
    ENGLISH,
    POOL,
    ITALIAN,
    SPANISH,
    PORTUGUESE,
    TURKISH,
    CRODA,
    DAMEO,
    KILLER,
    BREAKTHROUGH,
    CZECH,
    THAI,
    CANADIAN,
    FRISIAN,
    FRYSK,
    *MULTIPLAYER,
)

_REGISTRY: dict[str, Variant] = {}
for _variant in BUILTIN:
    for _name in (_variant.name, *_variant.aliases):
        _REGISTRY[_name] = _variant


class UnknownVariantError(ValueError):
    """The name matches no variant of the registry."""


def get_variant(spec: str | Variant) -> Variant:
    """The variant named ``spec`` (a name, an alias, ``-giveaway`` and ``+option`` parts).

    >>> get_variant("russian-giveaway").giveaway
    True
    """
    if isinstance(spec, Variant):
        return spec
    text = spec.strip().lower()
    # The giveaway form of a variant with options is named "<base>+<option>-giveaway".
    giveaway = text.endswith("-giveaway") and "+" in text
    base, *options = text.removesuffix("-giveaway").split("+") if giveaway else text.split("+")
    if base.endswith("-giveaway"):
        giveaway, base = True, base.removesuffix("-giveaway")
    if base not in _REGISTRY:
        known = ", ".join(v.name for v in BUILTIN)
        raise UnknownVariantError(f"unknown variant {spec!r} (known: {known})")
    variant = _REGISTRY[base]
    changed: dict[str, str] = {}  # rule field -> the option that set it
    for option in options:
        fields = dict(variant.options).get(option, ())
        clash = next((changed[field] for field, _ in fields if field in changed), None)
        if clash == option:
            raise ValueError(f"option {option!r} is given twice")
        if clash is not None:
            raise ValueError(
                f"options {clash!r} and {option!r} of {base!r} cannot be combined: "
                "they set the same rule"
            )
        variant = variant.with_option(option)
        changed.update((field, option) for field, _ in fields)
    return variant.as_giveaway() if giveaway else variant


OPTION_SUMMARIES: dict[str, str] = {
    "men-capture-forward-only": "men capture forwards only (the French rule pages), not backwards",
    "dark-first": "the dark side moves first instead of White",
    "promotion-ends-move": "a man crowned in a capture stops there instead of going on as a king",
    "king-beats-man": "a lone king against a lone man wins instead of being a draw",
    "twelve-men": "twelve men each on three rows instead of eight on two",
    "any-king": "the limit of three king moves in a row counts any king, not just the same one",
    "english-rules": "English rules: short kings, men capture forwards, free choice of capture",
    "hub-opposite": "a diagonal through the centre goes on only into the opposite area",
    "end-of-move-removal": "captured pieces leave the board at the end of the move, not at once",
    "pass-when-blocked": "a player without a legal move passes instead of being out",
    "dead-pieces": "an eliminated player's pieces stay on the board as dead obstacles",
    "pieces-to-eliminator": "an eliminated player's pieces go to the player who put him out",
    "teams": "opposite players are partners: a partner's pieces count as one's own",
    "teams-alternate": "two teams of alternate seats (every other player together)",
}
"""One line on what each named option changes, for lists and the lobby."""


_REGISTERED: list[Variant] = []


def register_variant(variant: Variant) -> Variant:
    """Make a variant (from a variant file) known by name, after the built-ins.

    A built-in's name cannot be taken; registering the same name again replaces it.
    """
    if any(variant.name == builtin.name or variant.name in builtin.aliases for builtin in BUILTIN):
        raise ValueError(f"{variant.name!r} is the name of a built-in variant")
    _REGISTERED[:] = [v for v in _REGISTERED if v.name != variant.name]
    _REGISTERED.append(variant)
    _REGISTRY[variant.name] = variant
    return variant


def all_variants() -> Iterator[Variant]:
    """The built-in variants, in the order ``damier variants`` lists them, then the
    registered ones."""
    yield from BUILTIN
    yield from _REGISTERED
