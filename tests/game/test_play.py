"""``damier play`` in a real pseudo-terminal: two players type moves until a result."""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from damier.game import Result
from damier.notation.pdn import read_pdn

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")


class Terminal:
    """``damier play ...`` on the slave side of a pty; we hold the master side."""

    def __init__(self, *args: str) -> None:
        master, slave = os.openpty()
        self.master = master
        env = dict(os.environ, COLUMNS="120", LINES="50")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "damier.cli", "play", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            close_fds=True,
            env=env,
        )
        os.close(slave)
        self.output = ""
        self.seen = 0

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:  # EIO: the program has exited and closed the terminal
            return False
        if not data:
            return False
        self.output += data.decode("utf-8", errors="replace").replace("\r\n", "\n")
        return True

    def expect(self, text: str, timeout: float = 60.0) -> str:
        """Everything printed since the last expectation, up to and including ``text``."""
        deadline = time.monotonic() + timeout
        while text not in self.output[self.seen :]:
            left = deadline - time.monotonic()
            if left <= 0 or (not self._read(min(left, 1.0)) and self.process.poll() is not None):
                if text in self.output[self.seen :]:
                    break
                raise AssertionError(f"{text!r} never came; got:\n{self.output[self.seen :]}")
        end = self.output.index(text, self.seen) + len(text)
        chunk, self.seen = self.output[self.seen : end], end
        return chunk

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def finish(self, timeout: float = 30.0) -> int:
        deadline = time.monotonic() + timeout
        while self.process.poll() is None and time.monotonic() < deadline:
            self._read(0.2)
        while self._read(0.1):
            pass
        code = self.process.wait(timeout=5)
        os.close(self.master)
        return code


@pytest.fixture
def terminals() -> list[Terminal]:
    started: list[Terminal] = []
    yield started
    for terminal in started:
        if terminal.process.poll() is None:
            terminal.process.kill()
            terminal.process.wait()


def pieces(screen: str) -> dict[int, str]:
    """The pieces of the last board drawn in ``screen``, by square number: each rank line
    (``  8   b   b   b   b        1     2     3     4``) lists its playable squares left to
    right, and squares are numbered row by row from the top (RULES.md decision 7)."""
    rows: list[list[str]] = []
    for line in screen.splitlines():
        match = re.match(r"^\s*(\d+) ", line)
        if not match:
            continue
        cells = re.findall(r"[wbWB.]", line[match.end() :])
        if int(match.group(1)) == 10 or (int(match.group(1)) == 8 and len(cells) == 4):
            rows = []  # the top rank: a new board begins
        rows.append(cells)
    width = len(rows[0])
    return {
        row * width + index + 1: cell
        for row, cells in enumerate(rows)
        for index, cell in enumerate(cells)
        if cell != "."
    }


def start_64() -> dict[int, str]:
    return {**{s: "b" for s in range(1, 13)}, **{s: "w" for s in range(21, 33)}}


def moves_line(screen: str) -> set[str]:
    line = next(row for row in screen.splitlines() if row.strip().startswith("moves:"))
    return set(line.split(":", 1)[1].split())


def test_russian_game_with_clock_to_a_resignation(
    tmp_path: Path, terminals: list[Terminal]
) -> None:
    record = tmp_path / "game.pdn"
    term = Terminal("--variant", "russian", "--clock", "5+3", "--pdn", str(record))
    terminals.append(term)
    screen = term.expect("White> ")
    assert "Russian" in screen or "russian" in screen
    assert pieces(screen) == start_64()  # the board: Black on 1-12, White on 21-32
    # 5 minutes each (White's time runs from the start: 5:00 or, a moment later, 4:59)
    assert re.search(r"White (5:00|4:59)  Black 5:00", screen)
    # the White men on 21-24 step to 17-20: seven moves (hand count)
    assert moves_line(screen) == {"21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"}

    term.type("c3-c4")  # not a diagonal move
    screen = term.expect("White> ")
    assert "illegal" in screen

    term.type("c3-d4")  # = 22-18
    screen = term.expect("Black> ")
    after = {k: v for k, v in start_64().items() if k != 22}
    assert pieces(screen) == {**after, 18: "w"}
    # Black's men on 9-12 step to 13-16: seven moves again
    assert moves_line(screen) == {"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}

    term.type("resign")
    screen = term.expect("result: ")
    screen += term.expect("\n")
    assert "result: 2-0 (White wins: resignation)" in screen
    term.expect(f"saved to {record}")
    assert term.finish() == 0

    games = read_pdn(record.read_text(encoding="utf-8"))
    assert len(games) == 1 and not games[0].errors
    pdn = games[0]
    assert pdn.tags["GameType"] == "25" and pdn.result == "2-0"
    assert pdn.tags["Termination"] == "resignation"
    assert [n.text for n in pdn.moves] == ["22-18"]
    game = pdn.replay()
    assert game.result == Result(0, "recorded result")
    assert game.board.fen == "B:W18,21,23-32:B1-12"


def test_forced_win_from_a_position(tmp_path: Path, terminals: list[Terminal]) -> None:
    # White men e5 (15), g5 (16), h4 (20); Black men e7 (7), g7 (8). 1. g5-f6 (16-11)
    # forces e7xg5 (7x16); then h4 takes g5 and g7, crowning on h8: 20x11x4. No black
    # pieces are left.
    fen = "W:W15,16,20:B7,8"
    record = tmp_path / "win.pdn"
    term = Terminal("--variant", "russian", "--fen", fen, "--pdn", str(record))
    terminals.append(term)
    screen = term.expect("White> ")
    assert pieces(screen) == {15: "w", 16: "w", 20: "w", 7: "b", 8: "b"}
    assert moves_line(screen) == {"15-10", "15-11", "16-11", "16-12"}
    term.type("g5-f6")
    screen = term.expect("Black> ")
    assert moves_line(screen) == {"7x16"}  # the capture is compulsory and the only one
    term.type("7x16")
    screen = term.expect("White> ")
    assert moves_line(screen) == {"20x4"}
    term.type("20x4")
    screen = term.expect("result: ")
    screen += term.expect("\n")
    assert "result: 2-0 (White wins: no pieces)" in screen
    assert pieces(screen) == {4: "W", 15: "w"}  # the final board: a new king on 4
    term.expect("saved to")
    assert term.finish() == 0

    pdn = read_pdn(record.read_text(encoding="utf-8"))[0]
    assert pdn.tags["FEN"] == fen
    assert [n.text for n in pdn.moves] == ["16-11", "7x16", "20x4"]
    game = pdn.replay()
    assert game.result == Result(0, "no pieces")
    assert game.board.fen == "B:WK4,15:B"


def test_draw_agreement_and_undo(terminals: list[Terminal]) -> None:
    term = Terminal("--variant", "international")
    terminals.append(term)
    term.expect("White> ")
    term.type("32-28")
    term.expect("Black> ")
    term.type("undo")
    screen = term.expect("White> ")
    assert pieces(screen) == {  # back to the start
        **{s: "b" for s in range(1, 21)},
        **{s: "w" for s in range(31, 51)},
    }
    term.type("33-28")
    term.expect("Black> ")
    term.type("draw")  # Black offers (his turn goes on) ...
    screen = term.expect("Black> ")
    assert "Black offers a draw" in screen
    term.type("18-23")  # ... and moves: the offer stands for White to answer
    screen = term.expect("White> ")
    assert "Black offers a draw: type draw to accept" in screen
    term.type("draw")
    screen = term.expect("result: ")
    screen += term.expect("\n")
    assert "result: 1-1 (draw: agreement)" in screen
    assert term.finish() == 0


def test_quit_leaves_the_game_unfinished(terminals: list[Terminal]) -> None:
    term = Terminal("--variant", "english")
    terminals.append(term)
    screen = term.expect("Black> ")  # Black moves first in English draughts
    assert moves_line(screen) == {"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}
    term.type("quit")
    term.expect("the game is left unfinished")
    assert term.finish() == 0


@pytest.mark.parametrize("clock", ["0", "0+0", "0/move", "0/move+0"])
def test_a_clock_without_time_is_refused_before_the_game(clock: str) -> None:
    """``--clock 0`` lost the game on time before its first move."""
    from damier.play import play_in_terminal

    with pytest.raises(ValueError, match="give some time"):
        play_in_terminal("russian", clock=clock)


def test_a_record_that_cannot_be_written_is_said_before_the_game(tmp_path: Path) -> None:
    from damier.play import play_in_terminal

    with pytest.raises(OSError):
        play_in_terminal("russian", pdn_path=str(tmp_path / "no-such-folder" / "game.pdn"))


def test_a_record_that_cannot_be_written_at_the_end_is_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing is lost when the file went away during the game: the record is printed."""
    import io

    from damier.play import play_in_terminal

    folder = tmp_path / "games"
    folder.mkdir()
    path = folder / "game.pdn"

    class Moves(io.StringIO):
        def readline(self, *args: object) -> str:  # the folder is gone after the first move
            line = super().readline()
            if line == "quit\n":
                path.unlink()
                folder.rmdir()
            return line

    out = io.StringIO()
    status = play_in_terminal(
        "russian", pdn_path=str(path), stdin=Moves("22-18\nquit\n"), stdout=out
    )
    assert status == 1
    assert "cannot write" in out.getvalue() and "1. 22-18 *" in out.getvalue()


def _play_against(text: str, *, variant: str = "russian", **options: object) -> str:
    """What ``damier play`` prints for a game with the computer in it, the people's lines
    read from ``text``."""
    import io

    from damier.play import play_in_terminal

    out = io.StringIO()
    assert play_in_terminal(variant, stdin=io.StringIO(text), stdout=out, **options) == 0  # type: ignore[arg-type]
    return out.getvalue()


def test_the_computer_finds_the_shot(tmp_path: Path) -> None:
    # The position of test_forced_win_from_a_position, the computer playing White.
    record = tmp_path / "shot.pdn"
    screen = _play_against(
        "7x16\n", fen="W:W15,16,20:B7,8", computer={0}, think=0.5, pdn_path=str(record)
    )
    assert "White (the computer, level 10) plays 16-11" in screen
    assert "White (the computer, level 10) plays 20x4" in screen
    assert "result: 2-0 (White wins: no pieces)" in screen
    pdn = read_pdn(record.read_text(encoding="utf-8"))[0]
    assert pdn.tags["White"] == "Damier (level 10)" and pdn.tags["Black"] == "Black"
    assert [n.text for n in pdn.moves] == ["16-11", "7x16", "20x4"]


def test_undo_takes_back_the_computers_reply_too() -> None:
    screen = _play_against("32-28\nundo\nquit\n", variant="international", computer={1}, level=1)
    assert screen.count("Black (the computer, level 1) plays") == 1
    last = screen.rsplit("moves:", 1)[1].splitlines()[0].split()
    assert len(last) == 9 and "32-28" in last  # the start again, White to move
    assert screen.rstrip().endswith("White> the game is left unfinished")


def test_the_computer_declines_a_draw_and_plays_on() -> None:
    screen = _play_against("draw\n22-18\nquit\n", computer={1}, level=1)
    assert "White offers a draw" in screen
    assert "Black (the computer) declines the draw and plays on" in screen
    assert "Black (the computer, level 1) plays" in screen


def test_the_computer_plays_both_sides_to_the_end(tmp_path: Path) -> None:
    record = tmp_path / "self.pdn"
    screen = _play_against(
        "", fen="W:W21,22,23:B10,11,12", computer={0, 1}, level=1, pdn_path=str(record)
    )
    assert "result: " in screen and "the game is left unfinished" not in screen
    pdn = read_pdn(record.read_text(encoding="utf-8"))[0]
    game = pdn.replay()  # every move the computer played is legal, and the record whole
    assert game.result is not None and pdn.result in ("2-0", "1-1", "0-2")
