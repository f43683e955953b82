"""The leaderboard of a variant (issue 33): the best active registered players, as
lichess ranks them, and the viewer's own place.

A player is listed when his rating is established (its deviation under
:data:`LEADERBOARD_DEVIATION`) and he played a rated game in the variant in the last
:data:`ACTIVE_DAYS` days; the others are not ranked (their place says why not).
"""

from __future__ import annotations

from pydantic import BaseModel
from sqlalchemy import ColumnElement, and_, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from damier.server.services.context import Services
from damier.server.services.games import rules_of
from damier.server.store.models import PlayerRow, RatingRow

LEADERBOARD_DEVIATION = 80.0
ACTIVE_DAYS = 30
DAY = 86_400.0
LEADERBOARD_SIZE = 100


class LeaderboardEntry(BaseModel):
    place: int
    """From 1."""
    id: str
    name: str
    rating: float
    deviation: float
    games: int


class YourPlace(BaseModel):
    place: int | None
    """Your place among the ranked players (None when you are not ranked)."""
    rating: float | None
    deviation: float | None
    games: int
    why_not: str | None
    """Why you are not ranked, when you are not."""


class Leaderboard(BaseModel):
    variant: str
    deviation_limit: float
    active_days: int
    players: list[LeaderboardEntry]
    """Best first (equal ratings in the order of the players' ids: a stable order)."""
    you: YourPlace | None
    """The viewer's place (None for nobody or a guest)."""


def _ranked(variant: str, since: float) -> ColumnElement[bool]:
    return and_(
        RatingRow.variant == variant,
        RatingRow.deviation < LEADERBOARD_DEVIATION,
        RatingRow.updated >= since,
        PlayerRow.password_hash.is_not(None),
    )


async def leaderboard(
    *, services: Services, variant: str, viewer: str | None, limit: int = LEADERBOARD_SIZE
) -> Leaderboard:
    """The ranked players of ``variant``, best first, and the viewer's place."""
    name = rules_of(variant).name
    since = services.now() - ACTIVE_DAYS * DAY
    ranked = _ranked(name, since)
    query = (
        select(RatingRow, PlayerRow.name)
        .join(PlayerRow, PlayerRow.id == RatingRow.player_id)
        .where(ranked)
        .order_by(RatingRow.rating.desc(), RatingRow.player_id)
        .limit(limit)
    )
    async with services.database.session() as session:
        rows = (await session.execute(query)).all()
        players = [
            LeaderboardEntry(
                place=place,
                id=rating.player_id,
                name=player_name,
                rating=round(rating.rating, 2),
                deviation=round(rating.deviation, 2),
                games=rating.games,
            )
            for place, (rating, player_name) in enumerate(rows, start=1)
        ]
        you = None
        if viewer is not None:
            player = await session.get(PlayerRow, viewer)
            if player is not None and player.password_hash is not None:
                mine = await session.get(RatingRow, (viewer, name))
                you = await _your_place(session, mine, ranked, since)
    return Leaderboard(
        variant=name,
        deviation_limit=LEADERBOARD_DEVIATION,
        active_days=ACTIVE_DAYS,
        players=players,
        you=you,
    )


async def _your_place(
    session: AsyncSession, mine: RatingRow | None, ranked: ColumnElement[bool], since: float
) -> YourPlace:
    if mine is None:
        return YourPlace(
            place=None, rating=None, deviation=None, games=0, why_not="no rated game yet"
        )
    why_not = None
    if mine.deviation >= LEADERBOARD_DEVIATION:
        why_not = "your rating is not yet established: play more rated games"
    elif mine.updated < since:
        why_not = f"no rated game in the last {ACTIVE_DAYS} days"
    place = None
    if why_not is None:
        ahead = (
            select(func.count())
            .select_from(RatingRow)
            .join(PlayerRow, PlayerRow.id == RatingRow.player_id)
            .where(
                ranked,
                or_(
                    RatingRow.rating > mine.rating,
                    and_(RatingRow.rating == mine.rating, RatingRow.player_id < mine.player_id),
                ),
            )
        )
        place = (await session.scalar(ahead) or 0) + 1
    return YourPlace(
        place=place,
        rating=round(mine.rating, 2),
        deviation=round(mine.deviation, 2),
        games=mine.games,
        why_not=why_not,
    )
