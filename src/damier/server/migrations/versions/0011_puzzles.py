"""Puzzles (issue 34): puzzle ratings, players' puzzle ratings, and their attempts.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision: str | None = "0010"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "puzzle_ratings",
        sa.Column("puzzle_id", sa.String(64), primary_key=True),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.Column("updated", sa.Float(), nullable=False),
    )
    op.create_index("ix_puzzle_ratings_variant", "puzzle_ratings", ["variant"])
    op.create_table(
        "puzzle_players",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("variant", sa.String(64), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.Column("streak", sa.Integer(), nullable=False),
        sa.Column("best_streak", sa.Integer(), nullable=False),
        sa.Column("updated", sa.Float(), nullable=False),
    )
    op.create_table(
        "puzzle_attempts",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("puzzle_id", sa.String(64), primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("solved", sa.Boolean(), nullable=False),
        sa.Column("moves", sa.Text(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=True),
    )
    op.create_index(
        "ix_puzzle_attempts_player_variant_at",
        "puzzle_attempts",
        ["player_id", "variant", "at"],
    )


def downgrade() -> None:
    op.drop_index("ix_puzzle_attempts_player_variant_at", table_name="puzzle_attempts")
    op.drop_table("puzzle_attempts")
    op.drop_table("puzzle_players")
    op.drop_index("ix_puzzle_ratings_variant", table_name="puzzle_ratings")
    op.drop_table("puzzle_ratings")
