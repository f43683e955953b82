"""The players' pages in a browser (Playwright and Debian's chromium, as
``tests/server/test_browser.py``): a profile's rating chart after rated games, the
leaderboard and the archive pages, and quick pairing from the lobby."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.server.test_browser import (  # noqa: F401 (the fixtures; skips without chromium)
    SCREENSHOTS,
    Contexts,
    browser,
    people,
    server,
    set_name,
    sync_api,
)

pytestmark = pytest.mark.slow  # browser runs: CI runs them with -m slow

expect = sync_api.expect

PASSWORD = "correct horse battery"


def fetch(page: Any, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    return page.evaluate(
        """async ([method, path, body]) => {
            const options = { method, headers: { "Content-Type": "application/json" } };
            if (body) options.body = JSON.stringify(body);
            const answer = await fetch(path, options);
            if (!answer.ok) throw new Error(`${path}: ${answer.status} ${await answer.text()}`);
            return await answer.json();
        }""",
        [method, path, body],
    )


def register(page: Any, name: str) -> str:
    page.goto("/static/css/style.css")  # any page of the site, for its origin
    player: dict[str, Any] = fetch(
        page, "POST", "/api/register", {"name": name, "password": PASSWORD}
    )
    return str(player["id"])


def rated_game(white: Any, black: Any, loser: Any) -> str:
    game = fetch(
        white, "POST", "/api/games", {"variant": "russian", "opponent": "open", "color": "white"}
    )
    fetch(black, "POST", f"/api/games/{game['id']}/join")
    fetch(loser, "POST", f"/api/games/{game['id']}/resign")
    return str(game["id"])


def test_profile_shows_the_rating_chart(people: Contexts) -> None:  # noqa: F811
    zoe, yan = people.page(), people.page()
    register(zoe, "Zoe")
    register(yan, "Yan")
    games = [
        rated_game(zoe, yan, loser=yan),
        rated_game(zoe, yan, loser=yan),
        rated_game(zoe, yan, loser=zoe),
    ]
    zoe.goto("/players/Zoe")
    expect(zoe.locator("#player-name")).to_have_text("Zoe")
    chart = zoe.locator('svg.rating-chart[data-variant="russian"]')
    expect(chart).to_be_visible()
    points = chart.locator("circle[data-game]")
    expect(points).to_have_count(3)
    assert [points.nth(k).get_attribute("data-game") for k in range(3)] == games
    # Two wins then a loss: the line goes up twice, then down.
    heights = [float(points.nth(k).get_attribute("cy") or 0) for k in range(3)]
    assert heights[0] > heights[1] < heights[2]  # SVG's y grows downwards
    expect(zoe.locator("#ratings")).to_contain_text("?")  # provisional after three games
    expect(zoe.locator("#overall")).to_have_text(re.compile(r"^2 won · 0 drawn · 1 lost"))
    expect(zoe.locator("#recent tbody tr")).to_have_count(3)
    zoe.screenshot(path=str(SCREENSHOTS / "damier-profile.png"), full_page=True)

    # Yan sees his score against Zoe on her page; a point of the chart opens its game.
    yan.goto("/players/zoe")
    expect(yan.locator("#versus-overall")).to_contain_text("2 won · 0 drawn · 1 lost")
    expect(yan.locator("#versus a")).to_have_attribute("href", "/archive?player=Zoe&opponent=Yan")
    yan.locator("svg.rating-chart circle[data-game]").first.click()
    yan.wait_for_url(re.compile(rf"/games/{games[0]}$"))

    # The archive lists the three games; the leaderboard page loads (nobody ranked yet).
    zoe.goto("/archive?player=Zoe")
    expect(zoe.locator("#archive-table tbody tr")).to_have_count(3)
    expect(zoe.locator("#f-player")).to_have_value("Zoe")
    zoe.select_option("#f-result", "loss")
    zoe.click("#filters button[type=submit]")
    expect(zoe.locator("#archive-table tbody tr")).to_have_count(1)
    zoe.screenshot(path=str(SCREENSHOTS / "damier-archive.png"), full_page=True)
    zoe.goto("/players?variant=russian")
    expect(zoe.locator("#your-place")).to_contain_text("not ranked")
    zoe.screenshot(path=str(SCREENSHOTS / "damier-leaderboard.png"), full_page=True)


def test_quick_pairing_from_the_lobby(people: Contexts) -> None:  # noqa: F811
    una, vic = people.page(), people.page()
    set_name(una, "Una")
    set_name(vic, "Vic")
    una.select_option("#variant", "russian")
    una.click('#quick-pairing button[data-clock="5+3"]')
    expect(una.locator('#quick-pairing button[data-clock="5+3"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    vic.select_option("#variant", "russian")
    expect(vic.locator('#quick-pairing button[data-clock="5+3"]')).to_contain_text(
        "1 waiting", timeout=15_000
    )
    vic.screenshot(path=str(SCREENSHOTS / "damier-quick-pairing.png"))
    vic.click('#quick-pairing button[data-clock="5+3"]')
    vic.wait_for_url(re.compile(r"/games/[^/]+$"))
    una.wait_for_url(re.compile(r"/games/[^/]+$"))
    assert una.url == vic.url
