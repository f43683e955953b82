"""A tournament as it goes: its socket's notices, who is playing now, a withdrawal in the
middle of a round."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from tests.server.conftest import REDIS_URL, AppFactory, FakeTime
from tests.tournaments.test_api import create, enter, organiser, play, state, wait_round


def next_frame(socket: WebSocketTestSession, kind: str) -> dict[str, Any]:
    """The next frame of ``kind`` (the clock task may move the tournament on too, and
    announce it again)."""
    for _ in range(20):
        frame: dict[str, Any] = socket.receive_json()
        if frame["type"] == kind:
            return frame
    raise AssertionError(f"no {kind} frame")


def test_the_tournament_socket_tells_each_change(make_app: AppFactory) -> None:
    clock = FakeTime()
    with TestClient(make_app(now=clock)) as host:
        organiser(host)
        created = create(host, system="round-robin")
        with host.websocket_connect(f"/ws/tournaments/{created['id']}") as socket:
            enter(host, created["id"], ["Ana"])
            assert next_frame(socket, "tournament") == {
                "type": "tournament",
                "id": created["id"],
                "status": "coming",
                "round": 0,
                "players": 1,
                "server_time": clock(),
            }
            enter(host, created["id"], ["Bob"])
            assert next_frame(socket, "tournament")["players"] == 2
            clock.advance(61)
            state(host, created["id"])  # read: it starts, round 1 is paired
            started = next_frame(socket, "tournament")
            assert (started["status"], started["round"]) == ("playing", 1)
            socket.send_json({"type": "ping"})
            assert next_frame(socket, "pong") == {"type": "pong"}
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            host.websocket_connect("/ws/tournaments/nothing"),
        ):
            pass
        assert refused.value.code == 4404


@pytest.mark.skipif(REDIS_URL is None, reason="the rooms of two servers meet in Redis")
def test_a_change_on_one_server_reaches_the_sockets_of_another(make_app: AppFactory) -> None:
    clock = FakeTime()
    with TestClient(make_app(now=clock)) as one, TestClient(make_app(now=clock)) as two:
        organiser(one)
        created = create(one, system="swiss", rounds=3)
        with two.websocket_connect(f"/ws/tournaments/{created['id']}") as socket:
            enter(one, created["id"], ["Ana"])  # joins through the first server
            notice = next_frame(socket, "tournament")
            assert (notice["id"], notice["players"]) == (created["id"], 1)


def test_who_is_playing_now_counts_the_tournament_games(make_app: AppFactory) -> None:
    clock = FakeTime()
    with TestClient(make_app(now=clock)) as host:
        organiser(host)
        created = create(host, system="round-robin")
        enter(host, created["id"], ["Ana", "Bob", "Cid", "Dan"])
        clock.advance(61)
        tournament = state(host, created["id"])
        games = {b["games"][0]["game"] for b in tournament["pairings"][0]["boards"]}
        assert len(games) == 2
        (group,) = host.get("/api/now", params={"variant": "russian"}).json()["groups"]
        assert group["playing"] == 2
        assert {entry["game"] for entry in group["live"]} == games
        assert all(len(entry["players"]) == 2 for entry in group["live"])


def test_a_withdrawal_mid_round_leaves_the_other_results_intact(make_app: AppFactory) -> None:
    clock = FakeTime()
    with TestClient(make_app(now=clock)) as host:
        organiser(host)
        created = create(host, system="round-robin")
        tid = created["id"]
        players = enter(host, tid, ["Ana", "Bob", "Cid", "Dan"])
        ana, bob, cid, dan = players
        clock.advance(61)
        first = state(host, tid)["pairings"][0]["boards"]  # Ana-Dan, Bob-Cid
        play(players, first[0]["games"][0]["game"], "white")  # Ana beats Dan
        wait_round_scored = state(host, tid)
        assert wait_round_scored["round"] == 1
        left = players[cid].post(f"/api/tournaments/{tid}/withdraw")
        assert left.status_code == 200, left.text
        # Cid's game goes on: a withdrawal pairs him no more, it scores nothing itself.
        play(players, first[1]["games"][0]["game"], "draw")
        tournament = wait_round(host, tid, 1)
        one = tournament["pairings"][0]["boards"]
        assert [(b["white_points"], b["black_points"]) for b in one] == [(1.0, 0.0), (0.5, 0.5)]
        two = {b["white"]["id"]: b for b in tournament["pairings"][1]["boards"]}
        # Berger round 2 of four: 4-3 (Dan-Cid: Dan wins by default), 1-2 (played).
        assert two[dan]["kind"] == "default" and two[dan]["black"]["id"] == cid
        assert (two[dan]["white_points"], two[dan]["black_points"]) == (1.0, 0.0)
        assert two[ana]["kind"] == "game" and two[ana]["black"]["id"] == bob
        by = {line["id"]: line for line in tournament["standings"]}
        assert by[cid]["withdrawn"] and by[cid]["score"] == 0.5 and by[cid]["games"] == 1
        assert (by[ana]["score"], by[dan]["score"], by[bob]["score"]) == (1.0, 1.0, 0.5)
        assert by[dan]["games"] == 1  # the default is no game


def test_an_arena_player_who_pauses_is_not_paired_until_he_resumes(
    make_app: AppFactory,
) -> None:
    clock = FakeTime()
    with TestClient(make_app(now=clock)) as host:
        organiser(host)
        created = create(host, system="arena", minutes=10)
        tid = created["id"]
        players = enter(host, tid, ["Ana", "Bob"])
        ana, bob = players
        early = players[ana].post(f"/api/tournaments/{tid}/pause", json={"on": True})
        assert early.status_code == 409  # before the start: he may withdraw
        clock.advance(61)
        tournament = state(host, tid)
        (board,) = tournament["pairings"][0]["boards"]
        paused = players[ana].post(f"/api/tournaments/{tid}/pause", json={"on": True}).json()
        assert paused["you"]["paused"] and paused["you"]["game"] == board["games"][0]["game"]
        play(players, board["games"][0]["game"], "draw")  # his game goes on to its end
        for _ in range(3):  # the clock task and the reads find nobody to pair
            tournament = state(players[bob], tid)
        assert len(tournament["pairings"]) == 1
        assert tournament["you"]["game"] is None
        by = {line["id"]: line for line in tournament["standings"]}
        assert by[ana]["score"] == 1 and by[ana]["withdrawn"]  # his points stay
        resumed = players[ana].post(f"/api/tournaments/{tid}/pause", json={"on": False}).json()
        assert not resumed["you"]["paused"] and len(resumed["pairings"]) == 2
        assert resumed["you"]["game"] is not None  # paired at once
        wrong = create(host, system="swiss", rounds=3)
        answer = host.post(f"/api/tournaments/{wrong['id']}/pause", json={"on": True})
        assert answer.status_code == 400 and "arenas" in answer.json()["detail"]
