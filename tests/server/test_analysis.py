"""The analysis board's API: positions, PDN trees in and out, and engine analyses over the
WebSocket (start, updates, stop, restart, limits)."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from damier import Board
from damier.notation.pdn import dump_pdn, read_pdn
from damier.server.services.analysis import ANALYSIS_NICENESS, Analyses
from tests.server.conftest import AppFactory, another, sign_in


def frames_until(socket: WebSocketTestSession, kind: str) -> list[dict[str, Any]]:
    """Frames received up to and including the first of type ``kind``."""
    seen: list[dict[str, Any]] = []
    while True:
        frame: dict[str, Any] = socket.receive_json()
        seen.append(frame)
        if frame["type"] == kind:
            return seen
        assert frame["type"] in ("started", "analysis"), frame


def eventually(condition: Callable[[], bool], timeout: float = 30.0) -> None:
    """Wait for the server to catch up (a closed page's analysis ends in the background)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def analysis_done(socket: WebSocketTestSession) -> list[dict[str, Any]]:
    """The analysis frames of a run, up to its last (``done``)."""
    frames = []
    while True:
        frame: dict[str, Any] = socket.receive_json()
        assert frame["type"] in ("started", "analysis"), frame
        if frame["type"] == "analysis":
            frames.append(frame)
            if frame["done"]:
                return frames


# -- positions ---------------------------------------------------------------------------


def test_position_after_a_line(client: TestClient) -> None:
    answer = client.post(
        "/api/analysis/position", json={"variant": "russian", "moves": ["c3-d4", "f6-e5"]}
    )
    assert answer.status_code == 200, answer.text
    view = answer.json()
    board = Board("russian")
    played = [board.push("c3-d4").notation, board.push("f6-e5").notation]
    assert view["fen"] == board.fen
    assert view["turn"] == "white"
    assert [m["notation"] for m in view["line"]] == played  # in the variant's own notation
    assert view["line"][1]["fen"] == board.fen
    assert view["line"][0]["path"] == [22, 18]
    assert sorted(m["notation"] for m in view["legal_moves"]) == sorted(
        m.notation for m in board.legal_moves
    )
    assert view["result"] is None


def test_position_of_every_player(client: TestClient) -> None:
    board = Board("tripad")
    board.push(board.legal_moves[0])
    answer = client.post("/api/analysis/position", json={"variant": "tripad", "fen": board.fen})
    assert answer.status_code == 200, answer.text
    assert answer.json()["turn"] == "black"
    assert len(answer.json()["legal_moves"]) == len(board.legal_moves)


@pytest.mark.parametrize(
    ("fen", "reason"),
    [
        ("W:W1,2:B30", "a W man on 1 stands on its crowning row"),
        ("W:W30,31:B30", ""),
        ("W:Wbanana:B1", ""),
    ],
)
def test_an_impossible_editor_position_is_refused_with_the_kernel_s_reason(
    client: TestClient, fen: str, reason: str
) -> None:
    try:
        Board("international", fen)
    except ValueError as error:
        kernel_reason = str(error)
    else:
        raise AssertionError(f"the kernel accepts {fen}")
    assert reason in kernel_reason
    answer = client.post("/api/analysis/position", json={"variant": "international", "fen": fen})
    assert answer.status_code == 400
    assert answer.json()["detail"] == f"impossible position: {kernel_reason}"


def test_an_illegal_move_of_the_line_is_refused(client: TestClient) -> None:
    answer = client.post(
        "/api/analysis/position", json={"variant": "russian", "moves": ["c3-d4", "c3-d4"]}
    )
    assert answer.status_code == 400
    assert answer.json()["detail"].startswith("move 2 (c3-d4): ")


def test_a_finished_position_has_no_moves_and_says_why(client: TestClient) -> None:
    answer = client.post(
        "/api/analysis/position", json={"variant": "international", "fen": "W:W:B3"}
    )
    assert answer.status_code == 200
    assert answer.json()["legal_moves"] == []
    assert answer.json()["result"]


def test_a_position_s_picture_with_its_last_move(client: TestClient) -> None:
    import xml.etree.ElementTree as ET

    from damier.render.svg import HIGHLIGHT, svg

    answer = client.get(
        "/api/analysis/picture.svg",
        params={"variant": "russian", "move": "c3-d4", "flipped": "true", "size": "300"},
    )
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "image/svg+xml"
    board = Board("russian")
    last = board.push("c3-d4")
    assert answer.text == svg(board, size=300, flipped=True, lastmove=last)
    root = ET.fromstring(answer.text)
    lit = [
        e for e in root.iter("{http://www.w3.org/2000/svg}polygon") if e.get("fill") == HIGHLIGHT
    ]
    assert len(lit) == 2  # c3 and d4


@pytest.mark.parametrize(
    ("params", "reason"),
    [
        ({"variant": "nonesuch"}, "unknown variant"),
        ({"variant": "russian", "fen": "W:W99:B1"}, "impossible position"),
        ({"variant": "russian", "move": "c3-c4"}, "c3-c4"),
        ({"variant": "russian", "size": "99999"}, "size"),
        ({"variant": "x" * 65}, "variant"),
    ],
)
def test_a_picture_of_no_position_is_refused(
    client: TestClient, params: dict[str, str], reason: str
) -> None:
    answer = client.get("/api/analysis/picture.svg", params=params)
    assert answer.status_code == 400 and reason in str(answer.json()["detail"])


# -- PDN trees ---------------------------------------------------------------------------

STUDY = """[Event "Study"]
[White "Ana"]
[Black "Bob"]
[Result "*"]
[GameType "25"]

{A Russian opening} 1. 22-18 11-15 {the main line} (1... 11-16 2. 18-14 $1 (2. 24-20
{quiet} 10-14) 2... 9x18 3. 23x14) 2. 18x11 8x15 3. 25-22! *
"""


def tree_moves(line: list[dict[str, Any]]) -> list[str]:
    return [move["notation"] for move in line]


def test_pdn_with_variations_read_into_a_tree_and_written_back_unchanged(
    client: TestClient,
) -> None:
    text = dump_pdn(read_pdn(STUDY)[0])  # as Damier writes PDN
    assert "(" in text and "{quiet}" in text and "$1" in text
    answer = client.post("/api/analysis/pdn", json={"pdn": text})
    assert answer.status_code == 200, answer.text
    tree = answer.json()
    assert tree["variant"] == "russian"
    assert tree["comment"] == "A Russian opening"
    assert tree_moves(tree["moves"]) == ["22-18", "11-15", "18x11", "8x15", "25-22"]
    second = tree["moves"][1]
    assert second["comments"] == ["the main line"]
    [side] = second["variations"]
    assert tree_moves(side) == ["11-16", "18-14", "9x18", "23x14"]
    assert side[1]["nags"] == ["$1"]
    assert tree_moves(side[1]["variations"][0]) == ["24-20", "10-14"]
    assert side[1]["variations"][0][0]["comments"] == ["quiet"]
    # Each move carries its position and path, from the kernel.
    board = Board("russian")
    board.push("c3-d4")
    board.push("f6-g5")
    move = board.push("d4-c5")
    assert side[1]["fen"] == board.fen
    assert side[1]["path"] == list(move.path)
    written = client.post("/api/analysis/pdn/export", json=tree)
    assert written.status_code == 200, written.text
    assert written.text == text


def test_a_tree_made_on_the_board_is_written_as_pdn(client: TestClient) -> None:
    tree = {
        "variant": "international",
        "fen": "W:W31,32:B19,20",
        "moves": [{"notation": "32-28", "variations": [[{"notation": "31-27"}]]}],
    }
    written = client.post("/api/analysis/pdn/export", json=tree)
    assert written.status_code == 200, written.text
    [game] = read_pdn(written.text)
    assert game.tags["GameType"] == "20"
    assert game.tags["FEN"] == Board("international", "W:W31,32:B19,20").fen
    assert [node.text for node in game.moves] == ["32-28"]
    assert [node.text for node in game.moves[0].variations[0]] == ["31-27"]
    tree["moves"][0]["variations"] = [[{"notation": "33-29"}]]  # type: ignore[index]
    refused = client.post("/api/analysis/pdn/export", json=tree)
    assert refused.status_code == 400
    assert refused.json()["detail"].startswith("move 1 (33-29): ")


def test_an_illegal_move_in_a_variation_is_refused_with_where_it_is(client: TestClient) -> None:
    broken = STUDY.replace("2... 9x18", "2... 9-13")
    answer = client.post("/api/analysis/pdn", json={"pdn": broken})
    assert answer.status_code == 400
    assert answer.json()["detail"].startswith("PDN line 8, column ")
    assert "9-13" in answer.json()["detail"]


# -- engine analyses ---------------------------------------------------------------------


def test_analysis_starts_streams_deeper_lines_and_finishes(make_app: AppFactory) -> None:
    with (
        TestClient(make_app(analysis_seconds=2.0)) as client,
        client.websocket_connect("/ws/analysis") as socket,
    ):
        start = {"type": "start", "variant": "russian", "moves": ["c3-d4"], "lines": 3}
        socket.send_json({**start, "book": False})  # a search (the book keeps two lines)
        started = socket.receive_json()
        board = Board("russian")
        board.push("c3-d4")
        assert started == {"type": "started", "fen": board.fen, "line": ["22-18"]}
        frames = analysis_done(socket)
    depths = [frame["depth"] for frame in frames]
    assert depths == sorted(depths) and depths[-1] > 1
    last = frames[-1]
    assert last["fen"] == board.fen
    assert len(last["lines"]) == 3
    firsts = [line["pv"][0] for line in last["lines"]]
    assert len(set(firsts)) == 3
    assert set(firsts) <= {m.notation for m in board.legal_moves}
    scores = [line["score"] for line in last["lines"]]
    assert scores == sorted(scores, reverse=True)
    for line in last["lines"]:
        replay = board.copy()
        for move in line["pv"]:
            replay.push(move)


def test_a_new_position_restarts_and_stop_stops(client: TestClient) -> None:
    with client.websocket_connect("/ws/analysis") as socket:
        socket.send_json({"type": "start", "variant": "international", "lines": 3})
        first = frames_until(socket, "analysis")
        assert first[0]["type"] == "started"
        assert first[-1]["fen"] == Board("international").fen
        socket.send_json({"type": "start", "variant": "international", "moves": ["32-28"]})
        board = Board("international")
        board.push("32-28")
        frames = frames_until(socket, "started")
        assert frames[-1]["fen"] == board.fen
        after = frames_until(socket, "analysis")
        assert after[-1]["fen"] == board.fen
        socket.send_json({"type": "stop"})
        frames = frames_until(socket, "stopped")
        assert all(frame["fen"] == board.fen for frame in frames[:-1])
        # Stopped: the slot is free again for a new start.
        socket.send_json({"type": "start", "variant": "english"})
        assert frames_until(socket, "analysis")[-1]["fen"] == Board("english").fen
    analyses = client.app.state.analyses  # type: ignore[attr-defined]
    eventually(lambda: analyses.running == 0)


@pytest.mark.slow  # a long run (the default run stays under 5 minutes)
def test_the_limits_refuse_with_a_clear_message(make_app: AppFactory, tmp_path: Path) -> None:
    app = make_app(analysis_workers=2, analysis_per_player=1)
    with TestClient(app) as ana:
        sign_in(ana, "Ana")
        bob = another(ana)
        sign_in(bob, "Bob")
        eve = another(ana)
        sign_in(eve, "Eve")
        start = {"type": "start", "variant": "international", "book": False}  # a search
        with (
            ana.websocket_connect("/ws/analysis") as first,
            ana.websocket_connect("/ws/analysis") as second,
            bob.websocket_connect("/ws/analysis") as third,
            eve.websocket_connect("/ws/analysis") as fourth,
        ):
            first.send_json(start)
            frames_until(first, "analysis")
            second.send_json(start)
            refused = second.receive_json()
            assert refused["type"] == "error"
            assert "you already have 1 engine analysis running" in refused["message"]
            third.send_json(start)
            frames_until(third, "analysis")
            fourth.send_json(start)
            refused = fourth.receive_json()
            assert refused["type"] == "error"
            assert "engines are all busy" in refused["message"]
            # Closing a page ends its analysis: the next player gets the slot.
            first.close()
            eventually(lambda: app.state.analyses.running < 2)
            fourth.send_json(start)
            frames_until(fourth, "analysis")


def test_a_reloaded_page_gets_its_analysis_while_the_old_one_stops(client: TestClient) -> None:
    start = {"type": "start", "variant": "international"}
    with client.websocket_connect("/ws/analysis") as old:
        old.send_json(start)
        frames_until(old, "analysis")
    # The old socket is closed; its search may still be stopping. The new page waits for
    # the slot instead of being refused.
    with client.websocket_connect("/ws/analysis") as new:
        new.send_json(start)
        frames_until(new, "analysis")


def test_a_bad_or_too_large_start_is_refused_with_its_reason(client: TestClient) -> None:
    with client.websocket_connect("/ws/analysis") as socket:
        socket.send_json({"type": "start", "variant": "international", "fen": "W:W1:B30"})
        refused = socket.receive_json()
        assert refused["type"] == "error"
        assert refused["message"].startswith("impossible position: a W man on 1")
        socket.send_json({"type": "start", "variant": "chess"})
        assert socket.receive_json()["type"] == "error"
        socket.send_json({"type": "start", "variant": "russian", "lines": 99})
        assert socket.receive_json() == {"type": "error", "message": '"lines" must be 1-5'}
        socket.send_text(json.dumps({"type": "start", "fen": "W:W" + "1," * 3000}))
        too_large = {"type": "error", "message": "message too large (over 4096 bytes)"}
        assert socket.receive_json() == too_large
        socket.send_json({"type": "ping"})
        assert socket.receive_json() == {"type": "pong"}


def test_multi_player_analysis(client: TestClient) -> None:
    with client.websocket_connect("/ws/analysis") as socket:
        socket.send_json({"type": "start", "variant": "tripad", "lines": 3})
        frame = frames_until(socket, "analysis")[-1]
        assert frame["fen"] == Board("tripad").fen
        legal = {m.notation for m in Board("tripad").legal_moves}
        assert frame["lines"] and {line["pv"][0] for line in frame["lines"]} <= legal


@pytest.mark.skipif(not hasattr(os, "setpriority"), reason="thread priorities are Linux's")
def test_analysis_threads_run_below_the_games() -> None:
    """The analysis threads (and the engine's search thread each starts) are nicer than the
    rest of the server, so the computer opponents' searches go first on a busy machine."""
    analyses = Analyses()
    try:

        def niceness() -> tuple[int, int]:
            inner: list[int] = []
            thread = threading.Thread(
                target=lambda: inner.append(
                    os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
                )
            )
            thread.start()
            thread.join()
            return os.getpriority(os.PRIO_PROCESS, threading.get_native_id()), inner[0]

        own, started = analyses._executor.submit(niceness).result()
    finally:
        analyses.close()
    base = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    assert own == started == min(base + ANALYSIS_NICENESS, 19)


def test_a_book_position_is_answered_from_the_book_unless_switched_off(
    client: TestClient,
) -> None:
    """The opening book answers at once (its lines marked); ``"book": false`` searches."""
    with client.websocket_connect("/ws/analysis") as socket:
        socket.send_json({"type": "start", "variant": "international", "lines": 2})
        frames = analysis_done(socket)
        assert frames[-1]["lines"]
        assert all(line["book"] for frame in frames for line in frame["lines"])
        socket.send_json({"type": "start", "variant": "international", "book": False})
        frame = frames_until(socket, "analysis")[-1]
        assert not any(line["book"] for line in frame["lines"])
        socket.send_json({"type": "stop"})
        frames_until(socket, "stopped")
        socket.send_json({"type": "start", "variant": "international", "book": "no"})
        assert socket.receive_json() == {"type": "error", "message": '"book" must be true or false'}
