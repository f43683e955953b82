"""The game page's layout on a phone (390x844) and a desktop (1280x900), against the real
server (the fixtures and helpers of ``test_browser.py``): the board stays in sight while the
move list follows the game, the match panel's table stays inside its card, and the moves of
a board of four players are neither cut off nor broken onto two lines (issue 30). The
analysis board's list of moves keeps the board in sight too."""

from __future__ import annotations

import json
from typing import Any

import pytest

from damier import Board
from tests.server.test_browser import (
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

PHONE = (390, 844)
DESKTOP = (1280, 900)
SIZES = pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])

BOX_INSIDE = """(element) => {
  const card = element.closest(".card");
  const style = getComputedStyle(card);
  const outer = card.getBoundingClientRect();
  const box = element.getBoundingClientRect();
  return {
    left: box.left, right: box.right,
    cardLeft: outer.left + parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft),
    cardRight: outer.right - parseFloat(style.borderRightWidth) - parseFloat(style.paddingRight),
  };
}"""
"""An element's left and right edges, and the inside of the card it is in."""

LINES_OF_TEXT = """(element) => {
  const tops = new Set();
  for (const node of element.childNodes) {
    if (node.nodeType !== Node.TEXT_NODE) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const rect of range.getClientRects()) if (rect.width > 0) tops.add(Math.round(rect.top));
  }
  return tops.size;
}"""
"""How many lines the text of an element (its own text, not its children's) takes."""


def post(page: Page, path: str, body: dict[str, Any]) -> dict[str, Any]:
    answer = page.request.post(
        path, data=json.dumps(body), headers={"Content-Type": "application/json"}
    )
    assert answer.ok, answer.text()
    data: dict[str, Any] = json.loads(answer.text())
    return data


def play_my_turns(page: Page, game_id: str, turns: int, plies_a_turn: int) -> int:
    """Plays the viewer's first legal move on each of ``turns`` turns, through the API (the
    page follows the game by its socket, as when the moves are clicked), the computers
    answering; answers the number of plies then."""
    plies = len(api_state(page, game_id)["moves"])
    for _ in range(turns):
        expect(page.locator("#status")).to_contain_text("Your turn", timeout=60_000)
        state = api_state(page, game_id)
        move = state["legal_moves"][0]["notation"]
        post(page, f"/api/games/{game_id}/moves", {"move": move, "ply": state["ply"]})
        plies += plies_a_turn
        expect(page.locator("#moves button[data-ply]")).to_have_count(plies, timeout=60_000)
    return plies


def assert_in_viewport(page: Page, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (box, size)
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (box, size)


@pytest.mark.slow  # a long run (the default run stays under 5 minutes)
def test_the_board_stays_in_sight_on_a_phone(people: Contexts) -> None:
    page = people.page(*PHONE)
    set_name(page, "Ana")
    game = post(
        page,
        "/api/games",
        {"variant": "international", "opponent": "computer", "level": 1, "color": "white"},
    )
    page.goto(f"/games/{game['id']}")
    page.wait_for_selector("svg.board g.piece")
    assert_in_viewport(page, "svg.board")
    # Twelve moves each: more rows than the move list shows at once, so that it scrolls.
    plies = play_my_turns(page, game["id"], 12, 2)
    expect(page.locator("#status")).to_contain_text("Your turn")
    assert_in_viewport(page, "svg.board")
    # The list itself has scrolled to its last move (the move in sight inside the list).
    moves = page.locator("#moves")
    assert moves.evaluate("(box) => box.scrollHeight > box.clientHeight")
    last = page.locator(f'#moves button[data-ply="{plies}"]')
    expect(last).to_have_attribute("aria-current", "true")
    inside = last.evaluate(
        """(button) => {
          const box = button.parentElement.getBoundingClientRect();
          const own = button.getBoundingClientRect();
          return own.top >= box.top && own.bottom <= box.bottom;
        }"""
    )
    assert inside
    page.reload()
    expect(page.locator("#moves button[data-ply]")).to_have_count(plies)
    expect(page.locator("#connection")).to_have_text("Live.")
    assert_in_viewport(page, "svg.board")
    assert page.evaluate("window.scrollY") == 0


@pytest.mark.slow  # a long browser run: CI runs it with -m slow
@SIZES
def test_the_match_table_stays_inside_its_card(people: Contexts, size: tuple[int, int]) -> None:
    page = people.page(*size)
    set_name(page, "Alexandrina")
    match = post(
        page,
        "/api/matches",
        {"variant": "spanish", "opponent": "computer", "level": 1, "color": "white"},
    )
    first = match["current"]
    page.goto(f"/games/{first}")
    page.wait_for_selector("svg.board g.piece")
    page.click("#resign")
    page.locator("#match-ready").click()
    page.wait_for_url(lambda url: "/games/" in url and first not in url)
    # The finished game has its "View" link, the one being played none (it is this page).
    rounds = page.locator("#match-rounds")
    expect(rounds.locator('tr[data-round="1"] a')).to_have_text("View")
    expect(rounds.locator('tr[data-round="1"]')).to_contain_text("0–1")
    expect(rounds.locator('tr[data-round="2"]')).to_contain_text("being played")
    edges = rounds.evaluate(BOX_INSIDE)
    assert edges["cardLeft"] <= edges["left"] and edges["right"] <= edges["cardRight"], edges
    # A spectator's match page (a player's is taken to the game being played).
    other = people.page(*size)
    other.goto(f"/matches/{match['id']}")
    rounds = other.locator("#match-rounds")
    expect(rounds.locator('tr[data-round="1"] a')).to_have_text("View")
    expect(rounds.locator('tr[data-round="2"] a')).to_have_text("Watch")
    edges = rounds.evaluate(BOX_INSIDE)
    assert edges["cardLeft"] <= edges["left"] and edges["right"] <= edges["cardRight"], edges


@pytest.mark.slow  # a long run (the default run stays under 5 minutes)
@SIZES
def test_four_players_moves_are_whole_and_in_sight(people: Contexts, size: tuple[int, int]) -> None:
    page = people.page(*size)
    set_name(page, "Ana")
    computer = {"kind": "computer", "level": 1}
    game = post(
        page,
        "/api/games",
        {"variant": "radial4", "seats": [{"kind": "you"}, computer, computer, computer]},
    )
    page.goto(f"/games/{game['id']}")
    page.wait_for_selector("svg.board g.piece")
    expect(page.locator("#seats li")).to_have_count(4)
    plies = play_my_turns(page, game["id"], 4, 4)
    moves = page.locator("#moves")
    buttons = page.locator("#moves button[data-ply]")
    # Nothing is cut off: the list does not scroll sideways, and each move is inside it.
    assert moves.evaluate("(box) => box.scrollWidth <= box.clientWidth")
    edges = moves.evaluate("(box) => [box.getBoundingClientRect().left, box.clientWidth]")
    for n in range(plies):
        box = buttons.nth(n).bounding_box()
        assert box is not None
        assert edges[0] <= box["x"] and box["x"] + box["width"] <= edges[0] + edges[1] + 1, n
        # Each move on one line, not broken after its hyphen.
        assert buttons.nth(n).evaluate(LINES_OF_TEXT) == 1, buttons.nth(n).inner_text()
    # A number before each round of four moves; the first move has White's colour.
    expect(moves.locator(".number")).to_have_text(["1.", "2.", "3.", "4."])
    expect(buttons.first.locator(".swatch")).to_have_attribute("title", "white")


def test_the_analysis_board_stays_in_sight_on_a_phone(people: Contexts) -> None:
    page = people.page(*PHONE)
    board = Board("international")
    line = []
    for _ in range(30):  # a long line: its last move, the current one, far down the list
        move = board.legal_moves[0]
        line.append(move.notation)
        board.push(move)
    page.goto(f"/analysis/international?line={'+'.join(line)}")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator('#moves .tree-move[aria-current="true"]')).to_contain_text(line[-1])
    assert_in_viewport(page, "svg.board")
    assert page.evaluate("window.scrollY") == 0
    # Back to the start with the keyboard: the list follows, the page stays.
    page.keyboard.press("Home")
    expect(page.locator('#moves .tree-move[aria-current="true"]')).to_have_count(0)
    page.keyboard.press("End")
    expect(page.locator('#moves .tree-move[aria-current="true"]')).to_contain_text(line[-1])
    assert_in_viewport(page, "svg.board")
