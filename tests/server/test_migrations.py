"""Migrations that rewrite stored data, checked on a database at the revision before."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from sqlalchemy import create_engine, text

from damier.server.store.db import alembic_config


def _upgrade(url: str, engine_url: str, revision: str) -> None:
    engine = create_engine(engine_url)
    with engine.begin() as connection:
        config = alembic_config(url)
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
    engine.dispose()


def test_the_games_of_earlier_matches_get_the_length_of_their_opening(tmp_path: Path) -> None:
    """0007: a match game stored before knows the plies of its opening (so that its first
    moves and clock replay as they were played); other games start at ply 0."""
    path = tmp_path / "old.sqlite3"
    url, engine_url = f"sqlite+aiosqlite:///{path}", f"sqlite:///{path}"
    _upgrade(url, engine_url, "0006")
    engine = create_engine(engine_url)
    with engine.begin() as connection:
        for game_id in ("opened", "plain", "single"):
            connection.execute(
                text(
                    "INSERT INTO games (id, variant, players, status, white_kind, black_kind,"
                    " start_fen, ply, created, updated, version)"
                    " VALUES (:id, 'international', 2, 'playing', 'human', 'human', 'W:W', 0,"
                    " 0, 0, 1)"
                ),
                {"id": game_id},
            )
        for number, game_id, opening in ((0, "plain", ""), (1, "opened", "32-28 19-23")):
            connection.execute(
                text(
                    "INSERT INTO match_games (match_id, number, first_white, opening, game_id)"
                    " VALUES ('m', :number, 1, :opening, :game_id)"
                ),
                {"number": number, "opening": opening, "game_id": game_id},
            )
    engine.dispose()
    _upgrade(url, engine_url, "0007")
    engine = create_engine(engine_url)
    with engine.connect() as connection:
        plies = dict(connection.execute(text("SELECT id, opening_ply FROM games")).all())
    engine.dispose()
    assert plies == {"opened": 2, "plain": 0, "single": 0}
