"""Matches through the API (RULES.md decision 4): the Spanish match, the other variants'
matches, resignations, flag falls, a player who leaves, a restart, ratings, the PDN, and
what the lobby asks (the modes of a variant, who is playing now)."""

from __future__ import annotations

import re
from pathlib import Path
from time import sleep
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damier.match import OpeningDeck
from tests.server.conftest import AppFactory, FakeTime, another, sign_in, wait_for

SPANISH_DECK = set(OpeningDeck.builtin("spanish-2move").openings)


def new_match(host: TestClient, guest: TestClient, **body: Any) -> dict[str, Any]:
    """A match created by ``host`` (White in game 1 unless told) and joined by ``guest``."""
    settings = {"variant": "spanish", "opponent": "open", "color": "white", "clock": "5+3"}
    created = host.post("/api/matches", json={**settings, **body})
    assert created.status_code == 201, created.text
    assert created.json()["status"] == "open"
    joined = guest.post(f"/api/matches/{created.json()['id']}/join")
    assert joined.status_code == 200, joined.text
    match: dict[str, Any] = joined.json()
    assert match["status"] == "playing" and match["current"] is not None
    return match


def game_of(client: TestClient, match: dict[str, Any]) -> dict[str, Any]:
    state: dict[str, Any] = client.get(f"/api/games/{match['current']}").json()
    return state


def finish(players: dict[str, TestClient], match: dict[str, Any], outcome: str) -> dict[str, Any]:
    """End the current game: ``outcome`` is the name of the winner, or ``draw``; answers
    the match once it has scored the game."""
    game_id = match["current"]
    state = game_of(next(iter(players.values())), match)
    white, black = state["white"]["name"], state["black"]["name"]
    if outcome == "draw":
        assert (
            players[white].post(f"/api/games/{game_id}/draw", json={"action": "offer"}).is_success
        )
        assert (
            players[black].post(f"/api/games/{game_id}/draw", json={"action": "accept"}).is_success
        )
    else:
        loser = black if outcome == white else white
        assert players[loser].post(f"/api/games/{game_id}/resign").is_success
    answer = players[white].get(f"/api/matches/{match['id']}")
    result: dict[str, Any] = answer.json()
    return result


def both_ready(players: dict[str, TestClient], match: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = {}
    for client in players.values():
        reply = client.post(f"/api/matches/{match['id']}/ready")
        assert reply.status_code == 200, reply.text
        answer = reply.json()
    assert answer["current"] is not None
    return answer


@pytest.fixture
def pair(client: TestClient) -> dict[str, TestClient]:
    sign_in(client, "Ana")
    bob = another(client)
    sign_in(bob, "Bob")
    return {"Ana": client, "Bob": bob}


def colours(client: TestClient, match: dict[str, Any]) -> tuple[str, str]:
    state = game_of(client, match)
    return state["white"]["name"], state["black"]["name"]


def test_a_spanish_match_ends_after_three_games_at_two_and_a_half(
    pair: dict[str, TestClient],
) -> None:
    ana = pair["Ana"]
    match = new_match(ana, pair["Bob"])
    assert match["games"] == 4 and match["deck"] == "spanish-2move"
    assert colours(ana, match) == ("Ana", "Bob")
    assert game_of(ana, match)["ply"] == 0  # games 1 and 2 start from the start
    match = finish(pair, match, "Ana")
    assert [p["score"] for p in match["players"]] == [1.0, 0.0]
    coming = match["rounds"][-1]
    assert coming["number"] == 2 and coming["game"] is None and coming["white"] == 1
    assert match["current"] is None and match["next_at"] is not None
    match = both_ready(pair, match)
    assert colours(ana, match) == ("Bob", "Ana")
    assert game_of(ana, match)["ply"] == 0
    match = finish(pair, match, "Ana")
    match = both_ready(pair, match)
    assert colours(ana, match) == ("Ana", "Bob")
    match = finish(pair, match, "draw")
    assert match["status"] == "finished"
    assert [p["score"] for p in match["players"]] == [2.5, 0.5]
    assert match["winner"] == 0
    assert len(match["rounds"]) == 3  # the fourth game is not played
    assert [r["points"] for r in match["rounds"]] == [[1.0, 0.0], [1.0, 0.0], [0.5, 0.5]]
    refused = ana.post(f"/api/matches/{match['id']}/ready")
    assert refused.status_code == 409


def test_a_spanish_match_at_two_one_goes_to_game_four_from_game_three_opening(
    pair: dict[str, TestClient],
) -> None:
    ana = pair["Ana"]
    match = new_match(ana, pair["Bob"])
    match = finish(pair, match, "Ana")
    match = both_ready(pair, match)
    match = finish(pair, match, "Bob")
    opening = match["rounds"][2]["opening"]
    assert tuple(opening) in SPANISH_DECK  # drawn as game 2 ended, shown before game 3
    match = both_ready(pair, match)
    third = game_of(ana, match)
    assert (third["white"]["name"], third["black"]["name"]) == ("Ana", "Bob")
    assert [m["notation"] for m in third["moves"]] == opening
    match = finish(pair, match, "Ana")
    assert match["status"] == "playing"
    assert [p["score"] for p in match["players"]] == [2.0, 1.0]
    assert match["rounds"][3]["opening"] == opening and match["rounds"][3]["white"] == 1
    match = both_ready(pair, match)
    fourth = game_of(ana, match)
    assert (fourth["white"]["name"], fourth["black"]["name"]) == ("Bob", "Ana")
    assert [m["notation"] for m in fourth["moves"]] == opening
    match = finish(pair, match, "Bob")
    assert match["status"] == "finished"
    assert [p["score"] for p in match["players"]] == [2.0, 2.0]
    assert match["winner"] is None

    pdn = ana.get(f"/api/matches/{match['id']}/pdn")
    assert pdn.status_code == 200
    assert re.findall(r'\[Round "(\d)"\]', pdn.text) == ["1", "2", "3", "4"]
    assert pdn.text.count(f'[Opening "{" ".join(opening)}"]') == 2
    assert pdn.text.count("[Result ") == 4


def test_a_flag_fall_inside_a_match_loses_the_game_and_the_match_goes_on(
    make_app: AppFactory,
) -> None:
    time = FakeTime()
    with TestClient(make_app(now=time)) as client:
        sign_in(client, "Ana")
        bob = another(client)
        sign_in(bob, "Bob")
        match = new_match(client, bob, variant="czech", games=2, clock="1+0")
        game_id = match["current"]
        aborted = client.post(f"/api/games/{game_id}/abort")  # a match game must be played
        assert aborted.status_code == 409 and "cannot be aborted" in aborted.text
        time.advance(61)  # White (Ana) never moves: her first move is late, the game lost
        state = wait_for(client, game_id, lambda s: s["status"] == "finished")
        assert state["result"]["winner"] == "black" and "time" in state["result"]["reason"]
        match = client.get(f"/api/matches/{match['id']}").json()
        assert [p["score"] for p in match["players"]] == [0.0, 1.0]
        assert match["status"] == "playing" and match["rounds"][1]["white"] == 1


def test_a_player_who_leaves_loses_his_games_on_time_and_the_match_ends(
    make_app: AppFactory,
) -> None:
    time = FakeTime()
    with TestClient(make_app(now=time, match_pause=20)) as client:
        sign_in(client, "Ana")
        bob = another(client)
        sign_in(bob, "Bob")
        match = new_match(client, bob, variant="czech", games=2, clock="1+0")
        first = match["current"]
        state = game_of(client, match)
        move = state["legal_moves"][0]["notation"]
        assert client.post(f"/api/games/{first}/moves", json={"move": move, "ply": 0}).is_success
        time.advance(61)  # Bob has left: his flag falls
        wait_for(client, first, lambda s: s["status"] == "finished")
        match = client.get(f"/api/matches/{match['id']}").json()
        assert match["current"] is None
        client.post(f"/api/matches/{match['id']}/ready")  # Bob never says he is ready
        time.advance(20)  # the pause is over: the next game starts without him
        match = _wait_match(client, match["id"], lambda m: m["current"] is not None)
        second = match["current"]
        assert colours(client, match) == ("Bob", "Ana")
        time.advance(61)
        wait_for(client, second, lambda s: s["status"] == "finished")
        match = _wait_match(client, match["id"], lambda m: m["status"] == "finished")
        assert [p["score"] for p in match["players"]] == [2.0, 0.0]


def _wait_match(client: TestClient, match_id: str, condition: Any) -> dict[str, Any]:
    for _ in range(600):
        match: dict[str, Any] = client.get(f"/api/matches/{match_id}").json()
        if condition(match):
            return match
        sleep(0.05)
    raise AssertionError(f"timed out; last state: {match}")


def test_a_match_survives_a_restart_with_its_score_and_next_game(
    make_app: AppFactory, database: Path
) -> None:
    with TestClient(make_app()) as client:
        sign_in(client, "Ana")
        bob = another(client)
        sign_in(bob, "Bob")
        pair = {"Ana": client, "Bob": bob}
        match = new_match(client, bob)
        match = finish(pair, match, "Bob")
        match = both_ready(pair, match)
        match = finish(pair, match, "draw")
        cookies = {name: dict(c.cookies) for name, c in pair.items()}
        before = match
    assert before["rounds"][2]["opening"]
    with TestClient(make_app()) as client:
        client.cookies.update(cookies["Ana"])
        bob = another(client)
        bob.cookies.update(cookies["Bob"])
        again = client.get(f"/api/matches/{before['id']}").json()
        assert again["you"] == 0
        assert [p["score"] for p in again["players"]] == [0.5, 1.5]
        assert again["rounds"] == before["rounds"]
        assert again["next_at"] == before["next_at"]
        match = both_ready({"Ana": client, "Bob": bob}, again)
        third = game_of(client, match)
        assert [m["notation"] for m in third["moves"]] == before["rounds"][2]["opening"]
        assert (third["white"]["name"], third["black"]["name"]) == ("Ana", "Bob")


def test_a_match_against_the_computer_starts_when_the_player_is_ready(
    make_app: AppFactory,
) -> None:
    # The server's clock stands still, so that the pause before the next game (30 s) cannot
    # run out between the resignation and the look at the match, however slow the machine.
    with TestClient(make_app(now=FakeTime())) as client:
        _play_a_match_against_the_computer(client)


def _play_a_match_against_the_computer(client: TestClient) -> None:
    sign_in(client, "Ana")
    created = client.post(
        "/api/matches",
        json={
            "variant": "international",
            "games": 2,
            "opponent": "computer",
            "level": 1,
            "color": "black",
            "clock": None,
        },
    )
    assert created.status_code == 201, created.text
    match = created.json()
    assert match["status"] == "playing" and match["deck"] == "international-2move"
    assert match["players"][1]["id"] is not None and match["players"][0]["kind"] == "computer"
    opening = match["rounds"][0]["opening"]
    assert tuple(opening) in set(OpeningDeck.builtin("international-2move").openings)
    first = match["current"]
    assert client.post(f"/api/games/{first}/resign").is_success
    match = client.get(f"/api/matches/{match['id']}").json()
    assert match["players"][0]["ready"] is True and match["players"][1]["ready"] is False
    match = client.post(f"/api/matches/{match['id']}/ready").json()
    second = game_of(client, match)
    assert second["white"]["name"] == "Ana"
    assert [m["notation"] for m in second["moves"]][:2] == opening


def test_match_games_between_registered_players_are_rated(pair: dict[str, TestClient]) -> None:
    ids = {}
    for name, client in pair.items():
        answer = client.post("/api/register", json={"name": name, "password": "secret-words"})
        assert answer.status_code == 200, answer.text
        ids[name] = answer.json()["id"]
    match = new_match(pair["Ana"], pair["Bob"], variant="russian", games=2)
    match = finish(pair, match, "Ana")
    match = both_ready(pair, match)
    finish(pair, match, "Ana")
    profile = pair["Ana"].get(f"/api/players/{ids['Ana']}").json()
    assert [(r["variant"], r["games"]) for r in profile["ratings"]] == [("russian", 2)]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"variant": "spanish", "games": 6}, "the Spanish match has 4 games"),
        ({"variant": "russian", "games": 3}, "2, 4 or 6 games"),
        ({"variant": "radial4"}, "a match is for two players"),
        ({"variant": "tripad+teams"}, "has no option 'teams'"),
        ({"variant": "russian", "clock": None}, "needs a clock"),
    ],
)
def test_refused_matches_say_why(client: TestClient, body: dict[str, Any], message: str) -> None:
    sign_in(client, "Ana")
    answer = client.post("/api/matches", json={"opponent": "open", **body})
    assert answer.status_code == 400
    assert message in answer.json()["detail"]


def test_the_modes_of_a_variant(client: TestClient) -> None:
    spanish = client.get("/api/modes", params={"variant": "spanish"}).json()
    modes = {m["mode"]: m for m in spanish["modes"]}
    assert all(m["ok"] for m in modes.values())
    assert modes["losing"]["variant"] == "spanish-giveaway"
    assert spanish["match"]["games"] == [4] and spanish["match"]["deck"] == "spanish-2move"
    english = client.get("/api/modes", params={"variant": "english"}).json()
    assert english["match"] == {
        "games": [2, 4, 6],
        "deck": "english-3move",
        "opening_games": english["match"]["opening_games"],
    }
    radial = client.get("/api/modes", params={"variant": "radial4+teams"}).json()
    modes = {m["mode"]: m for m in radial["modes"]}
    assert not modes["match"]["ok"] and "two players" in modes["match"]["reason"]
    assert modes["losing"] == {
        "mode": "losing",
        "ok": True,
        "reason": "",
        "variant": "radial4+teams-giveaway",
    }
    refused = client.get(
        "/api/modes", params={"variant": "radial4+dead-pieces+pieces-to-eliminator"}
    )
    assert refused.status_code == 400 and "cannot be combined" in refused.json()["detail"]


def test_a_losing_game_of_an_option_variant_survives_a_restart(make_app: AppFactory) -> None:
    with TestClient(make_app()) as client:
        sign_in(client, "Ana")
        created = client.post(
            "/api/games",
            json={"variant": "italian+dark-first-giveaway", "opponent": "open", "color": "white"},
        )
        assert created.status_code == 201, created.text
        game = created.json()
        assert game["variant"] == "italian+dark-first-giveaway" and game["turn"] == "black"
        listed = client.get("/api/games", params={"status": "open"}).json()
        assert [g["mode"] for g in listed] == ["losing"]
    with TestClient(make_app()) as client:
        again = client.get(f"/api/games/{game['id']}")
        assert again.status_code == 200 and again.json()["fen"] == game["fen"]


def test_who_is_playing_now(pair: dict[str, TestClient]) -> None:
    ana, bob = pair["Ana"], pair["Bob"]
    match = new_match(ana, bob)
    waiting = ana.post(
        "/api/matches", json={"variant": "russian", "opponent": "open", "clock": "3+2"}
    ).json()
    ana.post("/api/games", json={"variant": "spanish-giveaway", "opponent": "open"})
    single = ana.post("/api/games", json={"variant": "spanish", "opponent": "open"}).json()
    bob.post(f"/api/games/{single['id']}/join")
    now = ana.get("/api/now").json()["groups"]
    table = {(g["variant"], g["mode"]): g for g in now}
    assert set(table) == {
        ("russian", "match"),
        ("spanish", "match"),
        ("spanish", "single"),
        ("spanish-giveaway", "losing"),
    }
    spanish_match = table[("spanish", "match")]
    assert spanish_match["playing"] == 1 and spanish_match["waiting"] == []
    assert spanish_match["live"] == [
        {
            "kind": "match",
            "id": match["id"],
            "game": match["current"],
            "players": ["Ana", "Bob"],
            "guests": [True, True],
            "score": [0.0, 0.0],
        }
    ]
    assert table[("russian", "match")]["waiting"][0] | {"id": None} == {
        "kind": "match",
        "id": None,
        "name": "Ana",
        "guest": True,
        "clock": "3+2",
        "games": 4,
        "seats": 1,
    }
    assert table[("spanish", "single")]["live"][0]["id"] == single["id"]
    assert table[("spanish-giveaway", "losing")]["waiting"][0]["name"] == "Ana"
    assert waiting["status"] == "open"
    filtered = ana.get("/api/now", params={"variant": "spanish", "mode": "losing"}).json()
    assert [(g["variant"], g["mode"]) for g in filtered["groups"]] == [
        ("spanish-giveaway", "losing")
    ]
    spanish = ana.get("/api/now", params={"variant": "spanish"}).json()["groups"]
    assert {g["mode"] for g in spanish} == {"single", "match", "losing"}


@pytest.mark.parametrize("level", range(1, 11))
def test_the_computer_plays_the_losing_game_at_every_level(client: TestClient, level: int) -> None:
    sign_in(client, "Ana")
    created = client.post(
        "/api/games",
        json={
            "variant": "spanish-giveaway",
            "opponent": "computer",
            "level": level,
            "color": "black",
        },
    )
    assert created.status_code == 201, created.text
    state = wait_for(client, created.json()["id"], lambda s: s["ply"] == 1)
    assert state["turn"] == "black" and state["variant"] == "spanish-giveaway"


def test_the_computer_plays_a_losing_game_of_more_players(client: TestClient) -> None:
    sign_in(client, "Ana")
    seats = [
        {"kind": "computer", "level": 2},
        {"kind": "you"},
        {"kind": "computer", "level": 5},
        {"kind": "computer", "level": 9},
    ]
    created = client.post("/api/games", json={"variant": "radial4+teams-giveaway", "seats": seats})
    assert created.status_code == 201, created.text
    state = wait_for(client, created.json()["id"], lambda s: s["ply"] == 1)
    assert state["turn"] == "black"
    assert client.get("/api/games", params={"status": "playing"}).json()[0]["mode"] == "losing"
