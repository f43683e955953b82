"""The browser pages: the lobby, a game, a match, the analysis board, a variant's rules,
the puzzle trainer (files of ``static/``)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse, Response

STATIC = Path(__file__).resolve().parent.parent / "static"

router = APIRouter(tags=["pages"], include_in_schema=False)

_PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Damier</title></head>
<body><h1>Damier</h1><p>The browser UI is not installed ({page} is missing).
The API is described at <a href="/openapi.json">/openapi.json</a>.</p></body></html>
"""


def _page(name: str) -> Response:
    path = STATIC / name
    if path.is_file():
        return FileResponse(path, media_type="text/html")
    return HTMLResponse(_PLACEHOLDER.format(page=name))


@router.get("/")
async def lobby() -> Response:
    return _page("index.html")


@router.get("/games/{game_id}")
async def game_page(game_id: str) -> Response:
    return _page("game.html")


@router.get("/matches/{match_id}")
async def match_page(match_id: str) -> Response:
    return _page("match.html")


@router.get("/tournaments/{tournament_id}")
async def tournament_page(tournament_id: str) -> Response:
    return _page("tournament.html")


@router.get("/analysis/{variant}")
async def analysis_page(variant: str) -> Response:
    return _page("analysis.html")


@router.get("/puzzles")
async def puzzles_choice() -> Response:
    return _page("puzzles.html")


@router.get("/puzzles/{variant}")
async def puzzles_page(variant: str) -> Response:
    return _page("puzzles.html")


@router.get("/rules/{variant}")
async def rules_page(variant: str) -> Response:
    return _page("rules.html")
