"""``/api/tournaments``: list, create, read (standings, pairings, crosstable), join,
withdraw, and the PDN of every game; ``/ws/tournaments/{id}``: a notice whenever the
tournament changes (the page reads it again then; it polls while the socket is down)."""

from __future__ import annotations

import asyncio
import contextlib
import json

from fastapi import APIRouter, Request, Response, WebSocket, status

from damier.server.deps import PlayerDep, RateLimit, ServicesDep, ViewerDep
from damier.server.i18n import localize
from damier.server.rooms import Connection
from damier.server.services.context import Services
from damier.server.services.errors import ServiceError
from damier.server.services.tournaments import service
from damier.server.services.tournaments.schemas import (
    BerserkBody,
    JoinBody,
    NewTournament,
    PauseBody,
    TournamentLists,
    TournamentView,
)
from damier.server.ws import next_message, same_origin, sender_key, socket_language

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])
sockets = APIRouter(tags=["websocket"])


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


@router.post("/{tournament_id}/pause", response_model=TournamentView, dependencies=[RateLimit])
async def pause(
    tournament_id: str, body: PauseBody, services: ServicesDep, player: PlayerDep
) -> TournamentView:
    return await service.set_pause(
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


@sockets.websocket("/ws/tournaments/{tournament_id}")
async def tournament_socket(websocket: WebSocket, tournament_id: str) -> None:
    """Sends ``{"type": "tournament", ...}`` at each change of the tournament (from any
    process: the rooms' fan-out); answers ``{"type": "ping"}`` with a pong."""
    services: Services = websocket.app.state.services
    if not same_origin(websocket):
        await websocket.close(code=1008, reason="cross-origin socket")
        return
    if not await service.tournament_exists(services=services, tournament_id=tournament_id):
        await websocket.close(code=4404, reason="no such tournament")
        return
    connection = Connection(None, size=8)
    room = service.room_of(tournament_id)
    services.rooms.join(room, connection)
    try:
        await websocket.accept()
        sender = asyncio.create_task(_send(websocket, connection))
        try:
            key = sender_key(websocket, None)
            while True:
                try:
                    raw = await next_message(websocket, services, key)
                except ServiceError as error:
                    message = localize(error.detail, socket_language(websocket))
                    connection.send({"type": "error", "message": message})
                    continue
                if raw is None:
                    return
                if _is_ping(raw):
                    connection.send({"type": "pong"})
        finally:
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender
    finally:
        services.rooms.leave(room, connection)


async def _send(websocket: WebSocket, connection: Connection) -> None:
    while True:
        await websocket.send_text(await connection.queue.get())


def _is_ping(raw: str | bytes) -> bool:
    try:
        message = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return False
    return isinstance(message, dict) and message.get("type") == "ping"
