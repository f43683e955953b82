"""The browser UI of games of three players, against the real server (the fixtures and
helpers of ``test_browser.py``: `damier serve` in a subprocess, Debian's chromium)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.server.test_browser import (
    SCREENSHOTS,
    Contexts,
    Page,
    api_state,
    browser,
    cell,
    click_move,
    expect,
    people,
    piece,
    server,
    set_name,
)

__all__ = ["browser", "people", "server"]  # the fixtures this module uses

FORCED = "W:WWa1:BWa3,Bc3:RRa3"
"""Every line is forced: White steps up, Black takes him, Red moves, Black takes Red."""


def create_seated(page: Page, seats: list[str], variant: str = "tripad") -> str:
    """Creates a game from the lobby form, one select value per seat; answers its id."""
    page.goto("/")
    page.wait_for_selector(f'#variant option[value="{variant}"]', state="attached")
    page.select_option("#variant", variant)
    expect(page.locator("#seats-field")).to_be_visible()
    expect(page.locator("#color-field")).to_be_hidden()
    for seat, choice in enumerate(seats):
        page.select_option(f"#seat-{seat}", choice)
    page.select_option("#clock", "")
    page.click("#create-button")
    page.wait_for_url("**/games/*")
    page.wait_for_selector("svg.board g.piece")
    return page.url.rsplit("/", 1)[-1]


def centre_y(page: Page, square: str) -> float:
    box = cell(page, square).bounding_box()
    assert box is not None
    return float(box["y"] + box["height"] / 2)


@pytest.mark.slow  # the longest browser runs: CI runs them with -m slow
def test_three_players_from_the_lobby_with_the_board_turned(people: Contexts) -> None:
    page = people.page()
    set_name(page, "Ana")
    game_id = create_seated(page, ["open", "you", "open"])
    # Black's side is at the bottom for Black: his back row is below White's and Red's.
    assert centre_y(page, "Ba1") > centre_y(page, "Wa1")
    assert centre_y(page, "Ba1") > centre_y(page, "Ra1")
    expect(page.locator("svg.board polygon.light")).to_have_count(48)
    expect(page.locator("svg.board polygon.cell")).to_have_count(48)
    expect(page.locator("svg.board g.piece.red")).to_have_count(12)
    seats = page.locator("#seats li")
    expect(seats).to_have_count(3)
    expect(seats.nth(1)).to_contain_text("Ana (you)")
    expect(page.locator("#status")).to_contain_text("Waiting for players")
    # Bob takes the first open seat (White) from the lobby, Cid sits at Red on the page.
    bob = people.page()
    set_name(bob, "Bob")
    row = bob.locator(f'#open-games tr[data-game="{game_id}"]')
    expect(row).to_contain_text("2 of 3 seats open")
    row.locator("button").click()
    bob.wait_for_url(f"**/games/{game_id}")
    expect(bob.locator("#seats li").nth(0)).to_contain_text("Bob (you)")
    cid = people.page()
    set_name(cid, "Cid")
    cid.goto(f"/games/{game_id}")
    cid.click('#seats button[data-seat="red"]')
    expect(cid.locator("#seats li").nth(2)).to_contain_text("Cid (you)")
    assert centre_y(cid, "Ra1") > centre_y(cid, "Wa1")
    # White moves, then it is Black's turn.
    expect(bob.locator("#status")).to_contain_text("Your turn")
    click_move(bob, "Wa3", "Wb4")
    expect(page.locator("#seats li.to-move")).to_have_attribute("data-color", "black")
    expect(page.locator("#status")).to_contain_text("Your turn")
    page.screenshot(path=str(SCREENSHOTS / "damier-three-players.png"), full_page=True)
    # Black resigns: struck out, and the game goes on between White and Red.
    page.click("#resign")
    expect(page.locator('#seats li[data-color="black"]')).to_have_class("out")
    expect(page.locator("#status")).to_contain_text("You are out of the game")
    expect(cid.locator("#status")).to_contain_text("Your turn")
    state = api_state(page, game_id)
    assert state["status"] == "playing" and state["eliminated"] == [["black"]]


def test_a_game_against_two_computers_to_the_end(people: Contexts) -> None:
    page = people.page()
    set_name(page, "Ana")
    seats: list[dict[str, Any]] = [
        {"kind": "you"},
        {"kind": "computer", "level": 1},
        {"kind": "computer", "level": 1},
    ]
    answer = page.request.post(
        "/api/games",
        data=json.dumps({"variant": "tripad", "seats": seats, "fen": FORCED}),
        headers={"Content-Type": "application/json"},
    )
    assert answer.ok, answer.text()
    game_id = json.loads(answer.text())["id"]
    page.goto(f"/games/{game_id}")
    expect(piece(page, "Wa1")).to_have_attribute("data-color", "white")
    expect(page.locator("#status")).to_contain_text("Your turn")
    click_move(page, "Wa1", "Wb2")
    # Two computer moves: the first may compile the multi-player search (cold cache).
    expect(page.locator("#status")).to_contain_text("Black wins", timeout=60_000)
    expect(page.locator("#moves button[data-ply]")).to_have_count(4)
    places = page.locator("#seats li .place")
    expect(places).to_have_text(["3rd", "1st", "2nd"])
    expect(page.locator('#seats li[data-color="white"]')).to_have_class("out")
    expect(page.locator('#seats li[data-color="red"]')).to_have_class("out")
    expect(page.locator("#resign")).to_be_hidden()
    page.screenshot(path=str(SCREENSHOTS / "damier-three-players-end.png"), full_page=True)
    assert api_state(page, game_id)["result"]["ranking"] == [["black"], ["red"], ["white"]]
