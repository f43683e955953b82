"""Storage: SQLAlchemy 2 models, the async engine and the Alembic migrations."""

from damier.server.store.db import Database
from damier.server.store.models import Base, GameRow, MoveRow, PlayerRow

__all__ = ["Base", "Database", "GameRow", "MoveRow", "PlayerRow"]
