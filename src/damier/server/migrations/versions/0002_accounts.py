"""Accounts: registered players (name key, password hash), ratings per variant, and
whether a game was rated.

Revision ID: 0002
Revises: 0001
Create Date: 2024-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # Plain ADD COLUMN and CREATE INDEX: no table is rebuilt (SQLite would have to copy
    # the players table, which the games reference).
    op.add_column("players", sa.Column("name_key", sa.String(160), nullable=True))
    op.add_column("players", sa.Column("password_hash", sa.String(255), nullable=True))
    op.add_column("players", sa.Column("registered", sa.Float(), nullable=True))
    op.create_index("ix_players_name_key", "players", ["name_key"], unique=True)
    op.add_column(
        "games", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("variant", sa.String(64), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("ratings")
    op.drop_column("games", "rated")
    op.drop_index("ix_players_name_key", table_name="players")
    op.drop_column("players", "registered")
    op.drop_column("players", "password_hash")
    op.drop_column("players", "name_key")
