"""Revocable sessions and names that a guest cannot borrow.

Players get a session generation (signed into their cookie; bumped to revoke every cookie
made before). Every player's name key is now kept, guests' too, folded by NFKC, case
folding and NFKC again, and only registered players' keys are unique: a guest whose name
is a registered player's is renamed "Guest NNNN".

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-28
"""

from __future__ import annotations

import secrets
import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None

_REGISTERED = sa.text("password_hash IS NOT NULL")


def _fold(name: str) -> str:
    """``services.players.name_key`` as of this revision."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join(folded.split())


def upgrade() -> None:
    op.add_column(
        "players",
        sa.Column("session_generation", sa.Integer(), nullable=False, server_default=sa.text("0")),
    )
    op.drop_index("ix_players_name_key", table_name="players")
    op.create_index("ix_players_name_key", "players", ["name_key"])
    connection = op.get_bind()
    players = sa.table(
        "players",
        sa.column("id", sa.String),
        sa.column("name", sa.String),
        sa.column("name_key", sa.String),
        sa.column("password_hash", sa.String),
    )
    rows = connection.execute(
        sa.select(players.c.id, players.c.name, players.c.name_key, players.c.password_hash)
    ).all()
    registered: dict[str, str] = {}
    taken: set[str] = {row.name_key for row in rows if row.password_hash is not None}
    for row in rows:
        if row.password_hash is not None:
            key = _fold(row.name)
            # Two registered names that only the finer folding makes one keep their keys.
            if key != row.name_key and key in taken:
                key = row.name_key or key
            registered[row.id] = key
            taken.add(key)
    updates = []
    for row in rows:
        name: str = row.name
        key = registered.get(row.id) or _fold(name)
        if row.id not in registered:
            while key in taken:  # a guest's name is a registered player's: renamed
                name = f"Guest {secrets.randbelow(9000) + 1000}"
                key = _fold(name)
        if (name, key) != (row.name, row.name_key):
            updates.append({"target": row.id, "new_name": name, "new_key": key})
    if updates:
        connection.execute(
            players.update()
            .where(players.c.id == sa.bindparam("target"))
            .values(name=sa.bindparam("new_name"), name_key=sa.bindparam("new_key")),
            updates,
        )
    op.create_index(
        "uq_players_registered_name",
        "players",
        ["name_key"],
        unique=True,
        sqlite_where=_REGISTERED,
        postgresql_where=_REGISTERED,
    )


def downgrade() -> None:
    op.drop_index("uq_players_registered_name", table_name="players")
    op.drop_index("ix_players_name_key", table_name="players")
    op.execute("UPDATE players SET name_key = NULL WHERE password_hash IS NULL")
    op.create_index("ix_players_name_key", "players", ["name_key"], unique=True)
    op.drop_column("players", "session_generation")
