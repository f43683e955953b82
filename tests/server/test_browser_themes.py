"""Board and piece themes in the browser (the fixtures and helpers of ``test_browser.py``):
the picker changes the board's square colours and the pieces, the choice survives a reload
and holds on the other pages that draw a board."""

from __future__ import annotations

import re

import pytest

from tests.server.test_browser import Contexts, Page, browser, expect, people, server

pytestmark = pytest.mark.slow  # browser runs: CI runs them with -m slow

__all__ = ["browser", "people", "server"]  # the fixtures this module uses

FILL = "(element) => getComputedStyle(element).fill"
CLASSIC_DARK = "rgb(156, 107, 67)"
GREEN_DARK = "rgb(118, 150, 86)"
GREEN_LIGHT = "rgb(238, 238, 210)"
CONTRAST_DARK = "rgb(47, 111, 196)"


def dark_square(page: Page) -> str:
    fill: str = page.locator("svg.board polygon.cell.dark").first.evaluate(FILL)
    return fill


def open_analysis(page: Page) -> None:
    page.goto("/analysis/international")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")


def test_a_board_theme_is_chosen_and_kept(people: Contexts) -> None:
    page = people.page()
    open_analysis(page)
    expect(page.locator("#board-theme")).to_have_value("classic")
    assert dark_square(page) == CLASSIC_DARK
    page.select_option("#board-theme", "green")
    expect(page.locator("html")).to_have_class(re.compile(r"\bboard-green\b"))
    assert dark_square(page) == GREEN_DARK
    background = "(element) => getComputedStyle(element).backgroundColor"
    assert page.locator("svg.board").evaluate(background) == GREEN_LIGHT
    # Kept for the next visit: after a reload, and on the rules page.
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#board-theme")).to_have_value("green")
    assert dark_square(page) == GREEN_DARK
    page.goto("/rules/international")
    page.wait_for_selector("svg.board polygon.cell.dark")
    assert dark_square(page) == GREEN_DARK
    # High contrast, from another page's picker: the pieces are outlined in their opposite.
    open_analysis(page)
    page.select_option("#board-theme", "contrast")
    assert dark_square(page) == CONTRAST_DARK
    black = page.locator("svg.board g.piece.black .piece-body").first
    assert black.evaluate("(element) => getComputedStyle(element).stroke") == "rgb(255, 255, 255)"
    page.select_option("#board-theme", "classic")
    assert dark_square(page) == CLASSIC_DARK


def test_a_piece_style_is_chosen_and_kept(people: Contexts) -> None:
    page = people.page()
    open_analysis(page)
    rim = page.locator("svg.board g.piece .piece-rim").first
    expect(rim).to_be_visible()
    page.select_option("#piece-style", "flat")
    expect(rim).to_be_hidden()
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#piece-style")).to_have_value("flat")
    expect(page.locator("svg.board g.piece .piece-rim").first).to_be_hidden()
    # The board keeps its own choice meanwhile.
    expect(page.locator("#board-theme")).to_have_value("classic")
    page.select_option("#piece-style", "outlined")
    white = page.locator("svg.board g.piece.white .piece-body").first
    assert white.evaluate("(element) => getComputedStyle(element).stroke") == "rgb(0, 0, 0)"
