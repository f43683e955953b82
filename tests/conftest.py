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


@pytest.fixture(autouse=True, scope="session")
def _no_user_endgame_databases(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The engine probes the endgame databases of the user's data directory, and builds
    them when there are none: tests see only those they build."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DAMIER_EGTB_DIR", str(tmp_path_factory.mktemp("no-egtb")))
        patch.setenv("DAMIER_EGTB_AUTO", "0")  # no database built behind a test's back
        patch.setenv("DAMIER_EGTB_PIECES", "4")  # and the tests that build one build it small
        yield
