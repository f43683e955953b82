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
    width = 8                      # 2..16 files (2..10 with algebraic numbering)
    height = 8                     # 2..16 ranks (so at most 256 squares)
    squares = "dark"               # "dark" | "mirrored" | "all"
    numbering = "row-by-row"       # "row-by-row" | "spanish" | "algebraic"

    [setup]
    fen = "W:W21-32:B1-12"         # required without a base; checked against the board
    first_player = "white"         # "white" | "black"; rewrites the base FEN's side to move

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
    rules = "fmjd"                 # fmjd fmjd64 wcdf apca spanish turkish repetition-only none
    # ... or the rules one by one, in the order they are checked:
    # [[draws.rule]]
    # kind = "quiet-moves"         # repetition | quiet-moves | endgame |
    # plies = 50                   #   stable-material | bare-material
    # reason = "25-move rule"

    [goal]
    giveaway = false               # true with no [draws]: repetition only (RULES.md)
    crowning_wins = false          # the first player to crown a king wins (Breakthrough)

    [hooks]
    line_moves = false             # Dameo's line move

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
from damier.rules.variants import get_variant

MIN_SIDE = 2
MAX_SIDE = 16
"""Largest width and height a file may ask for: 16 x 16 keeps a board within 256 cells and
its square names within a..p, well inside what the kernel's tables are sized for."""
MAX_CELLS = MAX_SIDE * MAX_SIDE
MAX_ALGEBRAIC_WIDTH = 10
"""Widest board with algebraic names: FEN reads ``k2`` as a king on square 2, so the k file
(the eleventh) cannot be written; wider boards must use numbers."""

NAMED_DRAW_RULES: dict[str, tuple[draws.DrawRule, ...]] = {
    "fmjd": draws.FMJD,
    "fmjd64": draws.FMJD64,
    "wcdf": draws.WCDF,
    "apca": draws.APCA,
    "spanish": draws.SPANISH_DRAWS,
    "turkish": draws.TURKISH_DRAWS,
    "repetition-only": draws.REPETITION_ONLY,
    "none": (),
}
"""The draw-rule sets a file may name with ``[draws] rules = "..."``."""

_DIRECTION_SHORTHANDS: dict[str, frozenset[Direction]] = {
    "diagonal": DIAGONAL,
    "orthogonal": ORTHOGONAL,
}
_PLAYERS = ("white", "black")
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
    first = _PLAYERS[variant.first_player]
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
    lines += [
        "",
        "[board]",
        f"width = {variant.width}",
        f"height = {variant.height}",
        f"squares = {_string(variant.board.value)}",
        f"numbering = {_string(variant.numbering.value)}",
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
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- writing


def _string(text: str) -> str:
    # A JSON string (escapes: \" \\ \n \t \uXXXX ...) is a valid TOML basic string.
    return json.dumps(text, ensure_ascii=False)


def _bool(value: bool) -> str:
    return "true" if value else "false"


def _list(items: Iterable[str]) -> str:
    return "[" + ", ".join(_string(item) for item in items) + "]"


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
            self.check_required(document)
        for table_name, spec_table in _SIMPLE_TABLES.items():
            if table_name not in document:
                continue
            table = document[table_name]
            self.check_keys(table, (table_name,), tuple(spec_table))
            for key, (field, convert) in spec_table.items():
                if key in table:
                    values[field] = convert(self, table[key], (table_name, key))
        if values["numbering"] is Numbering.ALGEBRAIC and values["width"] > MAX_ALGEBRAIC_WIDTH:
            board = document.get("board", {})
            key = "width" if "width" in board else "numbering"
            self.fail(
                ("board", key),
                f"an algebraic board may be at most {MAX_ALGEBRAIC_WIDTH} files wide (a-j), "
                f"not {values['width']}: FEN reads a leading k as the king mark, so the k file "
                'cannot be named; use numbering = "row-by-row" for a wider board',
            )
        if "draws" in document:
            values["draw_rules"] = self.draw_rules(document["draws"])
        elif values.get("giveaway") and not (base is not None and base.giveaway):
            values["draw_rules"] = draws.REPETITION_ONLY  # RULES.md decision 2
        return self.setup(document.get("setup", {}), values, base)

    def check_required(self, document: dict[str, Any]) -> None:
        missing = [
            f"[{table}] {key}"
            for table, key in _REQUIRED_WITHOUT_BASE
            if key not in document.get(table, {})
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
        first: int | None = None
        if "first_player" in table:
            first = _PLAYERS.index(
                self.choose(table["first_player"], (*path, "first_player"), _PLAYERS)
            )
        if "fen" in table:
            fen_path: Path = (*path, "fen")
            fen = self.string(table["fen"], fen_path).strip()
            if not re.match(r"[WBwb]\s*:", fen):
                self.fail(
                    fen_path,
                    "[setup] fen must start with the side to move, W: or B:, "
                    f"not {_string(fen[:12])}",
                )
            for field in fen.split(":")[1:]:
                if field.strip() and field.strip()[0].upper() not in "WB":
                    self.fail(
                        fen_path,
                        f"[setup] fen field {_string(field)}: a start position holds only the "
                        "side to move and the W and B pieces",
                    )
            if first is not None and "WB".index(fen[0].upper()) != first:
                self.fail(
                    fen_path,
                    f"[setup] fen starts with {fen[0].upper()} but first_player is "
                    f"{_string(_PLAYERS[first])}",
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
                values["start_fen"] = "WB"[first] + values["start_fen"].lstrip()[1:]
        variant = Variant(**values)
        try:
            cells, _ = parse_fen(variant, variant.start_fen)
        except ValueError as error:
            if "fen" in table:
                self.fail(fen_path, f"[setup] fen does not fit the board: {error}")
            origin = base.name if base is not None else "the base variant"
            self.fail(
                fen_path,
                f"the start position of {origin} ({variant.start_fen}) does not fit this "
                f"board: {error}; give the start position with [setup] fen",
            )
        for player, letter in enumerate("WB"):
            if not any(code in (2 * player + 1, 2 * player + 2) for code in cells.tolist()):
                self.fail(fen_path, f"the start position gives {letter} no pieces")
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


_SIMPLE_TABLES: dict[str, dict[str, tuple[str, Converter]]] = {
    "board": {
        "width": ("width", _side),
        "height": ("height", _side),
        "squares": ("board", _enum(BoardKind)),
        "numbering": ("numbering", _enum(Numbering)),
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
}
"""``[[draws.rule]] kind`` -> (rule class, key -> converter); keys are the class's fields."""
_RULE_KINDS_BY_TYPE = {rule_type: kind for kind, (rule_type, _) in _RULE_KINDS.items()}
