"""Players: guests with a name, known by the id in their signed cookie (registered
players are in ``services.accounts``)."""

from __future__ import annotations

import secrets
import unicodedata

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from damier.server.schemas import PlayerView
from damier.server.services.context import Services
from damier.server.services.errors import Conflict
from damier.server.store.models import PlayerRow


def name_key(name: str) -> str:
    """The form in which two registered names must differ: compatibility-normalised and
    case-folded (``"ANA"``, ``"ana"`` and ``"Ａｎａ"`` are one name).

    >>> name_key("ＡＮＡ") == name_key("ana")
    True
    """
    return unicodedata.normalize("NFKC", name).casefold()


def new_id(length: int = 10) -> str:
    """A random id of lowercase letters and digits."""
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    return "".join(secrets.choice(alphabet) for _ in range(length))


async def get_player(*, services: Services, player_id: str | None) -> PlayerView | None:
    if player_id is None:
        return None
    async with services.database.session() as session:
        row = await session.get(PlayerRow, player_id)
        return PlayerView(id=row.id, name=row.name) if row is not None else None


async def create_guest(*, services: Services, name: str | None = None) -> PlayerView:
    """A new guest (named "Guest 1234" when no name is given)."""
    player_id = new_id(16)
    name = name or f"Guest {secrets.randbelow(9000) + 1000}"
    async with services.database.session() as session, session.begin():
        session.add(PlayerRow(id=player_id, name=name, created=services.now()))
    return PlayerView(id=player_id, name=name)


async def start_session(*, services: Services, player_id: str | None, name: str) -> PlayerView:
    """``POST /api/session``: rename the cookie's player, or create a guest."""
    if player_id is not None:
        taken = Conflict(f"the name {name!r} is taken by a registered player")
        try:
            async with services.database.session() as session, session.begin():
                row = await session.get(PlayerRow, player_id)
                if row is not None:
                    if row.password_hash is not None:  # a registered name stays unique
                        key = name_key(name)
                        query = select(PlayerRow.id).where(
                            PlayerRow.name_key == key, PlayerRow.id != row.id
                        )
                        if (await session.scalars(query)).first() is not None:
                            raise taken
                        row.name_key = key
                    row.name = name
                    return PlayerView(id=row.id, name=name)
        except IntegrityError:  # another player registered the name meanwhile
            raise taken from None
    return await create_guest(services=services, name=name)
