"""Registered players: a guest registers with a name and a password (argon2id) and keeps
its id, so its games; a registered player logs in from any browser; players have a public
profile (ratings per variant) and a game archive.

Password hashes never leave this module's functions: no view carries them and nothing
logs them. A new password (registering, changing it) must not be easy to guess: zxcvbn's
estimate (its lists of the most common passwords, words, names, keyboard runs, dates,
and the player's name) must put it at a million guesses or more, and it may not be only
spaces. Log-out and a password change revoke every session cookie of the player (they
bump his session generation, see ``security.SessionSigner``).
"""

from __future__ import annotations

import asyncio
import logging
import re
from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import and_, or_, select, update
from sqlalchemy.exc import IntegrityError
from zxcvbn import zxcvbn

from damier.server.i18n import tr
from damier.server.schemas import GameSummary, SessionRequest
from damier.server.services.context import Services
from damier.server.services.errors import BadRequest, Conflict, NotFound, ServiceError
from damier.server.services.players import (
    name_key,
    new_id,
    registered_holder,
    take_name_from_guests,
)
from damier.server.services.views import summary_view
from damier.server.store.models import GameRow, PlayerRow, RatingRow, SeatRow

MIN_PASSWORD = 8
MAX_PASSWORD = 1024
MIN_SCORE = 2
"""zxcvbn's score a new password needs: 2 is "somewhat guessable", a million guesses and
more (0 and 1 are the common passwords and their easy variants)."""
SCORED_LENGTH = 72
"""zxcvbn looks at this many characters at most (beyond, it is slow and refuses)."""
ARCHIVE_PAGE = 20

_HASH = re.compile(r"\$argon2[A-Za-z0-9$=,+/.-]*")
"""An argon2 hash in PHC form: ``$argon2id$v=19$m=65536,t=3,p=4$salt$hash``."""


class _RedactHashes(logging.Filter):
    """Masks argon2 hashes in the database drivers' debug records (they log the values of
    every statement, the INSERT of a password hash among them)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "$argon2" in message:
            record.msg, record.args = _HASH.sub("$argon2…(redacted)", message), ()
        return True


for _name in ("aiosqlite", "sqlalchemy.engine.Engine", "asyncpg"):
    logging.getLogger(_name).addFilter(_RedactHashes())

_hasher = PasswordHasher()  # argon2id with argon2-cffi's recommended parameters


@cache
def _dummy_hash() -> str:
    """Verified against for an unknown name, so that it takes as long as a wrong password."""
    return _hasher.hash("not a password")


class WrongCredentials(ServiceError):
    status_code = 401


# -- the API's values --------------------------------------------------------------------


class Credentials(SessionRequest):
    """``POST /api/register`` and ``POST /api/login``: a name (as for a session) and a
    password."""

    password: str = Field(min_length=MIN_PASSWORD, max_length=MAX_PASSWORD)


class PasswordChange(BaseModel):
    """``POST /api/password``: the password now, and the new one."""

    model_config = ConfigDict(extra="forbid")

    password: str = Field(min_length=1, max_length=MAX_PASSWORD)
    new_password: str = Field(min_length=MIN_PASSWORD, max_length=MAX_PASSWORD)


class RatingView(BaseModel):
    variant: str
    rating: float
    deviation: float
    volatility: float
    games: int


class PlayerProfile(BaseModel):
    id: str
    name: str
    registered: bool
    ratings: list[RatingView]
    """One per variant the player has rated games in, by variant name."""


class GamePage(BaseModel):
    games: list[GameSummary]
    """Newest first."""
    next: str | None
    """The ``before`` of the next (older) page; None on the last page."""


# -- names and passwords -----------------------------------------------------------------


async def _hash(password: str) -> str:
    """The argon2id hash (in a thread: it takes tens of milliseconds on purpose)."""
    return await asyncio.to_thread(_hasher.hash, password)


async def _verify(stored: str | None, password: str) -> bool:
    def check() -> bool:
        try:
            return _hasher.verify(stored or _dummy_hash(), password) and stored is not None
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    return await asyncio.to_thread(check)


def _guessable(password: str, name: str) -> str | None:
    """Why ``password`` is too easy to guess for the player ``name``, or None."""
    if not password.strip():
        return tr("the password is only spaces")
    estimate = zxcvbn(password[:SCORED_LENGTH], user_inputs=[name])
    if estimate["score"] >= MIN_SCORE:
        return None
    warning = estimate["feedback"]["warning"].rstrip(".")
    because = f" ({warning[:1].lower()}{warning[1:]})" if warning else ""
    return f"the password is too easy to guess{because}: use a few uncommon words"


async def check_new_password(password: str, name: str) -> None:
    """400 for a password that is only spaces or too easy to guess (in a thread: the
    estimate takes milliseconds)."""
    problem = await asyncio.to_thread(_guessable, password, name)
    if problem is not None:
        raise BadRequest(problem)


def _profile(player: PlayerRow, ratings: list[RatingRow]) -> PlayerProfile:
    return PlayerProfile(
        id=player.id,
        name=player.name,
        registered=player.password_hash is not None,
        ratings=[
            RatingView(
                variant=rating.variant,
                rating=round(rating.rating, 2),
                deviation=round(rating.deviation, 2),
                volatility=round(rating.volatility, 6),
                games=rating.games,
            )
            for rating in sorted(ratings, key=lambda rating: rating.variant)
        ],
    )


def _taken(name: str) -> Conflict:
    return Conflict(tr("the name {name} is taken by a registered player", name=repr(name)))


class WrongPassword(ServiceError):
    status_code = 401


# -- the service functions ---------------------------------------------------------------


async def register(
    *, services: Services, player_id: str | None, name: str, password: str
) -> PlayerProfile:
    """Make the cookie's guest (or a new player) a registered player called ``name``; it
    keeps its id, so its games. The name is taken from the guests that had it, and the
    guest's other cookies are revoked (the answer's cookie is the session)."""
    key = name_key(name)
    await check_new_password(password, name)
    password_hash = await _hash(password)
    try:
        async with services.database.session() as session, session.begin():
            player = await session.get(PlayerRow, player_id) if player_id else None
            if player is not None and player.password_hash is not None:
                raise Conflict(tr("you are registered already: log out first"))
            if await registered_holder(session, key) is not None:
                raise _taken(name)
            now = services.now()
            if player is None:
                player = PlayerRow(id=new_id(16), name=name, created=now)
                session.add(player)
            player.name = name
            player.name_key = key
            player.password_hash = password_hash
            player.registered = now
            player.session_generation = (player.session_generation or 0) + 1
            await session.flush()
            await take_name_from_guests(session, key, but=player.id)
            return _profile(player, [])
    except IntegrityError:  # registered meanwhile by another request
        raise _taken(name) from None


async def login(*, services: Services, name: str, password: str) -> PlayerProfile:
    """The registered player of ``name`` if ``password`` is theirs (401 otherwise, the same
    answer for an unknown name)."""
    async with services.database.session() as session:
        query = select(PlayerRow).where(
            PlayerRow.name_key == name_key(name), PlayerRow.password_hash.is_not(None)
        )
        player = (await session.scalars(query)).first()
        stored = player.password_hash if player is not None else None
    if player is None or not await _verify(stored, password):
        raise WrongCredentials(tr("wrong name or password"))
    assert stored is not None
    if _hasher.check_needs_rehash(stored):
        fresh = await _hash(password)
        async with services.database.session() as session, session.begin():
            row = await session.get(PlayerRow, player.id)
            if row is not None and row.password_hash == stored:
                row.password_hash = fresh
    return await profile(services=services, player_id=player.id)


async def change_password(
    *, services: Services, player_id: str, password: str, new_password: str
) -> None:
    """Replace the registered player's password (401 when ``password`` is not his) and
    revoke all his session cookies."""
    async with services.database.session() as session:
        player = await session.get(PlayerRow, player_id)
        if player is None:
            raise NotFound(tr("no player {player}", player=repr(player_id)))
        stored, name = player.password_hash, player.name
    if stored is None:
        raise Conflict(tr("a guest has no password: register instead"))
    if not await _verify(stored, password):
        raise WrongPassword(tr("wrong password"))
    await check_new_password(new_password, name)
    fresh = await _hash(new_password)
    async with services.database.session() as session, session.begin():
        changed = await session.execute(
            update(PlayerRow)
            .where(PlayerRow.id == player_id, PlayerRow.password_hash == stored)
            .values(password_hash=fresh, session_generation=PlayerRow.session_generation + 1)
        )
    if changed.rowcount != 1:  # type: ignore[attr-defined]
        raise Conflict(tr("the password was changed meanwhile: try again"))


async def end_sessions(*, services: Services, player_id: str) -> None:
    """Revoke every session cookie of the player (a log-out logs out every browser)."""
    async with services.database.session() as session, session.begin():
        await session.execute(
            update(PlayerRow)
            .where(PlayerRow.id == player_id)
            .values(session_generation=PlayerRow.session_generation + 1)
        )


async def profile(*, services: Services, player_id: str) -> PlayerProfile:
    async with services.database.session() as session:
        player = await session.get(PlayerRow, player_id)
        if player is None:
            raise NotFound(tr("no player {player}", player=repr(player_id)))
        query = select(RatingRow).where(RatingRow.player_id == player_id)
        ratings = list((await session.scalars(query)).all())
        return _profile(player, ratings)


async def archive(
    *, services: Services, player_id: str, before: str | None, limit: int = ARCHIVE_PAGE
) -> GamePage:
    """The player's games, newest first, ``limit`` at a time; ``before`` is the ``next`` of
    the previous page (the id of the last game it showed)."""
    async with services.database.session() as session:
        if await session.get(PlayerRow, player_id) is None:
            raise NotFound(tr("no player {player}", player=repr(player_id)))
        query = (
            select(GameRow)
            .where(
                or_(
                    GameRow.white_id == player_id,
                    GameRow.black_id == player_id,
                    GameRow.id.in_(select(SeatRow.game_id).where(SeatRow.player_id == player_id)),
                )
            )
            .order_by(GameRow.created.desc(), GameRow.id.desc())
            .limit(limit + 1)
        )
        if before is not None:
            cursor = await session.get(GameRow, before)
            if cursor is None:
                raise NotFound(tr("no game {game}", game=repr(before)))
            query = query.where(
                or_(
                    GameRow.created < cursor.created,
                    and_(GameRow.created == cursor.created, GameRow.id < cursor.id),
                )
            )
        rows = list((await session.scalars(query)).unique().all())
        now = services.now()
        page = [summary_view(row, now) for row in rows[:limit]]
    return GamePage(games=page, next=page[-1].id if len(rows) > limit else None)
