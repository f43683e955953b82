"""``/api/session`` and ``/api/me``: guest players and their signed cookie."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from damier.server.deps import ServicesDep, ViewerDep, new_guest
from damier.server.i18n import tr
from damier.server.schemas import PlayerView, SessionRequest
from damier.server.services.errors import ServiceError
from damier.server.services.players import get_player, rename

router = APIRouter(prefix="/api", tags=["session"])


class NotSignedIn(ServiceError):
    status_code = 401


@router.post("/session", response_model=PlayerView)
async def create_session(
    body: SessionRequest,
    request: Request,
    response: Response,
    services: ServicesDep,
    viewer: ViewerDep,
) -> PlayerView:
    """Become a guest called ``name`` (or rename the player of the cookie); 409 for a
    registered player's name."""
    if viewer is not None:
        player = await rename(services=services, player_id=viewer, name=body.name)
        if player is not None:
            return player
    return await new_guest(request, response, services, name=body.name)


@router.get("/session", response_model=PlayerView | None)
async def current_session(services: ServicesDep, viewer: ViewerDep) -> PlayerView | None:
    """The player of the cookie, or null: what a page asks on load (a guest without a
    session is not an error, so the browser logs nothing)."""
    return await get_player(services=services, player_id=viewer)


@router.get("/me", response_model=PlayerView)
async def me(services: ServicesDep, viewer: ViewerDep) -> PlayerView:
    player = await get_player(services=services, player_id=viewer)
    if player is None:
        raise NotSignedIn(tr("no session"))
    return player
