"""The compiled code, made ready part by part: ``damier compile``, and ``damier serve``'s
start in the background.

The kernel and the engine are compiled at their first call and kept on disk
(:mod:`damier.kernel.jit`); cold, that first call waits from seconds (a move generation) to
twenty (the bitboard search). A :class:`Warmup` makes every kind of first call once, on
small positions, in an order that serves the users first (with a warm cache it only loads
the code into the process):

* ``kernel``: move generation, make and unmake, hashing: all that a game between two people
  needs (every variant uses the same compiled functions, on its own tables);
* ``engine``: the searches, one per road through the compiled code: the bitboard search
  (International), the table search (Dameo), the multi-player search (Tripad);
* ``tools``: perft by bitboards and by tables (duplicates dropped and kept, divided too).

``damier serve`` opens its port at once and runs the first two stages in a thread (the
compiled functions release the GIL, so games are played while the engine compiles);
requests that need a stage wait for its event, off the event loop.

>>> warmup = Warmup(parts=KERNEL_PARTS)
>>> warmup.run(("kernel",)).done == len(KERNEL_PARTS)
True
>>> warmup.ready("kernel")
True
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path
from typing import Literal

from damier.board import Board
from damier.engine import Engine
from damier.kernel.bitboard import bitboard_spec
from damier.kernel.jit import Compilations, watch_compilation
from damier.rules import Variant, get_variant
from damier.rules.description import Topology

STAGES = ("kernel", "engine", "tools")
"""The stages of the compiled code, in the order they are made ready."""
SERVER_STAGES = ("kernel", "engine")
"""What ``damier serve`` needs: two people's games, then the computer's."""

WARM_UP_VARIANTS = ("international", "dameo", "tripad")
"""One variant per road through the compiled code: the bitboard fast path and search
(International), the tables and the table search (Dameo), more players (Tripad)."""


@dataclass(frozen=True)
class Part:
    """One step of a warm-up: a call that compiles (or loads) some entry points."""

    stage: str
    """Which stage it belongs to (one of :data:`STAGES`)."""
    title: str
    """What it makes ready, in a few words for the user."""
    run: Callable[[], object]
    """The call."""
    road: str | None = None
    """For a search: which one (:func:`road_of`); the computer of a variant on that road
    can play once its part is done, before the other searches are ready."""


def _moves() -> None:
    len(Board("international").legal_moves)


def _make_unmake() -> None:
    board = Board("international")
    board.push(board.legal_moves[0])
    board.pop()


def _hash() -> None:
    Board("international").zobrist_hash()


def _search(variant: str) -> None:
    board = Board(variant)
    Engine(variant, table_megabytes=1).search(board, depth=2)


def _perft(variant: str) -> None:
    board = Board(variant)
    for duplicates in ("drop", "keep"):
        board.perft(2, duplicates)
        board.perft(2, duplicates, fast=False)
        board.perft_divide(2, duplicates)


KERNEL_PARTS = (
    Part("kernel", "move generation", _moves),
    Part("kernel", "making and taking back moves", _make_unmake),
    Part("kernel", "position keys", _hash),
)
PARTS = (
    *KERNEL_PARTS,
    Part(
        "engine",
        "the bitboard search (International)",
        partial(_search, "international"),
        "bitboard",
    ),
    Part("engine", "the table search (Dameo)", partial(_search, "dameo"), "table"),
    Part(
        "engine",
        "the multi-player search (Tripad)",
        partial(_search, "tripad"),
        "multi-player",
    ),
    Part("tools", "perft by bitboards (International)", partial(_perft, "international")),
    Part("tools", "perft by tables (Dameo)", partial(_perft, "dameo")),
    Part("tools", "perft with more players (Tripad)", partial(_perft, "tripad")),
)
"""Every part, in order: together they build the whole cache (``damier compile``)."""


def road_of(variant: str | Variant) -> str:
    """Which search an engine for ``variant`` runs (as :class:`~damier.engine.Engine` picks
    it): ``multi-player`` (more players, or a board that is not a square grid), else
    ``bitboard`` where the bitboard code covers the rules, else ``table``."""
    variant = get_variant(variant)
    if variant.players > 2 or variant.topology is not Topology.SQUARE:
        return "multi-player"
    if bitboard_spec(variant) is None or os.environ.get("DAMIER_TABLE_SEARCH") == "1":
        return "table"  # (the test of engine.bitsearch.bitboard_position)
    return "bitboard"


@dataclass(frozen=True)
class Progress:
    """Where a warm-up stands, as it tells its listener."""

    event: Literal["start", "compiling", "end", "done"]
    """A part starts; its first compilation starts (the first of the warm-up: from then on
    the wait is compilation, not loading); it ends; the warm-up ends."""
    done: int
    """Parts finished."""
    total: int
    """Parts to do."""
    part: Part | None
    """The part concerned (None when the warm-up is done)."""
    compiled: int
    """Compilations so far (0: everything was loaded from the cache)."""
    seconds: float
    """Since the warm-up began."""
    ready: tuple[str, ...] = ()
    """At the end of a part, the stages it made ready."""


@dataclass(frozen=True)
class Status:
    """What is ready (for the API and the lobby's notice)."""

    kernel: bool
    """Games between people can be played."""
    engine: bool
    """The computer can play and analyse."""
    done: int
    """Parts finished."""
    total: int
    """Parts to do."""
    part: str | None
    """The part under way, if any."""
    compiled: int
    """Compilations so far."""


class Warmup:
    """Compiled code made ready part by part (compiled, or loaded from Numba's cache), in a
    background thread (:meth:`start`) or in the caller's (:meth:`run`).

    A stage is ready when its parts and the earlier stages' are done: :meth:`wait` and
    :meth:`wait_async` wait for it. If a part fails, the warm-up stops (:attr:`error`) and
    every stage is declared ready anyway: what is missing then compiles at its first call,
    as it would without a warm-up. :meth:`hold` stops the warm-up before a stage until
    released (tests make the waiting observable with it).
    """

    def __init__(self, parts: Sequence[Part] = PARTS) -> None:
        self.parts = tuple(parts)
        roads = {part.road for part in self.parts if part.road is not None}
        self._events = {key: threading.Event() for key in (*STAGES, *sorted(roads))}
        """By stage, and by road of the engine (:meth:`computer_key`)."""
        self._gates: dict[str, threading.Event] = {}
        self._waiters: dict[str, list[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]]]
        self._waiters = {}
        self._running = threading.Lock()
        self._state = threading.Lock()
        self._waiting = threading.Condition(self._state)
        """Notified when a request starts waiting (:meth:`wait_for_waiters`)."""
        self._thread: threading.Thread | None = None
        self._finished: set[Part] = set()
        self._planned: tuple[Part, ...] = ()
        self._current: Part | None = None
        self._began = time.perf_counter()
        self._listener: Callable[[Progress], None] | None = None
        self.compilations = Compilations(self._first_compilation)
        """Everything compiled while this warm-up ran (in any thread)."""
        self.error: BaseException | None = None
        """What stopped the warm-up, if anything did."""
        self._mark_ready()

    # -- waiting ----------------------------------------------------------------------

    def ready(self, stage: str) -> bool:
        """Whether ``stage`` (or the search of a road, :meth:`computer_key`) is ready."""
        return self._events[stage].is_set()

    def computer_key(self, variant: str | Variant) -> str:
        """What the computer of ``variant`` waits for: the part of its road, if this
        warm-up has one; else the whole engine."""
        road = road_of(variant)
        return road if road in self._events else "engine"

    def wait(self, stage: str, timeout: float | None = None) -> bool:
        """Block until ``stage`` is ready (or ``timeout`` seconds); whether it is."""
        return self._events[stage].wait(timeout)

    async def wait_async(self, stage: str) -> None:
        """Wait for ``stage`` without blocking the event loop (nor holding a thread)."""
        if self.ready(stage):
            return
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        with self._state:
            if self.ready(stage):  # (made ready under this lock: no wake-up is lost)
                return
            self._waiters.setdefault(stage, []).append((loop, future))
            self._waiting.notify_all()
        await future

    def wait_for_waiters(self, stage: str, count: int, timeout: float | None = None) -> bool:
        """Block until ``count`` coroutines wait for ``stage`` in :meth:`wait_async` (or
        ``timeout`` seconds); whether they do. (Tests see a request held at the door.)"""
        with self._waiting:
            return self._waiting.wait_for(
                lambda: len(self._waiters.get(stage, ())) >= count, timeout
            )

    def _set(self, stage: str) -> None:
        """Declare ``stage`` ready and wake its waiters (the caller holds ``_state``)."""
        self._events[stage].set()
        for loop, future in self._waiters.pop(stage, []):
            with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits
                loop.call_soon_threadsafe(_wake, future)

    def hold(self, stage: str) -> threading.Event:
        """Make the warm-up stop before the first part of ``stage`` until the returned
        event is set."""
        gate = self._gates[stage] = threading.Event()
        return gate

    def status(self) -> Status:
        """What is ready, and what is under way."""
        with self._state:
            planned = self._planned or self.parts
            current = self._current
            done = sum(part in self._finished for part in planned)
        return Status(
            kernel=self.ready("kernel"),
            engine=self.ready("engine"),
            done=done,
            total=len(planned),
            part=current.title if current is not None else None,
            compiled=self.compilations.count,
        )

    # -- running ----------------------------------------------------------------------

    def start(
        self,
        stages: Iterable[str] = SERVER_STAGES,
        progress: Callable[[Progress], None] | None = None,
    ) -> None:
        """Run the parts of ``stages`` in a background thread (once: a call while it runs
        does nothing)."""
        stages = tuple(stages)
        with self._state:
            if self._thread is not None and self._thread.is_alive():
                return
            if all(part in self._finished for part in self.parts if part.stage in stages):
                return
            self._thread = threading.Thread(
                target=self._run_quietly,
                args=(stages, progress),
                name="damier-warmup",
                daemon=True,
            )
            self._thread.start()

    def _run_quietly(
        self, stages: tuple[str, ...], progress: Callable[[Progress], None] | None
    ) -> None:
        with contextlib.suppress(Exception):  # kept in self.error, told to the listener
            self.run(stages, progress)

    def run(
        self,
        stages: Iterable[str] = STAGES,
        progress: Callable[[Progress], None] | None = None,
    ) -> Progress:
        """Run the parts of ``stages`` not done yet, in this thread (a second caller waits
        for the first); returns the last progress report."""
        wanted = set(stages)
        with self._running:
            plan = tuple(part for part in self.parts if part.stage in wanted)
            with self._state:
                self._planned, self._began, self._listener = plan, time.perf_counter(), progress
            try:
                with watch_compilation(into=self.compilations):
                    for part in plan:
                        if part not in self._finished:
                            self._pass_gate(part.stage)
                            self._one(part)
            except BaseException as error:
                self.error = error
                with self._state:
                    for key in self._events:  # nobody waits forever: what is missing
                        self._set(key)  # compiles at its first call, as without a warm-up
                raise
            finally:
                report = self._report("done", None)
                self._tell(report)
                with self._state:
                    self._listener = None
            return report

    def _pass_gate(self, stage: str) -> None:
        gate = self._gates.get(stage)
        if gate is not None:
            gate.wait()

    def _one(self, part: Part) -> None:
        with self._state:
            self._current = part
        self._tell(self._report("start", part))
        with compiling_alone():
            part.run()
        with self._state:
            self._finished.add(part)
            self._current = None
        ready = self._mark_ready()
        self._tell(self._report("end", part, ready))

    def _first_compilation(self) -> None:
        with self._state:
            part = self._current
        self._tell(self._report("compiling", part))

    def _tell(self, report: Progress) -> None:
        listener = self._listener
        if listener is not None:
            listener(report)

    def _mark_ready(self) -> tuple[str, ...]:
        """Set the events of the stages whose parts (and the earlier stages') are all done;
        return those that were not set before."""
        newly = []
        with self._state:
            for index, stage in enumerate(STAGES):
                needed = [p for p in self.parts if p.stage in STAGES[: index + 1]]
                if not self.ready(stage) and all(p in self._finished for p in needed):
                    self._set(stage)
                    newly.append(stage)
            for road in self._events.keys() - set(STAGES):
                needed = [p for p in self.parts if p.stage == "kernel" or p.road == road]
                if not self.ready(road) and all(p in self._finished for p in needed):
                    self._set(road)
        return tuple(newly)

    def _report(
        self,
        event: Literal["start", "compiling", "end", "done"],
        part: Part | None,
        ready: tuple[str, ...] = (),
    ) -> Progress:
        with self._state:
            plan = self._planned
            done = sum(p in self._finished for p in plan)
            began = self._began
        return Progress(
            event=event,
            done=done,
            total=len(plan),
            part=part,
            compiled=self.compilations.count,
            seconds=time.perf_counter() - began,
            ready=ready,
        )


@contextlib.contextmanager
def compiling_alone() -> Iterator[None]:
    """Hold this user's compile lock (a file lock, so across processes): the workers of
    ``damier serve --workers N`` starting on a cold cache take turns, each part compiled
    by the first and loaded from the cache by the others, rather than compiled N times at
    once on the same cores."""
    try:
        import fcntl
    except ImportError:  # not on a POSIX system: no lock
        yield
        return
    path = Path(tempfile.gettempdir()) / f"damier-compile-{os.getuid()}.lock"
    with open(path, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():  # (a request given up meanwhile)
        future.set_result(None)


READY_NOTICES = {
    "kernel": "games between two people can be played",
    "engine": "the computer can play",
    "tools": "perft is ready",
}


class ProgressLines:
    """A warm-up's progress as lines for a terminal or a log (``say`` writes one): quiet
    while the code only loads from the cache; once it compiles, the part under way (how
    many of how many), each stage as it becomes ready, and the total."""

    def __init__(self, say: Callable[[str], None], ends: bool = True) -> None:
        self.say = say
        self.ends = ends
        """Whether to say how long it took in all (else the caller does)."""
        self.compiling = False

    def __call__(self, report: Progress) -> None:
        number = f"{report.done + 1}/{report.total}"
        if report.event == "compiling" and not self.compiling:
            self.compiling = True
            now = f": {number} {report.part.title}" if report.part is not None else ""
            self.say(f"compiling (once, into the cache; a minute or so){now}")
        elif report.event == "start" and self.compiling and report.part is not None:
            self.say(f"compiling {number}: {report.part.title}")
        elif report.event == "end" and self.compiling:
            for stage in report.ready:
                self.say(f"{READY_NOTICES[stage]} ({report.seconds:.1f} s)")
        elif report.event == "done" and self.ends:
            if report.compiled:
                self.say(
                    f"compiled in {report.seconds:.1f} s ({report.compiled} compilations), "
                    "cached for every run"
                )
            else:
                self.say(f"compiled code loaded in {report.seconds:.1f} s")


WARMUP = Warmup()
"""This process's warm-up (the compiled code is the process's)."""


def engine_parts(variant: str) -> tuple[Part, ...]:
    """The kernel, then the search of ``variant`` only (what an engine front end needs)."""
    return (*KERNEL_PARTS, Part("engine", f"the search ({variant})", partial(_search, variant)))


@cache
def engine_warmup(variant: str) -> Warmup:
    """The warm-up of the compiled code that an engine for ``variant`` needs: its parts
    (:func:`engine_parts`), one warm-up per variant and process (the engine front ends)."""
    return Warmup(engine_parts(variant))


def load_engine(variant: str, say: Callable[[str], None]) -> None:
    """Make the compiled code of an engine for ``variant`` ready in this thread; ``say``
    hears why, if that means compiling."""
    warmup = engine_warmup(variant)
    if warmup.ready("engine"):
        return

    def progress(report: Progress) -> None:
        if report.event == "compiling":
            say("compiling the engine (once, then cached): a minute or so")
        elif report.event == "done" and report.compiled:
            say(f"the engine is compiled ({report.seconds:.1f} s)")

    warmup.run(("kernel", "engine"), progress)


def exercise(variant: str) -> None:
    """Every compiled road the commands take, once, in ``variant``."""
    board = Board(variant)
    board.push(board.legal_moves[0])
    board.zobrist_hash()
    board.pop()
    _perft(variant)
    Engine(variant, table_megabytes=1).search(board, depth=2)


def build_cache(
    say: Callable[[str], None] | None = None, stages: Iterable[str] = STAGES
) -> Compilations:
    """Compile (or, warm, load) the parts of ``stages``, telling ``say`` how it goes.
    Returns what was compiled."""
    watched = WARMUP.compilations
    count, ended = watched.count, len(watched.compiled)
    WARMUP.run(stages, ProgressLines(say, ends=False) if say is not None else None)
    compilations = Compilations()
    compilations.count = watched.count - count
    compilations.names = watched.names[count:]
    compilations.compiled = watched.compiled[ended:]
    return compilations
