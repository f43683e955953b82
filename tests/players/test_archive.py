"""The game archive (``GET /api/archive``): filters, keyset pages, and the PDN of a
filtered set (``GET /api/archive/pdn``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.players.helpers import browser, drawn, register, won_by
from tests.server.conftest import AppFactory, FakeTime, another, open_game

DAY = 86_400.0


@pytest.fixture
def games(make_app: AppFactory) -> Iterator[tuple[TestClient, dict[str, str]]]:
    """Five finished games, a day apart from 2023-11-14 (UTC):

    g1 russian, Ana beats Bo; g2 international, Ana and Bo draw; g3 international, Bo
    beats Cy after 32-28 18-23; g4 international, Cy (Black) beats Ana after 33-28;
    g5 russian, Ana beats a guest (not rated)."""
    clock = FakeTime()
    with TestClient(make_app(now=clock)) as ana:
        register(ana, "Ana")
        bo, _ = browser(ana, "Bo")
        cy, _ = browser(ana, "Cy")
        ids = {"g1": won_by(ana, bo)}
        clock.advance(DAY)
        ids["g2"] = drawn(ana, bo, variant="international")
        clock.advance(DAY)
        ids["g3"] = played(bo, cy, ["32-28", "18-23"], loser=cy)
        clock.advance(DAY)
        ids["g4"] = played(ana, cy, ["33-28"], loser=ana)
        clock.advance(DAY)
        guest = another(ana)
        guest.post("/api/session", json={"name": "Passer-by"})
        ids["g5"] = won_by(ana, guest)
        yield ana, ids


def played(white: TestClient, black: TestClient, moves: list[str], loser: TestClient) -> str:
    game = open_game(white, black, variant="international")
    for ply, move in enumerate(moves):
        mover = white if ply % 2 == 0 else black
        answer = mover.post(f"/api/games/{game['id']}/moves", json={"move": move, "ply": ply})
        assert answer.status_code == 200, answer.text
    assert loser.post(f"/api/games/{game['id']}/resign").status_code == 200
    game_id: str = game["id"]
    return game_id


def found(client: TestClient, ids: dict[str, str], query: str = "") -> list[str]:
    """The games of one archive page, by their names in ``ids``."""
    answer = client.get(f"/api/archive?{query}")
    assert answer.status_code == 200, answer.text
    names = {game_id: name for name, game_id in ids.items()}
    return [names[game["id"]] for game in answer.json()["games"]]


def test_filters(games: tuple[TestClient, dict[str, str]]) -> None:
    client, ids = games
    assert found(client, ids) == ["g5", "g4", "g3", "g2", "g1"]
    assert found(client, ids, "player=ana") == ["g5", "g4", "g2", "g1"]
    assert found(client, ids, "player=Ana&result=win") == ["g5", "g1"]
    assert found(client, ids, "player=Ana&result=loss") == ["g4"]
    assert found(client, ids, "player=Ana&result=draw") == ["g2"]
    assert found(client, ids, "result=black") == ["g4"]
    assert found(client, ids, "player=Ana&opponent=Bo") == ["g2", "g1"]
    assert found(client, ids, "opponent=Cy") == ["g4", "g3"]
    assert found(client, ids, "variant=international") == ["g4", "g3", "g2"]
    assert found(client, ids, "mode=rated") == ["g4", "g3", "g2", "g1"]
    assert found(client, ids, "mode=casual") == ["g5"]
    assert found(client, ids, "mode=match") == []
    assert found(client, ids, "since=2023-11-15&until=2023-11-16") == ["g3", "g2"]
    assert found(client, ids, "since=2023-11-18") == ["g5"]
    assert found(client, ids, "until=2023-11-14") == ["g1"]
    assert found(client, ids, "opening=1.%2032-28%2018-23") == ["g3"]
    assert found(client, ids, "opening=32-28") == ["g3"]
    assert found(client, ids, "opening=33-28&player=Ana") == ["g4"]
    assert found(client, ids, "opening=33-28%2018-23") == []
    rows = {game["id"]: game for game in client.get("/api/archive").json()["games"]}
    assert rows[ids["g3"]]["ply"] == 2 and rows[ids["g3"]]["rated"]
    assert rows[ids["g3"]]["opening"] == ["32-28", "18-23"]
    assert rows[ids["g1"]]["opening"] == []
    assert rows[ids["g3"]]["white"]["name"] == "Bo"
    assert rows[ids["g3"]]["result"]["winner"] == "white"


def test_refusals(games: tuple[TestClient, dict[str, str]]) -> None:
    client, _ = games
    assert client.get("/api/archive?result=win").status_code == 400  # whose win?
    assert client.get("/api/archive?player=Nobody").status_code == 404
    assert client.get("/api/archive?mode=blitz").status_code == 400
    assert client.get("/api/archive?since=yesterday").status_code == 400
    assert client.get("/api/archive?after=no-such-game").status_code == 404


def test_keyset_pages(games: tuple[TestClient, dict[str, str]]) -> None:
    client, ids = games
    names = {game_id: name for name, game_id in ids.items()}
    pages: list[list[str]] = []
    after: str | None = None
    while True:
        query = "limit=2" + (f"&after={after}" if after else "")
        page: dict[str, Any] = client.get(f"/api/archive?{query}").json()
        pages.append([names[game["id"]] for game in page["games"]])
        after = page["next"]
        if after is None:
            break
    assert pages == [["g5", "g4"], ["g3", "g2"], ["g1"]]
    # A filtered set pages the same way.
    first = client.get("/api/archive?player=Ana&limit=3").json()
    assert first["next"] == ids["g2"]
    rest = client.get(f"/api/archive?player=Ana&limit=3&after={first['next']}").json()
    assert [names[game["id"]] for game in rest["games"]] == ["g1"]
    assert rest["next"] is None


def test_pdn_download(games: tuple[TestClient, dict[str, str]]) -> None:
    client, ids = games
    answer = client.get("/api/archive/pdn?player=Ana&variant=international")
    assert answer.status_code == 200
    assert "attachment" in answer.headers["content-disposition"]
    text = answer.text
    assert text.count("[Event ") == 2
    assert f"/games/{ids['g4']}" in text and f"/games/{ids['g2']}" in text
    assert text.index(ids["g4"]) < text.index(ids["g2"])  # newest first
    assert '[White "Ana"]' in text and '[Black "Cy"]' in text
    assert "33-28" in text
    one = client.get("/api/archive/pdn?limit=1").text
    assert one.count("[Event ") == 1 and ids["g5"] in one
    assert client.get("/api/archive/pdn?limit=100000").status_code == 400
    assert client.get("/api/archive/pdn?player=Nobody").status_code == 404
