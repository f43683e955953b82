"""The trainer in a browser: a guest solves a composed puzzle by clicking; a player finds
the shot he missed from his game's review (Playwright and Debian's chromium, as in
``tests/server/test_browser.py``; skipped without them)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from damier.server.services.puzzles import PUZZLES_DIR
from tests.puzzles.conftest import COMPOSED, MISSED_FEN, MISSED_LINE, write_set
from tests.server.test_browser import (
    SCREENSHOTS,
    Contexts,
    Page,
    Server,
    browser,
    cell,
    expect,
    people,
    piece,
)

pytestmark = pytest.mark.slow  # browser runs: CI runs them with -m slow

__all__ = ["browser", "people"]  # the fixtures this module uses


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`damier serve` with one Russian puzzle and one International one to offer."""
    directory = tmp_path_factory.mktemp("puzzles")
    write_set(directory / "set", [COMPOSED[0], COMPOSED[2]])
    before = os.environ.get(PUZZLES_DIR)
    os.environ[PUZZLES_DIR] = str(directory / "set")
    running = Server(directory)
    try:
        running.start()
    finally:
        if before is None:
            del os.environ[PUZZLES_DIR]
        else:
            os.environ[PUZZLES_DIR] = before
    try:
        yield running.base
    finally:
        running.stop()


def test_a_guest_solves_a_puzzle_by_clicking(people: Contexts, tmp_path: Path) -> None:
    page = people.page()
    page.goto("/puzzles")
    page.click("text=Russian draughts")
    expect(page.locator("#verdict")).to_contain_text("White to play and win")
    expect(piece(page, 16)).to_have_count(1)
    cell(page, 16).click()
    cell(page, 11).click()
    expect(page.locator("#verdict")).to_have_text("Right! Keep going.")
    # The defender's reply is played for the solver: 7x16.
    expect(piece(page, 7)).to_have_count(0)
    expect(piece(page, 16)).to_have_count(1)
    cell(page, 12).click()
    cell(page, 17).click()
    expect(page.locator("#verdict")).to_contain_text("Solved!")
    expect(page.locator("#verdict")).to_contain_text("Your puzzle rating:")
    expect(page.locator("#history li.solved")).to_have_count(1)
    expect(page.locator("#next")).to_be_visible()
    page.screenshot(path=str(tmp_path / "puzzle-solved.png"))
    # A retry is not rated; a wrong move says the right one.
    page.click("#retry")
    cell(page, 31).click()
    cell(page, 27).click()
    expect(page.locator("#verdict")).to_contain_text("Wrong: 16-11 was the move. (Not rated.)")
    page.click("#solution")
    expect(page.locator("#line li")).to_have_text(["16-11", "7x16", "12x17"])
    expect(piece(page, 17)).to_have_count(1)


def post(page: Page, path: str, body: dict[str, object] | None = None) -> dict[str, Any]:
    """A request of the page's player (its cookies), which must succeed."""
    answer = page.request.post(path, data=body or {})
    assert answer.ok, answer.text()
    data: dict[str, Any] = answer.json()
    return data


def test_a_player_finds_the_shot_he_missed_from_the_review(people: Contexts) -> None:
    ana, bob = people.page(), people.page()
    post(ana, "/api/session", {"name": "Ana"})
    post(bob, "/api/session", {"name": "Bob"})
    game = {"variant": "russian", "opponent": "open", "color": "white", "fen": MISSED_FEN}
    game_id = post(ana, "/api/games", game)["id"]
    post(bob, f"/api/games/{game_id}/join")
    for ply, move in enumerate(MISSED_LINE):
        mover = ana if ply % 2 == 0 else bob
        post(mover, f"/api/games/{game_id}/moves", {"move": move, "ply": ply})
    post(ana, f"/api/games/{game_id}/resign")

    ana.goto(f"/games/{game_id}")
    ana.click("#review-start")
    shot = ana.locator("#review-graph .review-shots li")
    expect(shot).to_contain_text("White missed a winning shot and played 31-27.", timeout=60_000)
    ana.screenshot(path=str(SCREENSHOTS / "damier-review-shot.png"), full_page=True)
    shot.locator("a.find-shot").click()
    ana.wait_for_url(re.compile(r"/puzzles/russian\?shot=shot-"))
    expect(ana.locator("#shot-info")).to_contain_text("In your game you played 31-27 here")
    expect(ana.locator("#verdict")).to_contain_text("White to play and win")
    expect(ana.locator("#verdict")).to_contain_text("(practice: not rated)")
    expect(piece(ana, 16)).to_have_count(1)
    cell(ana, 16).click()
    cell(ana, 11).click()
    expect(ana.locator("#verdict")).to_have_text("Right! Keep going.")
    expect(piece(ana, 7)).to_have_count(0)  # the defender's reply: 7x16
    cell(ana, 12).click()
    cell(ana, 17).click()
    expect(ana.locator("#verdict")).to_contain_text("Solved! (Not rated.)")
    expect(ana.locator("#shots li.solved")).to_contain_text("31-27 was played instead · solved")
    ana.screenshot(path=str(SCREENSHOTS / "damier-shot-solved.png"), full_page=True)


def test_the_trainer_in_french(people: Contexts) -> None:
    context = people.browser.new_context(base_url=people.base, locale="fr-FR")
    try:
        page = context.new_page()
        page.goto("/puzzles")
        expect(page.locator("#choice-title")).to_have_text("Problèmes")
        expect(page.locator("#sets")).to_contain_text("1 problème")
        page.goto("/puzzles/russian")
        expect(page.locator("#verdict")).to_have_text(
            "Les Blancs jouent et gagnent : trouvez le coup. 2 coups à trouver."
        )
        expect(page.locator("#solution")).to_have_text("Voir la solution")
        expect(page.locator("#puzzle-themes")).to_contain_text("sacrifice, coup tranquille")
        page.screenshot(path=str(SCREENSHOTS / "damier-puzzles-fr.png"), full_page=True)
    finally:
        context.close()
