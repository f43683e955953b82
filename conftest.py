"""What every test run shares, the package's doctests included (this file sits above both
``src`` and ``tests``)."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(autouse=True, scope="session")
def _no_user_endgame_databases(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The engine probes the endgame databases of the user's data directory, and builds
    them when there are none: tests see only those they build."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DAMIER_EGTB_DIR", str(tmp_path_factory.mktemp("no-egtb")))
        patch.setenv("DAMIER_EGTB_AUTO", "0")  # no database built behind a test's back
        patch.setenv("DAMIER_EGTB_PIECES", "4")  # and the tests that build one build it small
        yield
