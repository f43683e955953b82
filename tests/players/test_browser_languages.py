"""The players' pages in the player's language (the header's choice, kept in the
``damier_lang`` cookie): a profile, the archive and the leaderboard in Russian, with its
plural forms, and the lobby's quick pairing and a profile seen by another player in French
(the fixtures of ``tests/server/test_browser.py``, skipped without chromium)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.players.test_browser import rated_game, register
from tests.server.test_browser import (  # noqa: F401 (the fixtures; skips without chromium)
    Contexts,
    browser,
    people,
    server,
    sync_api,
)

pytestmark = pytest.mark.slow  # browser runs: CI runs them with -m slow

expect = sync_api.expect


def speak(page: Any, language: str) -> None:
    """The language as the header's picker keeps it (a cookie the pages read)."""
    origin = re.match(r"https?://[^/]+", page.url)
    assert origin
    cookie = {"name": "damier_lang", "value": language, "url": f"{origin.group()}/"}
    page.context.add_cookies([cookie])


def test_the_players_pages_in_russian_and_french(people: Contexts) -> None:  # noqa: F811
    zoe, yan = people.page(), people.page()
    register(zoe, "Zoe")
    register(yan, "Yan")
    for loser in (yan, yan, zoe):
        rated_game(zoe, yan, loser=loser)

    speak(zoe, "ru")
    zoe.goto("/players/Zoe")
    expect(zoe.locator("html")).to_have_attribute("lang", "ru")
    # Each count with its own Russian form: 2 выиграны, 0 вничью, 1 проиграна, 3 партии.
    expect(zoe.locator("#overall")).to_have_text("2 выиграны · 0 вничью · 1 проиграна (3 партии)")
    expect(zoe.locator("#player-note")).to_contain_text("Зарегистрированный игрок с")
    expect(zoe.locator("#results th")).to_have_text(
        ["Вариант игры", "Победы", "Ничьи", "Поражения", "Партии"]
    )
    expect(zoe.locator("#ratings td a").first).to_have_text("Русские шашки")
    expect(zoe.locator("#recent tbody tr").first).to_contain_text("Поражение")
    expect(zoe.locator("#ratings-title")).to_have_text("Рейтинги")
    chart = zoe.locator("svg.rating-chart").first
    expect(chart).to_have_attribute(
        "aria-label", re.compile("после каждой из 3 рейтинговых партий")
    )

    zoe.goto("/archive?player=Zoe")
    expect(zoe.locator("#archive-table th").first).to_have_text("Окончена")
    expect(zoe.locator("#archive-table tbody tr").first).to_contain_text("рейтинговая")
    expect(zoe.locator("h1")).to_have_text("Архив партий")

    zoe.goto("/players?variant=russian")
    expect(zoe.locator("#rules-note")).to_contain_text("за последние 30 дней")
    expect(zoe.locator("#your-place")).to_have_text(
        "Вас нет в рейтинг-листе: ваш рейтинг ещё не установился:"
        " сыграйте больше рейтинговых партий."
    )

    speak(yan, "fr")
    yan.goto("/players/Zoe")
    expect(yan.locator("#versus-overall")).to_have_text(
        "Zoe contre vous : 2 gagnées · 0 nulle · 1 perdue (3 parties)"
    )
    expect(yan.locator("#who")).to_have_text("Vous jouez en tant que Yan")
    expect(yan.locator("#who a")).to_have_text("Yan")
    yan.goto("/")
    count = yan.locator('#quick-pairing button[data-clock="5+3"] .count')
    expect(count).to_have_text("0 en attente")
