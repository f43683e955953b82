"""The game table in the browser: premoves, takebacks, abort, a capture drawn whole, the
coordinates switch, chat, and a guest's first page load without console errors (pattern and
fixtures of ``test_browser``)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest

from tests.server.test_browser import (
    CHROMIUM,
    Browser,
    Contexts,
    cell,
    click_move,
    create_game,
    expect,
    expect_moves,
    piece,
    set_name,
)
from tests.server.test_browser import browser as browser
from tests.server.test_browser import people as people
from tests.server.test_browser import server as server

assert CHROMIUM


def _two_people(people: Contexts) -> tuple[object, object, str]:
    ana = people.page()
    set_name(ana, "Ana")
    game_id = create_game(ana, opponent="open", color="white", clock="5+3")
    bo = people.page()
    set_name(bo, "Bo")
    bo.goto(f"/games/{game_id}")
    bo.click("#join")
    expect(ana.locator("#status")).to_have_text(re.compile("Your turn"))
    return ana, bo, game_id


@pytest.mark.slow  # a long browser run (the default run stays under 5 minutes)
def test_premoves_are_played_or_dropped(people: Contexts) -> None:
    ana, bo, _ = _two_people(people)
    click_move(ana, 32, 28)
    expect_moves(bo, ["32-28"])
    # While Bo thinks, Ana premoves 37-32: shown on her board, then played at once.
    click_move(ana, 37, 32)
    expect(ana.locator("svg.board .mark-premove")).to_have_count(2)
    expect(ana.locator("#premove-cancel")).to_be_visible()
    click_move(bo, 17, 21)
    expect_moves(bo, ["32-28", "17-21", "37-32"])
    expect(piece(ana, 32)).to_have_attribute("data-color", "white")
    expect(ana.locator("svg.board .mark-premove")).to_have_count(0)
    # A premove can be cancelled.
    click_move(ana, 31, 27)
    expect(ana.locator("svg.board .mark-premove")).to_have_count(2)
    ana.click("#premove-cancel")
    expect(ana.locator("svg.board .mark-premove")).to_have_count(0)
    # A premove that is not legal when the turn comes is dropped.
    click_move(ana, 28, 17)
    click_move(bo, 19, 24)
    expect(ana.locator("#status")).to_contain_text("dropped")
    expect_moves(ana, ["32-28", "17-21", "37-32", "19-24"])
    expect(ana.locator("#status")).to_contain_text("Your turn")


@pytest.mark.slow  # a long browser run (the default run stays under 5 minutes)
def test_takeback_between_people_and_against_the_computer(people: Contexts) -> None:
    ana, bo, _ = _two_people(people)
    click_move(ana, 32, 28)
    expect_moves(bo, ["32-28"])
    ana.click("#takeback")
    expect(bo.locator("#takeback-accept")).to_be_visible()
    bo.click("#takeback-accept")
    for page in (ana, bo):
        expect(page.locator("#moves button[data-ply]")).to_have_count(0)
    expect(piece(ana, 32)).to_have_attribute("data-color", "white")
    expect(ana.locator("#status")).to_have_text(re.compile("Your turn"))

    solo = people.page()
    set_name(solo, "Cy")
    create_game(solo, opponent="computer", color="white", level=1)
    click_move(solo, 32, 28)
    expect(solo.locator("#moves button[data-ply]")).to_have_count(2)
    solo.click("#takeback")  # the computer grants it: both moves go back
    expect(solo.locator("#moves button[data-ply]")).to_have_count(0)
    expect(piece(solo, 32)).to_have_attribute("data-color", "white")
    expect(solo.locator("#chat")).to_be_hidden()  # no chat against the computer


@pytest.mark.slow  # a long run (the default run stays under 5 minutes)
def test_abort_before_both_have_moved(people: Contexts) -> None:
    ana, bo, _ = _two_people(people)
    expect(ana.locator("#first-move")).to_contain_text("first move")
    click_move(ana, 32, 28)
    expect(bo.locator("#abort")).to_be_visible()
    bo.click("#abort")
    for page in (ana, bo):
        expect(page.locator("#status")).to_contain_text("aborted")
        expect(page.locator("#abort")).to_be_hidden()
        expect(page.locator("#connection")).not_to_have_text("Live.")


def test_a_multi_capture_is_drawn_whole(people: Contexts) -> None:
    ana = people.page()
    set_name(ana, "Ana")
    answer = ana.request.post(
        "/api/games",
        data=json.dumps(
            {
                "variant": "international",
                "opponent": "computer",
                "level": 1,
                "color": "white",
                "fen": "W:W33,45:B28,17,18,3,4",
            }
        ),
        headers={"Content-Type": "application/json"},
    )
    assert answer.ok, answer.text()
    ana.goto(f"/games/{answer.json()['id']}")
    ana.wait_for_selector("svg.board g.piece")
    # Two captures go through 22 (33x11, 33x13): while one is chosen, its path so far is drawn.
    cell(ana, 33).click()
    cell(ana, 22).click()
    expect(ana.locator('svg.board .mark-trail[data-path="33-22"]')).to_have_count(1)
    cell(ana, 13).click()
    expect(ana.locator("#moves button[data-ply]").first).to_have_text("33x13")
    ana.locator('#moves button[data-ply="1"]').click()  # the capture, whatever came after
    expect(ana.locator('svg.board .mark-trail[data-path="33-22-13"]')).to_have_count(1)
    expect(ana.locator("svg.board .mark-last")).to_have_count(3)  # every landing square
    taken = ana.locator("svg.board .mark-taken")
    expect(taken).to_have_count(2)
    assert sorted(taken.evaluate_all("els => els.map(e => e.dataset.taken)")) == ["18", "28"]


@pytest.mark.slow  # a long run (the default run stays under 5 minutes)
def test_the_coordinates_switch(people: Contexts) -> None:
    ana = people.page()
    set_name(ana, "Ana")
    create_game(ana, opponent="computer", color="white", level=1)
    expect(ana.locator("svg.board text.square-name")).to_have_count(50)
    ana.select_option("#coordinates", "edges")
    expect(ana.locator("svg.board text.square-name")).to_have_count(0)
    files = ana.locator("svg.board text.edge-name.file")
    expect(files).to_have_count(10)
    expect(ana.locator("svg.board text.edge-name.rank")).to_have_count(10)
    assert sorted(files.all_text_contents()) == list("abcdefghij")
    ranks = ana.locator("svg.board text.edge-name.rank").all_text_contents()
    assert sorted(map(int, ranks)) == list(range(1, 11))
    ana.reload()  # the choice is kept by the browser
    ana.wait_for_selector("svg.board g.piece")
    expect(ana.locator("#coordinates")).to_have_value("edges")
    expect(ana.locator("svg.board text.edge-name")).to_have_count(20)
    ana.select_option("#coordinates", "none")
    expect(ana.locator("svg.board text")).to_have_count(0)
    # The sound switch is kept too; the sounds are made in the page (nothing is fetched).
    fetched: list[str] = []
    ana.on("request", lambda request: fetched.append(request.url))
    expect(ana.locator("#mute")).to_have_text("Sound on")
    assert ana.evaluate("typeof (window.AudioContext || window.webkitAudioContext)") == "function"
    ana.click("#mute")
    expect(ana.locator("#mute")).to_have_text("Sound off")
    ana.reload()
    expect(ana.locator("#mute")).to_have_text("Sound off")
    expect(ana.locator("#mute")).to_have_attribute("aria-pressed", "true")
    assert not [url for url in fetched if re.search(r"\.(mp3|ogg|wav|webm)$", url)]


@pytest.mark.slow  # a long run (the default run stays under 5 minutes)
def test_chat_shows_text_never_markup(people: Contexts) -> None:
    ana, bo, _ = _two_people(people)
    ana.fill("#chat-input", "<img src=x onerror=alert(1)> hello")
    ana.click("#chat-form button[type=submit]")
    line = bo.locator("#chat-log li")
    expect(line).to_have_text("Ana: <img src=x onerror=alert(1)> hello")
    expect(bo.locator("#chat-log img")).to_have_count(0)
    bo.click("#chat-toggle")  # Bo switches the chat off
    expect(bo.locator("#chat-log")).to_be_hidden()


@pytest.fixture
def guest(browser: Browser, server: str) -> Iterator[tuple[object, list[str]]]:
    context = browser.new_context(base_url=server)
    page = context.new_page()
    messages: list[str] = []
    page.on("console", lambda m: messages.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: messages.append(str(error)))
    try:
        yield page, messages
    finally:
        context.close()


def test_no_console_error_on_a_guest_first_page_load(guest: tuple[object, list[str]]) -> None:
    page, messages = guest
    page.goto("/")  # type: ignore[attr-defined]
    page.wait_for_load_state("networkidle")  # type: ignore[attr-defined]
    expect(page.locator("#who")).to_be_visible()  # type: ignore[attr-defined]
    assert messages == []


def test_rules_pages_fit_the_screen_and_speak_plainly(people: Contexts) -> None:
    page = people.page()
    for variant in ("radial8", "international", "tripad"):
        page.goto(f"/rules/{variant}")
        page.wait_for_selector("svg.board g.piece")
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280
        expect(page.locator("#rules-text")).not_to_contain_text("QuietMoves")
    expect(page.locator("#board-caption")).not_to_contain_text("×")  # tripad is no rectangle
    expect(page.locator("#board-caption")).to_contain_text("48 playable cells")
    # The one site header points its Rules and Analysis board links at the page's variant.
    expect(page.locator("#rules-link")).to_have_attribute("href", "/rules/tripad")
    expect(page.locator("#analysis-link")).to_have_attribute("href", "/analysis/tripad")
    expect(page.locator("#rules-link")).to_have_attribute("aria-current", "page")
    page.goto("/rules/italian")  # options read as in the lobby, not as a record's fields
    expect(page.locator("#rules-text")).to_contain_text("dark-first — the dark side moves first")
    expect(page.locator("#rules-text")).not_to_contain_text("Summary")
    page.goto("/rules/no-such-variant")
    expect(page.locator("#error")).to_contain_text("no variant")
    expect(page.locator("#play-link")).to_be_hidden()
    page.goto("/games/no-such-game")
    expect(page.locator("#status")).to_have_text("No such game.")
    for control in ("#flip", "#pdn", "#nav-first", "#coordinates"):
        expect(page.locator(control)).to_be_hidden()
