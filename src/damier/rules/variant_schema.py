"""The variant file format: one pydantic model per TOML table, one field per key.

A field's type says what its key takes, and nothing is converted: a number is never read
from a string, nor a boolean from a number. In a table that sets the switches of a
:class:`~damier.rules.description.Variant` each field is named after the Variant field it
sets; the key in the file is its alias when the names differ. Every key is optional
unless said otherwise: a key left out keeps the value of the base variant, or without a
base the default of ``Variant``.

These models check a file on its own. What depends on the base variant (the board, the
players and the start position a file inherits) is checked by
:mod:`damier.rules.variant_file` once the file and its base are merged, and
:mod:`damier.rules.variant_errors` words each pydantic error as one sentence. A
validator's own message names the value's place as ``{where}``, filled in there.
"""

from __future__ import annotations

import dataclasses
import json
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from damier.rules import draws
from damier.rules.description import (
    DIAGONAL,
    ORTHOGONAL,
    PLAYER_LETTERS,
    PLAYER_NAMES,
    Blocked,
    BoardKind,
    Choice,
    CountedKingMoves,
    Direction,
    Landing,
    Leftovers,
    Numbering,
    Promotion,
    Range,
    Removal,
    Topology,
)

MIN_SIDE = 2
MAX_SIDE = 16
"""Largest width and height a file may ask for: 16 x 16 keeps a board within 256 cells and
its square names within a..p, well inside what the kernel's tables are sized for (FEN
tells a man on the k file, ``k2``, from a king, ``Kk2`` or ``K2``, by the board's names)."""
MIN_PLAYERS = 2
MAX_PLAYERS = len(PLAYER_LETTERS)
"""Most players round one board: eight, one FEN letter each (W B R G Y P O C)."""

NAMED_DRAW_RULES: dict[str, tuple[draws.DrawRule, ...]] = {
    "fmjd": draws.FMJD,
    "fmjd64": draws.FMJD64,
    "wcdf": draws.WCDF,
    "apca": draws.APCA,
    "spanish": draws.SPANISH_DRAWS,
    "turkish": draws.TURKISH_DRAWS,
    "multiplayer": draws.MULTIPLAYER,
    "repetition-only": draws.REPETITION_ONLY,
    "none": (),
}
"""The draw-rule sets a file may name with ``[draws] rules = "..."``."""

DIRECTION_SHORTHANDS: dict[str, frozenset[Direction]] = {
    "diagonal": DIAGONAL,
    "orthogonal": ORTHOGONAL,
}

if TYPE_CHECKING:  # Literal types of names known at run time; to mypy they are strings
    PlayerName = str
    DirectionName = str
    DrawSetName = str
else:
    PlayerName = Literal[PLAYER_NAMES]
    DirectionName = Literal[(*(d.value for d in Direction), *DIRECTION_SHORTHANDS)]
    DrawSetName = Literal[tuple(NAMED_DRAW_RULES)]


def _distinct(names: list[Any]) -> list[Any]:
    for index, name in enumerate(names):
        if name in names[:index]:
            raise PydanticCustomError(
                "listed_twice", "{name} is listed twice in {where}", {"name": json.dumps(name)}
            )
    return names


def _directions(names: list[str]) -> frozenset[Direction]:
    return frozenset().union(*(DIRECTION_SHORTHANDS.get(n) or {Direction(n)} for n in names))


def _player_numbers(teams: list[list[str]]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(PLAYER_NAMES.index(name) for name in team) for team in teams)


def _forward_ranges(rows: list[tuple[int, int, int]]) -> tuple[tuple[int, int, int], ...]:
    for low, high, _ in rows:
        if low > high:
            raise PydanticCustomError(
                "backwards",
                "{where}: range {low}-{high} runs backwards",
                {"low": low, "high": high},
            )
    return tuple(rows)


Count = Annotated[StrictInt, Field(ge=0)]
Positive = Annotated[StrictInt, Field(ge=1)]
Directions = Annotated[list[DirectionName], AfterValidator(_distinct), AfterValidator(_directions)]
"""Directions (and shorthands) listed once each; read as the set of directions."""
Teams = Annotated[
    list[Annotated[list[PlayerName], AfterValidator(_distinct)]], AfterValidator(_player_numbers)
]
"""Lists of player names; read as player numbers."""


class _Table(BaseModel):
    """A TOML table: its own keys only, each of its own type."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class _Switches(_Table):
    """A table whose fields are Variant fields."""

    def given(self) -> dict[str, Any]:
        """The Variant fields the file sets in this table."""
        return {name: getattr(self, name) for name in self.model_fields_set}


class VariantTable(_Table):
    """``[variant]``: what the variant is called and what it starts from."""

    name: StrictStr = Field(
        pattern=r"^[a-z0-9][a-z0-9_-]*$",
        description='lower-case letters, digits, "-" and "_", starting with a letter or digit',
        examples=["my-variant"],
    )
    title: StrictStr | None = None
    """Default: the name."""
    summary: StrictStr | None = None
    base: StrictStr | None = None
    """A built-in variant (a name, an alias, ``-giveaway``, ``+option``)."""
    pdn_game_type: Positive | None = None
    """The PDN GameType number; never taken from the base (the file changes its rules)."""


class BoardTable(_Switches):
    """``[board]``: required without a base (width, height, squares and numbering)."""

    topology: Topology | None = None
    players: StrictInt | None = Field(None, ge=MIN_PLAYERS, le=MAX_PLAYERS)
    """Seats in turn order (clockwise): white, black, red, green, yellow, purple, orange,
    cyan. A square board seats 2 or 4, a radial one 2..8, a hex one 3."""
    width: StrictInt | None = Field(None, ge=MIN_SIDE, le=MAX_SIDE)
    """Square boards only, as are height, numbering and corner."""
    height: StrictInt | None = Field(None, ge=MIN_SIDE, le=MAX_SIDE)
    board: BoardKind | None = Field(None, alias="squares")
    """Radial boards: "dark" (diagonal play) or "all" (orthogonal play); hex: "all"."""
    numbering: Numbering | None = None
    corner: Count | None = None
    """Squares cut from each corner (the cross: 3)."""
    hub_opposite: StrictBool | None = None
    """Radial boards played on dark cells: a diagonal through the centre goes on only into
    the opposite area."""


class SetupTable(_Table):
    """``[setup]``: the start position (its fen required without a base)."""

    fen: StrictStr | None = None
    first_player: StrictStr | None = None
    """A player's name (one of those the board seats): rewrites the side to move of the
    base's start position."""


class MenTable(_Switches):
    """``[men]``: required without a base."""

    man_moves: Directions | None = Field(None, alias="moves")
    man_captures: Directions | None = Field(None, alias="captures")


class KingsTable(_Switches):
    """``[kings]``."""

    king_moves: Directions | None = Field(None, alias="moves")
    king_captures: Directions | None = Field(None, alias="captures")
    king_range: Range | None = Field(None, alias="range")
    king_landing: Landing | None = Field(None, alias="landing")
    king_stops_behind_king: StrictBool | None = Field(None, alias="stop_behind_king")
    max_consecutive_king_moves: Count | None = Field(None, alias="max_consecutive_moves")
    """Non-capturing moves a king may make in a row while its owner has men; 0: no limit."""
    counted_king_moves: CountedKingMoves | None = Field(None, alias="counted_moves")


class CaptureTable(_Switches):
    """``[capture]``."""

    choice: Annotated[list[Choice], AfterValidator(_distinct), AfterValidator(tuple)] | None = None
    """The capture-choice criteria in priority order; [] is a free choice."""
    king_value: Positive | None = None
    """What a captured king counts for most-value (a man: 100)."""
    removal: Removal | None = None
    no_reversal: StrictBool | None = None
    men_capture_kings: StrictBool | None = None
    king_order_matters: StrictBool | None = None


class CrowningTable(_Switches):
    """``[crowning]``."""

    promotion: Promotion | None = None


class GoalTable(_Switches):
    """``[goal]``."""

    giveaway: StrictBool | None = None
    """Without [draws], a giveaway file plays repetition only (RULES.md decision 2)."""
    crowning_wins: StrictBool | None = None


class HooksTable(_Switches):
    """``[hooks]``: rules that need code, switched on by name."""

    line_moves: StrictBool | None = None
    """Dameo's line move."""


class MultiplayerTable(_Switches):
    """``[multiplayer]``: 3 or more players only (RULES.md 12.2)."""

    teams: Teams | None = Field(
        None,
        description='a list of teams, each a list of player names (e.g. [["white", "red"], '
        '["black", "green"]])',
    )
    """Equal teams of 2 or more that take in every player; [] plays each for himself."""
    when_blocked: Blocked | None = None
    leftovers: Leftovers | None = None


class _DrawRuleTable(_Table):
    """One ``[[draws.rule]]`` table: the fields of its ``kind``'s draw rule."""

    builds: ClassVar[type[draws.DrawRule]]
    reason: StrictStr | None = None

    def rule(self) -> draws.DrawRule:
        """The draw rule; a key left out keeps the default of the rule's class."""
        given = {name: getattr(self, name) for name in self.model_fields_set - {"kind"}}
        rule = self.builds(**{"reason": "", **given})
        if self.reason is None:
            rule = dataclasses.replace(rule, reason=self.default_reason(rule))
        return rule

    def default_reason(self, rule: Any) -> str:
        """What the rule says when it draws a game, if the file gives no reason."""
        raise NotImplementedError


class RepetitionTable(_DrawRuleTable):
    builds = draws.Repetition
    kind: Literal["repetition"]
    times: Annotated[StrictInt, Field(ge=2)] | None = None

    def default_reason(self, rule: draws.Repetition) -> str:
        return "threefold repetition" if rule.times == 3 else "repetition"


class QuietMovesTable(_DrawRuleTable):
    builds = draws.QuietMoves
    kind: Literal["quiet-moves"]
    plies: Positive

    def default_reason(self, rule: draws.QuietMoves) -> str:
        plies = rule.plies
        return f"{plies // 2}-move rule" if plies % 2 == 0 else f"{plies}-ply rule"


class EndgameTable(_DrawRuleTable):
    builds = draws.Endgame
    kind: Literal["endgame"]
    limit: Positive
    strong: Annotated[list[tuple[Count, Count]], AfterValidator(frozenset)] | None = Field(
        None, description="a list of [kings, men] lists of 2 whole numbers"
    )
    min_strong_kings: Count | None = None
    strong_moves_only: StrictBool | None = None
    restarts: StrictBool | None = None
    lone_king_on_main_diagonal: StrictBool | None = None
    strong_king_on_main_diagonal: StrictBool | None = None

    @model_validator(mode="after")
    def _one_balance(self) -> EndgameTable:
        if bool(self.strong) == bool(self.min_strong_kings):
            raise PydanticCustomError(
                "endgame_balance",
                "{where}: an endgame rule needs exactly one of strong = [[kings, men], ...] "
                "and min_strong_kings = N",
            )
        return self

    def default_reason(self, rule: draws.Endgame) -> str:
        return "endgame rule"


class StableMaterialTable(_DrawRuleTable):
    builds = draws.StableMaterial
    kind: Literal["stable-material"]
    plies_by_pieces: Annotated[
        list[tuple[Count, Count, Count]], AfterValidator(_forward_ranges)
    ] = Field(description="a list of [fewest pieces, most pieces, plies] lists of 3 whole numbers")

    def default_reason(self, rule: draws.StableMaterial) -> str:
        return "unchanged material"


class BareMaterialTable(_DrawRuleTable):
    builds = draws.BareMaterial
    kind: Literal["bare-material"]
    king_beats_man: StrictBool | None = None

    def default_reason(self, rule: draws.BareMaterial) -> str:
        return "one piece each"


class QuietRoundsTable(_DrawRuleTable):
    builds = draws.QuietRounds
    kind: Literal["quiet-rounds"]
    rounds: Positive

    def default_reason(self, rule: draws.QuietRounds) -> str:
        return f"{rule.rounds} rounds without a capture or a man move"


DrawRuleTable = Annotated[
    RepetitionTable
    | QuietMovesTable
    | EndgameTable
    | StableMaterialTable
    | BareMaterialTable
    | QuietRoundsTable,
    Field(discriminator="kind"),
]
DRAW_RULE_TABLES = {
    get_args(table.model_fields["kind"].annotation)[0]: table
    for table in _DrawRuleTable.__subclasses__()
}
"""``[[draws.rule]] kind`` -> its table."""
DRAW_RULE_KINDS = {table.builds: kind for kind, table in DRAW_RULE_TABLES.items()}
"""Draw rule class -> its ``kind`` in a file."""


class DrawsTable(_Table):
    """``[draws]``: a named set, or the rules one by one in the order they are checked.

    Endgame, stable-material and bare-material weigh one side against the other: two
    players only. Without [draws] a file keeps its base's draws, but a giveaway file plays
    repetition only and a multi-player one RULES.md 12.2's "multiplayer" draws.
    """

    rules: DrawSetName | None = None
    rule: list[DrawRuleTable] | None = None

    @field_validator("rule", mode="before")
    @classmethod
    def _double_brackets(cls, value: object) -> object:
        if isinstance(value, dict):
            raise PydanticCustomError(
                "single_rule_table",
                "{where}: write each draw rule as a [[draws.rule]] table (double brackets), "
                "not a single [draws.rule]",
            )
        return value

    @model_validator(mode="after")
    def _rules_or_rule(self) -> DrawsTable:
        if (self.rules is None) == (self.rule is None):
            wanted = 'rules = "<set>" or [[draws.rule]] tables'
            message = (
                f"{{where}} takes either {wanted}, not both"
                if self.rules
                else f"{{where}} needs {wanted}"
            )
            raise PydanticCustomError("rules_or_rule", message)
        return self

    def draw_rules(self) -> tuple[draws.DrawRule, ...]:
        if self.rules is not None:
            return NAMED_DRAW_RULES[self.rules]
        return tuple(table.rule() for table in self.rule or ())


class VariantDocument(_Table):
    """A whole variant file: its tables, in the order a written file gives them."""

    variant: VariantTable
    board: BoardTable | None = None
    setup: SetupTable | None = None
    men: MenTable | None = None
    kings: KingsTable | None = None
    capture: CaptureTable | None = None
    crowning: CrowningTable | None = None
    draws: DrawsTable | None = None
    goal: GoalTable | None = None
    hooks: HooksTable | None = None
    multiplayer: MultiplayerTable | None = None

    def switches(self) -> list[_Switches]:
        """The tables the file gives whose keys set Variant fields one by one."""
        tables = (getattr(self, name) for name in type(self).model_fields)
        return [table for table in tables if isinstance(table, _Switches)]


def _table_in(annotation: Any) -> type[_Table]:
    """The table model of a field typed ``SomeTable`` or ``SomeTable | None``."""
    types = (annotation, *get_args(annotation))
    return next(kind for kind in types if isinstance(kind, type) and issubclass(kind, _Table))


TABLES = {name: _table_in(field.annotation) for name, field in VariantDocument.model_fields.items()}
"""Table name -> its model, in the order a written file gives them."""
