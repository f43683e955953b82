"""A player's page (issue 33): his ratings per variant with their history, his results,
his current and recent games and matches, and his score against the viewer.

Results count the finished two-player games with a result (an aborted game has none);
games of more players are listed among the games but not counted as wins or losses.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, computed_field
from sqlalchemy import ColumnElement, and_, case, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from damier.server.i18n import tr
from damier.server.schemas import GameSummary
from damier.server.services.context import Services
from damier.server.services.errors import NotFound
from damier.server.services.players import name_key
from damier.server.services.ratings import ABORTED
from damier.server.services.views import summary_view
from damier.server.store.history import RatingHistoryRow
from damier.server.store.models import GameRow, MatchRow, PlayerRow, RatingRow, SeatRow

PROVISIONAL_DEVIATION = 110.0
"""A rating whose deviation is above this is provisional (marked "?"), as lichess does:
too few games yet for the number to mean much."""
RECENT_GAMES = 10
RECENT_MATCHES = 10
HISTORY_POINTS = 500
"""The most points of a rating chart (the latest ones)."""


class HistoryPoint(BaseModel):
    at: float
    """When the game was rated (seconds since the epoch)."""
    rating: float
    deviation: float
    game: str


class VariantRating(BaseModel):
    variant: str
    rating: float
    deviation: float
    games: int
    """Rated games played in the variant."""
    provisional: bool
    """Whether the deviation is above :data:`PROVISIONAL_DEVIATION`."""
    updated: float
    history: list[HistoryPoint]
    """The rating after each rated game, oldest first (the games rated before the
    history was kept are rebuilt by migration 0010)."""


class Tally(BaseModel):
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @computed_field  # type: ignore[prop-decorator]
    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


class VariantTally(Tally):
    variant: str


class Results(BaseModel):
    overall: Tally
    variants: list[VariantTally]
    """By variant name."""


class MatchSummary(BaseModel):
    id: str
    variant: str
    status: str
    games: int
    opponent: str
    """The other side's name ("Computer (level n)", or "" while the match is open)."""
    opponent_id: str | None
    points: float
    """The player's points in the games played so far."""
    opponent_points: float
    created: float


class HeadToHead(BaseModel):
    opponent_id: str
    opponent: str
    overall: Tally
    variants: list[VariantTally]


class PlayerPage(BaseModel):
    id: str
    name: str
    registered: bool
    created: float
    ratings: list[VariantRating]
    """By variant name."""
    results: Results
    current: list[GameSummary]
    """The games he is playing (or waiting in), newest first."""
    recent: list[GameSummary]
    """His last finished games, the latest first."""
    matches: list[MatchSummary]
    """His last matches, newest first."""
    versus_you: HeadToHead | None
    """His results against the viewer (None when the viewer is him or nobody)."""


# -- queries -----------------------------------------------------------------------------


async def find_player(session: AsyncSession, name: str) -> PlayerRow:
    """The player called ``name``: the registered player of that name, else the newest
    guest of it, else the player whose id it is (404 if none)."""
    key = name_key(name)
    query = (
        select(PlayerRow)
        .where(PlayerRow.name_key == key)
        .order_by(PlayerRow.password_hash.is_(None), PlayerRow.created.desc(), PlayerRow.id)
        .limit(1)
    )
    player = (await session.scalars(query)).first()
    if player is None:
        player = await session.get(PlayerRow, name)
    if player is None:
        raise NotFound(tr("no player {player}", player=repr(name)))
    return player


def _plays(player_id: str) -> ColumnElement[bool]:
    """The games ``player_id`` sits in."""
    return or_(
        GameRow.white_id == player_id,
        GameRow.black_id == player_id,
        GameRow.id.in_(select(SeatRow.game_id).where(SeatRow.player_id == player_id)),
    )


def _decided() -> ColumnElement[bool]:
    """The finished two-player games with a result."""
    return and_(
        GameRow.status == "finished",
        GameRow.players == 2,
        GameRow.result_pdn.is_not(None),
        or_(GameRow.result_reason.is_(None), GameRow.result_reason != ABORTED),
    )


async def tallies(
    session: AsyncSession, player_id: str, opponent_id: str | None = None
) -> list[VariantTally]:
    """The player's wins, draws and losses per variant (against ``opponent_id`` only when
    given), by variant name."""
    white = GameRow.white_id == player_id
    black = GameRow.black_id == player_id
    won = or_(and_(white, GameRow.result_winner == 0), and_(black, GameRow.result_winner == 1))
    lost = or_(and_(white, GameRow.result_winner == 1), and_(black, GameRow.result_winner == 0))
    seated = or_(white, black)
    if opponent_id is not None:
        seated = or_(
            and_(white, GameRow.black_id == opponent_id),
            and_(black, GameRow.white_id == opponent_id),
        )
    query = (
        select(
            GameRow.variant,
            func.sum(case((won, 1), else_=0)),
            func.sum(case((GameRow.result_winner.is_(None), 1), else_=0)),
            func.sum(case((lost, 1), else_=0)),
        )
        .where(_decided(), seated)
        .group_by(GameRow.variant)
        .order_by(GameRow.variant)
    )
    return [
        VariantTally(variant=variant, wins=wins or 0, draws=draws or 0, losses=losses or 0)
        for variant, wins, draws, losses in (await session.execute(query)).all()
    ]


def total(variants: Sequence[Tally]) -> Tally:
    return Tally(
        wins=sum(t.wins for t in variants),
        draws=sum(t.draws for t in variants),
        losses=sum(t.losses for t in variants),
    )


async def _ratings(session: AsyncSession, player_id: str) -> list[VariantRating]:
    rows = (
        await session.scalars(
            select(RatingRow).where(RatingRow.player_id == player_id).order_by(RatingRow.variant)
        )
    ).all()
    ratings = []
    for row in rows:
        query = (
            select(RatingHistoryRow)
            .where(
                RatingHistoryRow.player_id == player_id,
                RatingHistoryRow.variant == row.variant,
            )
            .order_by(RatingHistoryRow.at.desc(), RatingHistoryRow.game_id.desc())
            .limit(HISTORY_POINTS)
        )
        points = [
            HistoryPoint(
                at=point.at,
                rating=round(point.rating, 2),
                deviation=round(point.deviation, 2),
                game=point.game_id,
            )
            for point in reversed((await session.scalars(query)).all())
        ]
        ratings.append(
            VariantRating(
                variant=row.variant,
                rating=round(row.rating, 2),
                deviation=round(row.deviation, 2),
                games=row.games,
                provisional=row.deviation > PROVISIONAL_DEVIATION,
                updated=row.updated,
                history=points,
            )
        )
    return ratings


async def _games(
    session: AsyncSession, player_id: str, now: float
) -> tuple[list[GameSummary], list[GameSummary]]:
    current = (
        select(GameRow)
        .where(_plays(player_id), GameRow.status.in_(("open", "playing")))
        .order_by(GameRow.created.desc(), GameRow.id.desc())
        .limit(RECENT_GAMES)
    )
    recent = (
        select(GameRow)
        .where(_plays(player_id), GameRow.status == "finished")
        .order_by(GameRow.finished.desc(), GameRow.id.desc())
        .limit(RECENT_GAMES)
    )
    return (
        [summary_view(row, now) for row in (await session.scalars(current)).unique()],
        [summary_view(row, now) for row in (await session.scalars(recent)).unique()],
    )


def _side_name(kind: str, level: int | None, person: PlayerRow | None) -> str:
    if kind == "computer":
        return f"Computer (level {level})"
    return person.name if person is not None else ""


async def _matches(session: AsyncSession, player_id: str) -> list[MatchSummary]:
    query = (
        select(MatchRow)
        .where(or_(MatchRow.first_id == player_id, MatchRow.second_id == player_id))
        .order_by(MatchRow.created.desc(), MatchRow.id.desc())
        .limit(RECENT_MATCHES)
    )
    summaries = []
    for row in (await session.scalars(query)).unique():
        first = row.first_id == player_id
        scored = [r.first_points for r in row.rounds if r.first_points is not None]
        first_points = sum(scored)
        second_points = len(scored) - first_points
        if first:
            opponent = _side_name(row.second_kind, row.second_level, row.second)
            opponent_id = row.second_id
        else:
            opponent = _side_name(row.first_kind, row.first_level, row.first)
            opponent_id = row.first_id
        summaries.append(
            MatchSummary(
                id=row.id,
                variant=row.variant,
                status=row.status,
                games=row.games,
                opponent=opponent,
                opponent_id=opponent_id,
                points=first_points if first else second_points,
                opponent_points=second_points if first else first_points,
                created=row.created,
            )
        )
    return summaries


# -- the service function ----------------------------------------------------------------


async def player_page(*, services: Services, name: str, viewer: str | None) -> PlayerPage:
    """Everything the profile page shows of the player called ``name`` (or of that id)."""
    async with services.database.session() as session:
        player = await find_player(session, name)
        variants = await tallies(session, player.id)
        current, recent = await _games(session, player.id, services.now())
        versus = None
        if viewer is not None and viewer != player.id:
            you = await session.get(PlayerRow, viewer)
            if you is not None:
                against = await tallies(session, player.id, opponent_id=viewer)
                versus = HeadToHead(
                    opponent_id=you.id, opponent=you.name, overall=total(against), variants=against
                )
        return PlayerPage(
            id=player.id,
            name=player.name,
            registered=player.password_hash is not None,
            created=player.created,
            ratings=await _ratings(session, player.id),
            results=Results(overall=total(variants), variants=variants),
            current=current,
            recent=recent,
            matches=await _matches(session, player.id),
            versus_you=versus,
        )
