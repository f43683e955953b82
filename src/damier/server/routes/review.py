"""``GET /api/games/{id}/review``: the engine's review of a finished game."""

from __future__ import annotations

from fastapi import APIRouter, Response, status
from fastapi.responses import JSONResponse

from damier.server.deps import ServicesDep
from damier.server.services import review
from damier.server.services.review import Review, ReviewProgress

router = APIRouter(prefix="/api/games", tags=["review"])

RETRY_SECONDS = 1


@router.get(
    "/{game_id}/review",
    response_model=Review,
    responses={
        202: {"model": ReviewProgress, "description": "the review is being computed: ask again"},
        409: {"description": "the game is not finished"},
    },
)
async def get_review(game_id: str, services: ServicesDep) -> Review | Response:
    answer = await review.request_review(services=services, game_id=game_id)
    if isinstance(answer, ReviewProgress):
        return JSONResponse(
            answer.model_dump(mode="json"),
            status_code=status.HTTP_202_ACCEPTED,
            headers={"Retry-After": str(RETRY_SECONDS)},
        )
    return answer
