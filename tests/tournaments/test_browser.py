"""The tournament page and the lobby's tournaments in a browser (Playwright and Debian's
chromium, as ``tests/server/test_browser.py``): create from the lobby, count down, join,
be taken to one's game when the round starts, and see the podium, the standings with
their tie-breaks and the crosstable at the end."""

from __future__ import annotations

import re
from typing import Any

from tests.server.test_browser import (  # noqa: F401 (the fixtures)
    SCREENSHOTS,
    Contexts,
    browser,
    expect,
    people,
    server,
    set_name,
)

PASSWORD = "correct horse battery"


def register(page: Any, name: str) -> None:
    page.goto("/")
    page.fill("#account-name", name)
    page.fill("#account-password", PASSWORD)
    page.click("#register-button")
    expect(page.locator("#account-status")).to_contain_text(name)


def fetch(page: Any, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    return page.evaluate(
        """async ([method, path, body]) => {
            const options = { method, headers: { "Content-Type": "application/json" } };
            if (body) options.body = JSON.stringify(body);
            const answer = await fetch(path, options);
            return await answer.json();
        }""",
        [method, path, body],
    )


def test_a_tournament_from_the_lobby_to_the_podium(people: Contexts) -> None:  # noqa: F811
    org = people.page()
    register(org, "Orga")
    org.reload()
    org.click("#tournaments-title ~ details summary")
    org.fill("#t-title", "Lobby cup")
    org.select_option("#t-system", "round-robin")
    org.click("#tournament-create-button")
    org.wait_for_url(re.compile(r"/tournaments/[^/]+$"))
    expect(org.locator("#t-name")).to_have_text("Lobby cup")
    expect(org.locator("#t-countdown")).to_have_text(re.compile(r"^00:(09|10):\d\d$"))
    org.click("#t-join")
    expect(org.locator("#t-entrants")).to_have_text("Entered: Orga.")
    org.goto("/")
    expect(org.locator("#tournament-list")).to_contain_text("Lobby cup")

    # A tournament that starts in a few seconds: two players join, the round starts, and
    # each page goes to its player's game.
    ana = people.page()
    set_name(ana, "Ana")
    created = fetch(
        org,
        "POST",
        "/api/tournaments",
        {
            "name": "Quick cup",
            "variant": "russian",
            "clock": "3+2",
            "system": "round-robin",
            "starts_in": 10,
        },
    )
    page_url = f"/tournaments/{created['id']}"
    joined = fetch(org, "POST", f"/api/tournaments/{created['id']}/join")
    assert joined["you"]["joined"]
    org.goto(page_url)  # open before the start: it goes to the game when the game appears
    expect(org.locator("#t-withdraw")).to_be_visible()
    ana.goto(page_url)
    ana.click("#t-join")
    expect(ana.locator("#t-withdraw")).to_be_visible()
    org.wait_for_url(re.compile(r"/games/[^/]+$"), timeout=30_000)
    ana.wait_for_url(re.compile(r"/games/[^/]+$"), timeout=30_000)
    game_id = ana.url.rsplit("/", 1)[-1]
    assert org.url.endswith(game_id)
    expect(ana.locator("#abort")).to_be_hidden()  # a tournament's game is never aborted
    fetch(ana, "POST", f"/api/games/{game_id}/resign")
    back = ana.locator("#tournament-link")
    expect(back).to_have_attribute("href", page_url)
    expect(ana.locator("#rematch")).to_be_hidden()
    back.click()
    ana.wait_for_url(re.compile(r"/tournaments/[^/]+$"))

    org.goto(page_url)
    expect(org.locator("#t-status")).to_contain_text("Winner: Orga")
    expect(org.locator("#t-podium")).to_contain_text("Orga")
    standings = org.locator("#t-standings")
    expect(standings.locator("thead")).to_contain_text("Sonneborn-Berger")
    expect(standings.locator("tbody tr").first).to_contain_text("Orga")
    expect(org.locator("#t-cross tbody tr").first).to_contain_text("×")
    expect(org.locator("#t-cross tbody tr").first).to_contain_text("1")
    expect(org.locator("#pairings details").first).to_contain_text("1-0")  # Orga had White
    expect(org.locator("#t-pdn")).to_have_attribute("href", f"/api/tournaments/{created['id']}/pdn")
    org.screenshot(path=str(SCREENSHOTS / "tournament-finished.png"), full_page=True)


def test_an_arena_from_the_lobby_form(people: Contexts) -> None:  # noqa: F811
    org = people.page()
    register(org, "Arena Orga")
    org.reload()
    org.click("#tournaments-title ~ details summary")
    expect(org.locator("#t-minutes")).to_be_hidden()
    org.select_option("#t-system", "arena")
    expect(org.locator("#t-rounds")).to_be_hidden()
    expect(org.locator("#t-games")).to_be_hidden()
    org.fill("#t-minutes", "45")
    org.fill("#t-title", "Night arena")
    org.click("#tournament-create-button")
    org.wait_for_url(re.compile(r"/tournaments/[^/]+$"))
    expect(org.locator("#t-name")).to_have_text("Night arena")
    expect(org.locator("#content")).to_contain_text("Arena of 45 minutes")
    expect(org.locator("#t-countdown")).to_be_visible()
    org.click("#t-join")
    expect(org.locator("#t-berserk")).to_have_text("Berserk: off")
    org.click("#t-berserk")
    expect(org.locator("#t-berserk")).to_have_text("Berserk: on ⚡")
    expect(org.locator("#t-withdraw")).to_have_text("Withdraw")  # "Pause" once it runs
    org.screenshot(path=str(SCREENSHOTS / "tournament-arena.png"), full_page=True)
    org.goto("/")
    expect(org.locator("#tournament-list")).to_contain_text("Arena 45 min")
    org.screenshot(path=str(SCREENSHOTS / "tournament-lobby.png"), full_page=True)
