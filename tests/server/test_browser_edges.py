"""The page's rough edges of issue 30, against the real server (the fixtures and helpers of
``test_browser.py``): an unknown match or variant says so where it was loading, a result
reads plainly and keeps its score on one line, and a takeback request is on the status
line of both players."""

from __future__ import annotations

import json
import re

import pytest

from tests.server.test_browser import (
    Contexts,
    Page,
    browser,
    cell,
    click_move,
    create_game,
    expect,
    expect_moves,
    people,
    server,
    set_name,
)

__all__ = ["browser", "people", "server"]  # the fixtures this module uses

SIZES = pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["desktop", "phone"])

SCORE_LINES = """(element, score) => {
  // The lines the score's characters take, found in the element's text wherever it is.
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  const text = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) text.push(node);
  const whole = text.map((node) => node.data).join("");
  let at = whole.lastIndexOf(score);
  const range = document.createRange();
  for (const node of text) {
    if (at < node.data.length) {
      range.setStart(node, at);
      break;
    }
    at -= node.data.length;
  }
  let end = whole.lastIndexOf(score) + score.length;
  for (const node of text) {
    if (end <= node.data.length) {
      range.setEnd(node, end);
      break;
    }
    end -= node.data.length;
  }
  const rects = [...range.getClientRects()].filter((r) => r.width > 0);
  return new Set(rects.map((r) => Math.round(r.top))).size;
}"""
"""How many lines the last ``score`` in an element's text takes."""


def test_an_unknown_match_or_variant_is_said_where_it_was_loading(people: Contexts) -> None:
    page = people.page()
    page.goto("/matches/no-such-match")
    box = page.locator("#match")
    expect(box).to_contain_text("There is no such match.")
    expect(box).not_to_contain_text("Loading")
    expect(box.get_by_role("link", name="Back to the lobby")).to_have_attribute("href", "/")
    page.goto("/analysis/no-such-variant")
    board = page.locator("#board")
    expect(board).to_contain_text("There is no variant “no-such-variant”.")
    expect(board).not_to_contain_text("Loading")
    expect(board.get_by_role("link", name="Open the international board")).to_be_visible()


@pytest.mark.slow  # a long run (the default run stays under 5 minutes)
@SIZES
def test_a_result_reads_plainly_with_its_score_whole(
    people: Contexts, size: tuple[int, int]
) -> None:
    page = people.page(*size)
    set_name(page, "Ana")
    # Giveaway: White gives his last man away (33-28, 22x33) and wins with no pieces left.
    answer = page.request.post(
        "/api/games",
        data=json.dumps(
            {
                "variant": "international-giveaway",
                "opponent": "computer",
                "level": 1,
                "color": "white",
                "fen": "W:W33:B22",
            }
        ),
        headers={"Content-Type": "application/json"},
    )
    assert answer.ok, answer.text()
    page.goto(f"/games/{json.loads(answer.text())['id']}")
    page.wait_for_selector("svg.board g.piece")
    click_move(page, 33, 28)
    status = page.locator("#status")
    expect(status).to_have_text(
        "White wins: no pieces left (giveaway: having no move wins) · 2-0", timeout=30_000
    )
    assert not re.search(r"\([^)]*\(", status.inner_text())  # no brackets in brackets
    # At every width the line may have, the score "2-0" stays on one line.
    for width in range(160, 420, 3):
        status.evaluate(f"(element) => {{ element.style.width = '{width}px'; }}")
        assert status.evaluate(SCORE_LINES, "2-0") == 1, width
    expect(cell(page, 33)).to_be_visible()


def _two_people(people: Contexts) -> tuple[Page, Page]:
    ana = people.page()
    set_name(ana, "Ana")
    game_id = create_game(ana, opponent="open", color="white")
    bo = people.page()
    set_name(bo, "Bo")
    bo.goto(f"/games/{game_id}")
    bo.click("#join")
    expect(ana.locator("#status")).to_contain_text("Your turn")
    return ana, bo


@pytest.mark.slow  # a long run (the default run stays under 5 minutes)
def test_a_takeback_request_is_on_the_status_line(people: Contexts) -> None:
    ana, bo = _two_people(people)
    click_move(ana, 32, 28)
    expect_moves(bo, ["32-28"])
    ana.click("#takeback")
    expect(bo.locator("#status")).to_have_text(
        "Ana asks to take back the last move: accept or decline. Your turn."
    )
    expect(ana.locator("#status")).to_have_text(
        "You ask to take back your last move: waiting for Bo's answer."
    )
    bo.click("#takeback-decline")
    expect(bo.locator("#status")).to_have_text("Your turn.")
    expect(ana.locator("#status")).to_have_text("Waiting for Bo to move.")
    # Asked again and granted: the move goes back, and the line says whose turn it is.
    ana.click("#takeback")
    expect(bo.locator("#status")).to_contain_text("Ana asks to take back")
    bo.click("#takeback-accept")
    expect(ana.locator("#status")).to_have_text("Your turn.")
    expect(bo.locator("#status")).to_have_text("Waiting for Ana to move.")


def test_the_analysis_board_says_the_same_plain_words(people: Contexts) -> None:
    page = people.page()
    page.goto("/analysis/international-giveaway?fen=W:W33:B22&line=33-28+22x33")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#to-move")).to_have_text(
        "Game over: no pieces left (giveaway: having no move wins)"
    )
