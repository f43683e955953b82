"""A move's update of its game's row touches no index, and on PostgreSQL finds room on the
row's page: the update is then made in place (a "heap-only tuple"), without a new entry in
each of the table's indexes. With an index on ``flag_at``, which every move of a game with
a clock changes, each move added an entry to all six indexes: under load (1,000 games on
PostgreSQL, ``bench/load.py``) the 99th percentile of a move was 175-220 ms with it, 127-155
ms without it and with room on the pages. The flagged games are found among the games being
played (``status`` is indexed).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None

FILL_FACTOR = 70
"""Percent of a page that new rows fill on PostgreSQL: the rest is room for updates."""


def upgrade() -> None:
    op.drop_index("ix_games_flag_at", table_name="games")
    if op.get_bind().dialect.name == "postgresql":
        op.execute(sa.text(f"ALTER TABLE games SET (fillfactor = {FILL_FACTOR})"))


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(sa.text("ALTER TABLE games RESET (fillfactor)"))
    op.create_index("ix_games_flag_at", "games", ["flag_at"])
