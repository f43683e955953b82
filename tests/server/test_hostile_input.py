"""Hostile input is refused cheaply and clearly (issue 30): deep or large PDN, unknown
variant options, tag names that would write other tags, bodies sent without a length, and
clocks written in other scripts' digits."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from damier import Board
from damier.game import Game
from damier.notation.pdn import MAX_DEPTH, read_pdn
from damier.server.routes import analysis as analysis_routes
from damier.server.services.analysis import MAX_PDN
from tests.server.conftest import AppFactory, sign_in


def nested_pdn(depth: int) -> str:
    """A game whose first move has a variation, which has one, ... ``depth`` deep."""
    return '[GameType "20"]\n1. 32-28 ' + "(1. 33-28 " * depth + ")" * depth + " 19-23 *"


def nested_tree(depth: int) -> dict[str, Any]:
    """The same as an analysis tree sent by a page."""
    move: dict[str, Any] = {"notation": "33-28"}
    for _ in range(depth - 1):
        move = {"notation": "33-28", "variations": [[move]]}
    return {"variant": "international", "moves": [{"notation": "32-28", "variations": [[move]]}]}


def test_variations_nest_no_deeper_than_the_limit(client: TestClient) -> None:
    limit = f"variations nest at most {MAX_DEPTH} deep"
    deepest = client.post("/api/analysis/pdn", json={"pdn": nested_pdn(MAX_DEPTH)})
    assert deepest.status_code == 200, deepest.text
    written = client.post("/api/analysis/pdn/export", json=deepest.json())
    assert written.status_code == 200, written.text
    assert not read_pdn(written.text)[0].errors
    for depth in (MAX_DEPTH + 1, 400, 1000):
        refused = client.post("/api/analysis/pdn", json={"pdn": nested_pdn(depth)})
        assert refused.status_code == 400, (depth, refused.text[:200])
        assert limit in refused.json()["detail"]
    assert client.post("/api/analysis/pdn/export", json=nested_tree(MAX_DEPTH)).status_code == 200
    for depth in (MAX_DEPTH + 1, 300):
        refused = client.post("/api/analysis/pdn/export", json=nested_tree(depth))
        assert refused.status_code == 400, (depth, refused.text[:200])
        assert refused.json()["detail"] == f"Value error, PDN {limit}"
    # The connection is still good for the next request.
    assert client.get("/api/variants").status_code == 200


def side_lines_pdn(plies: int, each: int) -> tuple[str, int]:
    """A game of up to ``plies`` moves with up to ``each`` one-move side lines at every
    move, and how many moves it has in all."""
    board, words, moves = Board("international"), [], 0
    for ply in range(plies):
        legal = list(board.legal_moves)
        number = f"{ply // 2 + 1}." if ply % 2 == 0 else f"{ply // 2 + 1}..."
        words.append(f"{number} {legal[0].notation}")
        words += [f"({number} {other.notation})" for other in legal[1 : each + 1]]
        moves += 1 + len(legal[1 : each + 1])
        board.push(legal[0])
        if board.is_game_over():
            break
    return '[GameType "20"]\n' + " ".join(words) + " *", moves


def bare(tree: dict[str, Any]) -> dict[str, Any]:
    """A tree as read from a PDN, without what the server adds to each move."""

    def line(moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [
            {"notation": m["notation"], "variations": [line(v) for v in m["variations"]]}
            for m in moves
        ]

    return {**tree, "moves": line(tree["moves"])}


def test_pdn_work_is_done_off_the_loop_playing_each_move_once(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    on_the_loop: list[bool] = []

    def spy(work: Callable[..., Any]) -> Callable[..., Any]:
        def spied(*args: Any) -> Any:
            try:
                asyncio.get_running_loop()
                on_the_loop.append(True)
            except RuntimeError:
                on_the_loop.append(False)
            return work(*args)

        return spied

    for name in ("pdn_tree", "tree_pdn", "position_view"):
        monkeypatch.setattr(analysis_routes, name, spy(getattr(analysis_routes, name)))
    pushes = 0
    push = Game.push

    def counted(self: Game, *args: Any, **kwargs: Any) -> Any:
        nonlocal pushes
        pushes += 1
        return push(self, *args, **kwargs)

    monkeypatch.setattr(Game, "push", counted)
    text, moves = side_lines_pdn(50, 4)
    tree = client.post("/api/analysis/pdn", json={"pdn": text})
    assert tree.status_code == 200, tree.text
    assert pushes == moves  # not the moves before each side line again for each of them
    pushes = 0
    written = client.post("/api/analysis/pdn/export", json=bare(tree.json()))
    assert written.status_code == 200, written.text
    assert pushes == moves
    answer = client.post("/api/analysis/position", json={"variant": "international"})
    assert answer.status_code == 200
    assert on_the_loop == [False, False, False]


def test_a_pdn_text_is_bounded(make_app: AppFactory) -> None:
    with TestClient(make_app(max_body_bytes=4 * MAX_PDN)) as client:
        text = nested_pdn(1) + " " * MAX_PDN
        refused = client.post("/api/analysis/pdn", json={"pdn": text})
        assert refused.status_code == 400
        assert f"at most {MAX_PDN} characters" in refused.json()["detail"]


def test_an_unknown_option_is_refused_with_the_registry_s_reason(client: TestClient) -> None:
    reason = "variant 'international' has no option 'nonsense'"
    name = "international+nonsense"
    answers = [
        client.post("/api/analysis/position", json={"variant": name}),
        client.get(f"/api/variants/{name}"),
        client.post("/api/analysis/pdn/export", json={"variant": name}),
        client.post("/api/analysis/pdn", json={"pdn": "1. 32-28 *", "variant": name}),
    ]
    for answer in answers:
        assert answer.status_code == 400, answer.request.url
        assert answer.json()["detail"].startswith(reason)
    assert client.get("/api/variants/nonsense").status_code == 404
    with client.websocket_connect("/ws/analysis") as socket:
        socket.send_json({"type": "start", "variant": name})
        refused = socket.receive_json()
        assert refused["type"] == "error"
        assert refused["message"].startswith(reason)
        socket.send_json({"type": "ping"})
        assert socket.receive_json() == {"type": "pong"}


def test_a_failure_of_the_server_closes_the_analysis_socket_with_1011(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(analysis_routes, "position", broken)
    with client.websocket_connect("/ws/analysis") as socket:
        socket.send_json({"type": "start", "variant": "international"})
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 1011


def test_an_export_writes_only_the_tags_it_is_given(client: TestClient) -> None:
    tree: dict[str, Any] = {"variant": "international", "moves": [{"notation": "32-28"}]}
    injected = client.post(
        "/api/analysis/pdn/export", json={**tree, "tags": {'X "a"]\n[Result "2-0"]\n[Y': "v"}}
    )
    assert injected.status_code == 400
    assert "must be letters, digits and underscores" in injected.json()["detail"]
    long_name = client.post("/api/analysis/pdn/export", json={**tree, "tags": {"A" * 41: "v"}})
    assert long_name.status_code == 400
    assert "longer than 40" in long_name.json()["detail"]
    values = {"Event": 'a "b" \\ c\n[Result "2-0"]', "Annotator": "x\r\ny"}
    comment = 'fine} [Result "2-0"] {'
    written = client.post(
        "/api/analysis/pdn/export",
        json={**tree, "tags": values, "moves": [{"notation": "32-28", "comments": [comment]}]},
    )
    assert written.status_code == 200, written.text
    [game] = read_pdn(written.text)
    assert not game.errors
    assert game.tags["Event"] == 'a "b" \\ c [Result "2-0"]'
    assert game.tags["Annotator"] == "x  y"
    assert game.tags["Result"] == "*" and game.result == "*"
    assert game.moves[0].comments == ['fine [Result "2-0"]']
    for bad in (
        {"result": '*\n[Result "2-0"]'},
        {"moves": [{"notation": "32-28", "nags": ["} x"]}]},
    ):
        assert client.post("/api/analysis/pdn/export", json={**tree, **bad}).status_code == 400


def test_a_body_too_large_without_a_length_gets_413(client: TestClient) -> None:
    limit = client.app.state.settings.max_body_bytes  # type: ignore[attr-defined]

    def chunks(size: int) -> Iterator[bytes]:
        text = b'{"pdn": "' + b" " * size + b'1. 32-28 *"}'
        for start in range(0, len(text), 1000):
            yield text[start : start + 1000]

    small = client.post(
        "/api/analysis/pdn", content=chunks(100), headers={"content-type": "application/json"}
    )
    assert small.request.headers["transfer-encoding"] == "chunked"
    assert small.status_code == 200, small.text
    large = client.post(
        "/api/analysis/pdn", content=chunks(limit), headers={"content-type": "application/json"}
    )
    assert large.request.headers["transfer-encoding"] == "chunked"
    assert large.status_code == 413
    assert large.json() == {"detail": "request body too large"}


def test_a_clock_in_other_digits_is_refused(client: TestClient) -> None:
    sign_in(client, "Ana")
    for clock in ("٥+٣", "５+3", "1٠"):
        answer = client.post(
            "/api/games",
            json={"variant": "russian", "opponent": "open", "color": "white", "clock": clock},
        )
        assert answer.status_code == 400, clock
        assert "digits 0-9" in answer.json()["detail"]
    fine = client.post(
        "/api/games",
        json={"variant": "russian", "opponent": "open", "color": "white", "clock": "5+3"},
    )
    assert fine.status_code == 201, fine.text
