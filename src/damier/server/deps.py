"""Request dependencies as ``Annotated`` aliases. They are coroutines even where they do
not await: FastAPI runs a plain function dependency in its thread pool, a hand-over to
another thread and back for a few microseconds of work."""

from __future__ import annotations

import ipaddress
from typing import Annotated

from fastapi import Depends, Request, Response

from damier.server.i18n import tr
from damier.server.schemas import PlayerView
from damier.server.security import COOKIE, COOKIE_MAX_AGE
from damier.server.services.context import Services
from damier.server.services.errors import RateLimited
from damier.server.services.players import (
    create_guest,
    get_player,
    session_generation,
    session_player,
)


async def get_services(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


ServicesDep = Annotated[Services, Depends(get_services)]


async def viewer_id(request: Request, services: ServicesDep) -> str | None:
    """The player id of the session cookie (None without a valid, unrevoked one)."""
    return await session_player(services=services, cookie=request.cookies.get(COOKIE))


ViewerDep = Annotated[str | None, Depends(viewer_id)]


async def set_session_cookie(
    response: Response, services: Services, player_id: str, generation: int | None = None
) -> None:
    """Give the browser a session of ``player_id`` (of his current session generation,
    read unless given)."""
    if generation is None:
        generation = await session_generation(services=services, player_id=player_id)
    response.set_cookie(
        COOKIE,
        services.signer.sign(player_id, generation),
        max_age=COOKIE_MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=services.settings.secure_cookie,
        path="/",
    )


def delete_session_cookie(response: Response, services: Services) -> None:
    response.delete_cookie(
        COOKIE, path="/", httponly=True, samesite="lax", secure=services.settings.secure_cookie
    )


def client_address(request: Request) -> str:
    """Whom the per-address limits count against: the client's IPv4 address, or the /64
    network of an IPv6 one (one subscriber's share: he may use any address in it)."""
    return address_key(request.client.host if request.client is not None else "unknown")


def address_key(host: str) -> str:
    """
    >>> address_key("203.0.113.7"), address_key("2001:db8:1:2:3:4:5:6"), address_key("x")
    ('203.0.113.7', '2001:db8:1:2::/64', 'x')
    >>> address_key("::ffff:203.0.113.7")
    '203.0.113.7'
    """
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv4Address):
        return host
    if address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)
    return str(ipaddress.ip_network(f"{address}/64", strict=False))


async def new_guest(
    request: Request, response: Response, services: Services, name: str | None = None
) -> PlayerView:
    """A new guest and its cookie; 429 when the client's address has made too many guests
    lately (each guest has fresh allowances, of chat messages among others)."""
    if not services.guest_limiter.take(client_address(request)):
        raise RateLimited(
            tr("too many new guests from your address: wait a minute, or log in to an account")
        )
    player = await create_guest(services=services, name=name)
    await set_session_cookie(response, services, player.id, generation=0)
    return player


async def player_or_guest(
    request: Request, response: Response, services: ServicesDep, viewer: ViewerDep
) -> PlayerView:
    """The player of the cookie; a new guest (and cookie) when there is none."""
    player = await get_player(services=services, player_id=viewer)
    if player is None:
        player = await new_guest(request, response, services)
    return player


PlayerDep = Annotated[PlayerView, Depends(player_or_guest)]


def client_key(request: Request, viewer: str | None) -> str:
    if viewer is not None:
        return f"player:{viewer}"
    return f"host:{client_address(request)}"


async def rate_limited(request: Request, services: ServicesDep, viewer: ViewerDep) -> None:
    """Spend one token of the client's bucket (429 when it is empty)."""
    if not services.limiter.take(client_key(request, viewer)):
        raise RateLimited(tr("too many requests: slow down"))


RateLimit = Depends(rate_limited)
