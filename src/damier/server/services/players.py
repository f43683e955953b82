"""Players: guests with a name, known by the id in their signed cookie."""

from __future__ import annotations

import secrets

from damier.server.schemas import PlayerView
from damier.server.services.context import Services
from damier.server.store.models import PlayerRow


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
        async with services.database.session() as session, session.begin():
            row = await session.get(PlayerRow, player_id)
            if row is not None:
                row.name = name
                return PlayerView(id=row.id, name=name)
    return await create_guest(services=services, name=name)
