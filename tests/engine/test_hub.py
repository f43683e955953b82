"""The Hub front end (``damier hub``): unit tests on :class:`HubEngine` and a whole game
driven by pydraughts' Hub client in a subprocess.

pydraughts imports as ``draughts``, like py-draughts (a dev dependency), so it lives in a
directory of its own: ``DAMIER_PYDRAUGHTS_PATH`` (default ``/tmp/pyd``; ``pip install
--target /tmp/pyd pydraughts``). The pydraughts test is skipped when it is not there.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from damier import Board
from damier.compiled import Warmup, engine_parts
from damier.engine import CONTEMPT
from damier.protocols.hub import HubEngine, board_from_hub, hub_move, parse_hub_move

PYD_PATH = Path(os.environ.get("DAMIER_PYDRAUGHTS_PATH", "/tmp/pyd"))
START = "W" + "b" * 20 + "e" * 10 + "w" * 20


def hub_position(board: Board) -> str:
    """A Hub position string, written independently of the module under test."""
    letters = []
    for square in range(1, board.geometry.cell_count + 1):
        piece = board.piece_at(square)
        if piece is None:
            letters.append("e")
        else:
            owner, king = piece
            letter = "w" if owner == 0 else "b"
            letters.append(letter.upper() if king else letter)
    return ("W" if board.turn == 0 else "B") + "".join(letters)


class Hub:
    """A HubEngine with its replies collected."""

    def __init__(self, variant: str = "international", level: int = 10) -> None:
        self.lines: list[str] = []
        self.engine = HubEngine(self.lines.append, variant, level)

    def send(self, *lines: str) -> list[str]:
        """Send lines; return the replies they produced (waiting for a search to end)."""
        start = len(self.lines)
        for line in lines:
            self.engine.handle(line)
        self.engine.wait()
        return self.lines[start:]

    def go(self, *setup: str) -> list[str]:
        return self.send(*setup, "go think")


@pytest.fixture(scope="module")
def warm() -> None:
    """Build the engines once so the timing tests measure no compilation."""
    hub = Hub()
    hub.go("init", "level depth=2")


def done_move(lines: list[str]) -> str:
    assert lines[-1].startswith("done move="), lines
    return lines[-1].split()[1].removeprefix("move=")


# --------------------------------------------------------------------------------------
# Commands
# --------------------------------------------------------------------------------------


def test_hub_command_lists_id_and_params_then_waits() -> None:
    lines = Hub().send("hub")
    assert lines[0].startswith("id name=Damier ")
    assert all(line.startswith("param ") for line in lines[1:-1])
    assert lines[-1] == "wait"
    variant = next(line for line in lines if "name=variant" in line)
    values = re.search(r'values="([^"]*)"', variant)
    assert values is not None
    assert {"normal", "losing"} <= set(values.group(1).split())


def test_init_ping() -> None:
    hub = Hub()
    assert hub.send("init") == ["ready"]
    assert hub.send("ping") == ["pong"]
    assert hub.send("") == []
    assert hub.send("new-game") == []


def test_go_think_gives_infos_then_a_legal_move() -> None:
    hub = Hub()
    lines = hub.go("init", "pos pos=" + START, "level depth=3")
    infos = [line for line in lines if line.startswith("info ")]
    assert len(infos) == 3
    assert [re.search(r"depth=(\d+)", line).group(1) for line in infos] == ["1", "2", "3"]  # type: ignore[union-attr]
    for info in infos:
        assert re.fullmatch(
            r'info depth=\d+ score=-?\d+\.\d\d nodes=\d+ time=\d+\.\d\d nps=\d+\.\d\d pv="[^"]*"',
            info,
        ), info
    assert lines[0] == "ready"
    assert len(lines) == 5
    board = Board("international")
    move = done_move(lines)
    assert move in {hub_move(m) for m in board.legal_moves}
    assert re.fullmatch(r"\d+-\d+", move)
    ponder = lines[-1].split()[2:]
    if ponder:  # the reply predicted, legal after the move
        board.push(parse_hub_move(board, move))
        reply = ponder[0].removeprefix("ponder=")
        assert reply in {hub_move(m) for m in board.legal_moves}


def test_pos_without_position_is_the_start() -> None:
    hub = Hub()
    hub.send("pos")
    assert hub.engine.board.fen == Board("international").fen


def test_pos_moves_are_applied() -> None:
    hub = Hub()
    hub.send("pos pos=" + START + ' moves="32-28 19-23 28x19 14x23"')
    board = Board("international")
    for move in ("32-28", "19-23", "28x19", "14x23"):
        board.push(move)
    assert hub.engine.board.fen == board.fen
    assert hub_position(hub.engine.board) == hub_position(board)
    lines = hub.go("level depth=2")
    assert done_move(lines) in {hub_move(m) for m in board.legal_moves}


def test_position_string_round_trip() -> None:
    fen = "B:W33,39,K42,47:B28,K29"
    board = Board("international", fen)
    text = hub_position(board)
    assert text == "B" + "".join(
        {28: "b", 29: "B", 33: "w", 39: "w", 42: "W", 47: "w"}.get(n, "e") for n in range(1, 51)
    )
    assert board_from_hub(board.variant, text).fen == board.fen


SHOT = "W:W38,39,42,47:B28,29"  # 38-33 29x38 42x22 (takes 38 and 28)


def test_capture_written_from_to_then_captured_ascending() -> None:
    board = Board("international", SHOT)
    board.push("38-33")
    board.push("29x38")
    (capture,) = board.legal_moves
    assert hub_move(capture) == "42x22x28x38"
    hub = Hub()
    lines = hub.go(f"pos pos={hub_position(board)}", "level depth=3")
    assert done_move(lines) == "42x22x28x38"


def test_captured_squares_parse_in_any_order() -> None:
    start = Board("international", SHOT)
    for text in ("42x22x28x38", "42x22x38x28", "42x22"):
        hub = Hub()
        hub.send(f'pos pos={hub_position(start)} moves="38-33 29x38x33 {text}"')
        assert hub.engine.board.fen == "B:W22,39,47:B"


def test_mate_score_is_written_as_scan_does() -> None:
    """A win n plies away is written 100 - n/100 (Scan's "99.xx"), as pydraughts reads it."""
    hub = Hub()
    lines = hub.go(f"pos pos={hub_position(Board('international', SHOT))}", "level depth=5")
    scores = [float(re.search(r"score=(\S+)", line).group(1)) for line in lines[:-1]]  # type: ignore[union-attr]
    assert scores[-1] == pytest.approx(99.97)
    assert done_move(lines) == "38-33"


def test_set_param_variant_losing() -> None:
    hub = Hub()
    assert hub.send("set-param name=variant value=losing") == []
    assert hub.engine.variant.giveaway
    assert hub.engine.variant.name == "international-giveaway"
    # white gives its last man away: 38-32, black must take it
    board = Board("international-giveaway", "W:W38:B28,39")
    lines = hub.go(f"pos pos={hub_position(board)}", "level depth=4")
    assert done_move(lines) == "38-32"
    assert hub.send("set-param name=variant value=russian") == []
    lines = hub.go("pos", "level depth=2")
    assert done_move(lines) in {hub_move(m) for m in Board("russian").legal_moves}
    assert hub.send("set-param name=variant value=normal") == []
    assert hub.engine.variant.name == "international"


def test_set_param_level() -> None:
    hub = Hub()
    assert hub.send("set-param name=level value=1") == []
    assert hub.engine.level == 1
    lines = hub.go("init", "pos", "level depth=5")
    assert all("depth=1 " in line for line in lines if line.startswith("info"))
    assert done_move(lines) in {hub_move(m) for m in Board().legal_moves}


def test_set_param_contempt_for_a_game_s_moves_only() -> None:
    """``contempt`` is what a draw costs the engine when it plays (``go think``); an
    analysis values draws at 0."""
    hub = Hub()
    listed = next(line for line in hub.send("hub") if "name=contempt" in line)
    assert f"value={CONTEMPT} " in listed and "min=-100 max=100" in listed
    assert hub.send("set-param name=contempt value=-30") == []
    assert hub.engine.contempt == -30
    hub.go("init", "pos", "level move-time=0.05")
    assert hub.engine.engine is not None and hub.engine.engine.contempt == -30
    hub.send("level infinite")
    hub.engine.handle("go analyze")
    deadline = time.perf_counter() + 10
    while not hub.lines[-1].startswith("info") and time.perf_counter() < deadline:
        time.sleep(0.005)
    assert hub.engine.engine.contempt == 0
    hub.engine.handle("stop")
    hub.engine.wait()


def test_set_param_tt_size_as_scan_counts_it() -> None:
    """``tt-size`` is the base-2 logarithm of the table's entries, as Scan's parameter."""
    hub = Hub()
    listed = next(line for line in hub.send("hub") if "name=tt-size" in line)
    assert "value=21 " in listed and "min=16 max=27" in listed
    hub.send("init")
    assert hub.engine.engine is not None
    assert len(hub.engine.engine._context.table) == 1 << 21
    assert hub.send("set-param name=tt-size value=16") == []
    assert done_move(hub.go("pos", "level depth=3"))
    assert len(hub.engine.engine._context.table) == 1 << 16


def test_tt_size_more_than_half_the_memory_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("damier.protocols.hub.machine_memory", lambda: 1 << 30)
    hub = Hub()
    [line] = hub.send("set-param name=tt-size value=26")  # 1 GB on a 1 GB machine
    assert line == 'error message="tt-size 26 needs 1024 MB, more than half this machine\'s memory"'
    assert hub.engine.tt_size == 21
    assert hub.send("set-param name=tt-size value=24") == []  # 256 MB


def test_level_limits() -> None:
    hub = Hub()
    hub.send("init")
    started = time.perf_counter()
    lines = hub.go("pos", "level move-time=0.2")
    # A generous bound: it proves the move time stops a search that would otherwise
    # run on; how much of the time the search uses is its own business.
    assert time.perf_counter() - started < 5.0
    assert done_move(lines)
    lines = hub.go("pos", "level time=1 inc=0.01")
    assert done_move(lines)
    lines = hub.go("pos", "level nodes=3000")
    assert done_move(lines)
    assert all(int(re.search(r"nodes=(\d+)", x).group(1)) <= 3000 for x in lines[:-1])  # type: ignore[union-attr]


MALFORMED = [
    "frobnicate",
    "pos pos=Xeee",
    "pos pos=W" + "x" * 50,
    "pos pos=" + START[:-1],
    f'pos pos={START} moves="32-26"',
    f'pos pos={START} moves="32"',
    f'pos pos={START} moves="32-28',  # no closing quote
    "level depth=deep",
    "level move-time=soon",
    # numbers that would leave the search unbounded (NaN, infinity, no depth or nodes)
    # or give it no time at all
    "level move-time=nan",
    "level move-time=inf",
    "level move-time=-1",
    "level move-time=1e308",
    "level depth=0",
    "level depth=-5",
    "level nodes=-1",
    "level time=nan",
    "level time=-3",
    "level time=5 inc=-1",
    "level time=5 moves=0",
    "set-param name=level value=11",
    "set-param name=level value=ten",
    "set-param name=contempt value=101",
    "set-param name=contempt value=-5.5",
    "set-param name=contempt value=",
    "set-param name=tt-size value=15",
    "set-param name=tt-size value=28",
    "set-param name=tt-size value=big",
    "set-param name=variant value=chess",
    "set-param name=colour value=red",
    "go sideways",
]


@pytest.mark.parametrize("line", MALFORMED)
def test_malformed_line_gives_one_error(line: str) -> None:
    hub = Hub()
    hub.send("init")
    before = hub.engine.board.fen
    lines = hub.send(line)
    assert len(lines) == 1, lines
    assert re.fullmatch(r'error message="[^"]*"', lines[0]), lines
    assert hub.send("ping") == ["pong"]
    assert hub.engine.board.fen == before
    # and it still plays
    assert done_move(hub.go("pos", "level depth=1"))


def test_go_without_a_legal_move_is_an_error() -> None:
    hub = Hub()
    lines = hub.send("pos pos=W" + "b" + "e" * 49, "go think")
    assert len(lines) == 1 and lines[0].startswith('error message="')
    assert hub.send("ping") == ["pong"]


def test_stop_during_analyze(warm: None) -> None:
    hub = Hub()
    hub.send("init", "pos", "level infinite")
    hub.engine.handle("go analyze")
    deadline = time.perf_counter() + 10
    while not any(x.startswith("info") for x in hub.lines) and time.perf_counter() < deadline:
        time.sleep(0.005)
    time.sleep(0.05)
    # a second go while thinking is refused, and ping is answered at once
    hub.engine.handle("go think")
    assert hub.lines[-1].startswith('error message="')
    hub.engine.handle("ping")
    assert hub.lines[-1] == "pong"
    started = time.perf_counter()
    hub.engine.handle("stop")
    hub.engine.wait()
    assert time.perf_counter() - started < 0.1
    assert done_move(hub.lines) in {hub_move(m) for m in Board().legal_moves}


def test_stop_right_after_go_is_not_lost(warm: None) -> None:
    """``stop`` sent before the search thread has started must still end the search."""
    hub = Hub()
    hub.send("init", "pos", "level infinite")
    for _ in range(30):
        started = time.perf_counter()
        hub.engine.handle("go analyze")
        hub.engine.handle("stop")
        thread = hub.engine._thinking
        assert thread is not None
        thread.join(2.0)
        alive = thread.is_alive()
        if alive:  # do not leave a day-long search behind
            hub.engine.handle("stop")
            hub.engine.wait()
        assert not alive
        assert time.perf_counter() - started < 1.0
        assert hub.lines[-1].startswith("done move=")


def test_quit_stops_the_search(warm: None) -> None:
    hub = Hub()
    hub.send("init", "pos", "level infinite")
    hub.engine.handle("go ponder")
    time.sleep(0.05)
    started = time.perf_counter()
    hub.engine.handle("quit")
    assert hub.engine.quit
    assert time.perf_counter() - started < 0.5
    assert hub.lines[-1].startswith("done")


def test_go_while_the_code_loads_waits_for_it_and_answers_a_searched_move() -> None:
    """On a new machine the engine's code compiles for a minute: a ``go`` sent meanwhile
    (here: before any ``init``) waits for it, says why, and its clock starts after, so
    that the answer is searched rather than the depth-0 move of a search out of time."""
    warmup = Warmup(engine_parts("international"))
    gate = warmup.hold("kernel")  # the code "loads" until the gate opens
    lines: list[str] = []
    engine = HubEngine(lines.append, warmups=lambda variant: warmup)
    try:
        engine.handle("pos pos=" + START)
        engine.handle("level move-time=0.05")
        engine.handle("go think")
        engine.handle("ping")  # the front end still answers
        assert "pong" in lines
        assert not any(line.startswith("done") for line in lines)
        assert not warmup.ready("engine")
    finally:
        gate.set()
    engine.wait()
    infos = [line for line in lines if line.startswith("info ")]
    assert infos[0].startswith('info message="waiting for the engine')
    depths = [int(m.group(1)) for line in infos if (m := re.match(r"info depth=(\d+)", line))]
    assert depths and min(depths) >= 1
    assert done_move(lines) in {hub_move(m) for m in Board().legal_moves}


# --------------------------------------------------------------------------------------
# The command line, without and with pydraughts
# --------------------------------------------------------------------------------------

HUB_COMMAND = [sys.executable, "-m", "damier.cli", "hub"]


def test_cli_hub_session() -> None:
    session = "\n".join(
        ["hub", "init", "ping", "bogus", "pos", "level depth=2", "go think", "quit", ""]
    )
    proc = subprocess.run(
        HUB_COMMAND, input=session, capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert "wait" in lines and "ready" in lines and "pong" in lines
    assert sum(line.startswith("error ") for line in lines) == 1
    assert lines[-1].startswith("done move=")


def test_cli_hub_end_of_input_finishes_the_search() -> None:
    proc = subprocess.run(
        HUB_COMMAND,
        input="init\npos\nlevel depth=2\ngo think\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1].startswith("done move=")


_PYDRAUGHTS_GAME = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
from draughts import Board
from draughts.core.variant import Board as _CoreBoard  # pydraughts only
from draughts.engine import Limit
from draughts.engines.hub import HubEngine

engine = HubEngine(json.loads(sys.argv[2]))
played = []
try:
    engine.init()
    engine.ping()
    board = Board(variant="standard")
    while not board.is_over() and len(board.move_stack) < int(sys.argv[3]):
        result = engine.play(board, Limit(depth=2), ponder=False)
        legal = [m.board_move for m in board.legal_moves()]
        if result.move.board_move not in legal:
            raise SystemExit(f"illegal move {result.move.hub_move} in {board.fen}")
        board.push(result.move)
        played.append(result.move.hub_move)
    game = board
    # a shot: mate in 3 plies, which pydraughts reads back as a win in 2 moves
    shot_board = Board(variant="standard", fen="W:W38,39,42,47:B28,29")
    shot = engine.play(shot_board, Limit(depth=5), False)
    engine.quit()
    engine.p.wait(timeout=30)
finally:
    if engine.p.poll() is None:
        engine.kill_process()
json.dump({"moves": played, "winner": game.winner(), "shot": [shot.move.hub_move, shot.info]},
          sys.stdout)
"""


def test_pydraughts_plays_a_game() -> None:
    if not (PYD_PATH / "draughts" / "engines" / "hub.py").is_file():
        pytest.skip(f"pydraughts not installed in {PYD_PATH} (see module docstring)")
    # pydraughts resolves symbolic links in the engine's path, and a virtual environment's
    # python is one: it would start the base interpreter, outside the environment. The
    # environment's `damier` script is a plain file that names its own interpreter.
    script = Path(sys.executable).with_name("damier")
    if not script.is_file():
        pytest.skip(f"no damier script beside {sys.executable}: install the package")
    command = [str(script), "hub"]
    plies = 120
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            _PYDRAUGHTS_GAME,
            str(PYD_PATH),
            json.dumps(command),
            str(plies),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert proc.returncode == 0, proc.stderr[-3000:] + proc.stdout[-2000:]
    result = json.loads(proc.stdout)
    moves = result["moves"]
    assert len(moves) == plies or result["winner"] is not None
    assert len(moves) >= 20
    # the same game, replayed by Damier from the Hub moves
    board = Board("international")
    for text in moves:
        board.push(parse_hub_move(board, text))
    move, info = result["shot"]
    assert move == "38-33"
    assert info["score"] == {"win": 2}
