"""The browser pages share one site header: the same links on every page, the page's own
section marked as the current one."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from damier.server.routes.pages import SITE_HEADER, STATIC

PAGES = {
    "/": "lobby",
    "/games/abc": None,
    "/matches/abc": None,
    "/tournaments/abc": None,
    "/analysis/russian": "analysis",
    "/puzzles": "puzzles",
    "/puzzles/russian": "puzzles",
    "/rules/russian": "rules",
    "/players": "players",
    "/players/somebody": "players",
    "/archive": "archive",
}
"""Each page's address and the section its header marks current."""

LINKS = [
    "/",
    "/players",
    "/archive",
    "/puzzles",
    "/rules/international",
    "/analysis/international",
]


def nav_links(html: str) -> list[tuple[str, bool]]:
    """The site navigation's links of a page: (address, whether marked current)."""
    headers = re.findall(r'<header class="site">.*?</header>', html, flags=re.S)
    assert len(headers) == 1
    return [
        (href, 'aria-current="page"' in attributes)
        for attributes, href in re.findall(r'<a ([^>]*?href="([^"]*)"[^>]*)>', headers[0])
        if "brand" not in attributes
    ]


@pytest.mark.parametrize(("path", "section"), PAGES.items())
def test_every_page_has_the_same_links(client: TestClient, path: str, section: str | None) -> None:
    answer = client.get(path)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/html")
    assert SITE_HEADER not in answer.text
    links = nav_links(answer.text)
    assert [href for href, _ in links] == LINKS
    current = [href for href, marked in links if marked]
    expected = {
        None: [],
        "lobby": ["/"],
        "players": ["/players"],
        "archive": ["/archive"],
        "puzzles": ["/puzzles"],
        "rules": ["/rules/international"],
        "analysis": ["/analysis/international"],
    }[section]
    assert current == expected


def test_the_header_is_written_once() -> None:
    """No page file keeps a header of its own: each takes the shared one."""
    for page in sorted(STATIC.glob("*.html")):
        text = page.read_text(encoding="utf-8")
        assert '<header class="site">' not in text, page.name
        assert text.count(SITE_HEADER) == 1, page.name
