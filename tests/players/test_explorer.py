"""The explorer (``GET /api/archive/explorer``): the moves the archive's games played after
an opening, with their results, under the archive's filters."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from tests.players.helpers import browser, register
from tests.players.test_archive import played
from tests.server.conftest import AppFactory, open_game


@pytest.fixture
def client(make_app: AppFactory) -> Iterator[TestClient]:
    """Four International games: 32-28 18-23 (White won), 32-28 18-23 (Black won),
    32-28 19-23 (White won), 33-28 (Black won); an aborted one after 31-27 and a game in
    play after 34-29 are left out; one Russian game."""
    with TestClient(make_app()) as ana:
        register(ana, "Ana")
        bo, _ = browser(ana, "Bo")
        played(ana, bo, ["32-28", "18-23"], loser=bo)
        played(ana, bo, ["32-28", "18-23"], loser=ana)
        played(bo, ana, ["32-28", "19-23"], loser=ana)
        played(ana, bo, ["33-28"], loser=ana)
        aborted = open_game(ana, bo, variant="international")
        ana.post(f"/api/games/{aborted['id']}/moves", json={"move": "31-27", "ply": 0})
        assert ana.post(f"/api/games/{aborted['id']}/abort").status_code == 200
        playing = open_game(ana, bo, variant="international")
        ana.post(f"/api/games/{playing['id']}/moves", json={"move": "34-29", "ply": 0})
        russian = open_game(ana, bo, variant="russian")
        assert bo.post(f"/api/games/{russian['id']}/resign").status_code == 200
        yield ana


def explore(client: TestClient, query: str) -> dict[str, object]:
    answer = client.get(f"/api/archive/explorer?{query}")
    assert answer.status_code == 200, answer.text
    data: dict[str, object] = answer.json()
    return data


def test_the_moves_played_from_the_start_and_after_a_line(client: TestClient) -> None:
    start = explore(client, "variant=international")
    assert start["games"] == 4 and start["opening"] == []
    assert start["moves"] == [
        {"move": "32-28", "games": 3, "white": 2, "draws": 0, "black": 1},
        {"move": "33-28", "games": 1, "white": 0, "draws": 0, "black": 1},
    ]
    after = explore(client, "variant=international&opening=1.%2032-28")
    assert after["games"] == 3 and after["opening"] == ["32-28"]
    assert after["moves"] == [
        {"move": "18-23", "games": 2, "white": 1, "draws": 0, "black": 1},
        {"move": "19-23", "games": 1, "white": 1, "draws": 0, "black": 0},
    ]
    deep = explore(client, "variant=international&opening=32-28%2018-23")
    assert deep["games"] == 2 and deep["moves"] == []  # both ended there (resigned)
    assert explore(client, "variant=international&opening=31-27")["games"] == 0


def test_the_archive_s_filters_apply(client: TestClient) -> None:
    bo_white = explore(client, "variant=international&player=Bo&result=win")
    assert bo_white["games"] == 3  # Bo won the second 32-28 18-23, 32-28 19-23 and 33-28
    assert [m["move"] for m in bo_white["moves"]] == ["32-28", "33-28"]  # type: ignore[index, union-attr]
    russian = explore(client, "variant=russian")
    assert russian["games"] == 1 and russian["moves"] == []


def test_refusals(client: TestClient) -> None:
    assert client.get("/api/archive/explorer").status_code == 400  # which variant?
    assert client.get("/api/archive/explorer?variant=nonesuch").status_code in (400, 404)
    long_line = "%20".join(["32-28", "18-23"] * 21)
    answer = client.get(f"/api/archive/explorer?variant=international&opening={long_line}")
    assert answer.status_code == 400 and "40" in answer.json()["detail"]


@pytest.mark.parametrize(
    ("query", "reason"),
    [
        ("variant=international&opening=32-28%00", "is not a move"),
        ("variant=international&opening=%27%3Bdrop", "is not a move"),
        ("variant=international&player=Ana%00", "no player"),
    ],
)
def test_what_is_no_move_or_no_name_is_refused_before_the_database(
    client: TestClient, query: str, reason: str
) -> None:
    for route in ("/api/archive/explorer", "/api/archive"):
        answer = client.get(f"{route}?{query}")
        assert answer.status_code in (400, 404) and reason in answer.json()["detail"]
