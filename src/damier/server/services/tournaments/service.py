"""The tournament service: create, join, withdraw, go berserk, read, list, and the PDN.

A tournament's truth is in its rows (``store.models``): the tournament, its players, and
one :class:`TournamentGameRow` per game of each round paired so far. It moves on in
:func:`.progress.settle`, under the lock and in one transaction: at the start time
round 1 is paired; a finished game is scored (a second leg starts when the first ends);
when every game of the round is scored, the next round is paired (stored with its games
in the same transaction, so a restart never pairs it again differently) or the tournament
ends. It runs whenever a tournament is read or changed, and from the clock task for those
nobody looks at. The games are ordinary games (``services.games``).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import secrets
from collections.abc import Awaitable, Callable

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.exc import StaleDataError

from damier.server.i18n import tr, tr_n
from damier.server.rooms import Notice
from damier.server.services import games
from damier.server.services.clocks import check_clock
from damier.server.services.context import Services
from damier.server.services.errors import BadRequest, Conflict, Forbidden, NotFound, ServiceError
from damier.server.services.pdn import game_pdn
from damier.server.services.players import new_id
from damier.server.services.tournaments.progress import due, settle
from damier.server.services.tournaments.records import active
from damier.server.services.tournaments.schemas import (
    NewTournament,
    TournamentLists,
    TournamentSummary,
    TournamentView,
)
from damier.server.services.tournaments.views import summary, view
from damier.server.store.models import (
    GameRow,
    PlayerRow,
    TournamentGameRow,
    TournamentPlayerRow,
    TournamentRow,
)

log = logging.getLogger("damier.server")

MAX_ROUND_ROBIN = 20
"""The most players of a round robin (19 rounds, or 38 double)."""
MAX_SWISS = 100
DEFAULT_START = 300.0
"""Seconds from creation to the start when the creator does not say."""
Action = Callable[[AsyncSession, TournamentRow, float], Awaitable[None]]


# -- passwords ----------------------------------------------------------------------


def _hash_password(password: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=2**14, r=8, p=1)
    return f"{salt.hex()}${digest.hex()}"


def _password_ok(stored: str, password: str | None) -> bool:
    if password is None:
        return False
    salt, _, digest = stored.partition("$")
    given = hashlib.scrypt(password.encode(), salt=bytes.fromhex(salt), n=2**14, r=8, p=1)
    return hmac.compare_digest(given.hex(), digest)


async def _load(
    session: AsyncSession, tournament_id: str, *, for_update: bool = False
) -> TournamentRow:
    query = select(TournamentRow).where(TournamentRow.id == tournament_id)
    if for_update:
        query = query.with_for_update(of=TournamentRow)
    row = (await session.scalars(query)).unique().one_or_none()
    if row is None:
        raise NotFound(tr("no tournament {tournament}", tournament=repr(tournament_id)))
    return row


async def _change(
    services: Services, tournament_id: str, action: Action | None, viewer: str | None
) -> TournamentView:
    """Apply ``action`` (if any) and move the tournament on, in one transaction; then
    announce the games it started."""
    async with services.lock(f"tournament:{tournament_id}"):
        now = services.now()
        try:
            async with services.database.session() as session, session.begin():
                row = await _load(session, tournament_id, for_update=True)
                if action is not None:
                    await action(session, row, now)
                started = await settle(services, session, row, now)
                row.updated = now
                await session.flush()
                state = await view(services, session, row, now, viewer)
        except (StaleDataError, IntegrityError):  # another process moved it on first
            raise Conflict(tr("the tournament changed meanwhile: reload it")) from None
    for game_row, game in started:
        await games.announce_game(services, game_row, game)
    await announce(services, state)
    return state


def room_of(tournament_id: str) -> str:
    """The rooms' name of a tournament's sockets (a game's id has no colon)."""
    return f"tournament:{tournament_id}"


async def announce(services: Services, state: TournamentView) -> None:
    """Tell the tournament's sockets, in every process, that it changed: each page then
    reads it again (its own view: what the viewer may do)."""
    frame = {
        "type": "tournament",
        "id": state.id,
        "status": state.status,
        "round": state.round,
        "players": state.players,
        "server_time": state.server_time,
    }
    await services.rooms.notify(room_of(state.id), Notice(json.dumps(frame)))


async def tournament_exists(*, services: Services, tournament_id: str) -> bool:
    async with services.database.session() as session:
        query = select(TournamentRow.id).where(TournamentRow.id == tournament_id)
        return (await session.scalars(query)).first() is not None


# -- the service functions ---------------------------------------------------------------


def _may_create(services: Services, player: PlayerRow) -> bool:
    if player.password_hash is None:
        return False
    allowed = [
        name.strip().casefold()
        for name in services.settings.tournament_creators.split(",")
        if name.strip()
    ]
    return not allowed or player.name.casefold() in allowed


async def create_tournament(
    *, services: Services, player_id: str, body: NewTournament
) -> TournamentView:
    """A new tournament, open for entries until its start; its creator must be a
    registered player (and one of ``tournament_creators`` when that setting names any)."""
    rules = games.rules_of(body.variant)
    if rules.players != 2:
        raise BadRequest(
            tr("a tournament is for games of two players, not {variant}", variant=rules.title)
        )
    control = check_clock(body.clock)
    if control is None:
        raise BadRequest(tr("a tournament needs a clock: a player who leaves loses on time"))
    if body.system == "swiss" and body.rounds is None:
        raise BadRequest(tr("a Swiss tournament needs its number of rounds"))
    if body.system == "arena" and body.minutes is None:
        raise BadRequest(tr("an arena needs its length in minutes"))
    now = services.now()
    if body.starts_at is not None:
        starts_at = body.starts_at
        if not now - 60 <= starts_at <= now + 30 * 86400:
            raise BadRequest(tr("the start must be within the next 30 days"))
    else:
        starts_at = now + (DEFAULT_START if body.starts_in is None else body.starts_in)
    tournament_id = new_id(8)
    hashed = await asyncio.to_thread(_hash_password, body.password) if body.password else None
    async with services.database.session() as session, session.begin():
        player = await session.get(PlayerRow, player_id)
        if player is None:
            raise Forbidden(tr("unknown player: start a session first"))
        if player.password_hash is None:
            raise Forbidden(tr("only a registered player may create a tournament: register first"))
        if not _may_create(services, player):
            raise Forbidden(tr("tournaments are created by the site's organisers on this server"))
        row = TournamentRow(
            id=tournament_id,
            name=body.name.strip(),
            variant=rules.name,
            clock_control=control,
            system=body.system,
            cycles=body.cycles if body.system == "round-robin" else 1,
            rounds=body.rounds if body.system == "swiss" and body.rounds else 0,
            legs=1 if body.system == "arena" else body.games,
            status="coming",
            starts_at=starts_at,
            ends_at=starts_at + 60 * body.minutes
            if body.system == "arena" and body.minutes
            else None,
            round=0,
            creator_id=player.id,
            creator=player,
            password_hash=hashed,
            created=now,
            updated=now,
            players=[],
            games=[],
        )
        session.add(row)
    return await _change(services, tournament_id, None, player_id)


async def join_tournament(
    *, services: Services, tournament_id: str, player_id: str, password: str | None
) -> TournamentView:
    """Enter a tournament: before its start, or during a Swiss (paired from the next
    round, with no points for the rounds missed). A withdrawn player may come back."""

    async def join(session: AsyncSession, row: TournamentRow, now: float) -> None:
        if row.status == "finished":
            raise Conflict(tr("the tournament is over"))
        entry = next((e for e in row.players if e.player_id == player_id), None)
        if entry is not None and entry.withdrawn is None:
            return
        stored = row.password_hash
        if stored is not None and not await asyncio.to_thread(_password_ok, stored, password):
            raise Forbidden(tr("this tournament needs its password to join"))
        if row.status == "playing" and row.system == "round-robin":
            raise Conflict(tr("a round robin takes no new players once it has started"))
        limit = MAX_ROUND_ROBIN if row.system == "round-robin" else MAX_SWISS
        if row.status == "playing" and row.ends_at is not None and now >= row.ends_at:
            raise Conflict(tr("the arena is over: its last games are being played"))
        if entry is None and len(active(row)) >= limit:
            raise Conflict(
                tr_n(
                    "the tournament is full ({n} player)",
                    "the tournament is full ({n} players)",
                    limit,
                )
            )
        if entry is not None:
            entry.withdrawn = None
            entry.forfeits = 0
            return
        player = await session.get(PlayerRow, player_id)
        if player is None:
            raise Forbidden(tr("unknown player: start a session first"))
        seed = max((e.seed for e in row.players), default=-1) + 1
        if row.status == "coming":
            seed = len(row.players)
        row.players.append(
            TournamentPlayerRow(
                player_id=player.id,
                player=player,
                seed=seed,
                joined=now,
                forfeits=0,
                berserk=False,
            )
        )

    return await _change(services, tournament_id, join, player_id)


async def withdraw(*, services: Services, tournament_id: str, player_id: str) -> TournamentView:
    """Leave a tournament: before the start the entry is removed; during it the player is
    paired no more (his game being played goes on: resign it or lose it on time)."""

    async def leave(session: AsyncSession, row: TournamentRow, now: float) -> None:
        entry = next((e for e in row.players if e.player_id == player_id), None)
        if entry is None or entry.withdrawn is not None:
            raise Conflict(tr("you are not a player of this tournament"))
        if row.status == "finished":
            raise Conflict(tr("the tournament is over"))
        if row.status == "coming":
            row.players.remove(entry)
            for seed, other in enumerate(row.players):
                other.seed = seed
        else:
            entry.withdrawn = now

    return await _change(services, tournament_id, leave, player_id)


async def set_berserk(
    *, services: Services, tournament_id: str, player_id: str, on: bool
) -> TournamentView:
    """In an arena: go berserk (or stop) in one's games paired from now on: half the time
    on the clock, a point more for a win of at least seven moves."""

    async def choose(session: AsyncSession, row: TournamentRow, now: float) -> None:
        if row.system != "arena":
            raise BadRequest(tr("berserk is for arenas"))
        entry = next((e for e in row.players if e.player_id == player_id), None)
        if entry is None:
            raise Conflict(tr("you are not a player of this arena"))
        entry.berserk = on

    return await _change(services, tournament_id, choose, player_id)


async def set_pause(
    *, services: Services, tournament_id: str, player_id: str, on: bool
) -> TournamentView:
    """In an arena: pause (paired no more once the game being played ends; the points
    stay) or resume (paired again at once, no password asked), until the arena's end."""

    async def choose(session: AsyncSession, row: TournamentRow, now: float) -> None:
        if row.system != "arena":
            raise BadRequest(tr("a pause is for arenas: withdraw from a round robin or a Swiss"))
        entry = next((e for e in row.players if e.player_id == player_id), None)
        if entry is None:
            raise Conflict(tr("you are not a player of this arena"))
        if row.status != "playing":
            raise Conflict(tr("the arena is not under way: enter it or withdraw instead"))
        if on:
            if entry.withdrawn is None:
                entry.withdrawn = now
            return
        if row.ends_at is not None and now >= row.ends_at:
            raise Conflict(tr("the arena is over: its last games are being played"))
        entry.withdrawn, entry.forfeits = None, 0

    return await _change(services, tournament_id, choose, player_id)


async def tournament_view(
    *, services: Services, tournament_id: str, viewer: str | None
) -> TournamentView:
    """The tournament as it is now (moved on first when something is due)."""
    async with services.database.snapshot() as session:
        row = await _load(session, tournament_id)
        now = services.now()
        if not await due(session, row, now):
            return await view(services, session, row, now, viewer)
    return await _change(services, tournament_id, None, viewer)


async def list_tournaments(*, services: Services, limit: int = 50) -> TournamentLists:
    """The coming (soonest first), running, and recently finished tournaments."""
    lists: dict[str, list[TournamentSummary]] = {}
    async with services.database.session() as session:
        for status, order in (
            ("coming", TournamentRow.starts_at.asc()),
            ("playing", TournamentRow.starts_at.desc()),
            ("finished", TournamentRow.finished.desc()),
        ):
            query = select(TournamentRow).where(TournamentRow.status == status)
            rows = (await session.scalars(query.order_by(order).limit(limit))).unique().all()
            lists[status] = [summary(row) for row in rows]
    return TournamentLists(**lists)


async def tournament_pdn(*, services: Services, tournament_id: str, base_url: str = "") -> str:
    """Every game of the tournament as PDN, with ``Event``, ``Round`` and ``Board`` tags
    (the second game of a pairing is round ``n.2``)."""
    async with services.database.session() as session:
        row = await _load(session, tournament_id)
        name, legs = row.name, row.legs
        slots = [(g.round, g.board, g.leg, g.game_id) for g in row.games if g.game_id]
    texts = []
    for number, board, leg, game_id in slots:
        round_ = f"{number}.{leg + 1}" if legs == 2 else str(number)
        event = {"Event": name, "Round": round_, "Board": str(board)}
        texts.append(
            await game_pdn(services=services, game_id=game_id, base_url=base_url, event=event)
        )
    return "\n".join(texts)


async def advance_tournaments(*, services: Services) -> int:
    """Move on the tournaments whose start is due, a game of whose round has ended, or an
    arena whose time is up (the clock task calls this); returns how many were moved."""
    now = services.now()
    starting = select(TournamentRow.id).where(
        TournamentRow.status == "coming", TournamentRow.starts_at <= now
    )
    ended = (
        select(TournamentGameRow.tournament_id)
        .join(GameRow, GameRow.id == TournamentGameRow.game_id)
        .where(TournamentGameRow.white_points.is_(None), GameRow.status == "finished")
    )
    over = select(TournamentRow.id).where(
        TournamentRow.status == "playing",
        TournamentRow.system == "arena",
        TournamentRow.ends_at <= now,
    )
    async with services.database.session() as session:
        ids = set((await session.scalars(starting)).all())
        ids |= set((await session.scalars(ended)).all())
        ids |= set((await session.scalars(over)).all())
        moving = []
        for tournament_id in sorted(ids):
            row = await _load(session, tournament_id)
            if await due(session, row, now):
                moving.append(tournament_id)
    for tournament_id in moving:
        try:
            await _change(services, tournament_id, None, None)
        except ServiceError as error:  # another process moved it on meanwhile
            log.info("tournament %s not moved on: %s", tournament_id, error.detail)
    return len(moving)
