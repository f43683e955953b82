"""``/api/session`` and ``/api/me``: guest players and their signed cookie."""

from __future__ import annotations

from fastapi import APIRouter, Response

from damier.server.deps import ServicesDep, ViewerDep, set_session_cookie
from damier.server.schemas import PlayerView, SessionRequest
from damier.server.services.errors import ServiceError
from damier.server.services.players import get_player, start_session

router = APIRouter(prefix="/api", tags=["session"])


class NotSignedIn(ServiceError):
    status_code = 401


@router.post("/session", response_model=PlayerView)
async def create_session(
    body: SessionRequest, response: Response, services: ServicesDep, viewer: ViewerDep
) -> PlayerView:
    """Become a guest called ``name`` (or rename the guest of the cookie)."""
    player = await start_session(services=services, player_id=viewer, name=body.name)
    set_session_cookie(response, services, player.id)
    return player


@router.get("/session", response_model=PlayerView | None)
async def current_session(services: ServicesDep, viewer: ViewerDep) -> PlayerView | None:
    """The player of the cookie, or null: what a page asks on load (a guest without a
    session is not an error, so the browser logs nothing)."""
    return await get_player(services=services, player_id=viewer)


@router.get("/me", response_model=PlayerView)
async def me(services: ServicesDep, viewer: ViewerDep) -> PlayerView:
    player = await get_player(services=services, player_id=viewer)
    if player is None:
        raise NotSignedIn("no session")
    return player
