"""The browser pages: the lobby, a game, a match, the analysis board, a variant's rules,
the puzzle trainer (files of ``static/``), each with the one site header of
``static/partials/site-header.html``, so that every page offers the same links."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

STATIC = Path(__file__).resolve().parent.parent / "static"

router = APIRouter(tags=["pages"], include_in_schema=False)

_PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Damier</title></head>
<body><h1>Damier</h1><p>The browser UI is not installed ({page} is missing).
The API is described at <a href="/openapi.json">/openapi.json</a>.</p></body></html>
"""


SITE_HEADER = "<!-- site-header -->"
"""Where a page takes the site header."""


@cache
def _html(name: str, section: str | None) -> str | None:
    """The text of page ``name`` with the site header in, the link of ``section`` marked
    as the current page (None: the file is missing). Read once: the files ship with the
    package."""
    path, header = STATIC / name, STATIC / "partials" / "site-header.html"
    if not path.is_file():
        return None
    text = header.read_text(encoding="utf-8") if header.is_file() else ""
    if section is not None:
        mark = f'data-section="{section}"'
        text = text.replace(mark, f'{mark} aria-current="page"')
    return path.read_text(encoding="utf-8").replace(f"  {SITE_HEADER}\n", text)


def page(name: str, section: str | None = None) -> Response:
    """The page ``static/name``, ``section`` (``lobby``, ``players``, ``archive``,
    ``puzzles``, ``rules``, ``analysis``) marked current in its header."""
    text = _html(name, section)
    return HTMLResponse(_PLACEHOLDER.format(page=name) if text is None else text)


@router.get("/")
async def lobby() -> Response:
    return page("index.html", "lobby")


@router.get("/games/{game_id}")
async def game_page(game_id: str) -> Response:
    return page("game.html")


@router.get("/matches/{match_id}")
async def match_page(match_id: str) -> Response:
    return page("match.html")


@router.get("/tournaments/{tournament_id}")
async def tournament_page(tournament_id: str) -> Response:
    return page("tournament.html")


@router.get("/analysis/{variant}")
async def analysis_page(variant: str) -> Response:
    return page("analysis.html", "analysis")


@router.get("/puzzles")
async def puzzles_choice() -> Response:
    return page("puzzles.html", "puzzles")


@router.get("/puzzles/{variant}")
async def puzzles_page(variant: str) -> Response:
    return page("puzzles.html", "puzzles")


@router.get("/rules/{variant}")
async def rules_page(variant: str) -> Response:
    return page("rules.html", "rules")
