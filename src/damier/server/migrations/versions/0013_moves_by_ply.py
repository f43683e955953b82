"""The moves by ply and notation: the games that played a move at a ply are found through
an index (the archive's opening filter, the explorer), not by reading every game.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-30
"""

from __future__ import annotations

from alembic import op

revision = "0013"
down_revision: str | None = "0012"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_index("ix_moves_ply_notation", "moves", ["ply", "notation"])


def downgrade() -> None:
    op.drop_index("ix_moves_ply_notation", table_name="moves")
