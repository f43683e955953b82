"""Shared test helpers: the published perft numbers and the variant names."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
PERFT_JSON = SHARED / "reference" / "perft.json"


def perft_reference() -> list[dict[str, Any]]:
    """The entries of ``shared/reference/perft.json`` (empty if the file is missing)."""
    if not PERFT_JSON.exists():
        return []
    entries: list[dict[str, Any]] = json.loads(PERFT_JSON.read_text())
    return entries


@pytest.fixture(scope="session")
def reference() -> list[dict[str, Any]]:
    entries = perft_reference()
    if not entries:
        pytest.skip(f"{PERFT_JSON} not found")
    return entries


@pytest.fixture(autouse=True, scope="session")
def _no_user_endgame_databases(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The engine probes the endgame databases of the user's data directory: tests see
    only those they build."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DAMIER_EGTB_DIR", str(tmp_path_factory.mktemp("no-egtb")))
        yield
