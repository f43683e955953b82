"""Players: guests with a name, known by the id in their signed cookie (registered
players are in ``services.accounts``).

Names: a registered player's name is his alone, whatever its case or width (see
:func:`name_key`); a guest may not take it, and registering a name takes it from the
guests that had it (they become "Guest NNNN"). Guests may share a name among themselves,
and every view that shows a name says whether it is a guest's.
"""

from __future__ import annotations

import secrets
import unicodedata

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from damier.server.i18n import tr
from damier.server.schemas import PlayerView
from damier.server.services.context import Services
from damier.server.services.errors import Conflict
from damier.server.store.models import PlayerRow


def name_key(name: str) -> str:
    """The form in which two names are one: compatibility-normalised, case-folded and
    normalised again (case folding may leave text unnormalised), with runs of spaces as
    one (``"ANA"``, ``"ana"`` and ``"Ａｎａ"`` are one name).

    >>> name_key("ＡＮＡ") == name_key("ana") == name_key("Ana")
    True
    >>> name_key("STRASSE") == name_key("Straße")
    True
    """
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join(folded.split())


def new_id(length: int = 10) -> str:
    """A random id of lowercase letters and digits."""
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    return "".join(secrets.choice(alphabet) for _ in range(length))


def guest_name() -> str:
    return f"Guest {secrets.randbelow(9000) + 1000}"


def player_view(row: PlayerRow) -> PlayerView:
    return PlayerView(id=row.id, name=row.name, guest=row.password_hash is None)


async def session_player(*, services: Services, cookie: str | None) -> str | None:
    """The player id of a session cookie, or None when it is missing, forged, of an
    unknown player, or revoked (its generation is older than the player's). A cookie of
    the first form (the id alone) counts as generation 0: it lasts until the player's
    first log-out, registration or password change."""
    token = services.signer.read(cookie)
    if token is None:
        return None
    async with services.database.session() as session:
        query = select(PlayerRow.session_generation).where(PlayerRow.id == token.player_id)
        generation = (await session.scalars(query)).first()
    if generation is None or generation != (token.generation or 0):
        return None
    return token.player_id


async def session_generation(*, services: Services, player_id: str) -> int:
    """The generation to sign into a new cookie of ``player_id``."""
    async with services.database.session() as session:
        query = select(PlayerRow.session_generation).where(PlayerRow.id == player_id)
        return (await session.scalars(query)).first() or 0


async def get_player(*, services: Services, player_id: str | None) -> PlayerView | None:
    if player_id is None:
        return None
    async with services.database.session() as session:
        row = await session.get(PlayerRow, player_id)
        return player_view(row) if row is not None else None


async def registered_holder(session: AsyncSession, key: str) -> str | None:
    """The id of the registered player whose name has the key ``key``, if any."""
    query = select(PlayerRow.id).where(
        PlayerRow.name_key == key, PlayerRow.password_hash.is_not(None)
    )
    return (await session.scalars(query)).first()


async def take_name_from_guests(session: AsyncSession, key: str, but: str) -> None:
    """Rename the guests (other than ``but``) whose name has the key ``key``: a name just
    registered is the registered player's alone."""
    query = select(PlayerRow.id).where(
        PlayerRow.name_key == key, PlayerRow.password_hash.is_(None), PlayerRow.id != but
    )
    for guest_id in (await session.scalars(query)).all():
        name = guest_name()
        await session.execute(
            update(PlayerRow)
            .where(PlayerRow.id == guest_id)
            .values(name=name, name_key=name_key(name))
        )


def _taken(name: str) -> Conflict:
    return Conflict(tr("the name {name} is taken by a registered player", name=repr(name)))


async def create_guest(*, services: Services, name: str | None = None) -> PlayerView:
    """A new guest (named "Guest 1234" when no name is given); 409 for a registered
    player's name."""
    player_id = new_id(16)
    name = name or guest_name()
    key = name_key(name)
    async with services.database.session() as session, session.begin():
        if await registered_holder(session, key) is not None:
            raise _taken(name)
        session.add(PlayerRow(id=player_id, name=name, name_key=key, created=services.now()))
    return PlayerView(id=player_id, name=name, guest=True)


async def rename(*, services: Services, player_id: str, name: str) -> PlayerView | None:
    """``POST /api/session`` with a session: rename its player (None when the player is
    gone); 409 for a name another registered player holds."""
    key = name_key(name)
    try:
        async with services.database.session() as session, session.begin():
            row = await session.get(PlayerRow, player_id)
            if row is None:
                return None
            holder = await registered_holder(session, key)
            if holder is not None and holder != row.id:
                raise _taken(name)
            row.name, row.name_key = name, key
            if row.password_hash is not None:
                await take_name_from_guests(session, key, but=row.id)
            return player_view(row)
    except IntegrityError:  # another player registered the name meanwhile
        raise _taken(name) from None
