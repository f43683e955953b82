"""User-defined variants: a small TOML file that sets the switches of a :class:`Variant`.

A variant file is data and nothing else. It is read with the standard library's
:mod:`tomllib`, which only builds strings, numbers, booleans, lists and tables; every value
is then checked against a closed list of tables, keys and enum names, and turned into a
frozen :class:`Variant`. Nothing in a file is ever imported, evaluated or executed, and a
rule that needs code (Dameo's line move) can only be switched on by name, from the hooks
the kernel already has. Loading a file from a stranger is as safe as reading a FEN.

The format (every key optional unless said otherwise; a key left out keeps the value of
the ``base`` variant, or without a base the default of :class:`Variant`)::

    [variant]
    name = "mini"                  # required: lower-case letters, digits, "-" and "_"
    title = "Mini draughts"        # default: the name
    summary = "one line"           # default: ""
    base = "russian"               # a built-in variant (name, alias, -giveaway, +option)
    pdn_game_type = 25             # PDN GameType number; never taken from the base

    [board]                        # required without a base
    topology = "square"            # "square" | "radial" | "hex" (RULES.md 12)
    players = 2                    # 2..8 seats, in turn order (clockwise): white, black,
                                   #   red, green, yellow, purple, orange, cyan; a square
                                   #   board seats 2 or 4, a radial one 2..8, a hex one 3
    width = 8                      # square only: 2..16 files
    height = 8                     # square only: 2..16 ranks (so at most 256 squares)
    squares = "dark"               # "dark" | "mirrored" | "all"; radial: "dark" (diagonal
                                   #   play) or "all" (orthogonal play); hex: "all"
    numbering = "row-by-row"       # square only: "row-by-row" | "spanish" | "algebraic"
    corner = 0                     # square only: squares cut from each corner (the cross: 3)
    hub_opposite = false           # radial, dark squares: a diagonal through the centre
                                   #   goes on only into the opposite area

    [setup]
    fen = "W:W21-32:B1-12"         # required without a base; checked against the board
    first_player = "white"         # a player's name; rewrites the base FEN's side to move

    [men]                          # required without a base
    moves = ["forward-diagonal"]   # directions: forward, sideways, backward,
    captures = ["diagonal"]        #   forward-diagonal, backward-diagonal;
                                   #   shorthands: diagonal, orthogonal
    [kings]
    moves = ["diagonal"]
    captures = ["diagonal"]
    range = "flying"               # "short" | "flying"
    landing = "any"                # "any" | "next"
    stop_behind_king = false
    max_consecutive_moves = 0      # non-capturing moves a king may make in a row while its
                                   #   owner has men; 0 = no limit (Frisian: 3)
    counted_moves = "same-king"    # "same-king" (another king's move frees it) | "any-king"

    [capture]
    choice = ["most-pieces"]       # in priority order: most-pieces, with-king,
                                   #   most-kings, earliest-king; [] = free choice
    removal = "at-end"             # "at-end" | "immediate"
    no_reversal = false
    men_capture_kings = true
    king_order_matters = false
    king_value = 100              # what a captured king counts for most-value (a man: 100)

    [crowning]
    promotion = "at-end"           # "at-end" | "continue-as-king" | "ends-move"

    [draws]                        # either a named set ...
    rules = "fmjd"                 # fmjd fmjd64 wcdf apca spanish turkish multiplayer
                                   #   repetition-only none
    # ... or the rules one by one, in the order they are checked:
    # [[draws.rule]]
    # kind = "quiet-moves"         # repetition | quiet-moves | endgame | stable-material |
    # plies = 50                   #   bare-material | quiet-rounds (rounds = 25)
    # reason = "25-move rule"
    #                              # endgame, stable-material and bare-material weigh one
    #                              #   side against the other: two players only

    [goal]
    giveaway = false               # true with no [draws]: repetition only (RULES.md)
    crowning_wins = false          # the first player to crown a king wins (Breakthrough)

    [multiplayer]                  # 3 or more players only (RULES.md 12.2)
    teams = []                     # partners, e.g. [["white", "red"], ["black", "green"]]:
                                   #   equal teams of 2 or more that cover every player
    when_blocked = "eliminated"    # "eliminated" | "pass" (while he still has pieces)
    leftovers = "removed"          # an eliminated player's pieces: "removed" | "dead"
                                   #   (neutral, anyone may take them) | "to-eliminator"

    [hooks]
    line_moves = false             # Dameo's line move

A multi-player file with no ``[draws]`` (and no multi-player base) plays RULES.md 12.2's
draws, ``"multiplayer"``: a threefold repetition or 25 quiet rounds.

Every error is a :class:`VariantFileError` naming the file, the line of the offending key
when it can be found, and what is wrong.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import os
import re
import tomllib
from collections.abc import Callable, Iterable, Sequence
from enum import StrEnum
from typing import Any, NoReturn

from damier.notation.fen import parse_fen
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
    Variant,
)
from damier.rules.variants import get_variant

MIN_SIDE = 2
MAX_SIDE = 16
"""Largest width and height a file may ask for: 16 x 16 keeps a board within 256 cells and
its square names within a..p, well inside what the kernel's tables are sized for (FEN
tells a man on the k file, ``k2``, from a king, ``Kk2`` or ``K2``, by the board's names)."""
MAX_CELLS = MAX_SIDE * MAX_SIDE
MIN_PLAYERS = 2
MAX_PLAYERS = len(PLAYER_LETTERS)
"""Most players round one board: eight, one FEN letter each (W B R G Y P O C)."""
RADIAL_AREA = (8, 4)
"""Files and ranks of each player's area on a radial board (the Variant's width, height)."""
HEX_SIDE = 9
"""Rows of the hexagonal board, and cells in its middle row (the Variant's width, height)."""

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

_DIRECTION_SHORTHANDS: dict[str, frozenset[Direction]] = {
    "diagonal": DIAGONAL,
    "orthogonal": ORTHOGONAL,
}
_TWO_SIDED = (draws.Endgame, draws.StableMaterial, draws.BareMaterial)
"""Draw rules that weigh one side's material against the other's: two players only."""
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")

Path = tuple[str | int, ...]
"""Where a value sits in the document: table names, array indexes, then the key."""


class VariantFileError(ValueError):
    """A variant file that cannot be read or does not describe a playable variant.

    The message starts with the file and, when known, the line (and column) at fault.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str = "<string>",
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.message = message
        """What is wrong, without the position."""
        self.source = source
        """The file name (or ``"<string>"``)."""
        self.line = line
        """1-based line of the offending key, or None when it cannot be placed."""
        self.column = column
        """1-based column, known only for TOML syntax errors."""
        where = source
        if line is not None:
            where += f", line {line}"
            if column is not None:
                where += f", column {column}"
        super().__init__(f"{where}: {message}")


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
    return reader.variant(document)


def variant_to_toml(variant: Variant) -> str:
    """``variant`` as a complete variant file, every switch written out.

    Reading the text back with :func:`parse_variant_text` gives the same rules; the name
    is made file-safe (``italian+dark-first`` becomes ``italian-dark-first``), and aliases
    and named options are not written.
    """
    name = re.sub(r"[^a-z0-9_-]+", "-", variant.name.lower()).strip("-_") or "variant"
    first = PLAYER_NAMES[variant.first_player]
    lines = [
        f"# Damier variant file: {variant.title}",
        "# Every switch is written out; see damier.rules.variant_file for the format.",
        "",
        "[variant]",
        f"name = {_string(name)}",
        f"title = {_string(variant.title)}",
        f"summary = {_string(variant.summary)}",
    ]
    if variant.pdn_game_type is not None:
        lines.append(f"pdn_game_type = {variant.pdn_game_type}")
    lines += ["", *_board_toml(variant)]
    lines += [
        "",
        "[setup]",
        f"fen = {_string(variant.start_fen.strip())}",
        f"first_player = {_string(first)}",
        "",
        "[men]",
        f"moves = {_directions_list(variant.man_moves)}",
        f"captures = {_directions_list(variant.man_captures)}",
        "",
        "[kings]",
        f"moves = {_directions_list(variant.king_moves)}",
        f"captures = {_directions_list(variant.king_captures)}",
        f"range = {_string(variant.king_range.value)}",
        f"landing = {_string(variant.king_landing.value)}",
        f"stop_behind_king = {_bool(variant.king_stops_behind_king)}",
        f"max_consecutive_moves = {variant.max_consecutive_king_moves}",
        f"counted_moves = {_string(variant.counted_king_moves.value)}",
        "",
        "[capture]",
        f"choice = {_list(choice.value for choice in variant.choice)}",
        f"king_value = {variant.king_value}",
        f"removal = {_string(variant.removal.value)}",
        f"no_reversal = {_bool(variant.no_reversal)}",
        f"men_capture_kings = {_bool(variant.men_capture_kings)}",
        f"king_order_matters = {_bool(variant.king_order_matters)}",
        "",
        "[crowning]",
        f"promotion = {_string(variant.promotion.value)}",
        "",
        *_draws_toml(variant.draw_rules),
        "",
        "[goal]",
        f"giveaway = {_bool(variant.giveaway)}",
        f"crowning_wins = {_bool(variant.crowning_wins)}",
        "",
        "[hooks]",
        f"line_moves = {_bool(variant.line_moves)}",
    ]
    if variant.players > 2:
        teams = "[" + ", ".join(_list(PLAYER_NAMES[p] for p in team) for team in variant.teams)
        lines += [
            "",
            "[multiplayer]",
            f"teams = {teams}]",
            f"when_blocked = {_string(variant.when_blocked.value)}",
            f"leftovers = {_string(variant.leftovers.value)}",
        ]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- writing


def _string(text: str) -> str:
    # A JSON string (escapes: \" \\ \n \t \uXXXX ...) is a valid TOML basic string.
    return json.dumps(text, ensure_ascii=False)


def _bool(value: bool) -> str:
    return "true" if value else "false"


def _list(items: Iterable[str]) -> str:
    return "[" + ", ".join(_string(item) for item in items) + "]"


def _board_toml(variant: Variant) -> list[str]:
    """The [board] table: a square board's size and names; a radial or hexagonal board's
    shape follows from its topology and players."""
    lines = [
        "[board]",
        f"topology = {_string(variant.topology.value)}",
        f"players = {variant.players}",
    ]
    if variant.topology is Topology.SQUARE:
        lines += [f"width = {variant.width}", f"height = {variant.height}"]
    lines.append(f"squares = {_string(variant.board.value)}")
    if variant.topology is Topology.SQUARE:
        lines += [f"numbering = {_string(variant.numbering.value)}", f"corner = {variant.corner}"]
    if variant.topology is Topology.RADIAL and variant.board is not BoardKind.ALL:
        lines.append(f"hub_opposite = {_bool(variant.hub_opposite)}")
    return lines


def _directions_list(directions: frozenset[Direction]) -> str:
    return _list(direction.value for direction in Direction if direction in directions)


def _draws_toml(rules: tuple[draws.DrawRule, ...]) -> list[str]:
    for name, named in NAMED_DRAW_RULES.items():
        if rules == named:
            return ["[draws]", f"rules = {_string(name)}"]
    lines = ["# The draw rules one by one, in the order they are checked."]
    for rule in rules:
        lines += ["[[draws.rule]]", f"kind = {_string(_RULE_KINDS_BY_TYPE[type(rule)])}"]
        for field in dataclasses.fields(rule):
            lines.append(f"{field.name} = {_value_toml(getattr(rule, field.name))}")
        lines.append("")
    return lines[:-1] if rules else ["[draws]", 'rules = "none"']


def _value_toml(value: object) -> str:
    if isinstance(value, bool):
        return _bool(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, frozenset | tuple):
        items = sorted(value, reverse=True) if isinstance(value, frozenset) else list(value)
        return "[" + ", ".join(_value_toml(item) for item in items) + "]"
    raise TypeError(f"cannot write {value!r} in a variant file")  # pragma: no cover


# --------------------------------------------------------------------------- line index

_KEY_PART = r"""(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')"""
_DOTTED = rf"{_KEY_PART}(?:\s*\.\s*{_KEY_PART})*"
_ARRAY_HEADER = re.compile(rf"\s*\[\[\s*({_DOTTED})\s*\]\]\s*(?:#.*)?$")
_HEADER = re.compile(rf"\s*\[\s*({_DOTTED})\s*\]\s*(?:#.*)?$")
_KEY = re.compile(rf"\s*({_DOTTED})\s*=")


def _split_key(dotted: str) -> tuple[str, ...]:
    parts = re.findall(_KEY_PART, dotted)
    return tuple(part[1:-1] if part[0] in "\"'" else part for part in parts)


def _bracket_depth(text: str) -> int:
    """Open ``[`` minus closed ``]`` in a line of TOML, outside strings and comments."""
    depth, quote, escaped = 0, "", False
    for char in text:
        if quote:
            if escaped:
                escaped = False
            elif char == "\\" and quote == '"':
                escaped = True
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "#":
            break
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
    return depth


def _index_lines(text: str) -> tuple[dict[Path, int], list[tuple[Path, int]]]:
    """The line of each table header and key (first occurrence), and any path given twice.

    A light scan, not a parser: tomllib has already accepted the text (or will report its
    own position), so it only needs to find lines, not to judge them.
    """
    positions: dict[Path, int] = {}
    repeated: list[tuple[Path, int]] = []
    table: Path = ()
    arrays: dict[Path, int] = {}
    multiline = ""  # the delimiter of a multi-line string being skipped
    depth = 0  # open brackets of a multi-line array or inline table being skipped
    for number, line in enumerate(text.splitlines(), start=1):
        if multiline:
            if line.count(multiline) % 2 == 1:
                multiline = ""
            continue
        if depth > 0:
            depth += _bracket_depth(line)
            continue
        match = _ARRAY_HEADER.match(line)
        if match:
            parts = _split_key(match.group(1))
            arrays[parts] = arrays.get(parts, -1) + 1
            table = (*parts, arrays[parts])
            positions.setdefault(table, number)
            positions.setdefault(parts, number)
            continue
        match = _HEADER.match(line)
        if match:
            table = _split_key(match.group(1))
            if table in positions:
                repeated.append((table, number))
            positions.setdefault(table, number)
            continue
        match = _KEY.match(line)
        if match:
            parts = _split_key(match.group(1))
            path = (*table, *parts)
            if path in positions:
                repeated.append((path, number))
            for end in range(1, len(parts) + 1):  # a.b = 1 also places the table a
                positions.setdefault((*table, *parts[:end]), number)
            rest = line[match.end() :]
            for delimiter in ('"""', "'''"):
                if rest.count(delimiter) % 2 == 1:
                    multiline = delimiter
                    break
            else:
                depth = max(_bracket_depth(rest), 0)
    return positions, repeated


def _where(path: Path) -> str:
    """``path`` as a person reads it: ``[kings] range``, ``[[draws.rule]] #2 limit``."""
    tables = [part for part in path[:-1] if isinstance(part, str)]
    index = next((part for part in path if isinstance(part, int)), None)
    key = path[-1]
    if isinstance(key, int):
        return f"[[{'.'.join(tables)}]] #{key + 1}"
    if not tables:
        return f"[{key}]"
    head = f"[[{'.'.join(tables)}]] #{index + 1}" if index is not None else f"[{'.'.join(tables)}]"
    return f"{head} {key}"


def _describe(value: object) -> str:
    """What a value of the wrong type is, for an error message."""
    if isinstance(value, bool):
        return f"the boolean {_bool(value)}"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {_string(value)}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return f"a {type(value).__name__}"


def _known(names: Iterable[str]) -> str:
    return ", ".join(_string(name) for name in names)


def _either(words: Sequence[str]) -> str:
    """``["W", "B", "R"]`` -> ``"W, B or R"``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _suggest(word: str, names: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, names, n=1)
    return f" (did you mean {_string(close[0])}?)" if close else ""


# --------------------------------------------------------------------------- reading

Converter = Callable[["_Reader", object, Path], Any]


class _Reader:
    """Turns one parsed document into a Variant, placing every error on its line."""

    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self.positions, self.repeated = _index_lines(text)

    # -- errors

    def line(self, path: Path) -> int | None:
        """The line of ``path``, or of the nearest enclosing table found in the text."""
        while path:
            if path in self.positions:
                return self.positions[path]
            path = path[:-1]
        return None

    def fail(self, path: Path, message: str) -> NoReturn:
        raise VariantFileError(message, source=self.source, line=self.line(path))

    def syntax_error(self, error: tomllib.TOMLDecodeError) -> VariantFileError:
        text = str(error)
        match = re.search(r"\s*\(at line (\d+), column (\d+)\)$", text)
        if match:
            return VariantFileError(
                f"not valid TOML: {text[: match.start()]}",
                source=self.source,
                line=int(match.group(1)),
                column=int(match.group(2)),
            )
        message = re.sub(r"\s*\(at end of document\)$", "", text)
        if self.repeated:  # tomllib places "Cannot overwrite a value" at the end
            path, line = self.repeated[0]
            what = _where(path) if path else "a key"
            return VariantFileError(
                f"not valid TOML: {what} is given twice", source=self.source, line=line
            )
        return VariantFileError(
            f"not valid TOML: {message} (at the end of the file)",
            source=self.source,
            line=max(self.text.count("\n") + (0 if self.text.endswith("\n") else 1), 1),
        )

    # -- typed values

    def table(self, value: object, path: Path) -> dict[str, Any]:
        if not isinstance(value, dict):
            where = _where(path)
            hint = f" (a line {where} followed by its keys)" if len(path) == 1 else ""
            self.fail(path, f"{where} must be a table{hint}, not {_describe(value)}")
        return value

    def check_keys(self, table: dict[str, Any], path: Path, known: Sequence[str]) -> None:
        for key in table:
            if key not in known:
                self.fail(
                    (*path, key),
                    f"unknown key {_string(key)} in {_where(path)}{_suggest(key, known)}; "
                    f"known keys: {_known(known)}",
                )

    def string(self, value: object, path: Path) -> str:
        if not isinstance(value, str):
            self.fail(path, f"{_where(path)} must be a string, not {_describe(value)}")
        return value

    def boolean(self, value: object, path: Path) -> bool:
        if not isinstance(value, bool):
            self.fail(path, f"{_where(path)} must be true or false, not {_describe(value)}")
        return value

    def integer(self, value: object, path: Path, low: int, high: int | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(path, f"{_where(path)} must be a whole number, not {_describe(value)}")
        if value < low or (high is not None and value > high):
            bounds = f"between {low} and {high}" if high is not None else f"at least {low}"
            self.fail(path, f"{_where(path)} must be {bounds}, not {value}")
        return value

    def items(self, value: object, path: Path) -> list[Any]:
        if not isinstance(value, list):
            self.fail(path, f"{_where(path)} must be a list, not {_describe(value)}")
        return value

    def choose(self, value: object, path: Path, names: Sequence[str]) -> str:
        text = self.string(value, path)
        if text not in names:
            self.fail(
                path,
                f"{_where(path)} must be one of {_known(names)}, "
                f"not {_string(text)}{_suggest(text, names)}",
            )
        return text

    def names_list(self, value: object, path: Path, names: Sequence[str], what: str) -> list[str]:
        chosen: list[str] = []
        for item in self.items(value, path):
            if not isinstance(item, str):
                self.fail(path, f"{_where(path)} must list {what} names, not {_describe(item)}")
            if item not in names:
                self.fail(
                    path,
                    f"unknown {what} {_string(item)} in {_where(path)}"
                    f"{_suggest(item, names)}; known: {_known(names)}",
                )
            if item in chosen:
                self.fail(path, f"{what} {_string(item)} is listed twice in {_where(path)}")
            chosen.append(item)
        return chosen

    # -- the document

    def variant(self, document: dict[str, Any]) -> Variant:
        for key, value in document.items():
            if key not in _TABLES:
                if isinstance(value, dict):
                    message = f"unknown table [{key}]{_suggest(key, _TABLES)}"
                else:
                    message = (
                        f"unknown key {_string(key)} at the top of the file{_suggest(key, _TABLES)}"
                        "; every key belongs in a table"
                    )
                self.fail((key,), f"{message}; known tables: {', '.join(_TABLES)}")
            self.table(value, (key,))
        if "variant" not in document:
            raise VariantFileError(
                'the file needs a [variant] table with at least name = "..."', source=self.source
            )
        head = document["variant"]
        self.check_keys(head, ("variant",), _VARIANT_KEYS)
        if "name" not in head:
            self.fail(("variant",), '[variant] needs a name, e.g. name = "my-variant"')
        name = self.string(head["name"], ("variant", "name"))
        if not _NAME.fullmatch(name):
            self.fail(
                ("variant", "name"),
                f"name {_string(name)} must be lower-case letters, digits, '-' and '_', "
                "starting with a letter or digit",
            )
        values: dict[str, Any] = {"name": name}
        base: Variant | None = None
        if "base" in head:
            spec = self.string(head["base"], ("variant", "base"))
            try:
                base = get_variant(spec)
            except ValueError as error:  # an unknown name, or an unknown +option
                self.fail(("variant", "base"), f"[variant] base: {error}")
            values |= {field.name: getattr(base, field.name) for field in _FIELDS}
            # Not rules, or no longer true once the file changes a rule:
            values |= {"name": name, "aliases": (), "options": (), "pdn_game_type": None}
            values["summary"] = ""
        values["title"] = name
        for key in ("title", "summary"):
            if key in head:
                values[key] = self.string(head[key], ("variant", key))
        if "pdn_game_type" in head:
            values["pdn_game_type"] = self.integer(
                head["pdn_game_type"], ("variant", "pdn_game_type"), 1
            )
        if base is None:
            values |= {
                field.name: field.default
                for field in _FIELDS
                if field.default is not dataclasses.MISSING and field.name not in values
            }
        for table_name, spec_table in _SIMPLE_TABLES.items():
            if table_name not in document:
                continue
            table = document[table_name]
            self.check_keys(table, (table_name,), tuple(spec_table))
            for key, (field, convert) in spec_table.items():
                if key in table:
                    values[field] = convert(self, table[key], (table_name, key))
        if base is None:
            self.check_required(document, values["topology"])
        self.shape(document, values)
        self.directions(document, values, base)
        self.seats(document, values)
        if "draws" in document:
            values["draw_rules"] = self.draw_rules(document["draws"])
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
                names = _known(d.value for d in Direction if d in stray)
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
                    f"the draw rule {_string(rule.reason)} weighs one side against the other, "
                    f"so it is for two players only, not {values['players']}; "
                    'use [draws] rules = "multiplayer" (RULES.md 12.2)',
                )

    def check_required(self, document: dict[str, Any], topology: Topology) -> None:
        fixed = {Topology.SQUARE: (), Topology.RADIAL: _SQUARE_ONLY}.get(
            topology, (*_SQUARE_ONLY, "squares")
        )
        missing = [
            f"[{table}] {key}"
            for table, key in _REQUIRED_WITHOUT_BASE
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
        self.check_keys(table, path, _SETUP_KEYS)
        players: int = values["players"]
        letters = PLAYER_LETTERS[:players]
        first: int | None = None
        if "first_player" in table:
            first = PLAYER_NAMES.index(
                self.choose(table["first_player"], (*path, "first_player"), PLAYER_NAMES[:players])
            )
        if "fen" in table:
            fen_path: Path = (*path, "fen")
            fen = self.string(table["fen"], fen_path).strip()
            if not re.match(rf"[{letters}{letters.lower()}]\s*:", fen):
                self.fail(
                    fen_path,
                    "[setup] fen must start with the side to move, "
                    f"{_either([f'{letter}:' for letter in letters])}, not {_string(fen[:12])}",
                )
            for field in fen.split(":")[1:]:
                if field.strip() and field.strip()[0].upper() not in letters:
                    self.fail(
                        fen_path,
                        f"[setup] fen field {_string(field[:12])}: a start position holds only "
                        f"the side to move and the pieces of {_either(list(letters))}",
                    )
            if first is not None and letters.index(fen[0].upper()) != first:
                self.fail(
                    fen_path,
                    f"[setup] fen starts with {fen[0].upper()} but first_player is "
                    f"{_string(PLAYER_NAMES[first])}",
                )
            values["start_fen"] = fen
        else:
            if "first_player" in table:
                fen_path = (*path, "first_player")
            elif ("board",) in self.positions:
                fen_path = ("board",)
            else:
                fen_path = ("variant", "base")
            if first is not None:
                values["start_fen"] = letters[first] + values["start_fen"].lstrip()[1:]
        origin = base.name if base is not None else "the base variant"
        variant = Variant(**values)
        try:
            cells, _ = parse_fen(variant, variant.start_fen)
        except (ValueError, IndexError) as error:
            if "fen" in table:
                self.fail(fen_path, f"[setup] fen does not fit the board: {error}")
            self.fail(
                fen_path,
                f"the start position of {origin} ({variant.start_fen}) does not fit this "
                f"board: {error}; give the start position with [setup] fen",
            )
        codes = cells.tolist()
        for player, letter in enumerate(letters):
            if not any(code in (2 * player + 1, 2 * player + 2) for code in codes):
                hint = "" if "fen" in table else f" (it is {origin}'s); give it with [setup] fen"
                self.fail(
                    fen_path,
                    f"the start position gives {letter} ({PLAYER_NAMES[player]}) no pieces{hint}",
                )
        return variant

    def draw_rules(self, value: object) -> tuple[draws.DrawRule, ...]:
        path: Path = ("draws",)
        table = self.table(value, path)
        self.check_keys(table, path, ("rules", "rule"))
        if "rules" in table and "rule" in table:
            self.fail(
                (*path, "rules"),
                '[draws] takes either rules = "<set>" or [[draws.rule]] tables, not both',
            )
        if "rules" in table:
            name = self.choose(table["rules"], (*path, "rules"), tuple(NAMED_DRAW_RULES))
            return NAMED_DRAW_RULES[name]
        if "rule" not in table:
            self.fail(path, '[draws] needs rules = "<set>" or [[draws.rule]] tables')
        if isinstance(table["rule"], dict):
            self.fail(
                (*path, "rule"),
                "write each draw rule as a [[draws.rule]] table (double brackets), "
                "not a single [draws.rule]",
            )
        rules = self.items(table["rule"], (*path, "rule"))
        return tuple(
            self.draw_rule(rule, (*path, "rule", index)) for index, rule in enumerate(rules)
        )

    def draw_rule(self, value: object, path: Path) -> draws.DrawRule:
        table = self.table(value, path)
        if "kind" not in table:
            self.fail(path, f"{_where(path)} needs a kind: {_known(_RULE_KINDS)}")
        kind = self.choose(table["kind"], (*path, "kind"), tuple(_RULE_KINDS))
        rule_type, fields = _RULE_KINDS[kind]
        self.check_keys(table, path, ("kind", *fields))
        arguments = {
            key: convert(self, table[key], (*path, key))
            for key, convert in fields.items()
            if key in table
        }
        required = [
            field.name
            for field in dataclasses.fields(rule_type)
            if field.default is dataclasses.MISSING
            and field.name not in arguments
            and field.name != "reason"
        ]
        if required:
            self.fail(path, f"a {kind} rule needs {', '.join(required)}")
        arguments.setdefault("reason", _default_reason(kind, arguments))
        if rule_type is draws.Endgame:
            has_strong = bool(arguments.get("strong"))
            has_kings = bool(arguments.get("min_strong_kings"))
            if has_strong == has_kings:
                self.fail(
                    path,
                    "an endgame rule needs exactly one of strong = [[kings, men], ...] "
                    "and min_strong_kings = N",
                )
        rule: draws.DrawRule = rule_type(**arguments)
        return rule


def _default_reason(kind: str, arguments: dict[str, Any]) -> str:
    if kind == "repetition":
        return "threefold repetition" if arguments.get("times", 3) == 3 else "repetition"
    if kind == "quiet-moves":
        plies = arguments["plies"]
        return f"{plies // 2}-move rule" if plies % 2 == 0 else f"{plies}-ply rule"
    if kind == "bare-material":
        return "one piece each"
    if kind == "stable-material":
        return "unchanged material"
    if kind == "quiet-rounds":
        return f"{arguments['rounds']} rounds without a capture or a man move"
    return "endgame rule"


# --------------------------------------------------------------------------- the schema


def _enum(kind: type[StrEnum]) -> Converter:
    names = tuple(member.value for member in kind)

    def convert(reader: _Reader, value: object, path: Path) -> StrEnum:
        return kind(reader.choose(value, path, names))

    return convert


def _side(reader: _Reader, value: object, path: Path) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value > MAX_SIDE:
        reader.fail(
            path,
            f"board too large: {_where(path)} is {value}, but the kernel takes boards of at "
            f"most {MAX_SIDE} x {MAX_SIDE} ({MAX_CELLS} squares)",
        )
    return reader.integer(value, path, MIN_SIDE, MAX_SIDE)


def _players(reader: _Reader, value: object, path: Path) -> int:
    return reader.integer(value, path, MIN_PLAYERS, MAX_PLAYERS)


def _directions(reader: _Reader, value: object, path: Path) -> frozenset[Direction]:
    names = (*(direction.value for direction in Direction), *_DIRECTION_SHORTHANDS)
    chosen: set[Direction] = set()
    for name in reader.names_list(value, path, names, "direction"):
        chosen |= _DIRECTION_SHORTHANDS.get(name) or {Direction(name)}
    return frozenset(chosen)


def _choices(reader: _Reader, value: object, path: Path) -> tuple[Choice, ...]:
    names = tuple(choice.value for choice in Choice)
    return tuple(Choice(name) for name in reader.names_list(value, path, names, "choice criterion"))


def _boolean(reader: _Reader, value: object, path: Path) -> bool:
    return reader.boolean(value, path)


def _text(reader: _Reader, value: object, path: Path) -> str:
    return reader.string(value, path)


def _count(low: int) -> Converter:
    def convert(reader: _Reader, value: object, path: Path) -> int:
        return reader.integer(value, path, low)

    return convert


def _tuples(size: int, what: str) -> Converter:
    def convert(reader: _Reader, value: object, path: Path) -> list[tuple[int, ...]]:
        rows = []
        for row in reader.items(value, path):
            if (
                not isinstance(row, list)
                or len(row) != size
                or any(isinstance(item, bool) or not isinstance(item, int) for item in row)
                or any(item < 0 for item in row)
            ):
                reader.fail(
                    path,
                    f"{_where(path)} must be a list of [{what}] lists of {size} whole numbers, "
                    f"not {_describe(row) if not isinstance(row, list) else row}",
                )
            rows.append(tuple(row))
        return rows

    return convert


def _strong(reader: _Reader, value: object, path: Path) -> frozenset[tuple[int, int]]:
    pairs = _tuples(2, "kings, men")(reader, value, path)
    return frozenset((kings, men) for kings, men in pairs)


def _plies_by_pieces(
    reader: _Reader, value: object, path: Path
) -> tuple[tuple[int, int, int], ...]:
    rows = _tuples(3, "fewest pieces, most pieces, plies")(reader, value, path)
    for low, high, _ in rows:
        if low > high:
            reader.fail(path, f"{_where(path)}: range {low}-{high} runs backwards")
    return tuple((low, high, plies) for low, high, plies in rows)


def _teams(reader: _Reader, value: object, path: Path) -> tuple[tuple[int, ...], ...]:
    """Lists of player names; whether they split the players fairly is checked once the
    number of players is known."""
    teams = []
    for team in reader.items(value, path):
        if not isinstance(team, list):
            reader.fail(
                path,
                f"{_where(path)} must be a list of teams, each a list of player names "
                f'(e.g. [["white", "red"], ["black", "green"]]), not {_describe(team)} in it',
            )
        teams.append(tuple(PLAYER_NAMES.index(name) for name in _names(reader, team, path)))
    return tuple(teams)


def _names(reader: _Reader, team: list[Any], path: Path) -> list[str]:
    return reader.names_list(team, path, PLAYER_NAMES, "player")


_SIMPLE_TABLES: dict[str, dict[str, tuple[str, Converter]]] = {
    "board": {
        "topology": ("topology", _enum(Topology)),
        "players": ("players", _players),
        "width": ("width", _side),
        "height": ("height", _side),
        "squares": ("board", _enum(BoardKind)),
        "numbering": ("numbering", _enum(Numbering)),
        "corner": ("corner", _count(0)),
        "hub_opposite": ("hub_opposite", _boolean),
    },
    "men": {
        "moves": ("man_moves", _directions),
        "captures": ("man_captures", _directions),
    },
    "kings": {
        "moves": ("king_moves", _directions),
        "captures": ("king_captures", _directions),
        "range": ("king_range", _enum(Range)),
        "landing": ("king_landing", _enum(Landing)),
        "stop_behind_king": ("king_stops_behind_king", _boolean),
        "max_consecutive_moves": ("max_consecutive_king_moves", _count(0)),
        "counted_moves": ("counted_king_moves", _enum(CountedKingMoves)),
    },
    "capture": {
        "choice": ("choice", _choices),
        "king_value": ("king_value", _count(1)),
        "removal": ("removal", _enum(Removal)),
        "no_reversal": ("no_reversal", _boolean),
        "men_capture_kings": ("men_capture_kings", _boolean),
        "king_order_matters": ("king_order_matters", _boolean),
    },
    "crowning": {"promotion": ("promotion", _enum(Promotion))},
    "goal": {
        "giveaway": ("giveaway", _boolean),
        "crowning_wins": ("crowning_wins", _boolean),
    },
    "hooks": {"line_moves": ("line_moves", _boolean)},
    "multiplayer": {
        "teams": ("teams", _teams),
        "when_blocked": ("when_blocked", _enum(Blocked)),
        "leftovers": ("leftovers", _enum(Leftovers)),
    },
}
"""Tables whose keys each set one field of :class:`Variant`: key -> (field, converter)."""

_VARIANT_KEYS = ("name", "title", "summary", "base", "pdn_game_type")
_SETUP_KEYS = ("fen", "first_player")
_TABLES = (
    "variant",
    "board",
    "setup",
    "men",
    "kings",
    "capture",
    "crowning",
    "draws",
    "goal",
    "hooks",
    "multiplayer",
)
_REQUIRED_WITHOUT_BASE = (
    ("board", "width"),
    ("board", "height"),
    ("board", "squares"),
    ("board", "numbering"),
    ("setup", "fen"),
    ("men", "moves"),
    ("men", "captures"),
)
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

_RULE_KINDS: dict[str, tuple[type[Any], dict[str, Converter]]] = {
    "repetition": (draws.Repetition, {"times": _count(2), "reason": _text}),
    "quiet-moves": (draws.QuietMoves, {"plies": _count(1), "reason": _text}),
    "endgame": (
        draws.Endgame,
        {
            "reason": _text,
            "limit": _count(1),
            "strong": _strong,
            "min_strong_kings": _count(0),
            "strong_moves_only": _boolean,
            "restarts": _boolean,
            "lone_king_on_main_diagonal": _boolean,
            "strong_king_on_main_diagonal": _boolean,
        },
    ),
    "stable-material": (
        draws.StableMaterial,
        {"reason": _text, "plies_by_pieces": _plies_by_pieces},
    ),
    "bare-material": (draws.BareMaterial, {"reason": _text, "king_beats_man": _boolean}),
    "quiet-rounds": (draws.QuietRounds, {"rounds": _count(1), "reason": _text}),
}
"""``[[draws.rule]] kind`` -> (rule class, key -> converter); keys are the class's fields."""
_RULE_KINDS_BY_TYPE = {rule_type: kind for kind, (rule_type, _) in _RULE_KINDS.items()}
