"""``/api/games/{id}/abort``, ``/takeback`` and ``/claim``: the table's actions over HTTP
(the WebSocket carries them too, and the chat)."""

from __future__ import annotations

from fastapi import APIRouter

from damier.server.deps import RateLimit, ServicesDep, ViewerDep
from damier.server.schemas import ClaimRequest, GameState, TakebackRequest
from damier.server.services import table

router = APIRouter(prefix="/api/games", tags=["games"])


@router.post("/{game_id}/abort", response_model=GameState, dependencies=[RateLimit])
async def abort(game_id: str, services: ServicesDep, viewer: ViewerDep) -> GameState:
    return await table.abort_game(services=services, game_id=game_id, player_id=viewer)


@router.post("/{game_id}/takeback", response_model=GameState, dependencies=[RateLimit])
async def takeback(
    game_id: str, body: TakebackRequest, services: ServicesDep, viewer: ViewerDep
) -> GameState:
    return await table.takeback(
        services=services, game_id=game_id, player_id=viewer, action=body.action
    )


@router.post("/{game_id}/claim", response_model=GameState, dependencies=[RateLimit])
async def claim(
    game_id: str, body: ClaimRequest, services: ServicesDep, viewer: ViewerDep
) -> GameState:
    return await table.claim(
        services=services, game_id=game_id, player_id=viewer, result=body.result
    )
