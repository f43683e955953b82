"""Players' pages (issue 33): ``/api/profiles/{name}`` (a player's page),
``/api/leaderboards/{variant}``, ``/api/archive`` (and its PDN), the quick-pairing pools
``/api/pools``; and the pages ``/players``, ``/players/{name}`` and ``/archive``."""

from __future__ import annotations

from datetime import date
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import StreamingResponse

from damier.server.deps import PlayerDep, RateLimit, ServicesDep, ViewerDep
from damier.server.routes.pages import page
from damier.server.services import archive, leaderboards, pools, profiles
from damier.server.services.archive import (
    ArchiveFilter,
    ArchiveMode,
    ArchivePage,
    ArchiveResult,
    Explored,
)
from damier.server.services.leaderboards import Leaderboard
from damier.server.services.pools import PoolsView
from damier.server.services.profiles import PlayerPage

router = APIRouter(prefix="/api", tags=["players"])
pages = APIRouter(tags=["pages"], include_in_schema=False)

Name = Annotated[str | None, Query(max_length=40)]


@router.get("/profiles/{name}", response_model=PlayerPage)
async def profile(name: str, services: ServicesDep, viewer: ViewerDep) -> PlayerPage:
    """The player called ``name`` (or of that id): ratings and their history, results,
    games, matches, and his score against you."""
    return await profiles.player_page(services=services, name=name, viewer=viewer)


@router.get("/leaderboards/{variant}", response_model=Leaderboard)
async def leaderboard(
    variant: str,
    services: ServicesDep,
    viewer: ViewerDep,
    limit: Annotated[int, Query(ge=1, le=200)] = leaderboards.LEADERBOARD_SIZE,
) -> Leaderboard:
    """The best active players of the variant, and your place."""
    return await leaderboards.leaderboard(
        services=services, variant=variant, viewer=viewer, limit=limit
    )


async def _filter(
    player: Name = None,
    opponent: Name = None,
    variant: Annotated[str | None, Query(max_length=64)] = None,
    mode: ArchiveMode | None = None,
    result: ArchiveResult | None = None,
    since: date | None = None,
    until: date | None = None,
    opening: Annotated[str | None, Query(max_length=400)] = None,
) -> ArchiveFilter:
    return ArchiveFilter(
        player=player or None,
        opponent=opponent or None,
        variant=variant or None,
        mode=mode,
        result=result,
        since=since,
        until=until,
        opening=opening or None,
    )


FilterDep = Annotated[ArchiveFilter, Depends(_filter)]


@router.get("/archive", response_model=ArchivePage)
async def archive_page(
    services: ServicesDep,
    wanted: FilterDep,
    after: Annotated[str | None, Query(max_length=32)] = None,
    limit: Annotated[int, Query(ge=1, le=archive.MAX_PAGE)] = archive.ARCHIVE_PAGE,
) -> ArchivePage:
    """Finished games, newest first; pass the answer's ``next`` as ``after`` for older
    ones. ``win`` and ``loss`` are the ``player``'s; ``since`` and ``until`` are days
    (UTC, ``until`` included); ``opening`` is the first moves (``32-28 18-23``)."""
    return await archive.search(services=services, wanted=wanted, after=after, limit=limit)


@router.get("/archive/explorer", response_model=Explored)
async def archive_explorer(services: ServicesDep, wanted: FilterDep) -> Explored:
    """The moves the finished games of the filters (``variant`` needed) played after
    ``opening`` (up to 40 plies) from the variant's start, each with its games and their
    results: the analysis board's explorer."""
    return await archive.explore(services=services, wanted=wanted)


@router.get("/archive/pdn", dependencies=[RateLimit])
async def archive_pdn(
    request: Request,
    services: ServicesDep,
    wanted: FilterDep,
    limit: Annotated[int, Query(ge=1, le=archive.MAX_PDN_GAMES)] = archive.PDN_GAMES,
) -> StreamingResponse:
    """The PDN of the newest ``limit`` games of the same filters, one file, sent a game
    at a time."""
    game_ids = await archive.pdn_games(services=services, wanted=wanted, limit=limit)
    stream = archive.pdn_stream(
        services=services, game_ids=game_ids, base_url=str(request.base_url)
    )
    return StreamingResponse(
        stream,
        media_type="application/x-pdn; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="damier-archive.pdn"'},
    )


@router.get("/pools", response_model=PoolsView)
async def pool_counts(services: ServicesDep, viewer: ViewerDep) -> PoolsView:
    """The players waiting in each pool, and yours (with your game once paired)."""
    return await pools.pools_view(services=services, player_id=viewer)


@router.post("/pools/{variant}/{clock}", response_model=PoolsView, dependencies=[RateLimit])
async def join_pool(
    variant: str, clock: str, services: ServicesDep, player: PlayerDep
) -> PoolsView:
    """Wait for an opponent of about your rating in the variant, with this clock."""
    return await pools.join_pool(
        services=services, player_id=player.id, variant=variant, clock=clock
    )


@router.delete("/pools", status_code=204, response_class=Response)
@router.delete("/pools/{variant}/{clock}", status_code=204, response_class=Response)
async def leave_pool(
    services: ServicesDep, viewer: ViewerDep, variant: str = "", clock: str = ""
) -> Response:
    """Stop waiting (the game stands if you were paired already)."""
    if viewer is not None:
        await pools.leave_pool(services=services, player_id=viewer)
    return Response(status_code=204)


@pages.get("/players")
async def leaderboard_page() -> Response:
    return page("players.html", "players")


@pages.get("/players/{name}")
async def profile_page(name: str) -> Response:
    return page("profile.html", "players")


@pages.get("/archive")
async def archive_view() -> Response:
    return page("archive.html", "archive")
