"""The game table: clocks that start with the first moves, abort, takebacks, the claim
when the opponent has gone, and the chat."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from tests.server.conftest import (
    AppFactory,
    FakeTime,
    another,
    open_game,
    receive,
    sign_in,
    wait_for,
)


def _move(player: TestClient, state: dict[str, Any], index: int = 0) -> dict[str, Any]:
    move = state["legal_moves"][index]["notation"]
    answer = player.post(
        f"/api/games/{state['id']}/moves", json={"move": move, "ply": state["ply"]}
    )
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def _players(client: TestClient) -> tuple[TestClient, TestClient]:
    sign_in(client, "Ana")
    bob = another(client)
    sign_in(bob, "Bob")
    return client, bob


def test_no_clock_runs_before_each_side_has_moved(make_app: AppFactory) -> None:
    time = FakeTime()
    with TestClient(make_app(now=time, clock_tick=3600)) as client:
        ana, bob = _players(client)
        state = open_game(ana, bob, clock="1")
        assert state["clock"]["running"] is None
        time.advance(20)
        state = _move(ana, state)
        assert state["clock"] == {"control": "1", "white": 60.0, "black": 60.0, "running": None}
        time.advance(20)
        state = _move(bob, state)
        assert state["clock"]["running"] == "white"
        assert state["clock"]["black"] == 60.0
        assert state["first_move_deadline"] is None
        time.advance(5)
        later = ana.get(f"/api/games/{state['id']}").json()
        assert later["clock"]["white"] == 55.0


def test_a_first_move_too_late_aborts_the_game(make_app: AppFactory) -> None:
    time = FakeTime()
    with TestClient(make_app(now=time, clock_tick=0.05)) as client:
        ana, bob = _players(client)
        state = open_game(ana, bob, clock="5+3")
        time.advance(20)
        state = _move(ana, state)
        assert state["first_move_deadline"] == time() + 30
        time.advance(31)  # Black does not answer: the periodic check aborts
        ended = wait_for(ana, state["id"], lambda s: s["status"] == "finished")
        assert ended["result"] == {"pdn": "*", "winner": None, "reason": "aborted"}
        assert ended["clock"]["running"] is None


def test_either_player_may_abort_until_both_have_moved(make_app: AppFactory) -> None:
    with TestClient(make_app(clock_tick=3600)) as client:
        ana, bob = _players(client)
        state = open_game(ana, bob)
        assert client.post(f"/api/games/{state['id']}/abort").status_code == 200
        aborted = bob.get(f"/api/games/{state['id']}").json()
        assert aborted["result"]["reason"] == "aborted"
        assert aborted["result"]["pdn"] == "*"

        state = _move(ana, open_game(ana, bob))
        answer = bob.post(f"/api/games/{state['id']}/abort")  # Black has not moved yet
        assert answer.status_code == 200, answer.text
        assert answer.json()["status"] == "finished"

        state = _move(bob, _move(ana, open_game(ana, bob)))
        answer = ana.post(f"/api/games/{state['id']}/abort")
        assert answer.status_code == 409
        assert "too late" in answer.json()["detail"]
        spectator = TestClient(client.app)
        spectator.portal = client.portal
        assert spectator.post(f"/api/games/{state['id']}/abort").status_code == 403


def test_an_offer_nobody_took_is_withdrawn_by_its_maker_only(make_app: AppFactory) -> None:
    with TestClient(make_app(clock_tick=3600)) as client:
        ana, bob = _players(client)
        created = ana.post(
            "/api/games", json={"variant": "russian", "opponent": "open", "clock": "5+3"}
        ).json()
        game_id = created["id"]
        assert bob.post(f"/api/games/{game_id}/abort").status_code == 403  # not his game
        assert [g["id"] for g in bob.get("/api/games?status=open").json()] == [game_id]
        answer = ana.post(f"/api/games/{game_id}/abort")
        assert answer.status_code == 200, answer.text
        assert answer.json()["status"] == "finished"
        assert answer.json()["result"] == {"pdn": "*", "winner": None, "reason": "aborted"}
        assert bob.get("/api/games?status=open").json() == []  # gone from the lobby
        joined = bob.post(f"/api/games/{game_id}/join")
        assert joined.status_code == 409 and joined.json()["detail"] == "the game is over"


def test_an_offer_nobody_takes_leaves_the_lobby_after_a_day(make_app: AppFactory) -> None:
    time = FakeTime()
    with TestClient(make_app(now=time, clock_tick=0.05)) as client:
        ana, bob = _players(client)
        offer = {"variant": "russian", "opponent": "open", "clock": "5+3"}
        old = ana.post("/api/games", json=offer).json()["id"]
        time.advance(23 * 3600)
        young = bob.post("/api/games", json=offer).json()["id"]
        time.advance(3600 + 1)  # the first is a day old, the second an hour
        ended = wait_for(ana, old, lambda s: s["status"] == "finished")
        assert ended["result"] == {"pdn": "*", "winner": None, "reason": "aborted"}
        assert [g["id"] for g in ana.get("/api/games?status=open").json()] == [young]


def test_an_aborted_rated_game_is_not_rated(make_app: AppFactory) -> None:
    with TestClient(make_app(clock_tick=3600)) as client:
        ana = client
        bob = another(client)
        for player, name in ((ana, "Ana"), (bob, "Bob")):
            answer = player.post("/api/register", json={"name": name, "password": "secret-pass"})
            assert answer.status_code == 200, answer.text
        state = _move(ana, open_game(ana, bob))
        ended = bob.post(f"/api/games/{state['id']}/abort").json()
        assert ended["result"]["reason"] == "aborted"
        profile = ana.get(f"/api/players/{ended['white']['id']}").json()
        assert profile["ratings"] == []


def test_takeback_accepted_and_declined(make_app: AppFactory) -> None:
    time = FakeTime()
    with TestClient(make_app(now=time, clock_tick=3600)) as client:
        ana, bob = _players(client)
        states = [open_game(ana, bob, clock="5+0")]
        for player in (ana, bob, ana, bob):
            states.append(_move(player, states[-1]))
        state = states[-1]
        url = f"/api/games/{state['id']}/takeback"
        assert ana.post(url, json={"action": "accept"}).status_code == 409  # nothing asked
        time.advance(10)
        asked = bob.post(url, json={"action": "propose"}).json()
        assert asked["takeback_offer"] == "black"
        declined = ana.post(url, json={"action": "decline"}).json()
        assert declined["takeback_offer"] is None
        assert declined["ply"] == 4

        # White asks on her own turn: her move and Black's answer go back.
        asked = ana.post(url, json={"action": "propose"})
        assert asked.status_code == 200
        clock_before = asked.json()["clock"]
        taken = bob.post(url, json={"action": "accept"}).json()
        assert taken["ply"] == 2
        assert taken["turn"] == "white"
        assert taken["moves"] == states[2]["moves"]
        assert taken["fen"] == states[2]["fen"]
        assert taken["clock"]["running"] == "white"
        assert taken["clock"]["white"] == clock_before["white"]  # no time given back
        time.advance(7)
        again = _move(ana, taken, index=-1)
        assert again["ply"] == 3
        assert again["clock"]["white"] == clock_before["white"] - 7


def test_a_move_withdraws_the_takeback_request(make_app: AppFactory) -> None:
    with TestClient(make_app(clock_tick=3600)) as client:
        ana, bob = _players(client)
        state = _move(bob, _move(ana, open_game(ana, bob)))
        url = f"/api/games/{state['id']}/takeback"
        assert bob.post(url, json={"action": "propose"}).json()["takeback_offer"] == "black"
        moved = _move(ana, state)
        assert moved["takeback_offer"] is None
        assert bob.post(url, json={"action": "accept"}).status_code == 409


def test_takebacks_can_be_off_in_rated_games(make_app: AppFactory) -> None:
    with TestClient(make_app(clock_tick=3600)) as client:
        ana, bob = client, another(client)
        for player, name in ((ana, "Ana"), (bob, "Bob")):
            assert player.post("/api/register", json={"name": name, "password": "pass-1234"})
        created = ana.post(
            "/api/games",
            json={"variant": "russian", "opponent": "open", "color": "white", "takebacks": False},
        ).json()
        assert created["takebacks"] is False
        state = bob.post(f"/api/games/{created['id']}/join").json()
        state = _move(ana, state)
        answer = ana.post(f"/api/games/{state['id']}/takeback", json={"action": "propose"})
        assert answer.status_code == 409
        assert "rated" in answer.json()["detail"]


def test_the_computer_grants_a_takeback(client: TestClient) -> None:
    sign_in(client, "Ana")
    state = client.post(
        "/api/games",
        json={"variant": "russian", "opponent": "computer", "level": 1, "color": "white"},
    ).json()
    url = f"/api/games/{state['id']}/takeback"
    assert client.post(url, json={"action": "propose"}).status_code == 409  # nothing to undo
    state = _move(client, state)
    replied = wait_for(client, state["id"], lambda s: s["ply"] == 2)
    taken = client.post(url, json={"action": "propose"}).json()
    assert taken["ply"] == 0
    assert taken["moves"] == []
    assert taken["fen"] == replied["start_fen"]
    assert taken["takeback_offer"] is None


def _presence(socket: WebSocketTestSession) -> dict[str, Any]:
    while True:
        frame: dict[str, Any] = socket.receive_json()
        if frame["type"] == "presence":
            return frame


def test_a_player_may_claim_once_the_opponent_has_gone(make_app: AppFactory) -> None:
    time = FakeTime()
    with TestClient(make_app(now=time, clock_tick=3600)) as client:
        ana, bob = _players(client)
        state = _move(bob, _move(ana, open_game(ana, bob, clock="10+0")))
        url = f"/api/games/{state['id']}/claim"
        with ana.websocket_connect(f"/ws/games/{state['id']}") as socket:
            assert _presence(socket)["gone"] == {}
            with bob.websocket_connect(f"/ws/games/{state['id']}") as bob_socket:
                receive(bob_socket)
                assert _presence(socket)["gone"] == {}
                refused = ana.post(url, json={"result": "win"})
                assert refused.status_code == 409
                assert "connected" in refused.json()["detail"]
            gone = _presence(socket)["gone"]
            assert gone == {"black": {"since": time(), "claim_at": time() + 30}}
            time.advance(29)
            early = ana.post(url, json={"result": "win"})
            assert early.status_code == 409
            assert "claim in" in early.json()["detail"]
            assert bob.post(url, json={"result": "win"}).status_code == 409  # Ana is here
            time.advance(1)
            won = ana.post(url, json={"result": "win"}).json()
        assert won["status"] == "finished"
        assert won["result"] == {"pdn": "2-0", "winner": "white", "reason": "opponent left"}


def test_a_player_who_comes_back_cannot_be_claimed_against(make_app: AppFactory) -> None:
    time = FakeTime()
    with TestClient(make_app(now=time, clock_tick=3600)) as client:
        ana, bob = _players(client)
        state = _move(bob, _move(ana, open_game(ana, bob)))
        with ana.websocket_connect(f"/ws/games/{state['id']}") as socket:
            _presence(socket)
            with bob.websocket_connect(f"/ws/games/{state['id']}"):
                _presence(socket)
            assert "black" in _presence(socket)["gone"]
            time.advance(40)
            with bob.websocket_connect(f"/ws/games/{state['id']}"):
                assert _presence(socket)["gone"] == {}
                answer = ana.post(f"/api/games/{state['id']}/claim", json={"result": "draw"})
                assert answer.status_code == 409


def _chat(socket: WebSocketTestSession) -> dict[str, Any]:
    while True:
        frame: dict[str, Any] = socket.receive_json()
        if frame["type"] in ("chat", "error"):
            return frame


def test_chat_is_text_for_its_room_with_a_length_and_rate_limit(make_app: AppFactory) -> None:
    time = FakeTime()
    with TestClient(make_app(now=time, clock_tick=3600)) as client:
        ana, bob = _players(client)
        eve = another(client)
        sign_in(eve, "Eve")
        state = open_game(ana, bob)
        path = f"/ws/games/{state['id']}"
        with (
            ana.websocket_connect(path) as ana_socket,
            bob.websocket_connect(path) as bob_socket,
            eve.websocket_connect(path) as eve_socket,
        ):
            text = "<b>hi</b> & <script>alert(1)</script>"
            ana_socket.send_json({"type": "chat", "room": "players", "text": text})
            heard = _chat(bob_socket)
            assert heard["text"] == text  # as written: the page shows it as text
            assert (heard["room"], heard["name"], heard["color"]) == ("players", "Ana", "white")
            assert _chat(ana_socket)["text"] == text
            eve_socket.send_json({"type": "chat", "room": "spectators", "text": "nice\nopening"})
            assert _chat(eve_socket)["text"] == "nice opening"
            # The spectators did not get the players' chat, nor the players theirs.
            eve_socket.send_json({"type": "chat", "room": "players", "text": "psst"})
            assert "players' chat" in _chat(eve_socket)["message"]
            ana_socket.send_json({"type": "chat", "room": "players", "text": "x" * 141})
            assert "140" in _chat(ana_socket)["message"]
            for number in range(4):  # 5 messages at once at most
                ana_socket.send_json({"type": "chat", "room": "players", "text": f"m{number}"})
                assert _chat(bob_socket)["text"] == f"m{number}"
                assert _chat(ana_socket)["text"] == f"m{number}"
            ana_socket.send_json({"type": "chat", "room": "players", "text": "one too many"})
            assert "too many" in _chat(ana_socket)["message"]
            time.advance(2)
            ana_socket.send_json({"type": "chat", "room": "players", "text": "later"})
            assert _chat(bob_socket)["text"] == "later"
        # A socket opened later gets the chat of its room so far.
        with eve.websocket_connect(path) as late:
            assert _chat(late)["text"] == "nice opening"
        with bob.websocket_connect(path) as late:
            assert _chat(late)["text"] == text


def test_no_chat_against_the_computer(client: TestClient) -> None:
    sign_in(client, "Ana")
    state = client.post(
        "/api/games",
        json={"variant": "russian", "opponent": "computer", "level": 1, "color": "white"},
    ).json()
    with client.websocket_connect(f"/ws/games/{state['id']}") as socket:
        socket.send_json({"type": "chat", "room": "players", "text": "hello"})
        assert "computer" in _chat(socket)["message"]


def test_the_pdn_names_the_game_by_its_whole_address(client: TestClient) -> None:
    ana, bob = _players(client)
    state = open_game(ana, bob)
    pdn = client.get(f"/api/games/{state['id']}/pdn").text
    assert f'[Site "http://testserver/games/{state["id"]}"]' in pdn


def test_a_guest_without_a_session_is_no_error(client: TestClient) -> None:
    assert client.get("/api/session").json() is None
    assert client.get("/api/me").status_code == 401
    sign_in(client, "Ana")
    assert client.get("/api/session").json()["name"] == "Ana"


def test_nobody_is_gone_from_a_finished_game(make_app: AppFactory) -> None:
    with TestClient(make_app(clock_tick=3600)) as client:
        ana, bob = _players(client)
        state = _move(bob, _move(ana, open_game(ana, bob)))
        ana.post(f"/api/games/{state['id']}/resign")
        with ana.websocket_connect(f"/ws/games/{state['id']}") as socket:
            _presence(socket)
            with bob.websocket_connect(f"/ws/games/{state['id']}"):
                _presence(socket)
            assert _presence(socket)["gone"] == {}


def test_the_spectators_are_counted(make_app: AppFactory) -> None:
    with TestClient(make_app(clock_tick=3600)) as client:
        ana, bob = _players(client)
        state = open_game(ana, bob)
        path = f"/ws/games/{state['id']}"
        with ana.websocket_connect(path) as socket:
            assert _presence(socket)["spectators"] == 0
            with bob.websocket_connect(path):  # a player is no spectator
                assert _presence(socket)["spectators"] == 0
                with (
                    another(client).websocket_connect(path),
                    another(client).websocket_connect(path),
                ):
                    assert _presence(socket)["spectators"] == 1
                    assert _presence(socket)["spectators"] == 2
