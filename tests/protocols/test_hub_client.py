"""``damier.protocols.hub_client``: an outside Hub engine driven from Python, tried over a
scripted transport (no process), then against Damier's own ``damier hub``."""

from __future__ import annotations

import queue
import sys
from collections.abc import Callable

import pytest

from damier import Board
from damier.engine import Info
from damier.protocols.hub_client import EngineError, HubEngine, hub_position


class Scripted:
    """A transport whose engine is ``answer``: each line sent gets its lines back."""

    def __init__(self, answer: Callable[[str], list[str]]) -> None:
        self.answer = answer
        self.sent: list[str] = []
        self._lines: queue.Queue[str | None] = queue.Queue()
        self.alive = True

    def send(self, line: str) -> None:
        self.sent.append(line)
        for reply in self.answer(line):
            self._lines.put(reply)

    def receive(self, timeout: float | None) -> str | None:
        try:
            return self._lines.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError from None

    def death(self) -> str:
        return "engine exited with code 1"

    def close(self) -> None:
        self.alive = False


def engine(
    go: Callable[[], list[str]], variant: str = "international"
) -> tuple[HubEngine, Scripted]:
    def answer(line: str) -> list[str]:
        word = line.split()[0]
        if word == "hub":
            return ["id name=Scripted version=1", "param name=variant value=normal", "wait"]
        if word == "init":
            return ["ready"]
        if word == "go":
            return go()
        return []

    transport = Scripted(answer)
    return HubEngine(transport, variant), transport


def test_the_handshake_names_the_engine_and_sets_its_variant() -> None:
    hub, transport = engine(lambda: [], "russian")
    assert hub.name == "Scripted" and "variant" in hub.params
    assert transport.sent == ["hub", "set-param name=variant value=russian", "init"]
    assert repr(hub) == "<HubEngine Scripted (russian)>"


def test_a_search_reads_the_info_lines_and_the_move() -> None:
    lines = [
        "info depth=1 score=0.05 nodes=20 time=0.01 pv=32-28",
        'info depth=7 score=-0.12 nodes=5000 time=0.20 pv="33-28 17-22 28x17"',
        "done move=33-28 ponder=17-22",
    ]
    hub, transport = engine(lambda: lines)
    board = Board("international")
    board.push("32-28")
    board.push("19-23")
    board.pop()
    board.pop()
    heard: list[Info] = []
    info = hub.search(board, time=0.2, on_info=heard.append)
    assert transport.sent[-3:] == [
        f"pos pos={hub_position(board)}",
        "level move-time=0.2",
        "go think",
    ]
    assert [i.depth for i in heard] == [1, 7]
    assert (info.depth, info.score, info.nodes, info.seconds) == (7, -12, 5000, 0.2)
    assert [m.notation for m in info.pv] == ["33-28", "17-22", "28x17"]
    assert info.best_move == board.parse_move("33-28")


def test_the_game_s_moves_are_sent_and_a_line_is_read_while_legal() -> None:
    lines = ['info depth=3 score=0.00 pv="18-23 99-98 33-29"', "done move=18-23"]
    hub, transport = engine(lambda: lines)
    board = Board("international")
    board.push("32-28")
    info = hub.search(board, depth=3)
    start = Board("international")
    assert f'pos pos={hub_position(start)} moves="32-28"' in transport.sent
    assert "level depth=3" in transport.sent
    assert [m.notation for m in info.pv] == ["18-23"]  # cut at the move that is not legal


@pytest.mark.parametrize(
    ("go", "reason"),
    [
        (lambda: ["done move=32-26"], "played the illegal move '32-26'"),
        (lambda: ["done"], "without a move"),
        (lambda: ['error message="no"'], "refused to search"),
        (lambda: ["info depth=1"], "no 'done' within 0.1 s"),
    ],
)
def test_a_broken_engine_is_an_engine_error(go: Callable[[], list[str]], reason: str) -> None:
    hub, _ = engine(go)
    with pytest.raises(EngineError, match=reason):
        hub.search(Board("international"), time=0.01, timeout=0.1)


def test_an_engine_still_thinking_is_asked_again() -> None:
    answers = iter([['error message="already thinking"'], ["done move=32-28"]])
    hub, transport = engine(lambda: next(answers))
    assert hub.search(Board("international")).best_move == Board("international").parse_move(
        "32-28"
    )
    assert transport.sent.count("go think") == 2


def test_damier_s_own_hub_engine_over_a_process() -> None:
    command = f"{sys.executable} -m damier.cli hub --variant russian --level 3"
    with HubEngine.popen(command, "russian") as hub:
        assert hub.name.startswith("Damier")
        board = Board("russian")
        info = hub.search(board, depth=4)
        assert info.best_move in board.legal_moves and info.depth >= 1
    assert not hub.transport.alive


def test_a_command_that_does_not_start_is_an_engine_error() -> None:
    with pytest.raises(EngineError, match="cannot start"):
        HubEngine.popen("/nonexistent/engine hub")
