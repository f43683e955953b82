"""The tables of players' pages (issue 33): each rated game's rating after it, per player
(the profile's chart), and the quick-pairing pools. They live here rather than in
``store.models`` so that the tables of one feature stay together; they share its ``Base``
(migration 0010)."""

from __future__ import annotations

from sqlalchemy import Float, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from damier.server.store.models import Base, GameRow


class RatingHistoryRow(Base):
    """A player's rating in a variant right after one rated game (written by
    ``services.ratings.rate_game`` in the game's finishing transaction)."""

    __tablename__ = "rating_history"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    variant: Mapped[str] = mapped_column(String(64))
    at: Mapped[float] = mapped_column(Float)
    """When the game was rated (finished)."""
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)


RATING_HISTORY_ORDER = Index(
    "ix_rating_history_player_variant_at",
    RatingHistoryRow.player_id,
    RatingHistoryRow.variant,
    RatingHistoryRow.at,
)
"""A player's chart in one variant is one range of this index."""

GAMES_FINISHED = Index("ix_games_status_finished", GameRow.status, GameRow.finished, GameRow.id)
"""The archive pages through finished games by (finished, id), newest first."""


class PoolEntryRow(Base):
    """A player waiting in a quick-pairing pool (a variant and a clock control), or just
    paired: ``game_id`` is set once the pool step has made his game, until he reads it."""

    __tablename__ = "pool_entries"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    """A player waits in one pool at a time (joining another leaves the first)."""
    variant: Mapped[str] = mapped_column(String(64))
    clock: Mapped[str] = mapped_column(String(32))
    rating: Mapped[float] = mapped_column(Float)
    """His rating in the variant when he joined (1500 for a guest or a new player)."""
    joined: Mapped[float] = mapped_column(Float)
    seen: Mapped[float] = mapped_column(Float)
    """When his page last asked about the pools: a player gone quiet leaves the pool."""
    paired: Mapped[float | None] = mapped_column(Float)
    """When the pool step took him for a game (None while he waits)."""
    game_id: Mapped[str | None] = mapped_column(String(32))
    """The game he was paired into (None while waiting or while it is being made)."""


POOLS = Index("ix_pool_entries_pool", PoolEntryRow.variant, PoolEntryRow.clock, PoolEntryRow.joined)
