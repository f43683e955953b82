"""Games of 3-8 players: the number of players of a game, and the seats of such games.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # Two-player games keep their white/black columns; the new table holds the seats of
    # the others, so that the existing rows need no copy.
    op.add_column(
        "games", sa.Column("players", sa.Integer(), nullable=False, server_default=sa.text("2"))
    )
    op.create_table(
        "game_seats",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("level", sa.Integer(), nullable=True),
        sa.Column("clock", sa.Float(), nullable=True),
        sa.Column("forfeit_index", sa.Integer(), nullable=True),
        sa.Column("forfeit_reason", sa.String(64), nullable=True),
        sa.Column("forfeit_at", sa.Float(), nullable=True),
        sa.Column("draw", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("place", sa.Integer(), nullable=True),
    )
    op.create_index("ix_game_seats_player_id", "game_seats", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_game_seats_player_id", table_name="game_seats")
    op.drop_table("game_seats")
    op.drop_column("games", "players")
