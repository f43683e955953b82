"""Tournaments: the tournaments, their players, their rounds' games, and the tournament a
game belongs to.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision: str | None = "0008"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("clock_control", sa.String(32), nullable=False),
        sa.Column("system", sa.String(16), nullable=False),
        sa.Column("cycles", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("legs", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("starts_at", sa.Float(), nullable=False),
        sa.Column("ends_at", sa.Float(), nullable=True),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("creator_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("updated", sa.Float(), nullable=False),
        sa.Column("finished", sa.Float(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
    )
    for column in ("status", "starts_at", "created"):
        op.create_index(f"ix_tournaments_{column}", "tournaments", [column])
    op.create_table(
        "tournament_players",
        sa.Column(
            "tournament_id", sa.String(32), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("joined", sa.Float(), nullable=False),
        sa.Column("withdrawn", sa.Float(), nullable=True),
        sa.Column("forfeits", sa.Integer(), nullable=False),
        sa.Column("berserk", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_tournament_players_player_id", "tournament_players", ["player_id"])
    op.create_table(
        "tournament_games",
        sa.Column(
            "tournament_id", sa.String(32), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("board", sa.Integer(), primary_key=True),
        sa.Column("leg", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("white_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("black_id", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=True),
        sa.Column("white_points", sa.Float(), nullable=True),
        sa.Column("black_points", sa.Float(), nullable=True),
        sa.Column("berserk", sa.Integer(), nullable=False),
        sa.Column("bonus", sa.Integer(), nullable=False),
    )
    op.create_index("ix_tournament_games_game_id", "tournament_games", ["game_id"])
    # A plain ADD COLUMN (no foreign key: SQLite would rebuild the games table for one).
    op.add_column("games", sa.Column("tournament_id", sa.String(32), nullable=True))
    op.create_index("ix_games_tournament_id", "games", ["tournament_id"])
    op.add_column(
        "games", sa.Column("berserk", sa.Integer(), nullable=False, server_default=sa.text("0"))
    )


def downgrade() -> None:
    op.drop_index("ix_games_tournament_id", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("tournament_id")
        batch.drop_column("berserk")
    op.drop_table("tournament_games")
    op.drop_table("tournament_players")
    op.drop_table("tournaments")
