"""User-defined variants: a small TOML file that sets the switches of a :class:`Variant`.

A variant file is data and nothing else. It is read with the standard library's
:mod:`tomllib`, which only builds strings, numbers, booleans, lists and tables; every value
is then checked against the closed list of tables, keys and names of
:mod:`damier.rules.variant_schema`, merged with the variant it starts from, and turned
into a frozen :class:`Variant`. Nothing in a file is ever imported, evaluated or executed,
and a rule that needs code (Dameo's line move) can only be switched on by name, from the
hooks the kernel already has. Loading a file from a stranger is as safe as reading a FEN.

A file names its variant and either starts from a built-in one, changing a few switches::

    [variant]
    name = "russian-short-kings"   # lower-case letters, digits, "-" and "_"
    base = "russian"               # a built-in variant (name, alias, -giveaway, +option)
    [kings]
    range = "short"

or gives at least [board] width, height, squares and numbering, [setup] fen, and [men]
moves and captures. The tables are [variant], [board], [setup], [men], [kings],
[capture], [crowning], [draws], [goal], [hooks] and, for 3 or more players,
[multiplayer]: each is a model of :mod:`damier.rules.variant_schema`, which says every key
it takes and the values each key accepts. ``variant_to_toml`` writes any variant with every
switch spelled out, and examples/variants holds three files.

A multi-player file with no ``[draws]`` (and no multi-player base) plays RULES.md 12.2's
draws, ``"multiplayer"``: a threefold repetition or 25 quiet rounds.

Every error is a :class:`VariantFileError` naming the file, the line of the offending key
when it can be found, and what is wrong.
"""

from __future__ import annotations

import dataclasses
import os
import re
import tomllib
from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from damier.notation.fen import parse_fen
from damier.rules import draws
from damier.rules.description import (
    DIAGONAL,
    ORTHOGONAL,
    PLAYER_LETTERS,
    PLAYER_NAMES,
    Blocked,
    BoardKind,
    Direction,
    Leftovers,
    Numbering,
    Topology,
    Variant,
)
from damier.rules.variant_errors import (
    DocumentLines,
    Path,
    VariantFileError,
    known,
    one_of,
    quote,
    where,
)
from damier.rules.variant_schema import DRAW_RULE_KINDS, NAMED_DRAW_RULES, TABLES, VariantDocument
from damier.rules.variants import get_variant

RADIAL_AREA = (8, 4)
"""Files and ranks of each player's area on a radial board (the Variant's width, height)."""
HEX_SIDE = 9
"""Rows of the hexagonal board, and cells in its middle row (the Variant's width, height)."""

_TWO_SIDED = (draws.Endgame, draws.StableMaterial, draws.BareMaterial)
"""Draw rules that weigh one side's material against the other's: two players only."""
_REQUIRED_WITHOUT_BASE = {
    "board": ("width", "height", "squares", "numbering"),
    "setup": ("fen",),
    "men": ("moves", "captures"),
}
_SQUARE_ONLY = ("width", "height", "numbering")
"""[board] keys a radial or hexagonal board does not take: its topology sets them."""
_ONLY_RADIAL = "[board] hub_opposite is for radial boards only: no other board has a centre hub"
_DIRECTION_FIELDS = (
    ("men", "moves", "man_moves"),
    ("men", "captures", "man_captures"),
    ("kings", "moves", "king_moves"),
    ("kings", "captures", "king_captures"),
)
_FIELDS = dataclasses.fields(Variant)


# --------------------------------------------------------------------------- public API


def load_variant_file(path: str | os.PathLike[str]) -> Variant:
    """The variant described by the TOML file at ``path``.

    Raises :class:`VariantFileError` for a file that cannot be read or is not a valid
    variant description.
    """
    source = os.fspath(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        reason = error.strerror or str(error)
        raise VariantFileError(f"cannot read the file: {reason}", source=source) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise VariantFileError("the file is not UTF-8 text", source=source, line=line) from None
    return parse_variant_text(text, source=source)


def parse_variant_text(text: str, source: str = "<string>") -> Variant:
    """The variant described by the TOML document ``text`` (``source`` names it in errors).

    >>> variant = parse_variant_text('''
    ... [variant]
    ... name = "russian-short"
    ... base = "russian"
    ... [kings]
    ... range = "short"
    ... ''')
    >>> variant.name, variant.king_range.value, variant.start_fen
    ('russian-short', 'short', 'W:W21-32:B1-12')
    """
    reader = _Reader(text, source)
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise reader.syntax_error(error) from None
    try:
        file = VariantDocument.model_validate(document)
    except ValidationError as error:
        raise reader.schema_error(error) from None
    return reader.variant(file, document)


def variant_to_toml(variant: Variant) -> str:
    """``variant`` as a complete variant file, every switch written out.

    Reading the text back with :func:`parse_variant_text` gives the same rules; the name
    is made file-safe (``italian+dark-first`` becomes ``italian-dark-first``), and aliases
    and named options are not written.
    """
    sections = [
        [
            f"# Damier variant file: {variant.title}",
            "# Every switch is written out; see damier.rules.variant_file for the format.",
        ]
    ]
    for table, model in TABLES.items():
        if table == "variant":
            sections.append(_head_toml(variant))
        elif table == "setup":
            first = PLAYER_NAMES[variant.first_player]
            fen = variant.start_fen.strip()
            sections.append(["[setup]", f"fen = {quote(fen)}", f"first_player = {quote(first)}"])
        elif table == "draws":
            sections.append(_draws_toml(variant.draw_rules))
        elif table != "multiplayer" or variant.players > 2:
            unwritten = _unwritten(variant)
            keys = {name: field.alias or name for name, field in model.model_fields.items()}
            switches = [
                f"{key} = {_value_toml(_written(variant, name))}"
                for name, key in keys.items()
                if name not in unwritten
            ]
            sections.append([f"[{table}]", *switches])
    return "\n\n".join("\n".join(section) for section in sections) + "\n"


# --------------------------------------------------------------------------- writing


def _head_toml(variant: Variant) -> list[str]:
    name = re.sub(r"[^a-z0-9_-]+", "-", variant.name.lower()).strip("-_") or "variant"
    lines = [
        "[variant]",
        f"name = {quote(name)}",
        f"title = {quote(variant.title)}",
        f"summary = {quote(variant.summary)}",
    ]
    if variant.pdn_game_type is not None:
        lines.append(f"pdn_game_type = {variant.pdn_game_type}")
    return lines


def _unwritten(variant: Variant) -> set[str]:
    """Board fields a radial or hexagonal board's topology decides, so its file omits."""
    unwritten = set()
    if variant.topology is not Topology.SQUARE:
        unwritten |= {"width", "height", "numbering", "corner"}
    if variant.topology is not Topology.RADIAL or variant.board is BoardKind.ALL:
        unwritten.add("hub_opposite")
    return unwritten


def _draws_toml(rules: tuple[draws.DrawRule, ...]) -> list[str]:
    for name, named in NAMED_DRAW_RULES.items():
        if rules == named:
            return ["[draws]", f"rules = {quote(name)}"]
    lines = ["# The draw rules one by one, in the order they are checked."]
    for rule in rules:
        lines += ["[[draws.rule]]", f"kind = {quote(DRAW_RULE_KINDS[type(rule)])}"]
        for field in dataclasses.fields(rule):
            lines.append(f"{field.name} = {_value_toml(getattr(rule, field.name))}")
        lines.append("")
    return lines[:-1]


def _written(variant: Variant, field: str) -> object:
    """A Variant field as its file gives it: players by name."""
    if field == "teams":
        return tuple(tuple(PLAYER_NAMES[player] for player in team) for team in variant.teams)
    return getattr(variant, field)


def _value_toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return quote(value)
    if isinstance(value, frozenset) and value <= set(Direction):
        value = tuple(direction for direction in Direction if direction in value)
    elif isinstance(value, frozenset):
        value = tuple(sorted(value, reverse=True))
    if isinstance(value, tuple):
        return "[" + ", ".join(_value_toml(item) for item in value) + "]"
    raise TypeError(f"cannot write {value!r} in a variant file")  # pragma: no cover


def _either(words: Sequence[str]) -> str:
    """``["W", "B", "R"]`` -> ``"W, B or R"``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


# --------------------------------------------------------------------------- reading


class _Reader(DocumentLines):
    """Turns one checked document into a Variant, placing every error on its line."""

    def variant(self, file: VariantDocument, document: dict[str, Any]) -> Variant:
        """The variant of a file that fits the schema; ``document`` is what tomllib read,
        to tell the keys the file gives from the values it inherits."""
        head = file.variant
        values: dict[str, Any] = {"name": head.name}
        base: Variant | None = None
        if head.base is not None:
            try:
                base = get_variant(head.base)
            except ValueError as error:  # an unknown name, or an unknown +option
                self.fail(("variant", "base"), f"[variant] base: {error}")
            values |= {field.name: getattr(base, field.name) for field in _FIELDS}
            # Not rules, or no longer true once the file changes a rule:
            values |= {"name": head.name, "aliases": (), "options": (), "pdn_game_type": None}
            values["summary"] = ""
        else:
            values |= {
                field.name: field.default
                for field in _FIELDS
                if field.default is not dataclasses.MISSING and field.name not in values
            }
        values["title"] = head.name
        values |= {key: getattr(head, key) for key in head.model_fields_set - {"name", "base"}}
        for table in file.switches():
            values |= table.given()
        if base is None:
            self.check_required(document, values["topology"])
        self.shape(document, values)
        self.directions(document, values, base)
        self.seats(document, values)
        if file.draws is not None:
            values["draw_rules"] = file.draws.draw_rules()
        elif values["giveaway"] and not (base is not None and base.giveaway):
            values["draw_rules"] = draws.REPETITION_ONLY  # RULES.md decision 2
        elif values["players"] > 2 and (base is None or base.players == 2):
            values["draw_rules"] = draws.MULTIPLAYER  # RULES.md 12.2
        self.check_draws_fit(document, values)
        return self.setup(document.get("setup", {}), values, base)

    def origin(self, document: dict[str, Any], *candidates: tuple[str, str]) -> Path:
        """Where a value that breaks a rule came from: the first of ``candidates`` the file
        gives, else its base (the value was inherited), else the [variant] table."""
        for table, key in candidates:
            if key in document.get(table, {}):
                return (table, key)
        if "base" in document["variant"]:
            return ("variant", "base")
        return ("variant",)

    def shape(self, document: dict[str, Any], values: dict[str, Any]) -> None:
        """Check that the board's topology, players and size go together; a radial or
        hexagonal board's size and names follow from its topology."""
        board = document.get("board", {})
        topology: Topology = values["topology"]
        players: int = values["players"]
        seats = self.origin(document, ("board", "players"), ("board", "topology"))
        if topology is Topology.SQUARE:
            if players not in (2, 4):
                self.fail(
                    seats,
                    f"a square board seats 2 players, or 4 (one on each side, as on the "
                    f"cross), not {players}",
                )
            if "hub_opposite" in board:
                self.fail(("board", "hub_opposite"), _ONLY_RADIAL)
            values["hub_opposite"] = False
            corner: int = values["corner"]
            if 2 * corner >= min(values["width"], values["height"]):
                where = self.origin(
                    document, ("board", "corner"), ("board", "width"), ("board", "height")
                )
                self.fail(
                    where,
                    f"[board] corner = {corner} cuts away a whole {values['width']}x"
                    f"{values['height']} board: each corner cut must be less than half its "
                    "shorter side",
                )
            return
        shape = (
            "a radial board is made of one 8x4 area per player, named by area (Wa1, Bd4)"
            if topology is Topology.RADIAL
            else "the hexagonal board has 61 cells in 9 rows, named a1..e9"
        )
        for key in ("width", "height", "numbering", "corner"):
            if key in board:
                self.fail(("board", key), f"[board] {key} is for square boards only: {shape}")
        radial = topology is Topology.RADIAL
        values["width"], values["height"] = RADIAL_AREA if radial else (HEX_SIDE, HEX_SIDE)
        values["numbering"], values["corner"] = Numbering.ALGEBRAIC, 0
        if topology is Topology.RADIAL:
            if values["board"] is BoardKind.MIRRORED:
                self.fail(
                    self.origin(document, ("board", "squares"), ("board", "topology")),
                    'a radial board is played on its "dark" cells (diagonal play) or on '
                    '"all" of them (orthogonal play), not on "mirrored" ones',
                )
            if values["hub_opposite"] and values["board"] is BoardKind.ALL:
                self.fail(
                    self.origin(document, ("board", "hub_opposite"), ("board", "squares")),
                    '[board] hub_opposite needs diagonal play (squares = "dark"): the lines '
                    "of an orthogonal radial board never pass through the centre",
                )
            return
        if "hub_opposite" in board:
            self.fail(("board", "hub_opposite"), _ONLY_RADIAL)
        values["hub_opposite"] = False
        if "squares" not in board:
            values["board"] = BoardKind.ALL
        elif values["board"] is not BoardKind.ALL:
            self.fail(
                ("board", "squares"),
                'the hexagonal board is played on all its cells: squares = "all"',
            )
        if players != 3:
            self.fail(seats, f"the hexagonal board seats 3 players, not {players}")

    def directions(
        self, document: dict[str, Any], values: dict[str, Any], base: Variant | None
    ) -> None:
        """On a radial board only one family of lines exists: the diagonals of its dark
        cells or the ranks and files of all its cells; the hexagon has no diagonals."""
        topology: Topology = values["topology"]
        if topology is Topology.SQUARE:
            return
        if topology is Topology.HEX:
            missing, lines = DIAGONAL, "no diagonals (its lines are forward, sideways, backward)"
        elif values["board"] is BoardKind.ALL:
            missing, lines = DIAGONAL, 'no diagonals when played on "all" cells'
        else:
            missing, lines = ORTHOGONAL, 'no ranks or files when played on its "dark" cells'
        board = "the hexagonal board" if topology is Topology.HEX else "a radial board"
        for table, key, field in _DIRECTION_FIELDS:
            chosen: frozenset[Direction] = values[field]
            # The hexagon ignores diagonal directions (hex3 lists them among "all directions"),
            # as long as the list names one of its own; a radial board refuses them.
            stray = chosen & missing
            if stray and (topology is Topology.RADIAL or not chosen - missing):
                names = known(d.value for d in Direction if d in stray)
                where = self.origin(
                    document, (table, key), ("board", "squares"), ("board", "topology")
                )
                message = f"[{table}] {key} lists {names}, but {board} has {lines}"
                if key not in document.get(table, {}):
                    origin = f"{base.name}'s" if base is not None else "the default"
                    message += f" ({origin}: set [{table}] {key})"
                self.fail(where, message)

    def seats(self, document: dict[str, Any], values: dict[str, Any]) -> None:
        """The [multiplayer] switches: only for 3 or more players; teams must split the
        players into equal partnerships."""
        players: int = values["players"]
        if players == 2:
            if "multiplayer" in document:
                self.fail(
                    ("multiplayer",),
                    "[multiplayer] is for games of 3 or more players; this board seats 2 "
                    "(a player who cannot move loses)",
                )
            values |= {
                "teams": (),
                "when_blocked": Blocked.ELIMINATED,
                "leftovers": Leftovers.REMOVED,
            }
            return
        teams: tuple[tuple[int, ...], ...] = values["teams"]
        if not teams:
            return
        where = self.origin(document, ("multiplayer", "teams"), ("board", "players"))
        names = PLAYER_NAMES[:players]
        seen: list[int] = []
        for team in teams:
            for player in team:
                if player >= players:
                    self.fail(
                        where,
                        f"{PLAYER_NAMES[player]} is in a team, but only {players} players "
                        f"sit at this board: {', '.join(names)}",
                    )
                if player in seen:
                    self.fail(where, f"{PLAYER_NAMES[player]} is in two teams")
                seen.append(player)
        left_out = [PLAYER_NAMES[p] for p in range(players) if p not in seen]
        if left_out:
            self.fail(
                where,
                f"teams must take in every player; {', '.join(left_out)} "
                f"{'is' if len(left_out) == 1 else 'are'} in no team",
            )
        sizes = sorted({len(team) for team in teams})
        if len(teams) < 2 or sizes[0] < 2 or len(sizes) > 1:
            self.fail(
                where,
                f"teams must be two or more teams of the same size, 2 players or more "
                f"each (not {len(teams)} of {', '.join(map(str, sizes))}); "
                "teams = [] plays every player for himself",
            )
        values["teams"] = tuple(sorted(tuple(sorted(team)) for team in teams))

    def check_draws_fit(self, document: dict[str, Any], values: dict[str, Any]) -> None:
        if values["players"] == 2:
            return
        for index, rule in enumerate(values["draw_rules"]):
            if isinstance(rule, _TWO_SIDED):
                drawn = document.get("draws", {})
                if "rule" in drawn:
                    where: Path = ("draws", "rule", index)
                elif "rules" in drawn:
                    where = ("draws", "rules")
                else:
                    where = self.origin(document, ("board", "players"))
                self.fail(
                    where,
                    f"the draw rule {quote(rule.reason)} weighs one side against the other, "
                    f"so it is for two players only, not {values['players']}; "
                    'use [draws] rules = "multiplayer" (RULES.md 12.2)',
                )

    def check_required(self, document: dict[str, Any], topology: Topology) -> None:
        fixed = {Topology.SQUARE: (), Topology.RADIAL: _SQUARE_ONLY}.get(
            topology, (*_SQUARE_ONLY, "squares")
        )
        missing = [
            f"[{table}] {key}"
            for table, keys in _REQUIRED_WITHOUT_BASE.items()
            for key in keys
            if key not in document.get(table, {}) and not (table == "board" and key in fixed)
        ]
        if missing:
            self.fail(
                ("variant",),
                "without a base variant the file must set "
                + ", ".join(missing)
                + ' (or start from a built-in one with [variant] base = "...")',
            )

    def setup(self, table: dict[str, Any], values: dict[str, Any], base: Variant | None) -> Variant:
        path: Path = ("setup",)
        players: int = values["players"]
        letters = PLAYER_LETTERS[:players]
        first: int | None = None
        if "first_player" in table:
            name, seated = table["first_player"], PLAYER_NAMES[:players]
            if name not in seated:
                here: Path = (*path, "first_player")
                self.fail(here, one_of(where(here), name, seated))
            first = PLAYER_NAMES.index(name)
        if "fen" in table:
            fen_path: Path = (*path, "fen")
            fen = table["fen"].strip()
            if not re.match(rf"[{letters}{letters.lower()}]\s*:", fen):
                self.fail(
                    fen_path,
                    "[setup] fen must start with the side to move, "
                    f"{_either([f'{letter}:' for letter in letters])}, not {quote(fen[:12])}",
                )
            for field in fen.split(":")[1:]:
                if field.strip() and field.strip()[0].upper() not in letters:
                    self.fail(
                        fen_path,
                        f"[setup] fen field {quote(field[:12])}: a start position holds only "
                        f"the side to move and the pieces of {_either(list(letters))}",
                    )
            if first is not None and letters.index(fen[0].upper()) != first:
                self.fail(
                    fen_path,
                    f"[setup] fen starts with {fen[0].upper()} but first_player is "
                    f"{quote(PLAYER_NAMES[first])}",
                )
            values["start_fen"] = fen
        elif first is not None:
            values["start_fen"] = letters[first] + values["start_fen"].lstrip()[1:]
        origin = base.name if base is not None else "the base variant"
        variant = Variant(**values)
        try:
            cells, _ = parse_fen(variant, variant.start_fen)
        except (ValueError, IndexError) as error:
            if "fen" in table:
                self.fail(fen_path, f"[setup] fen does not fit the board: {error}")
            self.fail(
                self.start_origin(table),
                f"the start position of {origin} ({variant.start_fen}) does not fit this "
                f"board: {error}; give the start position with [setup] fen",
            )
        codes = cells.tolist()
        for player, letter in enumerate(letters):
            if not any(code in (2 * player + 1, 2 * player + 2) for code in codes):
                hint = "" if "fen" in table else f" (it is {origin}'s); give it with [setup] fen"
                self.fail(
                    self.start_origin(table),
                    f"the start position gives {letter} ({PLAYER_NAMES[player]}) no pieces{hint}",
                )
        return variant

    def start_origin(self, table: dict[str, Any]) -> Path:
        """Where the start position comes from: [setup] fen, else the first_player that
        rewrote the base's, else the [board] that changed the base's board, else the base."""
        for key in ("fen", "first_player"):
            if key in table:
                return ("setup", key)
        return ("board",) if self.line(("board",)) is not None else ("variant", "base")
