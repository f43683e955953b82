"""Every language's catalog against the strings of the pages and the server: each message
translated, its placeholders kept, its plural forms all there; and the template up to date
with the code (a string marked in a page or a service and not extracted fails here)."""

from __future__ import annotations

import pickle
import re

import pytest
from babel.messages.catalog import Catalog as PoCatalog
from babel.messages.pofile import read_po

from damier.server import i18n

TRANSLATED = [language for language in i18n.LANGUAGES if language != i18n.DEFAULT]


@pytest.fixture(scope="module")
def template() -> PoCatalog:
    return i18n.extract_template()


def _read(language: str) -> PoCatalog:
    with i18n.po_path(language).open("rb") as file:
        po: PoCatalog = read_po(file, locale=language)
    return po


def _ids(message_id: object) -> list[str]:
    """A message's id or string as a list (one, or its plural forms)."""
    if isinstance(message_id, (tuple, list)):
        return [str(part) for part in message_id]
    return [str(message_id)] if message_id else []


def test_the_template_holds_the_marked_strings(template: PoCatalog) -> None:
    found = {_ids(message.id)[0] for message in template if message.id}
    # From each kind of source: a page's HTML, a module's t(), tn() and N_(), a service's tr().
    for expected in ("Offer draw", "Your turn.", "{n} spectator", "resignation", "no game {game}"):
        assert expected in found
    assert len(found) > 300


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated(language: str, template: PoCatalog) -> None:
    po = _read(language)
    missing = []
    for message in template:
        if not message.id:
            continue
        translated = po.get(message.id)
        strings = _ids(translated.string) if translated is not None else []
        if translated is None or translated.fuzzy or not strings or not all(strings):
            missing.append(_ids(message.id)[0])
    assert not missing, f"{language}: {len(missing)} untranslated, e.g. {missing[:5]}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_placeholders_and_plural_forms(language: str) -> None:
    po = _read(language)
    problems = []
    for message in po:
        if not message.id or not message.string:
            continue
        wanted = set(i18n.PLACEHOLDER.findall(" ".join(_ids(message.id))))
        strings = _ids(message.string)
        if isinstance(message.id, tuple) and len(strings) != po.num_plurals:
            problems.append(f"{message.id[0]!r}: {len(strings)} forms, not {po.num_plurals}")
        for string in strings:
            if set(i18n.PLACEHOLDER.findall(string)) != wanted:
                problems.append(f"{_ids(message.id)[0]!r} -> {string!r}")
    assert not problems, problems


def test_russian_has_three_plural_forms() -> None:
    russian = i18n.catalog("ru")
    words = [russian.ngettext("{n} spectator", "{n} spectators", n) for n in (1, 3, 5, 21, 112)]
    assert words == ["{n} зритель", "{n} зрителя", "{n} зрителей", "{n} зритель", "{n} зрителей"]


def test_a_message_said_again_in_a_language() -> None:
    text = i18n.tr("no game {game}", game="'x'")
    assert text == "no game 'x'"  # the English, for the code and the logs
    assert i18n.localize(text, "fr") == "aucune partie 'x'"
    assert i18n.localize(text, "en") == "no game 'x'"
    assert i18n.localize("not a message", "ru") == "not a message"
    copied = pickle.loads(pickle.dumps(text))  # through a process or a queue, still a message
    assert copied == text and i18n.localize(copied, "fr") == "aucune partie 'x'"
    seats = i18n.tr_n("{n} seat", "{n} seats", 3)
    assert seats == "3 seats" and i18n.localize(seats, "ru") == "3 seats"  # not in the catalog


@pytest.mark.parametrize(
    ("cookie", "header", "language"),
    [
        (None, None, "en"),
        (None, "fr-FR,fr;q=0.9,en;q=0.8", "fr"),
        (None, "de-DE, pt-BR;q=0.7, en;q=0.5", "pt"),
        (None, "en;q=0.2, ru;q=0.9", "ru"),
        ("tr", "fr", "tr"),
        ("xx", "nl", "nl"),
    ],
)
def test_the_language_of_a_request(cookie: str | None, header: str | None, language: str) -> None:
    assert i18n.negotiate(cookie, header) == language


def test_the_page_catalog_plural_table() -> None:
    page = i18n.catalog("ru").page()
    assert page["language"] == "ru"
    assert page["plurals"][:6] == [2, 0, 1, 1, 1, 2]
    assert page["plurals"][111] == 2 and page["plurals"][121] == 0
    assert page["messages"]["Offer draw"] == "Предложить ничью"


def test_every_literal_call_of_the_modules_is_extracted(template: PoCatalog) -> None:
    """Babel's JavaScript extractor skips a call nested in another's arguments inside a
    template string (`${t(N_("x"))}`): such a string would stay in English. Say it apart."""
    found = {_ids(message.id)[0] for message in template if message.id}
    call = re.compile(r'\b(?:t|tn|N_)\(\s*"((?:[^"\\]|\\.)*)"')
    missed = []
    for module in sorted((i18n.STATIC / "js").glob("*.js")):
        code = "\n".join(
            line for line in module.read_text().splitlines() if not line.lstrip().startswith("//")
        )
        for match in call.finditer(code):
            text = match.group(1).replace('\\"', '"')
            if text not in found:
                missed.append(f"{module.name}: {text}")
    assert not missed, missed
