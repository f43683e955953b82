"""The Hub protocol (Scan's engine protocol, version 2): Damier as an engine that GUIs and
tools driving Scan can drive, over standard input and output.

The front end is thin: it parses a line, updates the position or the search limits, and
hands searches to :class:`damier.engine.Engine` in a background thread so that ``stop``,
``ping`` and ``quit`` are answered while it thinks. A malformed line gets an ``error`` reply
and the engine keeps running.

Positions are ``pos pos=<side><one letter per square: w b W B e>`` with optional
``moves="32-28 19-23"``; moves are written ``32-28`` or, for captures, ``from x to`` followed
by the captured squares in increasing order (``28x19x23``), and read in any order.

The engine's compiled code is made ready before a search's clock starts (on a new machine:
compiled, a minute or so; then loaded from Numba's cache in about a second): ``init`` answers
``ready`` once it is, and a ``go`` sent earlier waits for it in its search thread, saying so
in an ``info message="..."`` line, so that no move is ever answered unsearched because the
time went into compiling.

Hub defines no multi-PV: Damier declares its own parameter ``multipv`` (1 by default, which
leaves the output as Scan writes it). Above 1, every iteration writes one ``info`` line per
line, best first, each with a ``multipv=<rank>`` field a GUI that knows it can read.
``threads`` (1 by default) is the number of search threads, and ``book`` (true by default)
whether the full level plays from its opening book, as Scan's parameters of those names.
``contempt`` (hundredths of a man, 0 by default, -100 to 100) is what a draw costs the
engine when it plays a move (``go think``); an analysis or a ponder values draws at 0.
``tt-size`` is the transposition table's size as Scan counts it, the base-2 logarithm of
its entries (21 by default: 2M entries of 16 bytes, 32 MB; 16 to 27, 1 MB to 2 GB, and no
more than half the machine's memory).
"""

from __future__ import annotations

import shlex
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO, TypeVar

from damier import __version__
from damier.board import Board, Move
from damier.compiled import Progress, Warmup, engine_warmup
from damier.egtb.auto import building as egtb_building
from damier.egtb.auto import machine_memory
from damier.engine import CONTEMPT, Engine, Info, clock_times
from damier.engine.levels import MAX_THREADS
from damier.errors import IllegalMoveError
from damier.kernel.jit import watch_compilation
from damier.rules import Variant, get_variant

HUB_VARIANTS = {
    "normal": "international",
    "killer": "killer",
    "losing": "international-giveaway",
}
"""Scan's variant names and Damier's; Damier's own names are accepted too."""

MAX_MULTIPV = 10
"""The most lines the ``multipv`` parameter asks for."""
MAX_CONTEMPT = 100
"""The largest ``contempt`` either way, a man (hundredths)."""
TT_SIZES = range(16, 28)
"""The ``tt-size`` values: 2^16 to 2^27 entries of 16 bytes (1 MB to 2 GB)."""
TT_SIZE = 21
"""The default ``tt-size``: the engine's default table (32 MB)."""
ENTRY_BYTES = 16
"""Bytes of a transposition table entry (two words)."""

PIECES = {"e": 0, "w": 1, "W": 2, "b": 3, "B": 4}


class HubError(ValueError):
    """A line the Hub front end cannot act on."""


def hub_move(move: Move) -> str:
    """A move in Hub notation."""
    if not move.captured:
        return f"{move.from_square}-{move.to_square}"
    captured = sorted(move.captured, key=lambda square: (isinstance(square, str), square))
    return "x".join(str(square) for square in (move.from_square, move.to_square, *captured))


def parse_hub_move(board: Board, text: str) -> Move:
    """The legal move a Hub move string names (captured squares in any order)."""
    parts = text.replace("-", "x").split("x")
    if len(parts) < 2:
        raise HubError(f"bad move {text!r}")
    for move in board.legal_moves:
        names = [str(move.from_square), str(move.to_square)]
        if parts[:2] != names:
            continue
        if len(parts) == 2 or sorted(parts[2:]) == sorted(str(c) for c in move.captured):
            return move
    try:
        return board.parse_move(text)
    except IllegalMoveError as error:
        raise HubError(str(error)) from None


def parse_args(text: str) -> dict[str, str]:
    """``name=value`` pairs of a Hub line (values may be quoted)."""
    pairs: dict[str, str] = {}
    for token in shlex.split(text):
        name, _, value = token.partition("=")
        pairs[name] = value
    return pairs


def board_from_hub(variant: Variant, position: str) -> Board:
    """A board from Hub's position string."""
    board = Board(variant)
    size = board.geometry.cell_count
    if len(position) != size + 1 or position[0] not in "WB":
        raise HubError(f"position must be W or B and {size} squares, got {position!r}")
    men: dict[int, list[str]] = {0: [], 1: []}
    for cell, letter in enumerate(position[1:]):
        if letter not in PIECES:
            raise HubError(f"unknown piece letter {letter!r} in the position")
        code = PIECES[letter]
        if code:
            owner = (code - 1) // 2
            name = board.geometry.names[cell]
            men[owner].append(("K" if code % 2 == 0 else "") + name)
    fen = f"{position[0]}:W{','.join(men[0])}:B{','.join(men[1])}"
    return Board(variant, fen)


MAX_SECONDS = 7 * 24 * 3600.0
"""The longest time a ``level`` line may give: a week (a timer cannot wait much longer)."""


Number = TypeVar("Number", int, float)


def _limit(args: dict[str, str], name: str, kind: type[Number], least: Number) -> Number | None:
    """The ``level`` line's ``name`` as a number of ``kind`` from ``least`` on (times at most
    :data:`MAX_SECONDS`), or None when the line does not give it; a clear error for anything
    else (a NaN, an infinity, a negative time would leave the search unbounded or unsearched)."""
    if name not in args:
        return None
    text = args[name]
    try:
        value = kind(text)
    except ValueError:
        value = None
    highest = MAX_SECONDS if kind is float else None
    if value is None or not least <= value or (highest is not None and value > highest):
        bound = f"from {least:g} to {highest:g}" if highest is not None else f"at least {least}"
        what = "seconds" if kind is float else "a whole number"
        raise HubError(f"level {name}={text!r}: {what} {bound}")
    return value


@dataclass
class Limits:
    """What the next ``go`` may spend."""

    depth: int | None = None
    move_time: float | None = None
    nodes: int | None = None
    remaining: float | None = None
    increment: float = 0.0
    moves_to_go: int | None = None
    infinite: bool = False


class HubEngine:
    """The Hub front end: feed it lines with :meth:`handle`; it writes replies.

    ``warmups`` gives the warm-up of a variant's compiled code (tests give one they hold)."""

    def __init__(
        self,
        write: Callable[[str], None],
        variant: str = "international",
        level: int = 10,
        warmups: Callable[[str], Warmup] = engine_warmup,
        threads: int = 1,
        book: bool = True,
    ) -> None:
        self._write_raw = write
        self._lock = threading.Lock()
        self._warmups = warmups
        self._engine_lock = threading.Lock()
        self.variant = get_variant(variant)
        self.level = level
        self.multipv = 1
        self.threads = threads
        self.book = book
        self.contempt = CONTEMPT
        self.tt_size = TT_SIZE
        self.engine: Engine | None = None
        self.board = Board(self.variant)
        self.limits = Limits()
        self._thinking: threading.Thread | None = None
        self._searching = False
        self._stop_requested = threading.Event()
        self.quit = False

    def write(self, line: str) -> None:
        with self._lock:
            self._write_raw(line)

    def handle(self, line: str) -> None:
        """Act on one line from the GUI."""
        words = line.strip().split(maxsplit=1)
        if not words:
            return
        command, rest = words[0], words[1] if len(words) > 1 else ""
        try:
            action = getattr(self, "_" + command.replace("-", "_"), None)
            if action is None:
                raise HubError(f"unknown command {command!r}")
            action(rest)
        except (HubError, ValueError) as error:
            message = str(error).replace('"', "'")
            self.write(f'error message="{message}"')

    # -- commands ------------------------------------------------------------------

    def _hub(self, rest: str) -> None:
        self.write(f'id name=Damier version={__version__} author="Damier developers"')
        values = " ".join(HUB_VARIANTS)
        self.write(f'param name=variant value=normal type=enum values="{values}"')
        self.write("param name=level value=10 type=int min=1 max=10")
        self.write(f"param name=multipv value=1 type=int min=1 max={MAX_MULTIPV}")
        self.write(f"param name=threads value={self.threads} type=int min=1 max={MAX_THREADS}")
        self.write(f"param name=book value={str(self.book).lower()} type=bool")
        self.write(
            f"param name=contempt value={self.contempt} type=int"
            f" min={-MAX_CONTEMPT} max={MAX_CONTEMPT}"
        )
        self.write(
            f"param name=tt-size value={self.tt_size} type=int"
            f" min={TT_SIZES.start} max={TT_SIZES.stop - 1}"
        )
        self.write("wait")

    def _init(self, rest: str) -> None:
        self._load()
        self._engine()
        if egtb_building(self.variant):
            self._say("building the endgame database in the background: used from the next game")
        self.write("ready")

    def _load(self, waiting: str = "") -> None:
        """Make the compiled code of the variant's engine ready (compile it, or load it
        from the cache); say so in an ``info`` line if that means waiting: ``waiting`` at
        once (a search waits), and when a compilation begins."""
        warmup = self._warmups(self.variant.name)
        if warmup.ready("engine"):
            return
        if waiting:
            self._say(waiting)

        def progress(report: Progress) -> None:
            if report.event == "compiling":
                self._say("compiling the engine (once, then cached): a minute or so")

        warmup.start(("kernel", "engine"), progress)
        warmup.wait("engine")

    def _say(self, message: str) -> None:
        self.write(f'info message="{message}"')

    def _set_param(self, rest: str) -> None:
        args = parse_args(rest)
        name, value = args.get("name"), args.get("value", "")
        if name == "variant":
            self.variant = get_variant(HUB_VARIANTS.get(value, value))
            self.board = Board(self.variant)
            self.engine = None
        elif name == "level":
            if not value.isdigit() or not 1 <= int(value) <= 10:
                raise HubError("level must be 1-10")
            self.level = int(value)
            self.engine = None
        elif name == "multipv":
            if not value.isdigit() or not 1 <= int(value) <= MAX_MULTIPV:
                raise HubError(f"multipv must be 1-{MAX_MULTIPV}")
            self.multipv = int(value)
        elif name == "threads":
            if not value.isdigit() or not 1 <= int(value) <= MAX_THREADS:
                raise HubError(f"threads must be 1-{MAX_THREADS}")
            self.threads = int(value)
            self.engine = None
        elif name == "book":
            if value not in ("true", "false"):
                raise HubError("book must be true or false")
            self.book = value == "true"
            self.engine = None
        elif name == "contempt":
            try:
                contempt = int(value)
            except ValueError:
                contempt = MAX_CONTEMPT + 1
            if not -MAX_CONTEMPT <= contempt <= MAX_CONTEMPT:
                raise HubError(
                    f"contempt must be an integer from {-MAX_CONTEMPT} to {MAX_CONTEMPT}"
                )
            self.contempt = contempt
        elif name == "tt-size":
            if not value.isdigit() or int(value) not in TT_SIZES:
                raise HubError(f"tt-size must be {TT_SIZES.start}-{TT_SIZES.stop - 1}")
            memory = machine_memory()
            if memory and ENTRY_BYTES << int(value) > memory // 2:
                raise HubError(
                    f"tt-size {value} needs {(ENTRY_BYTES << int(value)) >> 20} MB,"
                    " more than half this machine's memory"
                )
            self.tt_size = int(value)
            self.engine = None
        else:
            raise HubError(f"unknown parameter {name!r}")

    def _new_game(self, rest: str) -> None:
        self._engine().new_game()
        self.board = Board(self.variant)

    def _pos(self, rest: str) -> None:
        args = parse_args(rest)
        board = board_from_hub(self.variant, args["pos"]) if "pos" in args else Board(self.variant)
        for text in args.get("moves", "").split():
            board.push(parse_hub_move(board, text))
        self.board = board

    def _level(self, rest: str) -> None:
        args = parse_args(rest)
        limits = Limits(
            depth=_limit(args, "depth", int, 1),
            move_time=_limit(args, "move-time", float, 0.001),
            nodes=_limit(args, "nodes", int, 1),
            remaining=_limit(args, "time", float, 0.0),
            increment=_limit(args, "inc", float, 0.0) or 0.0,
            moves_to_go=_limit(args, "moves", int, 1),
            infinite="infinite" in args,
        )
        self.limits = limits

    def _go(self, rest: str) -> None:
        if self._searching:
            raise HubError("already thinking")
        mode = rest.strip() or "think"
        if mode not in ("think", "ponder", "analyze"):
            raise HubError(f"unknown go mode {mode!r}")
        if not self.board.legal_moves:
            raise HubError("no legal move in this position")
        board, limits = self.board.copy(), self.limits
        # A stop can come before the search thread has started (and reset the engine's
        # stop flag): it is remembered here and checked after every iteration.
        self._stop_requested = threading.Event()
        self._searching = True
        self._thinking = threading.Thread(
            target=self._think,
            args=(board, limits, mode, self._stop_requested),
            daemon=True,
        )
        self._thinking.start()

    def _think(self, board: Board, limits: Limits, mode: str, stop: threading.Event) -> None:
        # The clock starts once the compiled code is ready: compiling is not thinking.
        self._load("waiting for the engine's compiled code to load; the clock starts after")
        engine = self._engine()
        seconds: float | None = limits.move_time
        target: float | None = None
        if limits.remaining is not None:
            target, seconds = clock_times(limits.remaining, limits.increment, limits.moves_to_go)
        # An analysis or a ponder wants a search, not the book's answer.
        book = not limits.infinite and mode == "think"
        # A game's move values a draw at the contempt; an analysis or a ponder, objectively.
        engine.contempt = self.contempt if book else 0
        if not book:
            seconds, target = 3600.0 * 24, None
        with watch_compilation() as compiled:
            best = self._search(engine, board, limits, (target, seconds), stop, book)
        if best is not None and best.depth == 0 and compiled.count and len(board.legal_moves) > 1:
            # Compiling ate the time of the search (code no warm-up foresaw): not a move to
            # play unsearched. The code is compiled now: search again.
            self._say("the search's time went into compiling: searching again")
            best = self._search(engine, board, limits, (target, seconds), stop, book)
        done = "done"
        if best is not None and best.best_move is not None:
            ponder = f" ponder={hub_move(best.pv[1])}" if len(best.pv) > 1 else ""
            done = f"done move={hub_move(best.best_move)}{ponder}"
        # Idle before "done" goes out: the GUI may answer with the next "go" at once.
        self._searching = False
        self.write(done)

    def _search(
        self,
        engine: Engine,
        board: Board,
        limits: Limits,
        times: tuple[float | None, float | None],
        stop: threading.Event,
        book: bool,
    ) -> Info | None:
        """One search, its iterations written as ``info`` lines; returns the last.
        ``times``: the time to aim at (on a game clock) and the most to spend."""
        best = None
        multipv = self.multipv
        for info in engine.analyse(
            board,
            target=times[0],
            time=times[1],
            depth=limits.depth,
            nodes=limits.nodes,
            multipv=multipv,
            book=book,
        ):
            best = info
            if info.depth == 0 and len(board.legal_moves) > 1:
                continue  # stopped before a move was searched: no information
            for rank, line in enumerate(info.lines or (info,), 1):
                pv = " ".join(hub_move(m) for m in line.pv)
                # Scan writes the end of the game n plies away as +/-(100 - n/100) ("99.xx"),
                # which is how pydraughts and Hub read a forced win or loss back.
                score = line.score
                if line.mate is not None:
                    score = 10000 - line.mate if line.mate > 0 else -10000 - line.mate
                tag = f"multipv={rank} " if multipv > 1 else ""
                self.write(
                    f"info {tag}depth={line.depth} score={score / 100:.2f} nodes={line.nodes} "
                    f'time={line.seconds:.2f} nps={line.nps / 1e6:.2f} pv="{pv}"'
                )
            if stop.is_set():
                break
        return best

    def _stop(self, rest: str) -> None:
        self._stop_requested.set()
        if self.engine is not None:
            self.engine.stop()

    def _ponder_hit(self, rest: str) -> None:
        pass  # pondering searches until stopped; nothing changes on a hit

    def _ping(self, rest: str) -> None:
        self.write("pong")

    def _quit(self, rest: str) -> None:
        self._stop(rest)
        if self._thinking is not None:
            self._thinking.join()
        self.quit = True

    def _engine(self) -> Engine:
        with self._engine_lock:
            if self.engine is None or self.engine.variant != self.variant:
                self.engine = Engine(
                    self.variant,
                    level=self.level,
                    threads=self.threads,
                    book=self.book,
                    table_megabytes=(ENTRY_BYTES << self.tt_size) >> 20,
                )
            return self.engine

    def wait(self) -> None:
        """Wait for a running search to finish."""
        if self._thinking is not None:
            self._thinking.join()


def run_hub(
    variant: str = "international",
    level: int = 10,
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
    threads: int = 1,
    book: bool = True,
) -> int:
    """Serve the Hub protocol on standard input and output until ``quit`` or end of input."""

    def write(line: str) -> None:
        stdout.write(line + "\n")
        stdout.flush()

    hub = HubEngine(write, variant, level, threads=threads, book=book)
    for line in stdin:
        hub.handle(line)
        if hub.quit:
            break
    else:  # end of input: let a running search finish and report its move
        hub.wait()
    return 0
