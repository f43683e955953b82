"""``/api/games``: create, list, join and play games."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request, Response, status

from damier.server.deps import PlayerDep, RateLimit, ServicesDep, ViewerDep
from damier.server.i18n import tr
from damier.server.schemas import (
    DrawRequest,
    GameState,
    GameSummary,
    JoinRequest,
    MoveRequest,
    NewGame,
)
from damier.server.services import changes, games, offers, pdn
from damier.server.services.errors import Forbidden

router = APIRouter(prefix="/api/games", tags=["games"])


@router.get("", response_model=list[GameSummary])
async def list_games(
    services: ServicesDep, status: Literal["open", "playing", "finished"] | None = None
) -> list[GameSummary]:
    return await games.list_games(services=services, status=status)


@router.post(
    "",
    response_model=GameState,
    status_code=status.HTTP_201_CREATED,
    dependencies=[RateLimit],
)
async def create_game(body: NewGame, services: ServicesDep, player: PlayerDep) -> GameState:
    return await games.create_game(
        services=services,
        player_id=player.id,
        variant=body.variant,
        opponent=body.opponent,
        level=body.level,
        color=body.color,
        clock=body.clock,
        seats=body.seats,
        fen=body.fen,
        takebacks=body.takebacks,
    )


@router.get("/{game_id}", response_model=GameState)
async def get_game(game_id: str, services: ServicesDep, viewer: ViewerDep) -> GameState:
    return await games.game_state(services=services, game_id=game_id, viewer=viewer)


@router.post("/{game_id}/join", response_model=GameState, dependencies=[RateLimit])
async def join_game(
    game_id: str, services: ServicesDep, player: PlayerDep, body: JoinRequest | None = None
) -> GameState:
    seat = body.seat if body is not None else None
    return await games.join_game(services=services, player_id=player.id, game_id=game_id, seat=seat)


@router.post("/{game_id}/moves", response_model=GameState, dependencies=[RateLimit])
async def play_move(
    game_id: str, body: MoveRequest, services: ServicesDep, viewer: ViewerDep
) -> GameState:
    return await changes.play_move(
        services=services, game_id=game_id, move=body.move, ply=body.ply, player_id=viewer
    )


@router.post("/{game_id}/resign", response_model=GameState, dependencies=[RateLimit])
async def resign(game_id: str, services: ServicesDep, viewer: ViewerDep) -> GameState:
    return await games.resign_game(services=services, game_id=game_id, player_id=viewer)


@router.post("/{game_id}/draw", response_model=GameState, dependencies=[RateLimit])
async def draw(
    game_id: str, body: DrawRequest, services: ServicesDep, viewer: ViewerDep
) -> GameState:
    return await offers.draw_action(
        services=services, game_id=game_id, player_id=viewer, action=body.action
    )


@router.post("/{game_id}/rematch", response_model=GameState, dependencies=[RateLimit])
async def rematch(game_id: str, services: ServicesDep, viewer: ViewerDep) -> GameState:
    if viewer is None:
        raise Forbidden(tr("you are not a player of this game"))
    return await games.rematch(services=services, game_id=game_id, player_id=viewer)


@router.get(
    "/{game_id}/pdn",
    response_class=Response,
    responses={200: {"content": {"text/plain": {}}, "description": "the game as PDN"}},
)
async def download_pdn(game_id: str, services: ServicesDep, request: Request) -> Response:
    text = await pdn.game_pdn(services=services, game_id=game_id, base_url=str(request.base_url))
    return Response(
        text,
        media_type="text/plain; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="damier-{game_id}.pdn"'},
    )
