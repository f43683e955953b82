"""Refusals in the player's language beyond the games: a tournament's (over HTTP and on its
socket), the archive's and a profile's "no player", the analysis board's, the lobby's modes
of a variant, a stored game whose variant is gone. The English stays as it was; a reason
from the rules kernel stays English inside the translated frame."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from damier.rules import variants
from damier.server import i18n
from tests.server.conftest import AppFactory, FakeTime, another, open_game, sign_in
from tests.tournaments.test_api import create, organiser

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "variants"

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


def test_the_modes_of_a_variant_say_why_in_the_request_language(client: TestClient) -> None:
    """The lobby shows ``/api/modes``' reason as it comes: it is said in the request's
    language, and so is the match's plan."""
    params = {"variant": "radial4"}
    english = client.get("/api/modes", params=params).json()
    refused = {m["mode"]: m for m in english["modes"]}["match"]
    assert not refused["ok"]
    assert refused["reason"] == (
        "a match is for two players: Radial draughts for 4 (octagon, 128 cells) "
        "is a game of 4 players"
    )
    french = client.get("/api/modes", params=params, headers=FRENCH).json()
    assert {m["mode"]: m["reason"] for m in french["modes"]} == {
        "single": "",
        "match": "un match se joue à deux : Dames radiales pour 4 (octogone, 128 cases) "
        "est un jeu à 4 joueurs",
        "losing": "",
    }
    russian = client.get("/api/modes", params=params, headers=RUSSIAN).json()
    assert {m["mode"]: m["reason"] for m in russian["modes"]}["match"] == (
        "матч — для двух игроков: Радиальные шашки на четверых (восьмиугольник, 128 полей)"
        " — игра для 4 игроков"
    )
    plan = client.get("/api/modes", params={"variant": "english"}, headers=RUSSIAN).json()
    assert plan["match"]["opening_games"] == (
        "каждая пара партий с дебюта, вытянутого из колоды, со сменой цвета"
    )


def test_a_game_whose_variant_is_gone_is_refused_in_the_player_language(
    make_app: AppFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "variants"
    folder.mkdir()
    mini = (EXAMPLES / "mini.toml").read_text(encoding="utf-8")
    (folder / "vanished.toml").write_text(mini.replace('name = "mini"', 'name = "vanished"'))
    with TestClient(make_app(variants_dir=folder)) as host:
        sign_in(host, "Ana")
        guest = another(host)
        sign_in(guest, "Bob")
        game = open_game(host, guest, variant="vanished")["id"]
    monkeypatch.delitem(variants._REGISTRY, "vanished")  # the server starts without the folder
    with TestClient(make_app()) as host:
        english = host.get(f"/api/games/{game}")
        assert english.status_code == 409
        assert english.json()["detail"].startswith(
            f"game {game} is played in variant 'vanished', which this server has not loaded"
        )
        french = host.get(f"/api/games/{game}", headers=FRENCH)
        assert french.status_code == 409
        assert french.json()["detail"] == (
            f"la partie {game} se joue dans la variante 'vanished', que ce serveur n'a pas "
            "chargée (son fichier de variante a-t-il été retiré ?) : elle reste en l'état "
            f"jusqu'au retour de la variante ; ses coups sont dans /api/games/{game}/pdn"
        )
        host.cookies.set(i18n.COOKIE, "ru")
        russian = host.get(f"/api/games/{game}")
        assert russian.json()["detail"].startswith(
            f"партия {game} играется в варианте 'vanished', который этот сервер не загрузил"
        )
