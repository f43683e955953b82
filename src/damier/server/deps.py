"""Request dependencies as ``Annotated`` aliases. They are coroutines even where they do
not await: FastAPI runs a plain function dependency in its thread pool, a hand-over to
another thread and back for a few microseconds of work."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request, Response

from damier.server.schemas import PlayerView
from damier.server.security import COOKIE, COOKIE_MAX_AGE
from damier.server.services.context import Services
from damier.server.services.errors import RateLimited
from damier.server.services.players import create_guest, get_player


async def get_services(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


ServicesDep = Annotated[Services, Depends(get_services)]


async def viewer_id(request: Request, services: ServicesDep) -> str | None:
    """The player id in the signed cookie (None without a valid one)."""
    return services.signer.read(request.cookies.get(COOKIE))


ViewerDep = Annotated[str | None, Depends(viewer_id)]


def set_session_cookie(response: Response, services: Services, player_id: str) -> None:
    response.set_cookie(
        COOKIE,
        services.signer.sign(player_id),
        max_age=COOKIE_MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=services.settings.secure_cookie,
        path="/",
    )


async def player_or_guest(
    response: Response, services: ServicesDep, viewer: ViewerDep
) -> PlayerView:
    """The player of the cookie; a new guest (and cookie) when there is none."""
    player = await get_player(services=services, player_id=viewer)
    if player is None:
        player = await create_guest(services=services)
        set_session_cookie(response, services, player.id)
    return player


PlayerDep = Annotated[PlayerView, Depends(player_or_guest)]


def client_key(request: Request, viewer: str | None) -> str:
    if viewer is not None:
        return f"player:{viewer}"
    host = request.client.host if request.client is not None else "unknown"
    return f"host:{host}"


async def rate_limited(request: Request, services: ServicesDep, viewer: ViewerDep) -> None:
    """Spend one token of the client's bucket (429 when it is empty)."""
    if not services.limiter.take(client_key(request, viewer)):
        raise RateLimited("too many requests: slow down")


RateLimit = Depends(rate_limited)
