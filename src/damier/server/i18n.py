"""The platform's languages: one gettext catalog (``locales/<lang>/LC_MESSAGES/damier.po``)
for the server's messages to the player and the pages' strings.

The server reads the ``.po`` files once (Babel), answers a refusal's ``detail`` in the
player's language (the ``damier_lang`` cookie, else ``Accept-Language``, else English),
and serves a page's catalog as JSON at ``/api/i18n/{lang}`` for ``static/js/i18n.js``.

Messages are marked where they are written: ``tr("no game {game}", game=...)`` in the
services (an English ``str`` that remembers its message id, translated when answered),
``t("...")`` and ``tn("one {n}", "{n} ones", n)`` in the pages' modules, and the text of
the pages listed in :data:`PAGES` (their text nodes and ``aria-label``, ``placeholder``,
``title`` attributes). ``python -m damier.server.i18n update`` extracts them all into
``damier.pot`` and merges it into each language's ``.po``.

>>> str(tr("no game {game}", game="'x'"))
"no game 'x'"
>>> negotiate(None, "fr-CH, fr;q=0.9, en;q=0.8")
'fr'
>>> negotiate("ru", "fr")
'ru'
"""

from __future__ import annotations

import gettext
import hashlib
import json
import re
import sys
from collections.abc import Iterator, Mapping
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from fastapi import APIRouter, HTTPException, Request, Response

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog as PoTemplate

LANGUAGES: dict[str, str] = {
    "en": "English",
    "fr": "Français",
    "es": "Español",
    "nl": "Nederlands",
    "ru": "Русский",
    "pt": "Português",
    "it": "Italiano",
    "tr": "Türkçe",
}
"""The languages served, by code, with their own name (the picker shows it)."""

DEFAULT = "en"
COOKIE = "damier_lang"
"""The cookie that keeps a player's choice (set by the picker; the server honours it)."""

DOMAIN = "damier"
SERVER = Path(__file__).resolve().parent
LOCALES = SERVER / "locales"
STATIC = SERVER / "static"

PAGES = (
    "index.html",
    "game.html",
    "match.html",
    "analysis.html",
    "rules.html",
    "profile.html",
    "players.html",
    "archive.html",
    "puzzles.html",
    "tournament.html",
    "partials/site-header.html",
)
"""The pages whose text is translated (they load ``js/i18n.js``), and the site header each
of them takes (``routes/pages.py``); a new page joins here."""

RULES_TRANSLATED: tuple[str, ...] | None = None
"""The variants whose rules in plain words (``damier.rules.explain``, the rules page) are in
the catalog, with every variant's title and summary: None for every built-in variant. A
variant file's paragraphs are said in the language when they are the same as a built-in's
(most are), else in English."""

PLURAL_TABLE = 200
"""How many counts the JSON catalog's plural table covers: the gettext plural forms of
the languages served depend on ``n % 100`` above 100, so ``n`` past the table reads at
``100 + n % 100``."""

PLACEHOLDER = re.compile(r"\{[a-z_0-9]*\}")


class Text(str):
    """A message to the player: its English text, and its message id and values to say it
    again in another language (:func:`localize`). Compares and prints as the English."""

    msgid: str
    plural: str | None
    n: int | None
    params: Mapping[str, Any]

    def __new__(
        cls,
        msgid: str,
        params: Mapping[str, Any],
        plural: str | None = None,
        n: int | None = None,
    ) -> Text:
        english = plural if plural is not None and n != 1 else msgid
        text = super().__new__(cls, _format(english, params, n))
        text.msgid, text.plural, text.n, text.params = msgid, plural, n, dict(params)
        return text

    def __reduce__(self) -> tuple[Any, ...]:
        return (Text, (self.msgid, dict(self.params), self.plural, self.n))


def tr(msgid: str, /, **params: Any) -> Text:
    """Mark a message to the player; ``{name}`` placeholders take ``params``."""
    return Text(msgid, params)


def tr_n(singular: str, plural: str, n: int, /, **params: Any) -> Text:
    """Mark a message with a count ``n`` (``{n}`` in the text): the plural form is the
    language's."""
    return Text(singular, params, plural, n)


def _format(text: str, params: Mapping[str, Any], n: int | None) -> str:
    values = {**params, "n": n} if n is not None else params
    return PLACEHOLDER.sub(lambda m: str(values.get(m.group()[1:-1], m.group())), text)


class Catalog:
    """One language's messages: ``msgid -> msgstr`` or the list of plural forms."""

    def __init__(self, language: str, messages: dict[str, str | list[str]], plural: str):
        self.language = language
        self.messages = messages
        self.plural_expr = plural
        self.plural = gettext.c2py(plural)

    def gettext(self, msgid: str) -> str:
        found = self.messages.get(msgid)
        return found if isinstance(found, str) and found else msgid

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        forms = self.messages.get(singular)
        if isinstance(forms, list) and all(forms):
            return forms[min(self.plural(n), len(forms) - 1)]
        return singular if n == 1 else plural

    def page(self) -> dict[str, Any]:
        """The JSON catalog of the pages."""
        return {
            "language": self.language,
            "plurals": [self.plural(n) for n in range(PLURAL_TABLE)],
            "messages": {key: value for key, value in self.messages.items() if value},
        }


def po_path(language: str) -> Path:
    return LOCALES / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def catalog(language: str) -> Catalog:
    """The language's catalog, read once from its ``.po`` (English: the message ids)."""
    if language not in LANGUAGES or language == DEFAULT or not po_path(language).is_file():
        return Catalog(DEFAULT, {}, "(n != 1)")
    from babel.messages.pofile import read_po

    with po_path(language).open("rb") as file:
        po = read_po(file, locale=language)
    messages: dict[str, str | list[str]] = {}
    for message in po:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, (tuple, list)):
            forms = message.string if isinstance(message.string, tuple) else (message.string,)
            messages[str(message.id[0])] = [str(form) for form in forms]
        else:
            messages[message.id] = str(message.string)
    return Catalog(language, messages, po.plural_expr)


def localize(text: str, language: str) -> str:
    """``text`` in ``language``: a :class:`Text` is translated with its values (which
    are translated too when they are messages); a plain string found as a message id as
    well; anything else stays as it is."""
    if language == DEFAULT:
        return str(text)
    messages = catalog(language)
    if not isinstance(text, Text):
        return messages.gettext(text)
    params = {
        key: localize(value, language) if isinstance(value, str) else value
        for key, value in text.params.items()
    }
    if text.plural is not None and text.n is not None:
        pattern = messages.ngettext(text.msgid, text.plural, text.n)
    else:
        pattern = messages.gettext(text.msgid)
    return _format(pattern, params, text.n)


def negotiate(cookie: str | None, accept_language: str | None) -> str:
    """The language for a request: the cookie's when it is served, else the best of
    ``Accept-Language`` (by quality, a region falls back to its language), else English."""
    if cookie in LANGUAGES:
        return cookie
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate((accept_language or "").split(",")):
        tag, _sep, rest = part.strip().partition(";")
        quality = 1.0
        if rest.strip().startswith("q="):
            try:
                quality = float(rest.strip()[2:])
            except ValueError:
                quality = 0.0
        if tag and quality > 0:
            ranked.append((-quality, index, tag.strip().lower()))
    for _quality, _index, tag in sorted(ranked):
        language = tag.split("-")[0]
        if language in LANGUAGES:
            return language
    return DEFAULT


def request_language(request: Request) -> str:
    return negotiate(request.cookies.get(COOKIE), request.headers.get("accept-language"))


router = APIRouter(prefix="/api/i18n", tags=["i18n"])


@router.get("")
async def languages(request: Request) -> dict[str, Any]:
    """The languages served, and the one this request would be answered in."""
    return {"language": request_language(request), "languages": LANGUAGES}


@cache
def _page_json(language: str) -> tuple[bytes, str]:
    """A language's page catalog as JSON, and its entity tag (a digest of it)."""
    body = json.dumps(catalog(language).page(), ensure_ascii=False).encode()
    return body, f'"{hashlib.sha256(body).hexdigest()[:32]}"'


@router.get("/{language}")
async def page_catalog(language: str, request: Request) -> Response:
    """A language's catalog for the pages (``static/js/i18n.js``): kept by the browser and
    asked again with its entity tag (a 304 while the catalog is the same)."""
    if language not in LANGUAGES:
        raise HTTPException(404, f"no language {language!r}")
    body, tag = _page_json(language)
    headers = {"ETag": tag, "Cache-Control": "no-cache"}
    if request.headers.get("if-none-match") == tag:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


# Extraction: Babel's extractors for Python and JavaScript, and this one for the pages.

KEYWORDS: dict[str, Any] = {"tr": None, "tr_n": (1, 2), "t": None, "tn": (1, 2), "N_": None}
TRANSLATED_ATTRIBUTES = ("aria-label", "placeholder", "title", "alt")
_LETTER = re.compile(r"[^\W\d_]")


def page_text(text: str) -> str:
    """A text node as the catalog holds it (and ``i18n.js`` looks it up): its spaces
    collapsed, trimmed."""
    return " ".join(text.split())


class _PageText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if name in TRANSLATED_ATTRIBUTES and value:
                self._keep(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self._keep(data)

    def _keep(self, text: str) -> None:
        text = page_text(text)
        if _LETTER.search(text):
            self.found.append((self.getpos()[0], text))


def extract_html(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """Babel's extractor for the pages: their text nodes and translated attributes."""
    parser = _PageText()
    parser.feed(fileobj.read().decode("utf-8"))
    parser.close()
    for line, text in parser.found:
        yield line, None, text, []


def _method_map() -> list[tuple[str, Any]]:
    pages = [(f"static/{page}", extract_html) for page in PAGES]
    return [
        *pages,
        ("static/js/**.js", "javascript"),
        ("services/**.py", "python"),
        ("routes/**.py", "python"),
        ("*.py", "python"),
    ]


def extract_template() -> PoTemplate:
    """The ``damier.pot`` template of every marked message (Babel's extractors)."""
    from babel.messages.catalog import Catalog as PoCatalog
    from babel.messages.extract import extract_from_dir

    template = PoCatalog(project="Damier", domain=DOMAIN, fuzzy=False)
    found = extract_from_dir(
        SERVER,
        method_map=_method_map(),
        keywords=KEYWORDS,
        options_map={"static/js/**.js": {"parse_template_string": "true"}},
        comment_tags=("i18n:",),
        strip_comment_tags=True,
    )
    for filename, line, message, comments, context in found:
        if filename.startswith("static/") or filename.endswith(".py"):
            flags = ("python-brace-format",) if PLACEHOLDER.search(str(message)) else ()
            template.add(
                message,
                None,
                [(filename, line)],
                auto_comments=comments,
                context=context,
                flags=flags,
            )
    _add_variants(template)
    return template


def _add_variants(template: PoTemplate) -> None:
    """The built-in variants' titles and summaries, and the rules of
    :data:`RULES_TRANSLATED` in plain words, as the pages show them (``api.js`` says them
    with ``t()``)."""
    from damier.rules.explain import explain
    from damier.rules.variants import BUILTIN, OPTION_SUMMARIES

    for name, summary in OPTION_SUMMARIES.items():
        comment = f"option {name}: summary"
        template.add(summary, None, [("rules/variants.py", 1)], auto_comments=[comment])

    for variant in BUILTIN:
        for text, what in ((variant.title, "title"), (variant.summary, "summary")):
            if text:
                comment = f"variant {variant.name}: {what}"
                template.add(text, None, [("rules/variants.py", 1)], auto_comments=[comment])
    names = RULES_TRANSLATED or [variant.name for variant in BUILTIN]
    for name in names:
        for paragraph in explain(name):
            comment = f"variant {name}: rules"
            template.add(paragraph, None, [("rules/explain.py", 1)], auto_comments=[comment])


def update() -> None:
    """Write ``damier.pot`` and merge it into each language's ``.po`` (kept translations
    stay; new messages come in empty; gone ones are dropped)."""
    from babel.messages.catalog import Catalog as PoCatalog
    from babel.messages.pofile import read_po, write_po

    template = extract_template()
    LOCALES.mkdir(exist_ok=True)
    with (LOCALES / f"{DOMAIN}.pot").open("wb") as file:
        write_po(file, template, width=100, omit_header=False)
    for language in LANGUAGES:
        if language == DEFAULT:
            continue
        path = po_path(language)
        if path.is_file():
            with path.open("rb") as file:
                po = read_po(file, locale=language)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            po = PoCatalog(locale=language, project="Damier", domain=DOMAIN, fuzzy=False)
        po.update(template, no_fuzzy_matching=True)
        po.obsolete.clear()
        with path.open("wb") as file:
            write_po(file, po, width=100, ignore_obsolete=True)


if __name__ == "__main__":
    if sys.argv[1:] != ["update"]:
        sys.exit("usage: python -m damier.server.i18n update")
    update()
