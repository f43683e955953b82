"""Registered players: ``/api/register``, ``/api/login``, ``/api/logout``,
``/api/password``, and the public ``/api/players/{id}`` (profile and ratings) and
``/api/players/{id}/games`` (archive)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response

from damier.server.deps import (
    ServicesDep,
    ViewerDep,
    client_address,
    delete_session_cookie,
    set_session_cookie,
)
from damier.server.i18n import tr
from damier.server.routes.session import NotSignedIn
from damier.server.services import accounts
from damier.server.services.accounts import (
    Credentials,
    GamePage,
    PasswordChange,
    PlayerProfile,
    WrongCredentials,
    WrongPassword,
)
from damier.server.services.context import Services
from damier.server.services.errors import RateLimited
from damier.server.services.players import get_player, name_key

router = APIRouter(prefix="/api", tags=["accounts"])

TOO_MANY = tr("too many attempts: wait a few minutes and try again")


def _begin(request: Request, services: Services, name: str) -> tuple[str, str]:
    """Take the right to try a password for ``name`` (429 when the log-in throttle
    refuses it: see ``security.LoginThrottle`` for the policy); the address and the name
    key, for :func:`_succeeded` or :func:`_failed`."""
    address, key = client_address(request), name_key(name)
    if not services.login_limiter.begin(address, key):
        raise RateLimited(TOO_MANY)
    return address, key


@router.post("/register", response_model=PlayerProfile)
async def register(
    body: Credentials,
    request: Request,
    response: Response,
    services: ServicesDep,
    viewer: ViewerDep,
) -> PlayerProfile:
    """Register the current guest (a new player without a session) as ``name``; its games
    stay its own. The password must not be easy to guess (400)."""
    if not services.login_limiter.register(client_address(request)):
        raise RateLimited(TOO_MANY)
    player = await accounts.register(
        services=services, player_id=viewer, name=body.name, password=body.password
    )
    await set_session_cookie(response, services, player.id)
    return player


@router.post("/login", response_model=PlayerProfile)
async def login(
    body: Credentials, request: Request, response: Response, services: ServicesDep
) -> PlayerProfile:
    """Become the registered player ``name`` (the cookie now names that player)."""
    address, key = _begin(request, services, body.name)
    try:
        player = await accounts.login(services=services, name=body.name, password=body.password)
    except WrongCredentials:
        services.login_limiter.failed(address, key)
        raise
    services.login_limiter.succeeded(address, key)
    await set_session_cookie(response, services, player.id)
    return player


@router.post("/password", status_code=204, response_class=Response)
async def change_password(
    body: PasswordChange, request: Request, services: ServicesDep, viewer: ViewerDep
) -> Response:
    """Change the password (``password`` is the one now): every session of the player
    ends but this browser's, which gets a new cookie."""
    player = await get_player(services=services, player_id=viewer)
    if player is None:
        raise NotSignedIn(tr("no session"))
    address, key = _begin(request, services, player.name)
    try:
        await accounts.change_password(
            services=services,
            player_id=player.id,
            password=body.password,
            new_password=body.new_password,
        )
    except WrongPassword:
        services.login_limiter.failed(address, key)
        raise
    services.login_limiter.succeeded(address, key)
    response = Response(status_code=204)
    await set_session_cookie(response, services, player.id)
    return response


@router.post("/logout", status_code=204, response_class=Response)
async def logout(services: ServicesDep, viewer: ViewerDep) -> Response:
    """End the player's sessions, in every browser (their cookies are revoked), and forget
    this one's cookie (the next request is a new guest's)."""
    if viewer is not None:
        await accounts.end_sessions(services=services, player_id=viewer)
    response = Response(status_code=204)
    delete_session_cookie(response, services)
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
