"""Outside engines that speak Hub (Scan's protocol; Damier's own ``damier hub``), driven
from Python: ``HubEngine.popen("scan hub").search(board, time=1.0)`` answers an
:class:`~damier.engine.Info`, as Damier's own :class:`~damier.engine.Engine` does.

The transport (lines to and from a subprocess, :class:`ProcessTransport`) is apart from
the protocol (:class:`HubEngine`: the handshake, then ``pos``, ``level``, ``go think`` and
the ``info`` lines up to ``done``), so that a test can give the engine any other
:class:`Transport`, a script of lines, with no process at all.
"""

from __future__ import annotations

import contextlib
import queue
import shlex
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Protocol

from damier.board import Board, Move
from damier.engine import Info
from damier.protocols.hub import HUB_VARIANTS, HubError, hub_move, parse_args, parse_hub_move
from damier.rules import Variant, get_variant

SILENT = ("info", "id", "param", "pong", "")
"""Lines an engine may say at any time, skipped while another word is awaited."""


class EngineError(RuntimeError):
    """An engine that cannot go on: it crashed, stalled or broke the protocol."""


class Transport(Protocol):
    """Lines to and from an engine."""

    def send(self, line: str) -> None:
        """Write one line; :class:`EngineError` if the engine is gone."""

    def receive(self, timeout: float | None) -> str | None:
        """The next line, waiting at most ``timeout`` seconds (:class:`TimeoutError` after);
        None once the engine has gone."""

    @property
    def alive(self) -> bool:
        """Whether the engine may still answer."""

    def death(self) -> str:
        """Why the engine went: its exit code and its last words."""

    def close(self) -> None:
        """Stop the engine (it was asked to quit first)."""


class ProcessTransport:
    """An engine run as a subprocess from a command line; its standard error's last
    lines are kept to say why it died."""

    def __init__(self, command: str) -> None:
        try:
            process = subprocess.Popen(
                shlex.split(command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                bufsize=1,
            )
        except (OSError, ValueError) as error:
            raise EngineError(f"cannot start {command!r}: {error}") from None
        self._process = process
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=5)
        assert process.stdout is not None and process.stderr is not None
        stdout, stderr, lines, errors = process.stdout, process.stderr, self._lines, self._stderr

        def read_out() -> None:
            for line in stdout:
                lines.put(line.rstrip("\r\n"))
            lines.put(None)

        def read_err() -> None:
            for line in stderr:
                errors.append(line.rstrip())

        threading.Thread(target=read_out, daemon=True).start()
        self._err_reader = threading.Thread(target=read_err, daemon=True)
        self._err_reader.start()

    @property
    def alive(self) -> bool:
        return self._process.poll() is None

    def send(self, line: str) -> None:
        stdin = self._process.stdin
        if stdin is None or not self.alive:
            raise EngineError(self.death())
        try:
            stdin.write(line + "\n")
            stdin.flush()
        except (OSError, ValueError):
            raise EngineError(self.death()) from None

    def receive(self, timeout: float | None) -> str | None:
        try:
            return self._lines.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError from None

    def death(self) -> str:
        try:
            code: int | None = self._process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None
        if code is not None:
            self._err_reader.join(timeout=1.0)  # its last words may still be in the pipe
        said = f": {' | '.join(self._stderr)}" if self._stderr else ""
        if code is None:
            return f"engine stopped talking{said}"
        return f"engine exited with code {code}{said}"

    def close(self) -> None:
        process = self._process
        if process.poll() is None:
            try:
                process.wait(timeout=3.0)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for pipe in (process.stdin, process.stdout, process.stderr):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()

    def kill(self) -> None:
        if self._process.poll() is None:
            self._process.kill()
            self._process.wait()


class HubEngine:
    """An engine speaking Hub over ``transport``, set to ``variant`` (its ``variant``
    parameter) and initialised: ready to search."""

    def __init__(
        self,
        transport: Transport,
        variant: str | Variant = "international",
        start_timeout: float = 60.0,
        log: Callable[[str], None] | None = None,
    ) -> None:
        self.transport = transport
        self.variant = get_variant(variant)
        self.log = log or (lambda line: None)
        """Hears what the engine said that was not asked for, and why a line was skipped."""
        self.name = ""
        """What the engine calls itself (its ``id name=``)."""
        self.params: dict[str, dict[str, str]] = {}
        """Its parameters as it lists them (``param name=...``), by name."""
        self._handshake(start_timeout)

    @classmethod
    def popen(
        cls,
        command: str,
        variant: str | Variant = "international",
        start_timeout: float = 60.0,
        log: Callable[[str], None] | None = None,
    ) -> HubEngine:
        """The engine a command line starts (``"scan hub"``, ``"damier hub --level 8"``)."""
        transport = ProcessTransport(command)
        try:
            return cls(transport, variant, start_timeout, log)
        except EngineError:
            transport.kill()
            raise

    def _handshake(self, timeout: float) -> None:
        self._send("hub")
        while True:
            line = self._expect(("wait", "id", "param"), timeout)
            word, args = line.split()[0], parse_args(line.partition(" ")[2])
            if word == "wait":
                break
            if word == "id":
                self.name = args.get("name", "")
            elif "name" in args:
                self.params[args["name"]] = args
        if self.variant.name != "international":
            if "variant" not in self.params:
                self.log(f"no variant parameter; it may not play {self.variant.name}")
            else:
                names = {ours: hubs for hubs, ours in HUB_VARIANTS.items()}
                value = names.get(self.variant.name, self.variant.name)
                self._send(f"set-param name=variant value={value}")
        self._send("init")
        self._expect(("ready",), timeout)

    # -- lines -----------------------------------------------------------------------

    def _send(self, line: str) -> None:
        self.transport.send(line)

    def _expect(
        self,
        words: Sequence[str],
        timeout: float | None,
        budget: float | None = None,
        on_info: Callable[[str], None] | None = None,
    ) -> str:
        """The next line starting with one of ``words``; ``info`` lines go to ``on_info``,
        other lines are logged and skipped. ``budget`` is the time named in the error
        (default ``timeout``)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if deadline is None else max(deadline - time.monotonic(), 0.0)
            try:
                line = self.transport.receive(left)
            except TimeoutError:
                waited = budget if budget is not None else timeout
                raise EngineError(f"no {words[0]!r} within {waited:g} s") from None
            if line is None:
                raise EngineError(self.transport.death())
            head = line.split(maxsplit=1)[0] if line.strip() else ""
            if head in words:
                return line
            if head == "info" and on_info is not None:
                on_info(line)
            elif head == "error":
                self.log(line)
            elif head not in SILENT:
                self.log(f"ignored {line[:80]!r}")

    # -- searching ---------------------------------------------------------------------

    def new_game(self) -> None:
        """A new game begins (the engine may clear what it learned of the last one)."""
        self._send("new-game")

    def search(
        self,
        board: Board,
        *,
        time: float | None = None,
        depth: int | None = None,
        nodes: int | None = None,
        timeout: float | None = None,
        on_info: Callable[[Info], None] | None = None,
    ) -> Info:
        """The engine's move in ``board`` with its last ``info`` (depth, score, nodes,
        time, line), searching for ``time`` seconds (1 by default), or to ``depth`` plies,
        or ``nodes`` nodes; the moves that led to ``board`` are sent too (the engine sees
        the repetitions). ``on_info`` hears each ``info`` as it comes. :class:`EngineError`
        for an engine that stalls past ``timeout`` (default three times ``time`` and 10 s),
        crashes, or plays an illegal move."""
        start, moves = _start_and_moves(board)
        line = f"pos pos={hub_position(start)}"
        if moves:
            line += f' moves="{" ".join(hub_move(m) for m in moves)}"'
        self._send(line)
        if depth is not None:
            self._send(f"level depth={depth}")
        elif nodes is not None:
            self._send(f"level nodes={nodes}")
        else:
            self._send(f"level move-time={time if time is not None else 1.0:g}")
        if timeout is None:
            timeout = 3 * time + 10 if time is not None else 120.0
        last = Info(0, 0, None, (), 0, 0.0, 0)

        def heard(text: str) -> None:
            nonlocal last
            last = _info(board, parse_args(text.partition(" ")[2]), last)
            if on_info is not None:
                on_info(last)

        done = self._go(timeout, heard)
        text = parse_args(done.partition(" ")[2]).get("move")
        if not text:
            raise EngineError(f"answered {done!r} without a move")
        try:
            move = parse_hub_move(board, text)
        except (HubError, ValueError):
            raise EngineError(f"played the illegal move {text!r}") from None
        pv = last.pv if last.pv[:1] == (move,) else (move,)
        return Info(last.depth, last.score, None, pv, last.nodes, last.seconds, last.seldepth)

    def _go(self, timeout: float, heard: Callable[[str], None]) -> str:
        """``go think`` and its ``done`` line (asked again while an engine still closes
        its last search: Damier's own answers "already thinking" then)."""
        self._send("go think")
        deadline = time.monotonic() + timeout
        for _ in range(50):
            line = self._expect(("done", "error"), deadline - time.monotonic(), timeout, heard)
            if not line.startswith("error"):
                return line
            if "already thinking" not in line:
                raise EngineError(f"refused to search: {line}")
            self.log(f"{line}; asking again")
            time.sleep(0.02)
            self._send("go think")
        raise EngineError("refused to search: always already thinking")

    def quit(self) -> None:
        """Ask the engine to quit and close the transport."""
        with contextlib.suppress(EngineError):
            self._send("quit")
        self.transport.close()

    def __enter__(self) -> HubEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.quit()

    def __repr__(self) -> str:
        return f"<HubEngine {self.name or '?'} ({self.variant.name})>"


HUB_LETTERS = {0: "e", 1: "w", 2: "W", 3: "b", 4: "B"}
"""Damier's piece codes and Hub's position letters."""


def hub_position(board: Board) -> str:
    """Hub's position string: the side to move (W or B) and one letter per square."""
    return "WB"[board.turn] + "".join(HUB_LETTERS[int(code)] for code in board.cells)


def _start_and_moves(board: Board) -> tuple[Board, list[Move]]:
    """The position ``board``'s moves started from, and the moves."""
    moves = board.move_stack
    start = board.copy()
    for _ in moves:
        start.pop()
    return start, moves


def _info(board: Board, args: dict[str, str], last: Info) -> Info:
    """An ``info`` line's figures; what it leaves out is kept from ``last``. The score is
    in men (Scan's ``score=0.12``), the line in Hub moves, read while they are legal."""
    try:
        depth = int(args.get("depth", last.depth))
        score = round(float(args["score"]) * 100) if "score" in args else last.score
        nodes = int(args.get("nodes", last.nodes))
        seconds = float(args.get("time", last.seconds))
    except ValueError:
        return last  # a figure that is not a number: the line is not read
    pv = last.pv
    if "pv" in args:
        line, position = [], board.copy()
        for text in args["pv"].split():
            try:
                move = parse_hub_move(position, text)
            except (HubError, ValueError):
                break
            line.append(move)
            position.push(move)
        pv = tuple(line)
    return Info(depth, score, None, pv, nodes, seconds, depth)
