"""The trainer in a browser: a guest solves a composed puzzle by clicking (Playwright and
Debian's chromium, as in ``tests/server/test_browser.py``; skipped without them)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from damier.server.services.puzzles import PUZZLES_DIR
from tests.puzzles.conftest import COMPOSED, write_set
from tests.server.test_browser import (
    Contexts,
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
