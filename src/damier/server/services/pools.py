"""Quick pairing (issue 33): a pool per variant and clock control; the players waiting in
one are paired by rating, the range of ratings a player accepts widening with his wait.

The pools are rows of the database (``store.history.PoolEntryRow``), so that every
server process sees the same pools. The pool step (:func:`pair_pools`) runs on every join
and whenever a waiting page asks about the pools (every few seconds), and from the
server's clock ticker when it has one; two processes running it at once cannot pair a
player twice: a pair is claimed by one conditional update of both rows, and a process
that finds a row claimed leaves the pair.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from dataclasses import dataclass

from pydantic import BaseModel
from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from damier.server.i18n import tr, tr_n
from damier.server.services.context import Services
from damier.server.services.errors import BadRequest, NotFound
from damier.server.services.games import create_game, join_game, rules_of
from damier.server.services.ratings import INITIAL_RATING
from damier.server.store.history import PoolEntryRow
from damier.server.store.models import PlayerRow, RatingRow

log = logging.getLogger("damier.server")

POOL_CLOCKS = ("1+0", "3+2", "5+3", "10+5", "15+10")
"""The clock controls of the quick-pairing buttons (minutes + seconds per move)."""
RANGE_START = 100.0
"""The rating difference a player accepts on joining."""
RANGE_GROWTH = 10.0
"""How much wider the range gets per second of waiting (anyone after a minute or two)."""
GONE_AFTER = 30.0
"""A waiting player whose page has not asked about the pools for this long has left."""
PAIRED_KEPT = 120.0
"""How long a paired entry waits for the player's pages to read it (then it is deleted)."""

_stepping: weakref.WeakKeyDictionary[Services, asyncio.Lock] = weakref.WeakKeyDictionary()


def rating_range(waited: float) -> float:
    """The rating difference accepted after ``waited`` seconds.

    >>> rating_range(0.0), rating_range(30.0)
    (100.0, 400.0)
    """
    return RANGE_START + RANGE_GROWTH * max(0.0, waited)


class PoolCount(BaseModel):
    variant: str
    clock: str
    waiting: int


class YourPool(BaseModel):
    variant: str
    clock: str
    rating: float
    waited: float
    """Seconds since joining."""
    range: float
    """The rating difference you accept now."""
    game: str | None
    """Your game once paired (go there)."""


class PoolsView(BaseModel):
    clocks: list[str]
    pools: list[PoolCount]
    """The pools with players waiting."""
    you: YourPool | None


def _check(variant: str, clock: str) -> str:
    rules = rules_of(variant)
    if rules.players != 2:
        raise BadRequest(
            tr_n(
                "{variant} has {n} player: no quick pairing",
                "{variant} has {n} players: no quick pairing",
                rules.players,
                variant=rules.name,
            )
        )
    if clock not in POOL_CLOCKS:
        raise BadRequest(
            tr(
                "no pool for the clock {clock}: one of {clocks}",
                clock=repr(clock),
                clocks=", ".join(POOL_CLOCKS),
            )
        )
    return rules.name


async def join_pool(*, services: Services, player_id: str, variant: str, clock: str) -> PoolsView:
    """Wait in the pool of ``variant`` and ``clock`` (leaving any other), then run the
    pool step: the answer says whether a game was found at once."""
    name = _check(variant, clock)
    now = services.now()
    async with services.database.session() as session, session.begin():
        if await session.get(PlayerRow, player_id) is None:
            raise NotFound(tr("unknown player: start a session first"))
        rating = await session.get(RatingRow, (player_id, name))
        await session.execute(delete(PoolEntryRow).where(PoolEntryRow.player_id == player_id))
        session.add(
            PoolEntryRow(
                player_id=player_id,
                variant=name,
                clock=clock,
                rating=rating.rating if rating is not None else INITIAL_RATING,
                joined=now,
                seen=now,
            )
        )
    await pair_pools(services=services)
    return await pools_view(services=services, player_id=player_id, step=False)


async def leave_pool(*, services: Services, player_id: str) -> None:
    """Leave the pool one waits in (nothing when one was just paired: the game stands)."""
    async with services.database.session() as session, session.begin():
        await session.execute(
            delete(PoolEntryRow).where(
                PoolEntryRow.player_id == player_id, PoolEntryRow.paired.is_(None)
            )
        )


async def pools_view(*, services: Services, player_id: str | None, step: bool = True) -> PoolsView:
    """How many wait in each pool, and where the viewer stands (his page asks every few
    seconds while he waits: that keeps him in the pool, and runs the pool step)."""
    if player_id is not None:
        async with services.database.session() as session, session.begin():
            await session.execute(
                update(PoolEntryRow)
                .where(PoolEntryRow.player_id == player_id)
                .values(seen=services.now())
            )
    if step:
        await pair_pools(services=services)
    now = services.now()
    async with services.database.session() as session:
        query = (
            select(PoolEntryRow.variant, PoolEntryRow.clock, func.count())
            .where(PoolEntryRow.paired.is_(None))
            .group_by(PoolEntryRow.variant, PoolEntryRow.clock)
            .order_by(PoolEntryRow.variant, PoolEntryRow.clock)
        )
        counts = [
            PoolCount(variant=variant, clock=clock, waiting=waiting)
            for variant, clock, waiting in (await session.execute(query)).all()
        ]
        mine = await session.get(PoolEntryRow, player_id) if player_id is not None else None
        you = None
        if mine is not None and mine.game_id is not None:
            # Told once: his pages go to the game, and a later visit to the lobby must not
            # send him back to it.
            await session.execute(
                delete(PoolEntryRow).where(
                    PoolEntryRow.player_id == mine.player_id,
                    PoolEntryRow.game_id == mine.game_id,
                )
            )
            await session.commit()
        if mine is not None:
            waited = now - mine.joined
            you = YourPool(
                variant=mine.variant,
                clock=mine.clock,
                rating=round(mine.rating, 2),
                waited=round(waited, 1),
                range=rating_range(waited),
                game=mine.game_id,
            )
    return PoolsView(clocks=list(POOL_CLOCKS), pools=counts, you=you)


# -- the pool step -----------------------------------------------------------------------


@dataclass(frozen=True)
class _Waiting:
    player_id: str
    variant: str
    clock: str
    rating: float
    joined: float


def pairs_of(waiting: list[_Waiting], now: float) -> list[tuple[_Waiting, _Waiting]]:
    """The pairs of one pool: in the order they joined, each player takes the nearest
    rating among those not yet paired whose difference the longer wait of the two
    accepts (a newcomer meets a long waiter rather than have him wait on)."""
    free = sorted(waiting, key=lambda entry: (entry.joined, entry.player_id))
    pairs = []
    while free:
        first = free.pop(0)
        fits = [
            other
            for other in free
            if abs(other.rating - first.rating)
            <= rating_range(now - min(first.joined, other.joined))
        ]
        if fits:
            second = min(fits, key=lambda other: (abs(other.rating - first.rating), other.joined))
            free.remove(second)
            pairs.append((first, second))
    return pairs


async def pair_pools(*, services: Services) -> int:
    """Forget the players gone, pair those waiting and make their games; the number of
    games made."""
    lock = _stepping.setdefault(services, asyncio.Lock())
    async with lock:
        now = services.now()
        # A read first: the clock ticker runs this often, and the pools are mostly empty.
        async with services.database.session() as session:
            rows = (await session.scalars(select(PoolEntryRow))).all()
        if not rows:
            return 0
        gone_waiting = and_(PoolEntryRow.paired.is_(None), PoolEntryRow.seen < now - GONE_AFTER)
        gone_paired = PoolEntryRow.paired < now - PAIRED_KEPT
        gone = [
            row.player_id
            for row in rows
            if (row.paired is None and row.seen < now - GONE_AFTER)
            or (row.paired is not None and row.paired < now - PAIRED_KEPT)
        ]
        if gone:
            async with services.database.session() as session, session.begin():
                await session.execute(
                    delete(PoolEntryRow).where(
                        PoolEntryRow.player_id.in_(gone), or_(gone_waiting, gone_paired)
                    )
                )
        pools: dict[tuple[str, str], list[_Waiting]] = {}
        for row in sorted(rows, key=lambda row: row.joined):
            if row.paired is None and row.player_id not in gone:
                entry = _Waiting(row.player_id, row.variant, row.clock, row.rating, row.joined)
                pools.setdefault((row.variant, row.clock), []).append(entry)
        made = 0
        for waiting in pools.values():
            for first, second in pairs_of(waiting, now):
                if await _pair(services, first, second, now):
                    made += 1
        return made


class _Taken(Exception):
    """A player of the pair was taken meanwhile (by another process's step)."""


async def _claim(session: AsyncSession, ids: list[str], now: float) -> bool:
    claimed = await session.execute(
        update(PoolEntryRow)
        .where(PoolEntryRow.player_id.in_(ids), PoolEntryRow.paired.is_(None))
        .values(paired=now)
    )
    count: int = claimed.rowcount  # type: ignore[attr-defined]
    return count == len(ids)


async def _pair(services: Services, first: _Waiting, second: _Waiting, now: float) -> bool:
    """Claim both players (another process may have), then make their game."""
    ids = [first.player_id, second.player_id]
    try:
        async with services.database.session() as session, session.begin():
            if not await _claim(session, ids, now):
                raise _Taken  # rolls the claim of the other row back
    except _Taken:
        return False
    try:
        game = await create_game(
            services=services,
            player_id=first.player_id,
            variant=first.variant,
            opponent="open",
            level=1,
            color="random",
            clock=first.clock,
        )
        await join_game(services=services, player_id=second.player_id, game_id=game.id)
    except Exception:
        log.exception("quick pairing of %s and %s failed", *ids)
        async with services.database.session() as session, session.begin():
            await session.execute(
                update(PoolEntryRow)
                .where(PoolEntryRow.player_id.in_(ids))
                .values(paired=None, game_id=None)
            )
        return False
    async with services.database.session() as session, session.begin():
        await session.execute(
            update(PoolEntryRow).where(PoolEntryRow.player_id.in_(ids)).values(game_id=game.id)
        )
    log.info("quick pairing: game %s (%s %s)", game.id, first.variant, first.clock)
    return True
