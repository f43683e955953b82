"""Refusals in the player's language beyond the games: a tournament's (over HTTP and on its
socket), the archive's and a profile's "no player", the analysis board's. The English stays
as it was; a reason from the rules kernel stays English inside the translated frame."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from damier.server import i18n
from tests.server.conftest import AppFactory, FakeTime, another, sign_in
from tests.tournaments.test_api import create, organiser

FRENCH = {"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}
RUSSIAN = {"Accept-Language": "ru-RU,ru;q=0.9"}


def test_tournament_refusals_in_french_and_russian(make_app: AppFactory) -> None:
    with TestClient(make_app(now=FakeTime())) as host:
        organiser(host)
        body = {"name": "Cup", "variant": "russian", "clock": "", "system": "round-robin"}
        english = host.post("/api/tournaments", json=body)
        assert english.status_code == 400
        assert english.json()["detail"] == (
            "a tournament needs a clock: a player who leaves loses on time"
        )
        french = host.post("/api/tournaments", json=body, headers=FRENCH)
        assert french.status_code == 400
        assert french.json()["detail"] == (
            "un tournoi demande une pendule : un joueur qui part perd au temps"
        )
        russian = host.post("/api/tournaments", json=body, headers=RUSSIAN)
        assert (
            russian.json()["detail"] == "турниру нужны часы: ушедший игрок проигрывает по времени"
        )
        arena = host.post(
            "/api/tournaments", json={**body, "clock": "3+2", "system": "arena"}, headers=FRENCH
        )
        assert arena.json()["detail"] == "une arène demande sa durée en minutes"

        tournament = create(host, system="round-robin", password="sesame")["id"]
        guest = another(host)
        sign_in(guest, "Gus")
        locked = guest.post(f"/api/tournaments/{tournament}/join", headers=FRENCH)
        assert locked.status_code == 403
        assert locked.json()["detail"] == "ce tournoi demande son mot de passe pour s'inscrire"
        guest.cookies.set(i18n.COOKIE, "ru")  # the picker's choice wins over the header
        locked = guest.post(f"/api/tournaments/{tournament}/join", headers=FRENCH)
        assert locked.json()["detail"] == "для записи на этот турнир нужен пароль"
        berserk = guest.post(f"/api/tournaments/{tournament}/berserk", json={"on": True})
        assert berserk.status_code == 400
        assert berserk.json()["detail"] == "берсерк — только на арене"
        unknown = guest.get("/api/tournaments/nope")
        assert unknown.status_code == 404
        assert unknown.json()["detail"] == "нет турнира 'nope'"
        assert host.get("/api/tournaments/nope").json()["detail"] == "no tournament 'nope'"


def test_the_tournament_socket_says_its_errors_in_the_page_language(
    make_app: AppFactory,
) -> None:
    with TestClient(make_app(now=FakeTime())) as host:
        organiser(host)
        tournament = create(host, system="swiss", rounds=3)["id"]
        url = f"/ws/tournaments/{tournament}"
        with host.websocket_connect(url, headers=FRENCH) as socket:
            socket.send_text("x" * 5000)
            assert socket.receive_json() == {
                "type": "error",
                "message": "message trop long (plus de 4096 octets)",
            }


def test_no_player_in_the_archive_and_the_profiles(client: TestClient) -> None:
    archive = client.get("/api/archive?player=Nobody", headers={"Accept-Language": "es"})
    assert archive.status_code == 404
    assert archive.json()["detail"] == "no existe el jugador 'Nobody'"
    profile = client.get("/api/profiles/Nobody", headers={"Accept-Language": "tr-TR"})
    assert profile.status_code == 404
    assert profile.json()["detail"] == "'Nobody' adlı oyuncu yok"
    assert client.get("/api/profiles/Nobody").json()["detail"] == "no player 'Nobody'"
    whose = client.get("/api/archive?result=win", headers={"Accept-Language": "de, nl;q=0.8"})
    assert whose.status_code == 400
    assert whose.json()["detail"] == "result=win hoort bij een speler: zeg welke (player)"


def test_an_analysis_refusal_keeps_the_kernel_reason_inside_the_translation(
    client: TestClient,
) -> None:
    line = {"variant": "russian", "moves": ["c3-d4", "c3-d4"]}
    english = client.post("/api/analysis/position", json=line).json()["detail"]
    assert english.startswith("move 2 (c3-d4): ")
    reason = english.removeprefix("move 2 (c3-d4): ")
    italian = client.post("/api/analysis/position", json=line, headers={"Accept-Language": "it"})
    assert italian.json()["detail"] == f"mossa 2 (c3-d4): {reason}"
    with client.websocket_connect("/ws/analysis", headers=RUSSIAN) as socket:
        socket.send_json({"type": "start", "variant": "russian", "lines": 99})
        assert socket.receive_json() == {
            "type": "error",
            "message": '"lines" должно быть от 1 до 5',
        }


@pytest.mark.parametrize(
    ("players", "russian"),
    [
        (1, "турнир заполнен (1 игрок)"),
        (22, "турнир заполнен (22 игрока)"),
        (100, "турнир заполнен (100 игроков)"),
    ],
)
def test_a_count_in_a_refusal_takes_the_language_plural(players: int, russian: str) -> None:
    full = i18n.tr_n(
        "the tournament is full ({n} player)", "the tournament is full ({n} players)", players
    )
    assert i18n.localize(full, "ru") == russian
    assert i18n.localize(full, "en") == str(full)
    assert str(full).startswith("the tournament is full (")
