"""The lobby's modes in the browser, against the real server (the fixtures and helpers of
``test_browser.py``): a Spanish match between two people to its end, a losing game against
the computer to its result, and a game of an option variant made with the lobby's controls."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.server.test_browser import (
    SCREENSHOTS,
    Contexts,
    Page,
    api_state,
    browser,
    expect,
    people,
    server,
    set_name,
)

__all__ = ["browser", "people", "server"]  # the fixtures this module uses

GAME_URL = re.compile(r"/games/([^/]+)$")


def choose(page: Page, variant: str, mode: str, options: tuple[str, ...] = ()) -> None:
    """The lobby's variant, options and mode."""
    page.goto("/")
    page.wait_for_selector(f'#variant option[value="{variant}"]', state="attached")
    page.select_option("#variant", variant)
    for option in options:
        page.check(f'input[name=option][value="{option}"]')
    page.check(f'input[name=mode][value="{mode}"]')


def game_id(page: Page) -> str:
    match = GAME_URL.search(page.url)
    assert match is not None, page.url
    return match.group(1)


def match_of(page: Page, match_id: str) -> dict[str, Any]:
    answer = page.request.get(f"/api/matches/{match_id}")
    assert answer.ok, answer.text()
    state: dict[str, Any] = json.loads(answer.text())
    return state


def next_game(pages: tuple[Page, Page], previous: str) -> str:
    """Both players say they are ready on the finished game's page; both are taken to the
    next game."""
    for page in pages:
        page.locator("#match-ready").click()
    for page in pages:
        page.wait_for_url(lambda url: GAME_URL.search(url) is not None and previous not in url)
        page.wait_for_selector("svg.board g.piece")
    ids = {game_id(page) for page in pages}
    assert len(ids) == 1
    return ids.pop()


@pytest.mark.slow  # the longest browser runs: CI runs them with -m slow
def test_two_people_play_a_spanish_match_to_its_end(people: Contexts) -> None:
    ana = people.page()
    set_name(ana, "Ana")
    choose(ana, "spanish", "match")
    expect(ana.locator("#match-games")).to_have_value("4")
    expect(ana.locator("#mode-check")).to_contain_text("games 3 and 4 from one opening")
    ana.check('input[name=opponent][value="open"]')
    ana.check('input[name=color][value="white"]')
    ana.select_option("#clock", "")
    expect(ana.locator("#mode-check")).to_contain_text("needs a clock")
    expect(ana.locator("#create-button")).to_be_disabled()
    ana.select_option("#clock", "5+3")
    expect(ana.locator("#create-button")).to_be_enabled()
    ana.click("#create-button")
    ana.wait_for_url(re.compile(r"/matches/[^/]+$"))
    match_id = ana.url.rsplit("/", 1)[-1]
    expect(ana.locator("#match-status")).to_contain_text("Waiting for an opponent")

    bo = people.page()
    set_name(bo, "Bo")
    group = bo.locator('#now-list .now-group[data-variant="spanish"][data-mode="match"]')
    expect(group).to_contain_text("Ana waits (a match of 4 games, 5+3)")
    bo.screenshot(path=str(SCREENSHOTS / "damier-lobby-modes.png"), full_page=True)
    group.get_by_role("button", name="Join").click()
    pages = (ana, bo)
    for page in pages:  # the first game starts at once: both are taken to it
        page.wait_for_url(GAME_URL)
        page.wait_for_selector("svg.board g.piece")
    first = game_id(ana)
    assert game_id(bo) == first
    assert api_state(ana, first)["white"]["name"] == "Ana"  # White in game 1
    # A game of a match is never aborted: a first move made too late loses it.
    expect(ana.locator("#abort")).to_be_hidden()
    expect(ana.locator("#first-move")).to_contain_text("or you lose this game")
    expect(bo.locator("#first-move")).to_contain_text("White has")
    expect(bo.locator("#first-move")).to_contain_text("or loses this game")

    # A spectator finds the match in the lobby and opens it.
    cy = people.page()
    cy.goto("/")
    live = cy.locator('#now-list .now-group[data-variant="spanish"][data-mode="match"]')
    expect(live).to_contain_text("1 game being played")
    live.get_by_role("link", name=re.compile("Ana – Bo")).click()
    cy.wait_for_url(f"**/matches/{match_id}")
    expect(cy.locator("#match-status")).to_contain_text("Score: Ana 0 – 0 Bo")
    expect(cy.locator("#match-rounds")).to_contain_text("Watch")
    expect(cy.locator("#match-ready")).to_have_count(0)

    # Game 1: Bo resigns. The panel shows the score and the coming game's colours.
    bo.click("#resign")
    for page in pages:
        expect(page.locator("#match-status")).to_contain_text("Ana 1 – 0 Bo")
        expect(page.locator("#match-coming")).to_contain_text("Game 2: Bo has White")
        expect(page.locator("#rematch")).to_be_hidden()
    second = next_game(pages, first)
    assert api_state(ana, second)["white"]["name"] == "Bo"

    # Game 2: Ana resigns; game 3 comes from an opening drawn from the deck.
    ana.click("#resign")
    expect(bo.locator("#match-status")).to_contain_text("Ana 1 – 1 Bo")
    opening = match_of(ana, match_id)["rounds"][2]["opening"]
    assert len(opening) == 2
    expect(ana.locator("#match-coming")).to_contain_text(
        f"Game 3: Ana has White, Bo Black, from the opening {' '.join(opening)}"
    )
    bo.screenshot(path=str(SCREENSHOTS / "damier-match-panel.png"), full_page=True)
    third = next_game(pages, second)
    state = api_state(bo, third)
    assert [m["notation"] for m in state["moves"]] == opening
    assert state["white"]["name"] == "Ana"
    expect(bo.locator("#moves button[data-ply]")).to_have_text(opening)

    # Game 3: Bo resigns (2-1): game 4 is played, the same opening with colours swapped.
    bo.click("#resign")
    expect(ana.locator("#match-status")).to_contain_text("Ana 2 – 1 Bo")
    expect(bo.locator("#match-coming")).to_contain_text("Game 4: Bo has White, Ana Black")
    fourth = next_game(pages, third)
    state = api_state(ana, fourth)
    assert [m["notation"] for m in state["moves"]] == opening
    assert state["white"]["name"] == "Bo"

    # Game 4: Ana resigns; the match is drawn 2-2, and it is over.
    ana.click("#resign")
    for page in pages:
        expect(page.locator("#match-status")).to_contain_text("Match drawn: Ana 2 – 2 Bo")
        expect(page.locator("#match-ready")).to_have_count(0)
    ana.goto(f"/matches/{match_id}")
    expect(ana.locator("#match-rounds tbody tr")).to_have_count(4)
    expect(ana.locator("#match")).to_contain_text("Match of Spanish draughts")
    expect(ana.locator("#match")).not_to_contain_text("null")
    ana.screenshot(path=str(SCREENSHOTS / "damier-match.png"), full_page=True)
    pdn = ana.request.get(f"/api/matches/{match_id}/pdn").text()
    assert re.findall(r'\[Round "(\d)"\]', pdn) == ["1", "2", "3", "4"]


@pytest.mark.slow  # a long browser run: CI runs it with -m slow
def test_a_losing_game_against_the_computer_to_its_result(people: Contexts) -> None:
    page = people.page()
    set_name(page, "Ana")
    choose(page, "spanish", "losing")
    expect(page.locator("#mode-check")).to_contain_text("spanish-giveaway")
    page.check('input[name=opponent][value="computer"]')
    page.select_option("#level", "1")
    page.check('input[name=color][value="white"]')
    page.select_option("#clock", "")
    page.click("#create-button")
    page.wait_for_url(GAME_URL)
    game = game_id(page)
    state = api_state(page, game)
    assert state["variant"] == "spanish-giveaway"
    for _ in range(200):  # Ana plays her first legal move each turn, the computer answers
        if state["status"] == "finished":
            break
        if state["turn"] == "white" and state["legal_moves"]:
            move = state["legal_moves"][0]["notation"]
            page.request.post(f"/api/games/{game}/moves", data={"move": move, "ply": state["ply"]})
        page.wait_for_timeout(100)
        state = api_state(page, game)
    assert state["status"] == "finished", state
    expect(page.locator("#status")).to_contain_text(
        "Draw" if state["result"]["winner"] is None else "wins"
    )
    if state["result"]["winner"] is not None:
        assert "giveaway" in state["result"]["reason"]
    page.goto("/")
    page.select_option("#now-mode", "losing")
    expect(page.locator("#now-list")).not_to_contain_text("Single game")


@pytest.mark.slow  # a long run (the default run stays under 5 minutes)
def test_a_game_of_an_option_variant_from_the_lobby(people: Contexts) -> None:
    page = people.page()
    set_name(page, "Ana")
    # A refused combination is explained before anything is made.
    choose(page, "radial6", "single", ("teams", "teams-alternate"))
    expect(page.locator("#mode-check")).to_contain_text("cannot be combined")
    expect(page.locator("#create-button")).to_be_disabled()
    choose(page, "radial4", "match")
    expect(page.locator("#mode-check")).to_contain_text("a match is for two players")
    expect(page.locator("#create-button")).to_be_disabled()
    # Italian with the dark side first, against the computer playing the dark side.
    choose(page, "italian", "single", ("dark-first",))
    expect(page.locator("#options-list")).to_contain_text("the dark side moves first")
    expect(page.locator("#create-button")).to_be_enabled()
    page.check('input[name=opponent][value="computer"]')
    page.select_option("#level", "1")
    page.check('input[name=color][value="white"]')
    page.select_option("#clock", "")
    page.click("#create-button")
    page.wait_for_url(GAME_URL)
    game = game_id(page)
    # Black (the computer) opened: as long as a busy machine may take, within the game's
    # first-move deadline (the other computer tests of the suite allow as much).
    expect(page.locator("#moves button[data-ply]")).to_have_count(1, timeout=30_000)
    state = api_state(page, game)
    assert state["variant"] == "italian+dark-first"
    assert state["moves"][0]["ply"] == 1 and state["turn"] == "white"
