"""Players' pages (issue 33): the rating after every rated game (the profile's chart),
the quick-pairing pools, and an index of finished games for the archive.

The history of the games rated before this revision is rebuilt here by replaying them in
the order they finished: every rated game is a rating period of its own for both players,
computed from their ratings before it, so the replay gives the ratings stored then.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from damier.server.services.ratings import Rating, rate

revision = "0010"
down_revision: str | None = "0009"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "rating_history",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
    )
    op.create_index(
        "ix_rating_history_player_variant_at", "rating_history", ["player_id", "variant", "at"]
    )
    op.create_table(
        "pool_entries",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("clock", sa.String(32), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("joined", sa.Float(), nullable=False),
        sa.Column("seen", sa.Float(), nullable=False),
        sa.Column("paired", sa.Float(), nullable=True),
        sa.Column("game_id", sa.String(32), nullable=True),
    )
    op.create_index("ix_pool_entries_pool", "pool_entries", ["variant", "clock", "joined"])
    op.create_index("ix_games_status_finished", "games", ["status", "finished", "id"])
    _rebuild_history()


def _rebuild_history() -> None:
    """The history of the games rated so far, replayed from the initial ratings."""
    connection = op.get_bind()
    games = connection.execute(
        sa.text(
            "SELECT id, variant, white_id, black_id, result_winner, finished FROM games "
            "WHERE rated AND status = 'finished' ORDER BY finished, id"
        )
    ).all()
    ratings: dict[tuple[str, str], Rating] = {}
    history = []
    for game_id, variant, white_id, black_id, winner, finished in games:
        white = ratings.get((white_id, variant), Rating())
        black = ratings.get((black_id, variant), Rating())
        white_score = 0.5 if winner is None else 1.0 - winner
        after = {
            white_id: rate(white, [(black, white_score)]),
            black_id: rate(black, [(white, 1.0 - white_score)]),
        }
        for player_id, new in after.items():
            ratings[player_id, variant] = new
            history.append(
                {
                    "player_id": player_id,
                    "game_id": game_id,
                    "variant": variant,
                    "at": finished or 0.0,
                    "rating": new.rating,
                    "deviation": new.deviation,
                }
            )
    if history:
        table = sa.table(
            "rating_history",
            *(sa.column(name) for name in ("player_id", "game_id", "variant", "at")),
            sa.column("rating"),
            sa.column("deviation"),
        )
        op.bulk_insert(table, history)


def downgrade() -> None:
    op.drop_index("ix_games_status_finished", table_name="games")
    op.drop_index("ix_pool_entries_pool", table_name="pool_entries")
    op.drop_table("pool_entries")
    op.drop_index("ix_rating_history_player_variant_at", table_name="rating_history")
    op.drop_table("rating_history")
