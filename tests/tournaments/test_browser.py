"""The tournament page and the lobby's tournaments in a browser (Playwright and Debian's
chromium, as ``tests/server/test_browser.py``): create from the lobby, count down, join,
be taken to one's game when the round starts, and see the podium, the standings with
their tie-breaks and the crosstable at the end."""

from __future__ import annotations

import re
from typing import Any

import pytest

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

pytestmark = pytest.mark.slow  # long browser runs: CI runs them with -m slow


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


def current_games(page: Any, tournament: str) -> dict[str, dict[str, Any]]:
    """The games of the round being played, by game id: White's and Black's ids."""
    state = fetch(page, "GET", f"/api/tournaments/{tournament}")
    games = {}
    for board in state["pairings"][state["round"] - 1]["boards"] if state["round"] else []:
        for link in board["games"]:
            if link["game"] and link["result"] is None and board["black"]:
                black = board["black"]["id"] if link["white"] == board["white"]["id"] else None
                games[link["game"]] = {"white": link["white"], "black": black}
    return games


def test_four_players_play_a_round_robin_to_its_standings_live(
    people: Contexts,  # noqa: F811
) -> None:
    org = people.page()
    register(org, "Round Orga")
    created = fetch(
        org,
        "POST",
        "/api/tournaments",
        {
            "name": "Four cup",
            "variant": "russian",
            "clock": "3+2",
            "system": "round-robin",
            "starts_in": 12,
        },
    )
    tid = created["id"]
    page_url = f"/tournaments/{tid}"
    org.goto(page_url)
    expect(org.locator("body")).to_have_attribute("data-live", "socket")
    players = {}
    for name in ("Ana", "Bob", "Cid", "Dan"):
        page = people.page(width=900, height=700)
        set_name(page, name)
        page.goto(page_url)
        page.click("#t-join")
        expect(page.locator("#t-withdraw")).to_be_visible()
        players[fetch(page, "GET", "/api/session")["id"]] = page
    # The spectator's page hears each entry through its socket: no reload.
    expect(org.locator("#t-entrants")).to_have_text("Entered: Ana, Bob, Cid, Dan.")
    for page in players.values():  # each is taken to his game
        page.wait_for_url(re.compile(r"/games/[^/]+$"), timeout=30_000)
    expect(org.locator("#t-status")).to_contain_text("Round 1 of 3", timeout=15_000)
    org.click("#t-watch")
    tiles = org.locator("#t-boards .mini")
    expect(tiles).to_have_count(2)
    expect(tiles.first.locator("svg.board")).to_be_visible()
    first = tiles.first.get_attribute("data-game")
    white = current_games(org, tid)[first or ""]["white"]
    legal = fetch(players[white], "GET", f"/api/games/{first}")["legal_moves"][0]["notation"]
    fetch(players[white], "POST", f"/api/games/{first}/moves", {"move": legal, "ply": 0})
    expect(tiles.first).to_have_attribute("data-ply", "1")  # the small board follows it
    org.screenshot(path=str(SCREENSHOTS / "tournament-boards.png"), full_page=True)
    for number in (1, 2, 3):
        expect(org.locator("#t-status")).to_contain_text(f"Round {number} of 3", timeout=15_000)
        for game_id, seats in current_games(org, tid).items():
            loser = seats["black"] if number % 2 else seats["white"]
            answer = fetch(players[loser], "POST", f"/api/games/{game_id}/resign")
            assert answer["status"] == "finished", answer
    expect(org.locator("#t-status")).to_contain_text("Finished after 3 rounds", timeout=15_000)
    expect(org.locator("#t-podium")).to_be_visible()
    rows = org.locator("#t-standings tbody tr")
    expect(rows).to_have_count(4)
    table = fetch(org, "GET", f"/api/tournaments/{tid}")["standings"]
    assert sum(line["score"] for line in table) == 6  # six games, one point each
    expect(rows.first).to_contain_text(table[0]["name"])
    expect(org.locator("#t-cross tbody tr")).to_have_count(4)
    org.screenshot(path=str(SCREENSHOTS / "tournament-four.png"), full_page=True)


def test_an_arena_joined_late_pairs_the_newcomer_when_others_come_free(
    people: Contexts,  # noqa: F811
) -> None:
    org = people.page()
    register(org, "Late Orga")
    created = fetch(
        org,
        "POST",
        "/api/tournaments",
        {
            "name": "Late arena",
            "variant": "russian",
            "clock": "3+2",
            "system": "arena",
            "minutes": 20,
            "starts_in": 8,
        },
    )
    tid = created["id"]
    page_url = f"/tournaments/{tid}"
    ana, bob = people.page(width=900, height=700), people.page(width=900, height=700)
    for page, name in ((ana, "Ana"), (bob, "Bob")):
        set_name(page, name)
        page.goto(page_url)
        page.click("#t-join")
    for page in (ana, bob):
        page.wait_for_url(re.compile(r"/games/[^/]+$"), timeout=30_000)
    cid = people.page(width=900, height=700)
    set_name(cid, "Cid")
    cid.goto(page_url)
    expect(cid.locator("#t-status")).to_contain_text("Ends in")
    cid.click("#t-join")
    expect(cid.locator("#t-pause")).to_be_visible()  # in, waiting for a free player
    game_id = ana.url.rsplit("/", 1)[-1]
    fetch(bob, "POST", f"/api/games/{game_id}/resign")
    # Bob and Cid on 0 points meet; Ana (his last opponent was Bob) waits.
    cid.wait_for_url(re.compile(r"/games/[^/]+$"), timeout=30_000)
    second = cid.url.rsplit("/", 1)[-1]
    game = fetch(cid, "GET", f"/api/games/{second}")
    assert {game["white"]["name"], game["black"]["name"]} == {"Bob", "Cid"}
    ana.goto(page_url)
    ana.click("#t-pause")
    expect(ana.locator("#t-paused")).to_be_visible()
    expect(ana.locator("#t-standings")).to_contain_text("(paused)")
    ana.click("#t-resume")
    expect(ana.locator("#t-pause")).to_be_visible()
