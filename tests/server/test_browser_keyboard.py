"""Moves by keyboard in the browser (the fixtures and helpers of ``test_browser.py``): a move
typed in the box of the game page and of the analysis board is played, a departure square
with one move plays it at once, several moves that fit are shown and wait, Enter plays the
only one that fits, and the arrow keys (Home and End too) go through the moves."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Route

from tests.server.test_browser import (
    Contexts,
    Page,
    browser,
    expect,
    expect_moves,
    people,
    piece,
    server,
    set_name,
)

pytestmark = pytest.mark.slow  # browser runs: CI runs them with -m slow

__all__ = ["browser", "people", "server"]  # the fixtures this module uses


def fits(page: Page) -> list[str]:
    return [text.strip() for text in page.locator("#move-fits button").all_inner_texts()]


def two_people(people: Contexts) -> tuple[Page, Page]:
    """Ana (White) and Bo (Black) at an open international game without a clock."""
    ana = people.page()
    set_name(ana, "Ana")
    ana.goto("/")
    ana.wait_for_selector('#variant option[value="international"]', state="attached")
    ana.check('input[name=opponent][value="open"]')
    ana.check('input[name=color][value="white"]')
    ana.select_option("#clock", "")
    ana.click("#create-button")
    ana.wait_for_url(re.compile(r"/games/[^/]+$"))
    bo = people.page()
    set_name(bo, "Bo")
    bo.goto(ana.url)
    bo.click("#join")
    expect(ana.locator("#status")).to_have_text(re.compile("Your turn"))
    return ana, bo


def test_moves_typed_on_the_game_page_and_the_arrows(people: Contexts) -> None:
    ana, bo = two_people(people)
    box = ana.locator("#move-input")
    # "3" begins nine moves (31-26 to 35-30): they are shown, nothing is played.
    box.fill("3")
    expect(ana.locator("#move-fits button")).to_have_count(9)
    assert "35-30" in fits(ana) and "31-26" in fits(ana)
    expect(ana.locator("#move-note")).to_contain_text("9 moves fit")
    expect(ana.locator("#moves button[data-ply]")).to_have_count(0)
    # "35": its only move is played at once, without Enter.
    box.press_sequentially("5")
    expect_moves(bo, ["35-30"])
    expect(box).to_have_value("")
    expect(ana.locator("#move-fits")).to_be_hidden()

    # Bo: "17" fits two moves; he picks one of the buttons.
    expect(bo.locator("#status")).to_have_text(re.compile("Your turn"))
    bo.locator("#move-input").fill("17")
    expect(bo.locator("#move-fits button")).to_have_text(["17-21", "17-22"])
    expect(bo.locator("#moves button[data-ply]")).to_have_count(1)
    bo.locator('#move-fits button[data-notation="17-21"]').click()
    expect_moves(ana, ["35-30", "17-21"])

    # "4" fits only 40-35 but does not name its square: Enter plays it.
    box.fill("4")
    expect(ana.locator("#move-note")).to_have_text("Enter plays 40-35.")
    expect(ana.locator("#moves button[data-ply]")).to_have_count(2)
    box.press("Enter")
    expect_moves(bo, ["35-30", "17-21", "40-35"])
    expect(piece(ana, 35)).to_have_attribute("data-color", "white")

    # A whole notation typed by Bo, with another separator, plays at once.
    bo.locator("#move-input").fill("21 26")
    expect_moves(ana, ["35-30", "17-21", "40-35", "21-26"])

    # The arrows, from the empty box that keeps the focus: one move back, the start, the end.
    expect(box).to_be_focused()
    box.press("ArrowLeft")
    expect(ana.locator('#moves button[aria-current="true"]')).to_have_text("40-35")
    expect(piece(ana, 26)).to_have_count(0)
    expect(piece(ana, 21)).to_have_attribute("data-color", "black")
    box.press("ArrowLeft")
    expect(ana.locator('#moves button[aria-current="true"]')).to_have_text("17-21")
    box.press("Home")
    expect(ana.locator("#viewing")).to_contain_text("start position")
    expect(piece(ana, 35)).to_have_attribute("data-color", "white")
    expect(piece(ana, 30)).to_have_count(0)
    box.press("ArrowRight")
    expect(ana.locator('#moves button[aria-current="true"]')).to_have_text("35-30")
    # While an earlier position is shown, a typed move waits for the game's position.
    box.fill("3")
    expect(ana.locator("#move-note")).to_contain_text("End")
    box.fill("")
    box.press("End")
    expect(ana.locator("#viewing")).to_have_text("")
    expect(ana.locator('#moves button[aria-current="true"]')).to_have_text("21-26")
    expect(piece(ana, 26)).to_have_attribute("data-color", "black")
    # The arrows leave a text being typed alone.
    box.fill("3")
    box.press("ArrowLeft")
    expect(ana.locator('#moves button[aria-current="true"]')).to_have_text("21-26")


def test_moves_typed_on_the_analysis_board_and_the_arrows(people: Contexts) -> None:
    page = people.page()
    page.goto("/analysis/international")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    box = page.locator("#move-input")
    # Two moves leave 32: both shown, the board waits; the whole notation plays one.
    box.fill("32")
    expect(page.locator("#move-fits button")).to_have_text(["32-27", "32-28"])
    expect(page.locator("#moves .tree-move")).to_have_count(0)
    box.fill("32-28")
    expect(page.locator("#moves .tree-move")).to_have_text(["1. 32-28"])
    expect(piece(page, 28)).to_have_attribute("data-color", "white")
    expect(box).to_have_value("")
    # Black: "19" fits two moves; Enter does not choose between them.
    box.fill("19")
    expect(page.locator("#move-fits button")).to_have_text(["19-23", "19-24"])
    box.press("Enter")
    expect(page.locator("#moves .tree-move")).to_have_count(1)
    page.locator('#move-fits button[data-notation="19-23"]').click()
    # White must take: "28" plays the only move from 28, the capture.
    box.fill("28")
    expect(page.locator("#moves .tree-move")).to_have_text(["1. 32-28", "19-23", "2. 28x19"])
    expect(piece(page, 23)).to_have_count(0)
    # Black takes back, named by its squares with an "x".
    box.fill("13x24")
    expect(page.locator("#moves .tree-move")).to_have_text(
        ["1. 32-28", "19-23", "2. 28x19", "13x24"]
    )
    # A text that fits no legal move goes to the server, which says why it refuses it.
    box.fill("50-45")
    expect(page.locator("#move-note")).to_have_text("No legal move fits.")
    box.press("Enter")
    expect(page.locator("#error")).to_be_visible()
    expect(page.locator("#moves .tree-move")).to_have_count(4)

    # The arrows from the empty box: back, the start, forward, the end of the line.
    box.fill("")
    box.press("ArrowLeft")
    expect(page.locator('#moves .tree-move[aria-current="true"]')).to_have_text("2. 28x19")
    expect(piece(page, 19)).to_have_attribute("data-color", "white")
    box.press("Home")
    expect(page.locator('#moves .tree-move[aria-current="true"]')).to_have_count(0)
    expect(piece(page, 32)).to_have_attribute("data-color", "white")
    box.press("ArrowRight")
    expect(page.locator('#moves .tree-move[aria-current="true"]')).to_have_text("1. 32-28")
    box.press("End")
    expect(page.locator('#moves .tree-move[aria-current="true"]')).to_have_text("13x24")
    expect(piece(page, 24)).to_have_attribute("data-color", "black")
    # A side line typed from an earlier position: the tree keeps both.
    box.press("Home")
    box.fill("33-29")
    expect(page.locator("#moves .variation .tree-move")).to_have_text(["1. 33-29"])


def test_a_move_typed_while_the_position_loads_is_played_when_it_comes(people: Contexts) -> None:
    """Typing the next move before the server has answered the last one loses nothing."""
    page = people.page()
    page.goto("/analysis/international")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    held: list[Route] = []

    def hold(route: Route) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)  # the first one is answered below, by hand

    page.route("**/api/analysis/position", hold)
    box = page.locator("#move-input")
    box.fill("32-28")
    while not held:
        page.wait_for_timeout(20)
    box.fill("19-23")
    expect(page.locator("#move-note")).to_have_text("The position is loading…")
    held[0].continue_()
    expect(page.locator("#moves .tree-move")).to_have_text(["1. 32-28", "19-23"])
    expect(box).to_have_value("")
    expect(piece(page, 23)).to_have_attribute("data-color", "black")
