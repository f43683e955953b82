"""Shared test helpers: the published perft numbers and the variant names."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

PERFT_JSON = Path(__file__).resolve().parent / "data" / "perft.json"
"""The published perft numbers, each entry with its source (kept in the repository so that
a plain clone tests against them)."""


def perft_reference() -> list[dict[str, Any]]:
    """The entries of ``tests/data/perft.json``."""
    entries: list[dict[str, Any]] = json.loads(PERFT_JSON.read_text())
    return entries


@pytest.fixture(scope="session")
def reference() -> list[dict[str, Any]]:
    return perft_reference()
