"""The server speaks the player's language: the page catalogs and the refusals' details."""

from __future__ import annotations

from fastapi.testclient import TestClient


def test_page_catalogs(client: TestClient) -> None:
    answer = client.get("/api/i18n/fr")
    assert answer.status_code == 200
    catalog = answer.json()
    assert catalog["language"] == "fr"
    assert catalog["messages"]["Offer draw"] == "Proposer la nulle"
    # French has a third form, for millions ("un million de spectateurs"): the same here.
    spectators = ["{n} spectateur", "{n} spectateurs", "{n} spectateurs"]
    assert catalog["messages"]["{n} spectator"] == spectators
    assert client.get("/api/i18n/xx").status_code == 404
    # The browser keeps it and asks again with its tag: not sent again while unchanged.
    tag = answer.headers["etag"]
    again = client.get("/api/i18n/fr", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.content == b""
    chosen = client.get("/api/i18n", headers={"Accept-Language": "ru-RU,ru;q=0.9"}).json()
    assert chosen["language"] == "ru" and "tr" in chosen["languages"]


def test_refusals_in_the_player_language(client: TestClient) -> None:
    english = client.get("/api/games/nope")
    assert english.status_code == 404
    assert english.json()["detail"] == "no game 'nope'"
    french = client.get("/api/games/nope", headers={"Accept-Language": "fr-FR,fr;q=0.9"})
    assert french.json()["detail"] == "aucune partie 'nope'"
    client.cookies.set("damier_lang", "ru")  # the picker's choice wins over the header
    russian = client.get("/api/games/nope", headers={"Accept-Language": "fr"})
    assert russian.json()["detail"] == "нет партии 'nope'"
