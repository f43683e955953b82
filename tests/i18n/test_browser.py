"""The pages in the browser's language: Accept-Language fr gives the lobby and the game
page in French, the header's picker switches to Russian and the choice is kept after a
reload (and by the server for its own messages). Playwright drives Debian's chromium, as in
tests/server/test_browser.py (skipped without them)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

sync_api = pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Browser, Page, expect  # noqa: E402

from tests.server.test_browser import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    SCREENSHOTS,
    TIMEOUT_MS,
    Server,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    running = Server(tmp_path_factory.mktemp("i18n-browser"))
    running.start()
    try:
        yield running.base
    finally:
        running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


def french_page(browser: Browser, base: str, errors: list[str]) -> Page:
    context = browser.new_context(base_url=base, locale="fr-FR")
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("dialog", lambda dialog: dialog.accept())
    return page


@pytest.mark.slow  # a long run (the default run stays under 5 minutes)
def test_french_from_the_browser_then_russian_from_the_picker(
    browser: Browser, server: str
) -> None:
    errors: list[str] = []
    page = french_page(browser, server, errors)
    try:
        page.goto("/")
        expect(page.locator("html")).to_have_attribute("lang", "fr")
        expect(page.locator("#create-title")).to_have_text("Nouvelle partie")
        expect(page.locator("#create-button")).to_have_text("Créer la partie")
        expect(page.locator("#language")).to_have_value("fr")
        expect(page).to_have_title("Damier — jouer aux dames")
        page.fill("#name-input", "Amélie")
        page.click("#name-form button[type=submit]")
        expect(page.locator("#who")).to_have_text("Vous jouez en tant que Amélie")

        # A game against the computer, from the lobby's form: the game page in French.
        page.wait_for_selector('#variant option[value="international"]', state="attached")
        page.check('input[name=opponent][value="computer"]')
        page.check('input[name=color][value="white"]')
        page.select_option("#clock", "")
        page.click("#create-button")
        page.wait_for_url(re.compile(r"/games/[^/]+$"))
        page.wait_for_selector("svg.board g.piece")
        expect(page.locator("#status")).to_have_text(re.compile("À vous de jouer"))
        expect(page.locator("#flip")).to_have_text("Retourner le damier")
        expect(page.locator("#moves-title")).to_have_text("Coups")
        expect(page.locator("#resign")).to_have_text("Abandonner")
        expect(page.locator("#player-top .label")).to_have_text("Ordinateur (niveau 3)")
        guest = "getComputedStyle(document.querySelector('.label.guest'), '::after').content"
        assert page.evaluate(guest) == '" (invité)"'
        page.screenshot(path=str(SCREENSHOTS / "i18n-game-fr.png"))
        # The server's refusals in French too (Accept-Language).
        detail = page.evaluate(
            "fetch('/api/games/nope').then((answer) => answer.json()).then((body) => body.detail)"
        )
        assert detail == "aucune partie 'nope'"

        # The picker: Russian, kept after a reload and on the next page.
        page.select_option("#language", "ru")
        expect(page.locator("#flip")).to_have_text("Перевернуть доску")
        expect(page.locator("html")).to_have_attribute("lang", "ru")
        page.reload()
        expect(page.locator("#flip")).to_have_text("Перевернуть доску")
        expect(page.locator("#status")).to_have_text(re.compile("Ваш ход"))
        expect(page.locator("#language")).to_have_value("ru")
        detail = page.evaluate(
            "fetch('/api/games/nope').then((answer) => answer.json()).then((body) => body.detail)"
        )
        assert detail == "нет партии 'nope'"  # the cookie wins over Accept-Language
        # The page's plural forms are Russian's three, from the catalog's plural table.
        forms = page.evaluate(
            "import('/static/js/i18n.js').then(({ tn }) =>"
            " [1, 2, 5, 21, 112, 1000].map((n) => tn('{n} spectator', '{n} spectators', n)))"
        )
        assert forms == [
            "1 зритель",
            "2 зрителя",
            "5 зрителей",
            "21 зритель",
            "112 зрителей",
            "1000 зрителей",
        ]
        page.goto("/")
        expect(page.locator("#create-title")).to_have_text("Новая партия")
        page.goto("/rules/international")
        expect(page.locator("#play-link")).to_have_text("Играть в этот вариант")
        expect(page.locator("#start-title")).to_have_text("Начальная позиция")
        # The variant's title and its rules in plain words come from the catalog too.
        expect(page.locator("#title")).to_have_text("Международные шашки (FMJD)")
        expect(page.locator("#rules-text")).to_contain_text("Бить обязательно")
        page.screenshot(path=str(SCREENSHOTS / "i18n-rules-ru.png"), full_page=True)
        assert errors == [], f"JavaScript errors: {errors}"
    finally:
        page.context.close()
