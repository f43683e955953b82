"""``/api/tournaments``: list, create, read (standings, pairings, crosstable), join,
withdraw, and the PDN of every game. The page polls the tournament every few seconds."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response, status

from damier.server.deps import PlayerDep, RateLimit, ServicesDep, ViewerDep
from damier.server.services.tournaments import service
from damier.server.services.tournaments.schemas import (
    BerserkBody,
    JoinBody,
    NewTournament,
    TournamentLists,
    TournamentView,
)

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])


@router.get("", response_model=TournamentLists)
async def list_tournaments(services: ServicesDep) -> TournamentLists:
    return await service.list_tournaments(services=services)


@router.post(
    "", response_model=TournamentView, status_code=status.HTTP_201_CREATED, dependencies=[RateLimit]
)
async def create_tournament(
    body: NewTournament, services: ServicesDep, player: PlayerDep
) -> TournamentView:
    return await service.create_tournament(services=services, player_id=player.id, body=body)


@router.get("/{tournament_id}", response_model=TournamentView)
async def get_tournament(
    tournament_id: str, services: ServicesDep, viewer: ViewerDep
) -> TournamentView:
    return await service.tournament_view(
        services=services, tournament_id=tournament_id, viewer=viewer
    )


@router.post("/{tournament_id}/join", response_model=TournamentView, dependencies=[RateLimit])
async def join_tournament(
    tournament_id: str, services: ServicesDep, player: PlayerDep, body: JoinBody | None = None
) -> TournamentView:
    return await service.join_tournament(
        services=services,
        tournament_id=tournament_id,
        player_id=player.id,
        password=body.password if body is not None else None,
    )


@router.post("/{tournament_id}/withdraw", response_model=TournamentView, dependencies=[RateLimit])
async def withdraw(tournament_id: str, services: ServicesDep, player: PlayerDep) -> TournamentView:
    return await service.withdraw(
        services=services, tournament_id=tournament_id, player_id=player.id
    )


@router.post("/{tournament_id}/berserk", response_model=TournamentView, dependencies=[RateLimit])
async def berserk(
    tournament_id: str, body: BerserkBody, services: ServicesDep, player: PlayerDep
) -> TournamentView:
    return await service.set_berserk(
        services=services, tournament_id=tournament_id, player_id=player.id, on=body.on
    )


@router.get(
    "/{tournament_id}/pdn",
    response_class=Response,
    responses={200: {"content": {"text/plain": {}}, "description": "every game as PDN"}},
)
async def download_pdn(tournament_id: str, request: Request, services: ServicesDep) -> Response:
    text = await service.tournament_pdn(
        services=services, tournament_id=tournament_id, base_url=str(request.base_url)
    )
    return Response(
        text,
        media_type="text/plain; charset=utf-8",
        headers={
            "Content-Disposition": f'attachment; filename="damier-tournament-{tournament_id}.pdn"'
        },
    )
