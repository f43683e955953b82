"""Registered players: ``/api/register``, ``/api/login``, ``/api/logout``, and the public
``/api/players/{id}`` (profile and ratings) and ``/api/players/{id}/games`` (archive)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response

from damier.server.deps import ServicesDep, ViewerDep, set_session_cookie
from damier.server.security import COOKIE
from damier.server.services import accounts
from damier.server.services.accounts import Credentials, GamePage, PlayerProfile
from damier.server.services.context import Services
from damier.server.services.errors import RateLimited
from damier.server.services.players import name_key

router = APIRouter(prefix="/api", tags=["accounts"])


def _attempt(request: Request, services: Services, name: str) -> None:
    """Spend a log-in token of the client's address and of the account name (429 when
    either is empty): guessing passwords is slow from one address and for one account."""
    host = request.client.host if request.client is not None else "unknown"
    limiter = services.login_limiter
    by_host = limiter.take(f"host:{host}")
    by_name = limiter.take(f"name:{name_key(name)}")
    if not (by_host and by_name):
        raise RateLimited("too many attempts: wait a minute and try again")


@router.post("/register", response_model=PlayerProfile)
async def register(
    body: Credentials,
    request: Request,
    response: Response,
    services: ServicesDep,
    viewer: ViewerDep,
) -> PlayerProfile:
    """Register the current guest (a new player without a session) as ``name``; its games
    stay its own."""
    _attempt(request, services, body.name)
    player = await accounts.register(
        services=services, player_id=viewer, name=body.name, password=body.password
    )
    set_session_cookie(response, services, player.id)
    return player


@router.post("/login", response_model=PlayerProfile)
async def login(
    body: Credentials, request: Request, response: Response, services: ServicesDep
) -> PlayerProfile:
    """Become the registered player ``name`` (the cookie now names that player)."""
    _attempt(request, services, body.name)
    player = await accounts.login(services=services, name=body.name, password=body.password)
    set_session_cookie(response, services, player.id)
    return player


@router.post("/logout", status_code=204, response_class=Response)
async def logout(services: ServicesDep) -> Response:
    """Forget the session cookie (the next request is a new guest's)."""
    response = Response(status_code=204)
    response.delete_cookie(
        COOKIE, path="/", httponly=True, samesite="lax", secure=services.settings.secure_cookie
    )
    return response


@router.get("/players/{player_id}", response_model=PlayerProfile)
async def player(player_id: str, services: ServicesDep) -> PlayerProfile:
    return await accounts.profile(services=services, player_id=player_id)


@router.get("/players/{player_id}/games", response_model=GamePage)
async def player_games(
    player_id: str,
    services: ServicesDep,
    before: Annotated[str | None, Query(max_length=32)] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = accounts.ARCHIVE_PAGE,
) -> GamePage:
    """The player's games, newest first; pass the answer's ``next`` as ``before`` for the
    older ones."""
    return await accounts.archive(
        services=services, player_id=player_id, before=before, limit=limit
    )
