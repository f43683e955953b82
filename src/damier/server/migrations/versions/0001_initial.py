"""Players, games and moves.

Revision ID: 0001
Revises:
Create Date: 2024-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("white_id", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("white_kind", sa.String(16), nullable=False),
        sa.Column("white_level", sa.Integer(), nullable=True),
        sa.Column("black_id", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("black_kind", sa.String(16), nullable=False),
        sa.Column("black_level", sa.Integer(), nullable=True),
        sa.Column("clock_control", sa.String(32), nullable=True),
        sa.Column("start_fen", sa.Text(), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("result_pdn", sa.String(8), nullable=True),
        sa.Column("result_winner", sa.Integer(), nullable=True),
        sa.Column("result_reason", sa.String(64), nullable=True),
        sa.Column("draw_offer", sa.Integer(), nullable=True),
        sa.Column("clock_white", sa.Float(), nullable=True),
        sa.Column("clock_black", sa.Float(), nullable=True),
        sa.Column("clock_running", sa.Integer(), nullable=True),
        sa.Column("clock_since", sa.Float(), nullable=True),
        sa.Column("flag_at", sa.Float(), nullable=True),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("started", sa.Float(), nullable=True),
        sa.Column("finished", sa.Float(), nullable=True),
        sa.Column("updated", sa.Float(), nullable=False),
        sa.Column("rematch_id", sa.String(32), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
    )
    op.create_index("ix_games_status", "games", ["status"])
    op.create_index("ix_games_white_id", "games", ["white_id"])
    op.create_index("ix_games_black_id", "games", ["black_id"])
    op.create_index("ix_games_flag_at", "games", ["flag_at"])
    op.create_index("ix_games_created", "games", ["created"])
    op.create_table(
        "moves",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("ply", sa.Integer(), primary_key=True),
        sa.Column("notation", sa.String(128), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("moves")
    op.drop_table("games")
    op.drop_table("players")
