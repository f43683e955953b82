"""The variant file reader gives the Variants it gave before its schema moved to pydantic.

``data/variant_files.json`` holds, for each shipped example and each built-in variant (and
option) written out with ``variant_to_toml``, the Variant the hand-written reader built,
recorded before the rewrite. Regenerate it only for a deliberate change of the format:
``python -m tests.test_variant_files_unchanged``.
"""

from __future__ import annotations

import dataclasses
import json
from enum import Enum
from pathlib import Path
from typing import Any

import pytest

from damier import all_variants, get_variant
from damier.rules.variant_file import load_variant_file, parse_variant_text, variant_to_toml

ROOT = Path(__file__).resolve().parents[1]
RECORDED = Path(__file__).parent / "data" / "variant_files.json"
EXAMPLES = sorted((ROOT / "examples" / "variants").glob("*.toml"))
UNWRITABLE = {"hex3+english-rules"}
"""Built-ins a file cannot say: English men capture only forward-diagonally, and the hexagon
has no diagonals (the file reader refuses a hexagon list with diagonals only)."""


def _builtin_names() -> list[str]:
    names = []
    for variant in all_variants():
        names += [variant.name, *(f"{variant.name}+{option}" for option in variant.option_names)]
        if not variant.giveaway:
            names.append(f"{variant.name}-giveaway")
    return [name for name in dict.fromkeys(names) if name not in UNWRITABLE]


def canonical(value: Any) -> Any:
    """``value`` as JSON that does not depend on set order or hash seed."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: canonical(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"type": type(value).__name__, **fields}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, frozenset):
        return sorted((canonical(item) for item in value), key=repr)
    if isinstance(value, tuple | list):
        return [canonical(item) for item in value]
    return value


def _key(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _loaded() -> dict[str, Any]:
    loaded = {_key(path): load_variant_file(path) for path in EXAMPLES}
    for name in _builtin_names():
        loaded[name] = parse_variant_text(variant_to_toml(get_variant(name)), source=name)
    return loaded


@pytest.fixture(scope="module")
def recorded() -> dict[str, Any]:
    result: dict[str, Any] = json.loads(RECORDED.read_text())
    return result


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.name)
def test_example_gives_the_recorded_variant(path: Path, recorded: dict[str, Any]) -> None:
    assert canonical(load_variant_file(path)) == recorded[_key(path)]


@pytest.mark.parametrize("name", _builtin_names())
def test_builtin_written_out_gives_the_recorded_variant(
    name: str, recorded: dict[str, Any]
) -> None:
    text = variant_to_toml(get_variant(name))
    assert canonical(parse_variant_text(text, source=name)) == recorded[name]


if __name__ == "__main__":
    entries = sorted(_loaded().items())
    lines = [f"{json.dumps(key)}: {json.dumps(canonical(v), sort_keys=True)}" for key, v in entries]
    RECORDED.write_text("{\n" + ",\n".join(lines) + "\n}\n")  # one variant a line
