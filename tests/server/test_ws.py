"""The WebSocket of a game: states pushed to players and spectators, refused messages."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from damier.server.rooms import Connection, State
from tests.server.conftest import another, game_of, open_game, receive, sign_in


def _state(socket: WebSocketTestSession) -> dict[str, Any]:
    frame: dict[str, Any] = receive(socket)
    assert frame["type"] == "state", frame
    return game_of(socket, frame)


def _error(socket: WebSocketTestSession) -> str:
    frame: dict[str, Any] = receive(socket)
    assert frame["type"] == "error", frame
    message: str = frame["message"]
    return message


def test_a_move_is_sent_as_a_delta_and_a_client_may_ask_for_the_whole_state(
    client: TestClient,
) -> None:
    sign_in(client, "Ana")
    bob = another(client)
    sign_in(bob, "Bob")
    state = open_game(client, bob)
    with client.websocket_connect(f"/ws/games/{state['id']}") as socket:
        first = receive(socket)
        assert "after" not in first and first["game"]["moves"] == []
        moves = []
        for ply in range(3):
            player = client if ply % 2 == 0 else bob
            move = state["legal_moves"][0]["notation"]
            moves.append(move)
            state = player.post(
                f"/api/games/{state['id']}/moves", json={"move": move, "ply": ply}
            ).json()
            delta = receive(socket)
            assert delta["version"] == first["version"] + ply + 1
            assert delta["after"] == delta["version"] - 1
            assert [m["notation"] for m in delta["played"]] == [move]
            assert delta["played"][0]["ply"] == ply + 1
            assert "moves" not in delta["game"] and delta["game"]["ply"] == ply + 1
        # A client whose moves a delta does not follow asks for the whole state.
        socket.send_json({"type": "sync"})
        whole = receive(socket)
        assert "after" not in whole and whole["version"] == delta["version"]
        assert [m["notation"] for m in whole["game"]["moves"]] == moves
        assert whole["game"]["you"] == "white"


def test_state_on_connect_and_moves_seen_by_everyone(client: TestClient) -> None:
    sign_in(client, "Ana")
    bob = another(client)
    sign_in(bob, "Bob")
    eve = another(client)
    state = open_game(client, bob)
    path = f"/ws/games/{state['id']}"
    with (
        client.websocket_connect(path) as ana_socket,
        bob.websocket_connect(path) as bob_socket,
        eve.websocket_connect(path) as eve_socket,
    ):
        assert _state(ana_socket)["you"] == "white"
        assert _state(bob_socket)["you"] == "black"
        seen = _state(eve_socket)
        assert seen["you"] is None
        assert seen["status"] == "playing"
        move = seen["legal_moves"][0]["notation"]
        ana_socket.send_json({"type": "move", "move": move, "ply": 0})
        for socket, you in ((ana_socket, "white"), (bob_socket, "black"), (eve_socket, None)):
            after = _state(socket)
            assert after["ply"] == 1
            assert after["moves"][0]["notation"] == move
            assert after["you"] == you
        # A move over HTTP reaches the sockets too.
        reply = after["legal_moves"][0]["notation"]
        answer = bob.post(f"/api/games/{state['id']}/moves", json={"move": reply, "ply": 1})
        assert answer.status_code == 200
        assert _state(eve_socket)["ply"] == 2
        assert _state(ana_socket)["ply"] == 2
        # Draw and resign messages.
        bob_socket.send_json({"type": "draw", "action": "offer"})
        assert _state(ana_socket)["draw_offer"] == "black"
        assert _state(eve_socket)["draw_offer"] == "black"
        ana_socket.send_json({"type": "resign"})
        final = _state(eve_socket)
        assert final["status"] == "finished"
        assert final["result"]["winner"] == "black"
        ana_socket.send_json({"type": "ping"})
        assert _state(ana_socket)["status"] == "finished"
        assert receive(ana_socket) == {"type": "pong"}


def test_hostile_and_malformed_frames(client: TestClient) -> None:
    sign_in(client, "Ana")
    bob = another(client)
    sign_in(bob, "Bob")
    eve = another(client)
    sign_in(eve, "Eve")
    state = open_game(client, bob)
    path = f"/ws/games/{state['id']}"
    move = state["legal_moves"][0]["notation"]
    with client.websocket_connect(path) as ana_socket, eve.websocket_connect(path) as eve_socket:
        _state(ana_socket)
        _state(eve_socket)
        ana_socket.send_text("{not json")
        assert "JSON" in _error(ana_socket)
        ana_socket.send_text(json.dumps([1, 2, 3]))
        _error(ana_socket)
        ana_socket.send_json({"type": "launch-missiles"})
        assert "unknown" in _error(ana_socket)
        ana_socket.send_json({"type": "move", "move": move})
        _error(ana_socket)
        ana_socket.send_json({"type": "move", "move": 42, "ply": 0})
        _error(ana_socket)
        ana_socket.send_json({"type": "move", "move": move, "ply": True})
        _error(ana_socket)
        ana_socket.send_text(
            json.dumps({"type": "move", "move": move, "ply": 0, "pad": "x" * 5000})
        )
        assert "too large" in _error(ana_socket)
        ana_socket.send_bytes(b"\xff\xfe")
        _error(ana_socket)
        ana_socket.send_json({"type": "move", "move": "1-2", "ply": 0})
        assert "legal moves" in _error(ana_socket)
        ana_socket.send_json({"type": "move", "move": move, "ply": 7})
        assert "stale" in _error(ana_socket)
        ana_socket.send_json({"type": "draw", "action": "maybe"})
        _error(ana_socket)
        # A spectator cannot move, resign or offer a draw.
        eve_socket.send_json({"type": "move", "move": move, "ply": 0})
        assert "not a player" in _error(eve_socket)
        eve_socket.send_json({"type": "resign"})
        _error(eve_socket)
        eve_socket.send_json({"type": "draw", "action": "offer"})
        _error(eve_socket)
        # Nothing changed and both sockets are still open.
        ana_socket.send_json({"type": "ping"})
        assert receive(ana_socket) == {"type": "pong"}
        eve_socket.send_json({"type": "ping"})
        assert receive(eve_socket) == {"type": "pong"}
    after = client.get(f"/api/games/{state['id']}").json()
    assert after["ply"] == 0
    assert after["status"] == "playing"
    assert after["draw_offer"] is None


def test_unknown_game_socket_is_refused(client: TestClient) -> None:
    import pytest
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws/games/nothing") as s:
        receive(s)


def test_computer_reply_reaches_the_socket(client: TestClient) -> None:
    sign_in(client, "Ana")
    state = client.post(
        "/api/games",
        json={"variant": "russian", "opponent": "computer", "level": 2, "color": "white"},
    ).json()
    with client.websocket_connect(f"/ws/games/{state['id']}") as socket:
        game = _state(socket)
        socket.send_json({"type": "move", "move": game["legal_moves"][0]["notation"], "ply": 0})
        plies = []
        while not plies or plies[-1] < 2:
            plies.append(_state(socket)["ply"])
        assert plies == [1, 2]


def test_a_socket_starts_with_its_snapshot_whatever_came_while_it_was_read() -> None:
    """A state published before the snapshot was read may reach the room after the socket
    joined it (through Redis, the change that made it does not wait): the socket starts with
    the snapshot, then the newer states only."""
    seats = (("ana", "white"), ("bob", "black"))
    older, snapshot = State(1, seats, False, '{"ply":0}'), State(2, seats, True, '{"ply":0}')
    newer = State(3, seats, True, '{"ply":1}', after=2, played="[]")
    late = Connection("ana")
    late.deliver(older)  # came while the snapshot was read
    late.open_with(snapshot)
    assert [json.loads(frame)["version"] for frame in _queued(late)] == [2]
    early = Connection("bob")
    early.deliver(newer)  # a move made once the snapshot was read
    early.open_with(snapshot)
    frames = [json.loads(frame) for frame in _queued(early)]
    assert [(frame["version"], frame.get("after")) for frame in frames] == [(2, None), (3, 2)]


def _queued(connection: Connection) -> list[str]:
    return [connection.queue.get_nowait() for _ in range(connection.queue.qsize())]
