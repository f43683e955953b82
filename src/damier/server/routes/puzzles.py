"""The puzzle trainer's API: the sets, the next puzzle, an attempt, a player's history, and
the shots he missed in his reviewed games (``services.shots``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from damier.server.deps import PlayerDep, RateLimit, ServicesDep, ViewerDep
from damier.server.services import puzzles, shots
from damier.server.services.puzzles import (
    AttemptIn,
    AttemptResult,
    Mode,
    NextPuzzle,
    PuzzleHistory,
    PuzzleSet,
)
from damier.server.services.shots import MyShots, ShotPuzzle

router = APIRouter(prefix="/api/puzzles", tags=["puzzles"])


@router.get("", response_model=list[PuzzleSet])
async def list_sets() -> list[PuzzleSet]:
    return puzzles.puzzle_sets()


@router.get("/shots", response_model=MyShots)
async def my_shots(
    services: ServicesDep,
    viewer: ViewerDep,
    variant: Annotated[str | None, Query(max_length=64)] = None,
) -> MyShots:
    return await shots.my_shots(services=services, player_id=viewer, variant=variant or None)


@router.get("/shots/{shot_id}", response_model=ShotPuzzle)
async def shot(shot_id: str, services: ServicesDep, viewer: ViewerDep) -> ShotPuzzle:
    return await shots.shot_puzzle(services=services, player_id=viewer, shot=shot_id)


@router.get("/{variant}/next", response_model=NextPuzzle)
async def next_puzzle(
    variant: str,
    services: ServicesDep,
    player: PlayerDep,
    theme: Annotated[str | None, Query(max_length=40)] = None,
    mode: Mode = "rated",
) -> NextPuzzle:
    return await puzzles.next_puzzle(
        services=services, player_id=player.id, variant=variant, theme=theme or None, mode=mode
    )


@router.get("/{variant}/history", response_model=PuzzleHistory)
async def history(variant: str, services: ServicesDep, player: PlayerDep) -> PuzzleHistory:
    return await puzzles.history(services=services, player_id=player.id, variant=variant)


@router.post("/{puzzle_id}/attempt", response_model=AttemptResult, dependencies=[RateLimit])
async def attempt(
    puzzle_id: str, body: AttemptIn, services: ServicesDep, player: PlayerDep
) -> AttemptResult:
    if shots.is_shot(puzzle_id):
        return await shots.attempt(
            services=services, player_id=player.id, shot=puzzle_id, attempt=body
        )
    return await puzzles.attempt(
        services=services, player_id=player.id, puzzle_id=puzzle_id, attempt=body
    )
