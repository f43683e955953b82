"""Matches: the matches, their games, and the match a game belongs to.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "matches",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("opening_games", sa.String(64), nullable=False),
        sa.Column("deck", sa.String(64), nullable=True),
        sa.Column("first_id", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("first_kind", sa.String(16), nullable=False),
        sa.Column("first_level", sa.Integer(), nullable=True),
        sa.Column("second_id", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("second_kind", sa.String(16), nullable=False),
        sa.Column("second_level", sa.Integer(), nullable=True),
        sa.Column("clock_control", sa.String(32), nullable=True),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("next_at", sa.Float(), nullable=True),
        sa.Column("first_ready", sa.Boolean(), nullable=False),
        sa.Column("second_ready", sa.Boolean(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("updated", sa.Float(), nullable=False),
        sa.Column("finished", sa.Float(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
    )
    for column in ("variant", "status", "first_id", "second_id", "next_at", "created"):
        op.create_index(f"ix_matches_{column}", "matches", [column])
    op.create_table(
        "match_games",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("first_white", sa.Boolean(), nullable=False),
        sa.Column("opening", sa.Text(), nullable=False),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=True),
        sa.Column("first_points", sa.Float(), nullable=True),
    )
    op.create_index("ix_match_games_game_id", "match_games", ["game_id"])
    # A plain ADD COLUMN (no foreign key: SQLite would rebuild the games table for one).
    op.add_column("games", sa.Column("match_id", sa.String(32), nullable=True))
    op.create_index("ix_games_match_id", "games", ["match_id"])


def downgrade() -> None:
    op.drop_index("ix_games_match_id", table_name="games")
    op.drop_column("games", "match_id")
    op.drop_index("ix_match_games_game_id", table_name="match_games")
    op.drop_table("match_games")
    for column in ("variant", "status", "first_id", "second_id", "next_at", "created"):
        op.drop_index(f"ix_matches_{column}", table_name="matches")
    op.drop_table("matches")
