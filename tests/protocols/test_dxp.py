"""DXP (DamExchange): the messages byte for byte, Damier against itself over loopback,
peers that misbehave, and pydraughts' DXP client when it is installed.

pydraughts imports as ``draughts``, like py-draughts (a dev dependency), so it lives in a
directory of its own: ``DAMIER_PYDRAUGHTS_PATH`` (default ``/tmp/pyd``; ``pip install
--target /tmp/pyd pydraughts``). Its side runs in a subprocess with that directory first on
``sys.path``; the test is skipped when it is not there. Only loopback addresses are used.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from damier import Board
from damier.cli import main
from damier.engine import Engine
from damier.notation.pdn import read_pdn
from damier.protocols.dxp import (
    NOISE_SHOWN,
    BackAcc,
    BackReq,
    Channel,
    Chat,
    DxpError,
    DxpGame,
    DxpSession,
    GameAcc,
    GameEnd,
    GameReq,
    IllegalDxpMoveError,
    Message,
    Move,
    board_from_position,
    connect,
    decode,
    legal_move,
    listen,
    position_of,
)

PYD_PATH = Path(os.environ.get("DAMIER_PYDRAUGHTS_PATH", "/tmp/pyd"))
LOOPBACK = "127.0.0.1"
TORNADO = "Tornado voor Windows 4.0"
START = "W" + "z" * 20 + "e" * 10 + "w" * 20

# -- messages ----------------------------------------------------------------------

EXACT: list[tuple[Message, bytes]] = [
    (GameReq(TORNADO, 0, 60, 65), b"R01Tornado voor Windows 4.0        W060065A\0"),
    (GameReq("Damier", 1, 5, 0), b"R01Damier" + b" " * 26 + b"Z005000A\0"),
    (
        GameReq("Damier", 0, 10, 75, START),
        b"R01Damier" + b" " * 26 + b"W010075BW" + b"z" * 20 + b"e" * 10 + b"w" * 20 + b"\0",
    ),
    (GameAcc(TORNADO, 0), b"ATornado voor Windows 4.0        0\0"),
    (GameAcc("Damier", 2), b"ADamier" + b" " * 26 + b"2\0"),
    (Move(12, 6, 11), b"M0012061100\0"),
    (Move(12, 5, 25, (22, 12, 23, 20)), b"M001205250422122320\0"),
    (Move(0, 46, 5, (41, 32, 23, 14)), b"M000046050441322314\0"),
    (GameEnd(0, 0), b"E00\0"),
    (GameEnd(3, 1), b"E31\0"),
    (Chat("What do you think about move 35?"), b"CWhat do you think about move 35?\0"),
    (Chat(""), b"C\0"),
    (BackReq(5, 1), b"B005Z\0"),
    (BackReq(123, 0), b"B123W\0"),
    (BackAcc(0), b"K0\0"),
    (BackAcc(2), b"K2\0"),
]


@pytest.mark.parametrize(("message", "data"), EXACT)
def test_encode_decode_exact_bytes(message: Message, data: bytes) -> None:
    assert message.encode() == data
    assert decode(data) == message
    assert decode(data[:-1]) == message  # the NUL is optional when decoding
    assert decode(data.decode("ascii")) == message


def test_every_message_type_is_covered() -> None:
    assert {type(m) for m, _ in EXACT} == {
        GameReq,
        GameAcc,
        Move,
        GameEnd,
        Chat,
        BackReq,
        BackAcc,
    }


def test_time_is_clamped_to_four_digits() -> None:
    assert Move(123456, 32, 28).encode() == b"M9999322800\0"


NAME = b"Tornado voor Windows 4.0        "
MALFORMED = [
    (b"", "empty"),
    (b"\0", "empty"),
    (b"X0012061100", "message type"),
    (b"m0012061100", "message type"),
    (b"M\xff", "ASCII"),
    (b"C" + b"x" * 127, "more than 127"),
    (b"M00120611", "at least 11"),
    (b"M0a12061100", "MOVE time"),
    (b"M0012991100", "MOVE from field"),
    (b"M0012000100", "MOVE from field"),
    (b"M0012065100", "MOVE to field"),
    (b"M00120611x0", "MOVE number captured"),
    (b"M0012061121", "MOVE number captured"),
    (b"M0012061101", "MOVE with 1 captured"),
    (b"M00120611010", "MOVE with 1 captured"),
    (b"M00120611017a", "MOVE captured piece 1"),
    (b"M0012061101990", "MOVE with 1 captured"),
    (b"M001206110199", "MOVE captured piece 1"),
    (b"E4", "GAMEEND: expected 3"),
    (b"E40", "GAMEEND reason"),
    (b"E02", "GAMEEND stop code"),
    (b"E000", "GAMEEND: expected 3"),
    (b"R01" + NAME + b"W060065", "GAMEREQ: expected 43 or 94"),
    (b"Rx1" + NAME + b"W060065A", "GAMEREQ version"),
    (b"R01" + NAME + b"B060065A", "GAMEREQ follower colour"),
    (b"R01" + NAME + b"W06a065A", "GAMEREQ thinking time"),
    (b"R01" + NAME + b"W060-65A", "GAMEREQ number of moves"),
    (b"R01" + NAME + b"W060065C", "GAMEREQ starting position"),
    (b"R01" + NAME + b"W060065B" + START[:-1].encode(), "GAMEREQ: expected 43 or 94"),
    (b"R01" + NAME + b"W060065B" + START.encode() + b"e", "GAMEREQ: expected 43 or 94"),
    (b"R01" + NAME + b"W060065BX" + START[1:].encode(), "GAMEREQ position colour to move"),
    (b"R01" + NAME + b"W060065BW" + b"q" * 50, "GAMEREQ position: square 1"),
    (b"R01" + NAME + b"W060065A" + b"W" * 51, "GAMEREQ with start position A"),
    (b"A" + NAME, "GAMEACC: expected 34"),
    (b"A" + NAME + b"4", "GAMEACC acceptance code"),
    (b"A" + NAME + b"x", "GAMEACC acceptance code"),
    (b"B05Z", "BACKREQ: expected 5"),
    (b"B005X", "BACKREQ colour to move"),
    (b"B0a5W", "BACKREQ move number"),
    (b"K", "BACKACC: expected 2"),
    (b"K3", "BACKACC acceptance code"),
    (b"K10", "BACKACC: expected 2"),
]


@pytest.mark.parametrize(("data", "field"), MALFORMED)
def test_malformed_messages_raise_dxp_error_naming_the_field(data: bytes, field: str) -> None:
    with pytest.raises(DxpError, match=field.replace("(", r"\(")):
        decode(data)


@pytest.mark.parametrize(
    "message",
    [
        GameReq("x" * 33, 0),
        GameReq("Damier", 0, 1000),
        GameReq("Damier", 0, 1, 0, "W" + "e" * 49),
        GameAcc("Damier", 5),
        Move(0, 0, 5),
        Move(0, 51, 5),
        Move(0, 1, 5, tuple(range(1, 22))),
        GameEnd(5, 0),
        GameEnd(0, 2),
        Chat("é"),
        Chat("x" * 127),
        BackReq(1000, 0),
        BackAcc(3),
    ],
)
def test_encoding_refuses_what_does_not_fit(message: Message) -> None:
    with pytest.raises(DxpError):
        message.encode()


# -- positions and moves -----------------------------------------------------------


@pytest.mark.parametrize(
    "fen",
    [
        "W:W31-50:B1-20",
        "B:W28,K46:BK3,12,19",
        "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
    ],
)
def test_position_round_trip(fen: str) -> None:
    board = Board("international", fen)
    position = position_of(board)
    assert len(position) == 51
    assert board_from_position(position).fen == board.fen


def test_start_position_letters() -> None:
    assert position_of(Board("international")) == START


def test_legal_move_accepts_captures_in_any_order_or_left_out() -> None:
    board = Board("international", "W:WK46:B41,32,23,14")  # all four, landing on 5 or 10
    [move] = [m for m in board.legal_moves if m.to_square == 5]
    assert legal_move(board, Move(0, 46, 5, (14, 41, 23, 32))) == move
    assert legal_move(board, Move(0, 46, 5)) == move
    with pytest.raises(IllegalDxpMoveError, match="does not capture"):
        legal_move(board, Move(0, 46, 5, (41, 32)))
    with pytest.raises(IllegalDxpMoveError, match="not a legal move"):
        legal_move(Board("international"), Move(0, 32, 26))


def test_capture_without_its_squares_must_be_unambiguous() -> None:
    board = Board("international", "W:WK16:B15,34,33,42,13,27")  # 16x8 over 33 or over 34
    with pytest.raises(IllegalDxpMoveError, match="does not capture"):
        legal_move(board, Move(0, 16, 8))
    assert legal_move(board, Move(0, 16, 8, (13, 33, 27))).captured == (27, 33, 13)
    assert legal_move(board, Move(0, 16, 8, (34, 13, 27))).captured == (27, 34, 13)


# -- sessions over loopback --------------------------------------------------------


@pytest.fixture(scope="module")
def engines() -> Iterator[tuple[Engine, Engine]]:
    yield Engine("international", level=2), Engine("international", level=3)


class Lines:
    """A thread-safe log."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._lock = threading.Lock()

    def __call__(self, line: str) -> None:
        with self._lock:
            self.lines.append(line)

    def has(self, text: str) -> bool:
        return any(text in line for line in self.lines)


def _follower(
    engine: Engine, log: Callable[[str], None] | None = None, **options: Any
) -> tuple[int, threading.Thread, dict[str, Any]]:
    """A Damier Follower in a thread: its port, the thread, and what it played."""
    server = listen(LOOPBACK, 0)
    port = server.getsockname()[1]
    out: dict[str, Any] = {"games": []}

    def run() -> None:
        try:
            sock, _ = server.accept()
            server.close()
            session = DxpSession(
                Channel(sock), engine=engine, seconds=0.02, log=log or (lambda _: None), **options
            )
            for game in session.serve_games():
                out["games"].append(game)
            session.close()
        except BaseException as error:  # reported by the test
            out["error"] = error

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return port, thread, out


def _replays(game: DxpGame) -> None:
    records = read_pdn(game.pdn())
    assert len(records) == 1 and not records[0].errors
    replayed = records[0].replay()
    assert replayed.moves == game.game.moves
    assert records[0].result == (game.result.pdn if game.result else "*")


def test_two_damier_sessions_play_a_game_to_a_result(engines: tuple[Engine, Engine]) -> None:
    port, thread, out = _follower(engines[0])
    initiator = DxpSession(connect(LOOPBACK, port), engine=engines[1], seconds=0.02)
    played = initiator.request_game(colour=0, minutes=5)
    initiator.close()
    thread.join(30)
    assert "error" not in out
    assert played.result is not None
    [theirs] = out["games"]
    assert theirs.result == played.result
    assert theirs.game.moves == played.game.moves
    assert (played.colour, theirs.colour) == (0, 1)
    assert played.opponent == theirs.me and theirs.opponent == played.me
    assert played.game.ply > 10
    _replays(played)
    _replays(theirs)


def test_several_games_alternate_and_the_last_stops(engines: tuple[Engine, Engine]) -> None:
    port, thread, out = _follower(engines[0])
    initiator = DxpSession(connect(LOOPBACK, port), engine=engines[1], seconds=0.02)
    first = initiator.request_game(colour=1, stop=0)
    second = initiator.request_game(colour=0, stop=1)
    thread.join(30)
    initiator.close()
    assert "error" not in out
    assert [g.colour for g in out["games"]] == [0, 1]
    assert first.result is not None and second.result is not None
    assert out["games"][1].peer_stops


def test_game_from_a_position(engines: tuple[Engine, Engine]) -> None:
    fen = "B:W28,32,33,K46:B3,12,13,19"
    port, thread, out = _follower(engines[0])
    initiator = DxpSession(connect(LOOPBACK, port), engine=engines[1], seconds=0.02)
    played = initiator.request_game(colour=1, fen=fen)
    initiator.close()
    thread.join(30)
    assert out["games"][0].game.start_fen == Board("international", fen).fen
    assert played.game.start_fen == Board("international", fen).fen
    _replays(played)


# -- peers that misbehave ----------------------------------------------------------


class RawPeer:
    """A hand-driven Initiator: sends bytes, reads messages."""

    def __init__(self, port: int) -> None:
        self.channel = connect(LOOPBACK, port)

    def send(self, data: bytes) -> None:
        self.channel.send_raw(data)

    def expect(self, kind: type[Message], timeout: float = 20.0) -> Any:
        while True:
            message = self.channel.receive(timeout)
            assert message is not None, f"no {kind.__name__} within {timeout} s"
            if isinstance(message, kind):
                return message

    def close(self) -> None:
        self.channel.close()


def _start(port: int, follower_colour: int = 1) -> RawPeer:
    peer = RawPeer(port)
    peer.send(GameReq("Raw peer", follower_colour, 1, 0).encode())
    accepted = peer.expect(GameAcc)
    assert accepted.code == 0
    return peer


def test_illegal_move_ends_the_game_won_by_damier(engines: tuple[Engine, Engine]) -> None:
    log = Lines()
    port, thread, out = _follower(engines[0], log)
    peer = _start(port)
    peer.send(Move(0, 32, 26).encode())  # not a legal move
    end = peer.expect(GameEnd)
    assert end.reason == 3  # Damier says: I win
    peer.send(GameEnd(0, 1).encode())
    thread.join(10)
    peer.close()
    assert "error" not in out and not thread.is_alive()
    [game] = out["games"]
    assert game.result.winner == 1
    assert "illegal move from Raw peer: 32-26 is not a legal move" in game.result.reason
    assert "Termination" in game.pdn() and "illegal move" in game.pdn()


def test_garbage_is_logged_and_the_game_goes_on(engines: tuple[Engine, Engine]) -> None:
    log = Lines()
    port, thread, out = _follower(engines[0], log)
    peer = _start(port)
    peer.send(b"hello\0M99\0" + bytes(range(128, 140)) + b"\0")
    peer.send(Chat("good luck").encode() + BackReq(1, 0).encode())
    assert peer.expect(BackAcc).code == 1
    peer.send(Move(3, 32, 28).encode())
    reply = peer.expect(Move)
    assert 11 <= reply.from_square <= 20
    peer.send(b"x" * 600)  # no NUL at all
    peer.close()  # then the connection drops
    thread.join(10)
    assert "error" not in out and not thread.is_alive()
    [game] = out["games"]
    assert game.result is None and "connection lost" in game.reason
    assert game.game.moves[0].notation == "32-28" and game.game.ply == 2
    assert log.has("malformed message: message type: unknown header 'h'")
    assert log.has("MOVE: expected at least 11 characters")
    assert log.has("not ASCII")
    assert log.has("without a NUL")
    assert log.has("chat: good luck")
    _replays(game)


def test_a_peer_reading_one_message_a_read_gets_the_acceptance_alone(
    engines: tuple[Engine, Engine],
) -> None:
    """Damier as white answers GAMEACC and moves at once: the two must not share one read
    (pydraughts 0.6 parses the first message of a read and drops the rest)."""
    port, thread, out = _follower(engines[0])
    sock = socket.create_connection((LOOPBACK, port), timeout=20)
    sock.sendall(GameReq("One read a message", 0, 1, 0).encode())  # Damier plays white
    time.sleep(0.1)  # a slow reader: Damier has found its first move by now
    acceptance, move = sock.recv(4096), sock.recv(4096)
    assert acceptance.count(b"\0") == 1 and decode(acceptance).code == 0  # GAMEACC alone
    assert move.count(b"\0") == 1 and isinstance(decode(move), Move)
    sock.close()
    thread.join(10)
    assert "error" not in out and not thread.is_alive()


def test_a_connection_probes_a_silent_peer() -> None:
    """A peer whose machine goes away never closes the connection: keepalive finds out."""
    server = listen(LOOPBACK, 0)
    channel = connect(LOOPBACK, server.getsockname()[1])
    accepted, _ = server.accept()
    server.close()
    assert channel.sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
    if hasattr(socket, "TCP_KEEPIDLE"):
        assert channel.sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE) == 60
    channel.close()
    accepted.close()


def test_dropped_connection_before_and_during_a_game(engines: tuple[Engine, Engine]) -> None:
    port, thread, out = _follower(engines[0])
    RawPeer(port).close()  # connects and goes away
    thread.join(10)
    assert "error" not in out and out["games"] == [] and not thread.is_alive()

    port, thread, out = _follower(engines[0])
    peer = _start(port, follower_colour=0)  # Damier moves first
    peer.expect(Move)
    peer.close()
    thread.join(10)
    assert "error" not in out and not thread.is_alive()
    assert out["games"][0].result is None


def test_peer_that_resigns_and_unknown_version(engines: tuple[Engine, Engine]) -> None:
    port, thread, out = _follower(engines[0])
    peer = RawPeer(port)
    peer.send(GameReq("Old", 1, 1, 0, version=2).encode())
    assert peer.expect(GameAcc).code == 1  # wrong version, refused
    peer.send(GameReq("New", 1, 1, 0).encode())
    assert peer.expect(GameAcc).code == 0
    peer.send(GameEnd(1, 1).encode())  # resigns before moving
    assert peer.expect(GameEnd) == GameEnd(0, 0)
    thread.join(10)
    peer.close()
    [game] = out["games"]
    assert game.result.winner == 1 and game.result.reason == "New resigned"
    assert game.peer_stops


def test_peer_out_of_time(engines: tuple[Engine, Engine]) -> None:
    port, thread, out = _follower(engines[0], grace=0.0, peer_timeout=0.3)
    peer = RawPeer(port)
    peer.send(GameReq("Slow", 1, 0, 0).encode())  # no game time: peer_timeout applies
    peer.expect(GameAcc)
    assert peer.expect(GameEnd).reason == 3
    peer.close()
    thread.join(10)
    assert out["games"][0].result.reason == "Slow made no move in 0.3 s"


def test_a_peer_that_asks_for_no_game_is_not_waited_for_ever(
    engines: tuple[Engine, Engine],
) -> None:
    log = Lines()
    port, thread, out = _follower(engines[0], log, peer_timeout=0.3)
    peer = RawPeer(port)  # connects, then says nothing
    thread.join(10)
    assert not thread.is_alive() and "error" not in out and out["games"] == []
    assert log.has("no game asked for in 0.3 s: closing")
    peer.close()


_FLOOD = r"""
import contextlib, socket, sys
peer = socket.socket(fileno=int(sys.argv[1]))
burst = b"Cspam\0" * 20_000
with contextlib.suppress(OSError):  # the Follower closes long before the end
    for _ in range(int(sys.argv[2])):
        peer.sendall(burst)
"""


def test_a_flood_of_chat_does_not_hold_off_the_peers_time(engines: tuple[Engine, Engine]) -> None:
    """A peer that never moves but sends chat faster than it can be read (20 million
    messages: minutes of reading) runs out of time all the same, the session ends, and the
    log shows the first chat only."""
    log = Lines()
    port, thread, out = _follower(engines[0], log, peer_timeout=0.3, end_timeout=0.3)
    peer = RawPeer(port)
    peer.send(GameReq("Raw peer", 1, 0, 0).encode())  # no game time: peer_timeout applies
    peer.expect(GameAcc)
    fd = peer.channel.sock.fileno()
    flooder = subprocess.Popen(  # another process, so that it outruns the reader
        [sys.executable, "-c", _FLOOD, str(fd), "1000"], pass_fds=[fd]
    )
    thread.join(30)
    peer.close()
    flooder.wait(30)
    assert not thread.is_alive(), "the flood kept the Follower waiting"
    assert "error" not in out
    [game] = out["games"]
    assert game.result is not None and game.result.reason == "Raw peer made no move in 0.3 s"
    assert log.has("more chat and ignored messages from the peer: not shown")
    assert sum("chat: spam" in line for line in log.lines) == NOISE_SHOWN


# -- the command line --------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        port: int = probe.getsockname()[1]
        return port


def test_cli_listen_and_connect(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status: dict[str, int] = {}
    listener = threading.Thread(
        target=lambda: status.update(
            follower=main(["dxp", "--listen", "0", "--level", "2", "--time", "0.02"])
        ),
        daemon=True,
    )
    listener.start()
    seen = ""
    for _ in range(200):  # the follower prints the port it listens on
        seen += capsys.readouterr().out
        if "waiting for a DXP Initiator on" in seen:
            break
        threading.Event().wait(0.05)
    port = seen.split("waiting for a DXP Initiator on ")[1].split()[0].rpartition(":")[2]
    pdn = tmp_path / "dxp.pdn"
    args = ["dxp", "--connect", f"{LOOPBACK}:{port}", "--level", "3", "--time", "0.02"]
    status["initiator"] = main([*args, "--games", "2", "--pdn", str(pdn)])
    listener.join(30)
    out = seen + capsys.readouterr().out
    assert status == {"follower": 0, "initiator": 0}
    assert "game accepted by Damier" in out
    assert out.count("game 1: ") == 2 and out.count("game 2: ") == 2
    records = read_pdn(pdn.read_text())
    assert len(records) == 2
    for record in records:
        record.replay()


def test_cli_connect_to_nobody_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dxp", "--connect", f"{LOOPBACK}:{_free_port()}"]) == 1
    assert "cannot connect" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--connect", f"{LOOPBACK}:1", "--fen", "W:W99:B1"], "square 99"),
        (["--connect", f"{LOOPBACK}:99999"], "a port of 1-65535"),
        (["--connect", f"{LOOPBACK}"], "HOST:PORT"),
        (["--listen", "0", "--host", "no-such-host.invalid"], "cannot listen"),
    ],
)
def test_cli_bad_addresses_and_positions_are_clear_errors(
    args: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Said before any connection is made or waited for, and without a traceback."""
    assert main(["dxp", *args]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err


def test_cli_listen_port_out_of_range(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["dxp", "--listen", "99999"])
    assert stopped.value.code == 2
    assert "--listen" in capsys.readouterr().err


@pytest.mark.parametrize("seconds", ["0", "-5", "nan", "inf", "1e12", "ten"])
def test_cli_peer_timeout_must_be_seconds_above_nothing(
    seconds: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["dxp", "--connect", f"{LOOPBACK}:{_free_port()}", "--peer-timeout", seconds])
    assert stopped.value.code == 2
    assert "--peer-timeout" in capsys.readouterr().err


# -- pydraughts --------------------------------------------------------------------

_PYDRAUGHTS_INITIATOR = r"""
import json, random, sys
sys.path.insert(0, sys.argv[1])
port, damier_colour, seed = int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
import draughts
from draughts.engine import DXPEngine  # pydraughts only
from draughts.engines.dxp_communication import dxp_classes
dxp_classes.time.sleep = lambda seconds: None  # its socket close waits 7 s
rng = random.Random(seed)
board = draughts.Board()
engine = DXPEngine(options={"engine-opened": True, "ip": "127.0.0.1", "port": port,
                            "initial-time": 600})
moves = []
if damier_colour == "black":  # pydraughts asks for a game with the engine to move
    move = rng.choice(board.legal_moves())
    board.push(move)
    moves.append(move.pdn_move)
while not board.is_over() and len(board.move_stack) < 300:
    if (board.turn == draughts.WHITE) == (damier_colour == "white"):
        move = engine.play(board).move
        if move is None:
            break
    else:
        move = rng.choice(board.legal_moves())
    board.push(move)
    moves.append(move.pdn_move)
engine.quit()
json.dump({"moves": moves, "over": board.is_over(), "winner": board.winner()}, sys.stdout)
"""


@pytest.mark.parametrize("colour", ["white", "black"])
def test_pydraughts_dxp_client_plays_a_game(colour: str, engines: tuple[Engine, Engine]) -> None:
    if not (PYD_PATH / "draughts" / "engines" / "dxp.py").is_file():
        pytest.skip(f"pydraughts not installed in {PYD_PATH} (see module docstring)")
    log = Lines()
    port, thread, out = _follower(engines[1], log, end_timeout=5.0)
    proc = subprocess.run(
        [sys.executable, "-c", _PYDRAUGHTS_INITIATOR, str(PYD_PATH), str(port), colour, "7"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    thread.join(30)
    if proc.returncode != 0:
        pytest.skip(f"pydraughts' DXP client failed: {proc.stderr[-500:]}")
    assert "error" not in out
    theirs = json.loads(proc.stdout)
    [game] = out["games"]
    assert game.colour == (0 if colour == "white" else 1)
    assert game.opponent == "DXP Client"
    assert len(game.game.moves) == len(theirs["moves"])
    assert game.result is not None, game.reason
    if theirs["over"]:  # both referees saw the end: the same winner
        winner = {2: 0, 1: 1}.get(theirs["winner"])  # pydraughts: WHITE 2, BLACK 1, draw 0
        assert game.result.winner == winner
    _replays(game)
