"""The analysis board in the browser (Playwright and Debian's chromium, as
test_browser.py): the editor, the engine's lines, a side line, a shared link, PDN, and a
finished game opened for analysis."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urlsplit

import pytest

from damier import Board
from damier.notation.pdn import dump_pdn, read_pdn
from tests.server import test_browser as ui  # skips this module without playwright/chromium
from tests.server.test_browser import SCREENSHOTS, Contexts, cell, click_move, create_game, piece

if TYPE_CHECKING:
    from playwright.sync_api import Page

expect = ui.expect

# The fixtures of test_browser.py (its server, browser and one context per person).
server = ui.server
browser = ui.browser
people = ui.people


def open_board(page: Page, path: str = "/analysis/international") -> None:
    page.goto(path)
    expect(page.locator("body")).to_have_attribute("data-ready", "true")


def tree_moves(page: Page) -> list[str]:
    return [text.strip() for text in page.locator("#moves .tree-move").all_inner_texts()]


def put(page: Page, tool: str, *squares: int | str) -> None:
    color, kind = tool.split()
    king = "true" if kind == "king" else "false"
    page.locator(f'#palette .tool[data-color="{color}"][data-king="{king}"]').click()
    for square in squares:
        cell(page, square).click()


@pytest.mark.slow  # a long browser run (the default run stays under 5 minutes)
def test_editor_engine_lines_side_line_and_shared_link(people: Contexts) -> None:
    page = people.page()
    open_board(page)
    expect(page.locator("svg.board g.piece")).to_have_count(40)
    page.click("#edit")
    page.click("#editor-clear")
    expect(page.locator("svg.board g.piece")).to_have_count(0)
    # An impossible position is refused with the kernel's reason; the editor stays.
    put(page, "white man", 3)
    page.click("#editor-done")
    expect(page.locator("#error")).to_contain_text("stands on its crowning row")
    expect(page.locator("#editor")).to_be_visible()
    put(page, "white man", 3)  # the same piece again: removed
    put(page, "white man", 31, 32, 33, 38)
    put(page, "white king", 47)
    put(page, "black man", 12, 13, 17, 19)
    put(page, "black king", 4)
    page.select_option("#editor-turn", "white")
    fen = page.input_value("#fen")
    page.click("#editor-done")
    expect(page.locator("#editor")).to_be_hidden()
    expected = Board("international", fen)
    expect(page.locator("#fen")).to_have_value(expected.fen)
    expect(page.locator("svg.board g.piece")).to_have_count(10)
    expect(piece(page, 47)).to_have_attribute("data-king", "true")
    expect(piece(page, 4)).to_have_attribute("data-color", "black")
    # The engine's lines: three, each a legal first move, updated as it deepens.
    page.check("#engine-on")
    lines = page.locator("#engine-lines li.engine-line")
    expect(lines).to_have_count(3)
    expect(page.locator("#engine-status")).to_contain_text("depth")
    legal = {m.notation for m in expected.legal_moves}
    firsts = [text.split()[0] for text in page.locator("#engine-lines .pv").all_inner_texts()]
    assert len(set(firsts)) == 3 and set(firsts) <= legal
    # A main line, then a side line from the start.
    click_move(page, 32, 28)
    expect(page.locator("#moves .tree-move")).to_have_count(1)
    page.keyboard.press("ArrowLeft")
    click_move(page, 33, 29)
    expect(page.locator("#moves .variation .tree-move")).to_have_count(1)
    expect(page.locator("#moves .tree-move")).to_have_text(["1. 32-28", "1. 33-29"])
    expect(page.locator('#moves .tree-move[aria-current="true"]')).to_have_text("1. 33-29")
    expect(lines).to_have_count(3)  # the engine restarted on the new position
    after = expected.copy()
    after.push("33-29")
    expect(page.locator("#fen")).to_have_value(after.fen)
    # The side line is promoted to the main line.
    page.click("#promote")
    expect(page.locator("#moves .tree-move")).to_have_text(["1. 33-29", "1. 32-28"])
    # Share: a second browser opens the same position and line.
    page.click("#share")
    link = page.input_value("#share-url")
    query = parse_qs(urlsplit(link).query)
    assert query["line"] == ["33-29"] and query["fen"] == [expected.fen]
    # The board's picture: the position before the move, the move lit, drawn by the server.
    picture = page.get_attribute("#picture", "href") or ""
    query = parse_qs(urlsplit(picture).query)
    assert query["fen"] == [expected.fen] and query["move"] == ["33-29"]
    drawn = page.request.get(picture)
    assert drawn.ok and drawn.headers["content-type"] == "image/svg+xml"
    assert drawn.text().count('class="man"') + drawn.text().count('class="king"') == 10
    page.screenshot(path=str(SCREENSHOTS / "damier-analysis.png"), full_page=True)
    other = people.page()
    open_board(other, link)
    expect(other.locator("#fen")).to_have_value(after.fen)
    expect(other.locator("#moves .tree-move")).to_have_text(["1. 33-29"])
    expect(other.locator("svg.board g.piece")).to_have_count(10)
    expect(piece(other, 29)).to_have_attribute("data-color", "white")


def test_pdn_with_variations_in_and_out(people: Contexts) -> None:
    page = people.page()
    open_board(page, "/analysis/russian")
    pdn = (
        '[GameType "25"]\n\n1. 22-18 11-15 {the main line} (1... 11-16 2. 18-14 (2. 24-20\n'
        "10-14) 2... 9x18 3. 23x14) 2. 18x11 8x15 *\n"
    )
    page.fill("#pdn", pdn)
    page.click("#pdn-open")
    expect(page.locator("#moves .tree-move")).to_have_count(10)
    expect(page.locator("#moves .variation")).to_have_count(2)
    expect(page.locator("#moves .tree-comment")).to_have_text(["the main line"])
    page.locator("#moves .variation .variation .tree-move").last.click()
    expect(page.locator('#moves .tree-move[aria-current="true"]')).to_have_text("10-14")
    with page.expect_download() as download:
        page.click("#pdn-download")
    written = Path(download.value.path()).read_text(encoding="utf-8")
    assert written == dump_pdn(read_pdn(pdn)[0])  # the tree written back unchanged
    expect(page.locator("#pdn")).to_have_value(written)
    # A file from a Windows draughts program: its names in Windows-1252, not UTF-8.
    record = (
        '[Event "Montr\xe9al"]\n[White "Fran\xe7ois \u2013 \u20ac"]\n[GameType "25"]\n\n'
        "1. 22-18 11-15 *\n"
    )
    page.set_input_files(
        "#pdn-file",
        files=[{"name": "old.pdn", "mimeType": "text/plain", "buffer": record.encode("cp1252")}],
    )
    expect(page.locator("#moves .tree-move")).to_have_count(2)
    expect(page.locator("#pdn")).to_have_value(record)


@pytest.mark.slow  # a long run (the default run stays under 5 minutes)
def test_a_finished_game_opens_on_the_analysis_board(people: Contexts) -> None:
    page = people.page()
    game_id = create_game(page, opponent="computer", color="white", level=1)
    expect(page.locator("#analyse")).to_be_hidden()
    click_move(page, 32, 28)
    expect(page.locator("#moves button[data-ply]")).to_have_count(2)
    page.click("#resign")
    expect(page.locator("#status")).to_contain_text("Black wins")
    state = json.loads(page.request.get(f"/api/games/{game_id}").text())
    page.click("#analyse")
    page.wait_for_url(re.compile(r"/analysis/international\?"))
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#fen")).to_have_value(state["fen"])
    assert [t.split()[-1] for t in tree_moves(page)] == [m["notation"] for m in state["moves"]]
    expect(page.locator('#moves .tree-move[aria-current="true"]')).to_have_text(
        re.compile(state["moves"][-1]["notation"])
    )


def test_a_multi_player_board_in_the_editor_and_with_the_engine(people: Contexts) -> None:
    page = people.page()
    open_board(page, "/analysis/tripad")
    start = Board("tripad")
    expect(page.locator("svg.board g.piece")).to_have_count(36)
    expect(page.locator("#to-move")).to_have_text("White to move")
    page.click("#edit")
    expect(page.locator("#palette .tool")).to_have_count(7)  # man and king of 3, and Remove
    page.locator('#palette .tool[data-color="none"]').click()
    cell(page, "Wa3").click()
    put(page, "red king", "Rd4")
    page.select_option("#editor-turn", "red")
    page.click("#editor-done")  # 13 red pieces: refused by the kernel
    expect(page.locator("#error")).to_contain_text("R has 13 pieces")
    page.locator('#palette .tool[data-color="none"]').click()
    cell(page, "Ra3").click()
    page.click("#editor-done")
    expect(page.locator("#editor")).to_be_hidden()
    expect(page.locator("#to-move")).to_have_text("Red to move")
    expect(piece(page, "Rd4")).to_have_attribute("data-king", "true")
    expect(piece(page, "Wa3")).to_have_count(0)
    fen = page.input_value("#fen")
    board = Board("tripad", fen)
    assert board.turn == 2 and len(board.legal_moves) > 0 and fen != start.fen
    page.check("#engine-on")
    expect(page.locator("#engine-lines li.engine-line")).to_have_count(3)
    firsts = [text.split()[0] for text in page.locator("#engine-lines .pv").all_inner_texts()]
    assert set(firsts) <= {m.notation for m in board.legal_moves}
    page.locator("#engine-lines .pv").first.click()  # plays the engine's move
    expect(page.locator("#moves .tree-move")).to_have_text([f"1. {firsts[0]}"])


def test_the_opening_book_answers_until_switched_off(people: Contexts) -> None:
    page = people.page()
    open_board(page)
    page.check("#engine-on")
    depths = page.locator("#engine-lines .depth")
    expect(depths.first).to_have_text("book")  # the start is in the book: answered at once
    expect(page.locator("#engine-status")).to_contain_text("done")
    page.uncheck("#engine-book")
    expect(depths.first).to_have_text(re.compile(r"^d\d+$"))  # searched now
    expect(page.locator("#engine-lines li.engine-line")).to_have_count(3)


@pytest.mark.slow  # a browser run (the default run stays under 5 minutes)
def test_the_explorer_shows_the_archive_s_moves_and_plays_them(people: Contexts) -> None:
    ana, bo = people.page(), people.page()
    ui.set_name(ana, "Ana")
    ui.set_name(bo, "Bo")
    # A Thai game (no other browser test plays one): 21-17, then Black resigns.
    thai = Board("thai")
    first = thai.legal_moves[0].notation
    game = ana.request.post(
        "/api/games", data={"variant": "thai", "opponent": "open", "color": "white"}
    )
    game_id = json.loads(game.text())["id"]
    assert bo.request.post(f"/api/games/{game_id}/join").ok
    assert ana.request.post(f"/api/games/{game_id}/moves", data={"move": first, "ply": 0}).ok
    assert bo.request.post(f"/api/games/{game_id}/resign").ok

    open_board(ana, "/analysis/thai")
    expect(ana.locator("#explorer-status")).to_have_text(
        "1 game of the archive reached this position."
    )
    row = ana.locator("#explorer tbody tr")
    expect(row).to_have_count(1)
    expect(row.locator("td").nth(1)).to_have_text("1")
    expect(row.locator("td").nth(2)).to_have_text("100% / 0% / 0%")
    games = ana.get_attribute("#explorer-games", "href") or ""
    assert parse_qs(urlsplit(games).query) == {"variant": ["thai"]}  # the start: no opening
    ana.screenshot(path=str(SCREENSHOTS / "damier-explorer.png"), full_page=True)
    row.get_by_role("button", name=first).click()
    expect(ana.locator("#moves .tree-move")).to_have_count(1)
    expect(ana.locator("#explorer-status")).to_have_text(
        "1 game of the archive reached this position."
    )
    expect(ana.locator("#explorer")).to_be_hidden()  # it ended there
    # A position set up in the editor is not the archive's.
    open_board(ana, "/analysis/thai?fen=" + "W:W21:B12")
    expect(ana.locator("#explorer-status")).to_contain_text("start position")
