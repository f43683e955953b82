"""Missed shots (issue 34): the shots found in reviewed games, and the games searched.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision: str | None = "0011"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "shot_searches",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("shots", sa.Integer(), nullable=False),
    )
    op.create_table(
        "missed_shots",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("played", sa.String(128), nullable=False),
        sa.Column("puzzle", sa.Text(), nullable=False),
        sa.Column("found", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
    )
    op.create_index("ix_missed_shots_game_id", "missed_shots", ["game_id"])
    op.create_index("ix_missed_shots_player_found", "missed_shots", ["player_id", "found"])


def downgrade() -> None:
    op.drop_index("ix_missed_shots_player_found", table_name="missed_shots")
    op.drop_index("ix_missed_shots_game_id", table_name="missed_shots")
    op.drop_table("missed_shots")
    op.drop_table("shot_searches")
