"""Errors in a variant file: each on its line, in one sentence, in the file's own terms.

tomllib reports where its syntax errors are, and pydantic where a value sits in the
document it was given; a light scan of the text finds the line of every table and key.
:func:`describe_error` words a pydantic error the way the file is written
(``[kings] range``, ``[[draws.rule]] #2 limit``) and says what was expected.
"""

from __future__ import annotations

import difflib
import json
import re
import tomllib
from collections.abc import Iterable, Sequence
from functools import cached_property
from typing import Any, NoReturn, get_args

import annotated_types
from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails
from pydantic_core.core_schema import ErrorType

from damier.rules.variant_schema import DRAW_RULE_TABLES, TABLES, VariantDocument

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


class DocumentLines:
    """The lines of one variant file's tables and keys, to place its errors."""

    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source

    @cached_property
    def index(self) -> tuple[dict[Path, int], list[tuple[Path, int]]]:
        """The scan of :func:`_index_lines`, made only for a file with an error."""
        return _index_lines(self.text)

    def line(self, path: Path) -> int | None:
        """The line of ``path``, or of the nearest enclosing table found in the text."""
        positions = self.index[0]
        while path:
            if path in positions:
                return positions[path]
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
        repeated = self.index[1]
        if repeated:  # tomllib places "Cannot overwrite a value" at the end
            path, line = repeated[0]
            what = where(path) if path else "a key"
            return VariantFileError(
                f"not valid TOML: {what} is given twice", source=self.source, line=line
            )
        return VariantFileError(
            f"not valid TOML: {message} (at the end of the file)",
            source=self.source,
            line=max(self.text.count("\n") + (0 if self.text.endswith("\n") else 1), 1),
        )

    def schema_error(self, error: ValidationError) -> VariantFileError:
        """The first of pydantic's errors in the file's order (a file fixed one error at a
        time reads top to bottom)."""
        problems = []
        for details in error.errors(include_url=False):
            path, message = describe_error(details)
            problems.append((details["type"] == "missing", self.line(path), message))
        # A missing key is placed on its table's line, above any misspelling of it: last.
        _, line, message = min(problems, key=lambda p: (p[0], p[1] is None, p[1] or 0))
        return VariantFileError(message, source=self.source, line=line)


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
    depth, string, escaped = 0, "", False
    for char in text:
        if string:
            if escaped:
                escaped = False
            elif char == "\\" and string == '"':
                escaped = True
            elif char == string:
                string = ""
        elif char in "\"'":
            string = char
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


# --------------------------------------------------------------------------- pydantic's errors


def describe_error(error: ErrorDetails) -> tuple[Path, str]:
    """Where in the document a pydantic error is, and what is wrong, in one sentence."""
    kind, value, ctx = error["type"], error["input"], error.get("ctx", {})
    table_error = kind in _TABLE_TYPES or kind.startswith("union_tag_")
    path, tag, in_item = _document_path(error["loc"], keep_index=table_error)
    if kind == "union_tag_not_found":
        return path, f"{where(path)} needs a kind: {known(DRAW_RULE_TABLES)}"
    if kind == "union_tag_invalid":  # the kind of a [[draws.rule]]
        path, value = (*path, "kind"), value["kind"]
    here = where(path)
    if kind not in _PYDANTIC_ERRORS:  # one of the schema's own, naming its place {where}
        return path, error["msg"].replace("{where}", here)
    if kind == "extra_forbidden":
        return path, _unknown_key(path, tag, value)
    if kind == "missing":
        return path[:-1], _missing(path, tag)
    if kind in ("enum", "literal_error", "union_tag_invalid"):
        names = re.findall(r"'([^']*)'", ctx.get("expected") or ctx["expected_tags"])
        return path, one_of(here, value, names, in_list=in_item)
    field = _field_at(path, tag)
    if field is not None and field.description:
        return path, f"{here} must be {field.description}, not {describe(value)}" + (
            " in it" if in_item else ""
        )
    if kind in ("greater_than_equal", "less_than_equal"):
        return path, f"{here} must be {_bounds(field, ctx)}, not {value}"
    if kind in _TABLE_TYPES:
        hint = f" (a line {here} followed by its keys)" if len(path) == 1 else ""
        return path, f"{here} must be a table{hint}, not {describe(value)}"
    if kind in _EXPECTED:
        return path, f"{here} must be {_EXPECTED[kind]}, not {describe(value)}"
    return path, f"{here}: {error['msg']}"


_PYDANTIC_ERRORS = frozenset(get_args(ErrorType))
_TABLE_TYPES = ("model_type", "model_attributes_type", "dict_type")
_EXPECTED = {
    "string_type": "a string",
    "bool_type": "true or false",
    "int_type": "a whole number",
    "list_type": "a list",
    "tuple_type": "a list",
}
"""What a value of the wrong type should have been, by pydantic error type."""


def _document_path(loc: Path, *, keep_index: bool) -> tuple[Path, str | None, bool]:
    """A pydantic location as a path into the document: the [[draws.rule]] kind pydantic
    puts after a rule's index taken out, and a list's item index dropped (the error is
    placed on the list). Also returns that kind, and whether an index was dropped."""
    path: list[str | int] = []
    tag = None
    tables = 0  # the path's length to the last [[draws.rule]] index
    for step in loc:
        if isinstance(step, str) and path and isinstance(path[-1], int) and tag is None:
            tag, tables = step, len(path)
        else:
            path.append(step)
    in_item = False
    while not keep_index and len(path) > tables and isinstance(path[-1], int):
        path.pop()
        in_item = True
    return tuple(path), tag, in_item


def _table_at(path: Path, tag: str | None) -> type[BaseModel]:
    if tag is not None:
        return DRAW_RULE_TABLES[tag]
    return TABLES[str(path[0])] if path else VariantDocument


def _keys(table: type[BaseModel]) -> dict[str, Any]:
    """A table's keys as a file writes them, with their pydantic fields."""
    return {field.alias or name: field for name, field in table.model_fields.items()}


def _field_at(path: Path, tag: str | None) -> Any:
    return _keys(_table_at(path[:-1], tag)).get(str(path[-1])) if path else None


def _unknown_key(path: Path, tag: str | None, value: object) -> str:
    key = str(path[-1])
    names = list(_keys(_table_at(path[:-1], tag)))
    if len(path) > 1:
        return (
            f"unknown key {quote(key)} in {where(path[:-1])}{_suggest(key, names)}; "
            f"known keys: {known(names)}"
        )
    if isinstance(value, dict):
        message = f"unknown table [{key}]{_suggest(key, names)}"
    else:
        message = (
            f"unknown key {quote(key)} at the top of the file{_suggest(key, names)}; "
            "every key belongs in a table"
        )
    return f"{message}; known tables: {', '.join(names)}"


def _missing(path: Path, tag: str | None) -> str:
    key = str(path[-1])
    if tag is not None:
        return f"a {tag} rule needs {key}"
    if len(path) == 1:
        needed = [
            _example(name, field)
            for name, field in _keys(TABLES[key]).items()
            if field.is_required()
        ]
        return f"the file needs a [{key}] table with at least {', '.join(needed)}"
    field = _field_at(path, tag)
    example = f", e.g. {_example(key, field)}" if field.examples else ""
    return f"{where(path[:-1])} needs {key}{example}"


def _example(key: str, field: Any) -> str:
    return f"{key} = {quote(field.examples[0])}" if field.examples else key


def _bounds(field: Any, ctx: dict[str, Any]) -> str:
    low, high = ctx.get("ge"), ctx.get("le")
    for bound in field.metadata if field is not None else ():
        if isinstance(bound, annotated_types.Ge):
            low = bound.ge
        elif isinstance(bound, annotated_types.Le):
            high = bound.le
    if low is not None and high is not None:
        return f"between {low} and {high}"
    return f"at least {low}" if low is not None else f"at most {high}"


def one_of(here: str, value: object, names: Sequence[str], *, in_list: bool = False) -> str:
    """The error for ``value`` at ``here`` (or in the list at ``here``) not in ``names``."""
    if not isinstance(value, str):
        verb = "list some of" if in_list else "be one of"
        return f"{here} must {verb} {known(names)}, not {describe(value)}"
    if in_list:
        return f"unknown {quote(value)} in {here}{_suggest(value, names)}; known: {known(names)}"
    return f"{here} must be one of {known(names)}, not {quote(value)}{_suggest(value, names)}"


# --------------------------------------------------------------------------- wording


def where(path: Path) -> str:
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


def quote(text: str) -> str:
    """``text`` as a TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(text, ensure_ascii=False)


def describe(value: object) -> str:
    """What a value of the wrong type is, for an error message."""
    if isinstance(value, bool):
        return f"the boolean {'true' if value else 'false'}"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {quote(value)}"
    if isinstance(value, list):
        return f"the list {json.dumps(value, ensure_ascii=False, default=str)}"
    if isinstance(value, dict):
        return "a table"
    return f"a {type(value).__name__}"


def known(names: Iterable[str]) -> str:
    return ", ".join(quote(name) for name in names)


def _suggest(word: str, names: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, names, n=1)
    return f" (did you mean {quote(close[0])}?)" if close else ""
