"""The game archive (issue 33): every finished game, newest first, filtered by player,
opponent, variant, mode, result, dates and opening, a page at a time; the PDN of a
filtered set in one download; and the explorer: the moves those games played next after
an opening, with their results.

Pages are keyset pages on (finished, id): the cursor is the last game of the page before,
so a page never repeats nor skips a game when new games finish meanwhile. Aborted games
(no result) are not in the archive.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from typing import Any, Literal, TypeVar

from pydantic import BaseModel
from sqlalchemy import ColumnElement, Select, and_, case, false, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from damier.server.i18n import tr, tr_n
from damier.server.schemas import GameSummary
from damier.server.services.context import Services
from damier.server.services.errors import BadRequest, NotFound
from damier.server.services.games import rules_of
from damier.server.services.pdn import game_pdn
from damier.server.services.players import name_key
from damier.server.services.ratings import ABORTED
from damier.server.services.views import mode_of, summary_view
from damier.server.store.models import GameRow, MoveRow, PlayerRow

ARCHIVE_PAGE = 30
MAX_PAGE = 100
PDN_GAMES = 100
"""The games of a PDN download unless fewer are asked for."""
MAX_PDN_GAMES = 1000
MAX_OPENING_PLIES = 12
"""The longest opening the archive filters by."""
MAX_EXPLORED_PLIES = 40
"""The longest line the explorer follows (the analysis board asks for its current line)."""
SHOWN_OPENING = 4

ArchiveMode = Literal["single", "match", "losing", "tournament", "rated", "casual"]
ArchiveResult = Literal["white", "black", "draw", "win", "loss"]

_Row = TypeVar("_Row", bound=tuple[Any, ...])
_MOVE_NUMBER = re.compile(r"^\d+\.+$|^\d+\.+(?=\S)")


@dataclass(frozen=True, kw_only=True)
class ArchiveFilter:
    """What the archive shows: every field left None lets every game through."""

    player: str | None = None
    """A player's name (or id): his games."""
    opponent: str | None = None
    """Another player's name (or id): the games between the two (with ``player``), or
    his games (without)."""
    variant: str | None = None
    mode: ArchiveMode | None = None
    result: ArchiveResult | None = None
    """A colour's win or a draw; ``win`` and ``loss`` are ``player``'s (they need one)."""
    since: date | None = None
    """The first day (UTC) the games finished on."""
    until: date | None = None
    """The last day (UTC), included."""
    opening: str | None = None
    """The first moves, space-separated (move numbers may be written: ``1. 32-28 18-23``)."""


class ArchiveGame(GameSummary):
    finished: float | None
    ply: int
    """Moves played (plies)."""
    rated: bool
    opening: list[str]
    """The first moves (up to :data:`SHOWN_OPENING` plies)."""


class ArchivePage(BaseModel):
    games: list[ArchiveGame]
    """The newest finished first."""
    next: str | None
    """The ``after`` of the next (older) page; None on the last page."""


def opening_moves(text: str) -> list[str]:
    """The moves of an opening as written by a person, without the move numbers.

    >>> opening_moves("1. 32-28 18-23 2.33-29  12x23")
    ['32-28', '18-23', '33-29', '12x23']
    """
    moves = []
    for token in text.split():
        token = _MOVE_NUMBER.sub("", token)
        if token:
            moves.append(token)
    return moves


async def _player_ids(session: AsyncSession, name: str) -> list[str]:
    """The players called ``name`` (guests may share a name), or the player of that id."""
    if "\x00" in name:  # no name holds one (and PostgreSQL refuses it in a query)
        raise NotFound(tr("no player {player}", player=repr(name)))
    query = select(PlayerRow.id).where(PlayerRow.name_key == name_key(name))
    ids = list((await session.scalars(query)).all())
    if not ids and await session.get(PlayerRow, name) is not None:
        ids = [name]
    if not ids:
        raise NotFound(tr("no player {player}", player=repr(name)))
    return ids


_MOVE = re.compile(r"[A-Za-z0-9]{1,4}(?:[-x:][A-Za-z0-9]{1,4}){1,40}")
"""What a move of an opening looks like: squares (numbers or names) joined by ``-``,
``x`` or ``:``."""


def _opening(text: str, most: int) -> list[str]:
    """The moves of an opening asked for, at most ``most``; BadRequest for one that is no
    move at all (a database would refuse some characters, PostgreSQL a NUL, with a 500)."""
    moves = opening_moves(text)
    for move in moves:
        if not _MOVE.fullmatch(move):
            raise BadRequest(tr("{move} is not a move", move=repr(move[:20])))
    if len(moves) > most:
        raise BadRequest(
            tr_n(
                "an opening of at most {n} move (ply)",
                "an opening of at most {n} moves (plies)",
                most,
            )
        )
    return moves


def _day_start(day: date) -> float:
    return datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp()


async def _conditions(
    session: AsyncSession, wanted: ArchiveFilter, by_status: bool = True
) -> list[ColumnElement[bool]]:
    """The filter's conditions on the games. ``by_status=False`` leaves out the status
    (a finished game is one with a result, which they ask for too): SQLite, which keeps
    no statistics unless asked, would read every finished game through the status's index
    rather than find the few that played an opening through the moves' index."""
    conditions: list[ColumnElement[bool]] = [
        *([GameRow.status == "finished"] if by_status else []),
        GameRow.result_pdn.is_not(None),
        or_(GameRow.result_reason.is_(None), GameRow.result_reason != ABORTED),
    ]
    players = await _player_ids(session, wanted.player) if wanted.player else None
    opponents = await _player_ids(session, wanted.opponent) if wanted.opponent else None
    if players is not None and opponents is not None:
        conditions.append(
            or_(
                and_(GameRow.white_id.in_(players), GameRow.black_id.in_(opponents)),
                and_(GameRow.black_id.in_(players), GameRow.white_id.in_(opponents)),
            )
        )
    elif players is not None or opponents is not None:
        someone = players or opponents or []
        conditions.append(or_(GameRow.white_id.in_(someone), GameRow.black_id.in_(someone)))
    if wanted.variant:
        conditions.append(GameRow.variant == rules_of(wanted.variant).name)
    if wanted.mode is not None:
        conditions.append(await _mode(session, wanted.mode))
    if wanted.result is not None:
        conditions.append(_result(wanted.result, players))
    if wanted.since is not None:
        conditions.append(GameRow.finished >= _day_start(wanted.since))
    if wanted.until is not None:
        conditions.append(GameRow.finished < _day_start(wanted.until + timedelta(days=1)))
    if wanted.opening:
        moves = _opening(wanted.opening, MAX_OPENING_PLIES)
        conditions.extend(_line(moves))
    return conditions


async def _mode(session: AsyncSession, mode: ArchiveMode) -> ColumnElement[bool]:
    if mode == "rated":
        return GameRow.rated.is_(True)
    if mode == "casual":
        return GameRow.rated.is_(False)
    if mode == "tournament":
        return GameRow.tournament_id.is_not(None)
    if mode == "match":
        return GameRow.match_id.is_not(None)
    # A losing game is one of a giveaway variant: the variants' names say which.
    variants = (await session.scalars(select(GameRow.variant).distinct())).all()
    losing = [name for name in variants if mode_of(name, None) == "losing"]
    single = GameRow.match_id.is_(None)
    if mode == "losing":
        return and_(single, GameRow.variant.in_(losing)) if losing else false()
    return and_(single, GameRow.tournament_id.is_(None), GameRow.variant.not_in(losing))


def _result(result: ArchiveResult, players: list[str] | None) -> ColumnElement[bool]:
    if result == "white":
        return GameRow.result_winner == 0
    if result == "black":
        return GameRow.result_winner == 1
    if result == "draw":
        return and_(GameRow.result_winner.is_(None), GameRow.players == 2)
    if players is None:
        raise BadRequest(tr("result={result} is a player's: say whose (player)", result=result))
    winner = 0 if result == "win" else 1
    return or_(
        and_(GameRow.white_id.in_(players), GameRow.result_winner == winner),
        and_(GameRow.black_id.in_(players), GameRow.result_winner == 1 - winner),
    )


def _newest_first(query: Select[_Row]) -> Select[_Row]:
    return query.order_by(GameRow.finished.desc(), GameRow.id.desc())


async def _after(session: AsyncSession, cursor: str) -> ColumnElement[bool]:
    """The games older than the cursor's (in the archive's order)."""
    game = await session.get(GameRow, cursor)
    if game is None or game.finished is None:
        raise NotFound(tr("no finished game {game}", game=repr(cursor)))
    return or_(
        GameRow.finished < game.finished,
        and_(GameRow.finished == game.finished, GameRow.id < game.id),
    )


async def search(
    *,
    services: Services,
    wanted: ArchiveFilter,
    after: str | None = None,
    limit: int = ARCHIVE_PAGE,
) -> ArchivePage:
    """A page of the finished games ``wanted`` lets through, newest first; ``after`` is the
    ``next`` of the page before."""
    async with services.database.session() as session:
        conditions = await _conditions(session, wanted)
        if after is not None:
            conditions.append(await _after(session, after))
        query = _newest_first(select(GameRow).where(*conditions)).limit(limit + 1)
        rows = list((await session.scalars(query)).unique().all())
        openings: dict[str, list[str]] = {row.id: [] for row in rows[:limit]}
        if openings:
            first_moves = (
                select(MoveRow.game_id, MoveRow.notation)
                .where(MoveRow.game_id.in_(openings), MoveRow.ply <= SHOWN_OPENING)
                .order_by(MoveRow.game_id, MoveRow.ply)
            )
            for game_id, notation in (await session.execute(first_moves)).all():
                openings[game_id].append(notation)
        now = services.now()
        games = [
            ArchiveGame(
                **summary_view(row, now).model_dump(),
                finished=row.finished,
                ply=row.ply,
                rated=row.rated,
                opening=openings[row.id],
            )
            for row in rows[:limit]
        ]
    return ArchivePage(games=games, next=games[-1].id if len(rows) > limit else None)


class ExploredMove(BaseModel):
    move: str
    games: int
    white: int
    """Games White won."""
    draws: int
    black: int
    """Games Black won."""


class Explored(BaseModel):
    variant: str
    opening: list[str]
    games: int
    """The games of the filter that played the opening from the variant's start."""
    moves: list[ExploredMove]
    """The moves played next, the most played first."""


async def explore(*, services: Services, wanted: ArchiveFilter) -> Explored:
    """The moves the finished games ``wanted`` lets through (of its variant, from the
    variant's start) played after its opening, with their results."""
    if not wanted.variant:
        raise BadRequest(tr("say which variant to explore"))
    rules = rules_of(wanted.variant)
    opening = _opening(wanted.opening or "", MAX_EXPLORED_PLIES)
    explored = replace(wanted, opening=None)
    async with services.database.session() as session:
        conditions = [
            *await _conditions(session, explored, by_status=not opening),
            GameRow.start_fen == rules.start_fen,
            GameRow.players == 2,
        ]
        # The games come from the moves at the opening's last ply (its index), not from
        # every finished game: the earlier moves are checked game by game.
        games_of: Select[Any] = select(GameRow)
        following = aliased(MoveRow)
        after_opening = following.ply == 1
        if opening:
            last = aliased(MoveRow)
            # (The query must go from the opening's last move to its games, then to their
            # next: "+ 0" keeps SQLite, which has no statistics, from reading every game's
            # move at that ply through the moves' index first.)
            after_opening = following.ply + 0 == len(opening) + 1
            games_of = (
                select(last)
                .join(GameRow, GameRow.id == last.game_id)
                .where(last.ply == len(opening), last.notation == opening[-1])
            )
            conditions.extend(_played(opening[:-1]))
        counted = games_of.where(*conditions).with_only_columns(func.count())
        games = await session.scalar(counted)
        winner = GameRow.result_winner
        next_moves = (
            games_of.join(following, following.game_id == GameRow.id)
            .where(*conditions, after_opening)
            .with_only_columns(
                following.notation,
                func.count(),
                func.sum(case((winner == 0, 1), else_=0)),
                func.sum(case((winner.is_(None), 1), else_=0)),
                func.sum(case((winner == 1, 1), else_=0)),
            )
            .group_by(following.notation)
            .order_by(func.count().desc(), following.notation)
        )
        rows = (await session.execute(next_moves)).all()
    return Explored(
        variant=rules.name,
        opening=opening,
        games=games or 0,
        moves=[
            ExploredMove(move=move, games=count, white=white, draws=draws, black=black)
            for move, count, white, draws, black in rows
        ],
    )


def _line(moves: list[str]) -> list[ColumnElement[bool]]:
    """The games whose first moves are ``moves``: those that played the last of them at
    its ply, found through the index of the moves by ply and notation, then the earlier
    moves checked game by game."""
    if not moves:
        return []
    last = aliased(MoveRow)
    reached = select(last.game_id).where(last.ply == len(moves), last.notation == moves[-1])
    return [GameRow.id.in_(reached), *_played(moves[:-1])]


def _played(moves: list[str]) -> list[ColumnElement[bool]]:
    """Each of ``moves`` played at its ply from the start, game by game (in rows of moves
    of their own: a query of the moves after them is not mistaken for them)."""
    earlier = aliased(MoveRow)
    return [
        select(earlier.ply)
        .where(earlier.game_id == GameRow.id, earlier.ply == ply, earlier.notation == move)
        .exists()
        for ply, move in enumerate(moves, start=1)
    ]


async def pdn_games(
    *, services: Services, wanted: ArchiveFilter, limit: int = PDN_GAMES
) -> list[str]:
    """The ids of the newest ``limit`` games ``wanted`` lets through (for
    :func:`pdn_stream`: a bad filter is refused before anything is sent)."""
    async with services.database.session() as session:
        conditions = await _conditions(session, wanted)
        query = _newest_first(select(GameRow.id).where(*conditions)).limit(limit)
        return list((await session.scalars(query)).all())


async def pdn_stream(
    *, services: Services, game_ids: list[str], base_url: str = ""
) -> AsyncIterator[str]:
    """The games' PDN, one game at a time (each is read once the one before is sent)."""
    for game_id in game_ids:
        text = await game_pdn(services=services, game_id=game_id, base_url=base_url)
        yield text.rstrip() + "\n\n"
