"""A game that starts from an opening (the games of a match) records how many plies the
opening played: the players' first moves, which start the clock and end the first-move
deadline, are counted from there. The games of matches stored before are given the length
of their round's opening (its moves are space-separated), so that they replay as they were
played.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column(
        "games",
        sa.Column("opening_ply", sa.Integer(), nullable=False, server_default=sa.text("0")),
    )
    op.execute(
        sa.text(
            "UPDATE games SET opening_ply = ("
            " SELECT length(opening) - length(replace(opening, ' ', '')) + 1"
            " FROM match_games WHERE match_games.game_id = games.id AND opening <> ''"
            ") WHERE EXISTS ("
            " SELECT 1 FROM match_games WHERE match_games.game_id = games.id AND opening <> ''"
            ")"
        )
    )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("opening_ply")
