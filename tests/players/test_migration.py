"""Migration 0010: the rating history of the games rated before it is rebuilt by
replaying them, and equals the history written as the games were rated."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic import command
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from damier.server.store.db import alembic_config
from tests.players.helpers import browser, drawn, register, won_by
from tests.server.conftest import SERVER_DATABASE, AppFactory, FakeTime

pytestmark = pytest.mark.skipif(SERVER_DATABASE is not None, reason="reads the SQLite file")


def _migrate(path: Path, revision: str, down: bool = False) -> None:
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as connection:
        config = alembic_config(f"sqlite+aiosqlite:///{path}")
        config.attributes["connection"] = connection
        (command.downgrade if down else command.upgrade)(config, revision)
    engine.dispose()


def _history(path: Path) -> list[tuple[str, str, str, float, float, float]]:
    engine = create_engine(f"sqlite:///{path}")
    with engine.connect() as connection:
        rows = connection.execute(
            text(
                "SELECT player_id, game_id, variant, at, rating, deviation FROM rating_history"
                " ORDER BY at, game_id, player_id"
            )
        ).all()
    engine.dispose()
    return [tuple(row) for row in rows]


def test_history_rebuilt_from_rated_games(make_app: AppFactory, database: Path) -> None:
    clock = FakeTime()
    with TestClient(make_app(now=clock)) as ana:
        register(ana, "Ana")
        bo, _ = browser(ana, "Bo")
        cy, _ = browser(ana, "Cy")
        for white, black, outcome, variant in (
            (ana, bo, won_by, "russian"),
            (bo, cy, drawn, "international"),
            (cy, ana, won_by, "russian"),
            (bo, ana, won_by, "russian"),
            (ana, cy, drawn, "russian"),
        ):
            outcome(white, black, variant)
            clock.advance(30)
    written = _history(database)
    assert len(written) == 10
    _migrate(database, "0009", down=True)
    _migrate(database, "0010")
    rebuilt = _history(database)
    assert [row[:4] for row in rebuilt] == [row[:4] for row in written]
    for new, old in zip(rebuilt, written, strict=True):
        assert new[4] == pytest.approx(old[4]) and new[5] == pytest.approx(old[5])
