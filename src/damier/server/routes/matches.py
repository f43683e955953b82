"""``/api/matches``, ``/api/modes`` and ``/api/now``: matches, what each variant can be
played as, and who is playing now."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Query, Request, Response, status

from damier.server.deps import PlayerDep, RateLimit, ServicesDep, ViewerDep
from damier.server.i18n import request_language
from damier.server.schemas import MatchState, Mode, ModesView, NewMatch, NowView
from damier.server.services import matches

router = APIRouter(prefix="/api", tags=["matches"])


@router.get("/modes", response_model=ModesView)
async def modes(request: Request, variant: str = Query(max_length=200)) -> ModesView:
    """What ``variant`` can be played as; why a mode is refused, in the request's language."""
    return matches.modes(variant, request_language(request))


@router.get("/now", response_model=NowView)
async def now_playing(
    services: ServicesDep,
    variant: str | None = Query(None, max_length=200),
    mode: Mode | None = None,
) -> NowView:
    return await matches.now_playing(services=services, variant=variant or None, mode=mode)


@router.get("/matches", response_model=list[MatchState])
async def list_matches(
    services: ServicesDep, status: Literal["open", "playing", "finished"] | None = None
) -> list[MatchState]:
    return await matches.list_matches(services=services, status=status)


@router.post(
    "/matches",
    response_model=MatchState,
    status_code=status.HTTP_201_CREATED,
    dependencies=[RateLimit],
)
async def create_match(body: NewMatch, services: ServicesDep, player: PlayerDep) -> MatchState:
    return await matches.create_match(
        services=services,
        player_id=player.id,
        variant=body.variant,
        length=body.games,
        opponent=body.opponent,
        level=body.level,
        color=body.color,
        clock=body.clock,
    )


@router.get("/matches/{match_id}", response_model=MatchState)
async def get_match(match_id: str, services: ServicesDep, viewer: ViewerDep) -> MatchState:
    return await matches.match_state(services=services, match_id=match_id, viewer=viewer)


@router.post("/matches/{match_id}/join", response_model=MatchState, dependencies=[RateLimit])
async def join_match(match_id: str, services: ServicesDep, player: PlayerDep) -> MatchState:
    return await matches.join_match(services=services, match_id=match_id, player_id=player.id)


@router.post("/matches/{match_id}/ready", response_model=MatchState, dependencies=[RateLimit])
async def ready(match_id: str, services: ServicesDep, viewer: ViewerDep) -> MatchState:
    return await matches.ready(services=services, match_id=match_id, player_id=viewer)


@router.get(
    "/matches/{match_id}/pdn",
    response_class=Response,
    responses={200: {"content": {"text/plain": {}}, "description": "the match's games as PDN"}},
)
async def download_pdn(match_id: str, request: Request, services: ServicesDep) -> Response:
    text = await matches.match_pdn(
        services=services, match_id=match_id, base_url=str(request.base_url)
    )
    return Response(
        text,
        media_type="text/plain; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="damier-match-{match_id}.pdn"'},
    )
