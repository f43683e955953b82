"""The game table: takeback requests and the setting for rated games, and where the clock
starts again after a takeback.

Revision ID: 0005
Revises: 0003
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None

_FLOATS = ("clock_base_at", "clock_base_white", "clock_base_black")


def upgrade() -> None:
    op.add_column(
        "games", sa.Column("takebacks", sa.Boolean(), nullable=False, server_default=sa.true())
    )
    op.add_column("games", sa.Column("takeback_offer", sa.Integer(), nullable=True))
    op.add_column("games", sa.Column("clock_base_ply", sa.Integer(), nullable=True))
    for name in _FLOATS:
        op.add_column("games", sa.Column(name, sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        for name in ("takebacks", "takeback_offer", "clock_base_ply", *_FLOATS):
            batch.drop_column(name)
