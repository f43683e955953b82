"""The engine: iterative deepening over the kernel's search, for every variant.

>>> from damier import Board
>>> engine = Engine("russian")
>>> result = engine.search(Board("russian"), depth=4)
>>> result.best_move in Board("russian").legal_moves
True
"""

from __future__ import annotations

import queue
import random
import threading
import time as clock
from collections.abc import Generator, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from damier.board import Board, Move
from damier.egtb import SOURCES as EGTB_SOURCES
from damier.egtb.auto import build_in_background
from damier.engine.alarm import ALARM
from damier.engine.bitsearch import bitboard_position
from damier.engine.book import Book, shipped_book
from damier.engine.evaluation import evaluation_tables
from damier.engine.levels import LEVELS, MAX_THREADS, Level
from damier.engine.search import (
    INFINITY,
    MATE,
    MAX_PLY,
    S_CONTEMPT,
    S_KING_LIMIT,
    S_MEN_FORWARD,
    S_NO_MOVE,
    S_NODE_LIMIT,
    S_NODES,
    S_QUIET_LIMIT,
    S_SAME_KING,
    S_SELDEPTH,
    S_STOP,
    SearchContext,
    child_keys,
    empty_table,
    men_only_forward,
    quiet_moves_limit,
    row_keys,
)
from damier.engine.threads import Helpers
from damier.kernel import KERNEL_SOURCES, key_numba_cache
from damier.kernel import layout as L
from damier.kernel.movegen import make_move, unmake_move
from damier.kernel.tables import compile_tables
from damier.rules import CountedKingMoves, Variant, get_variant
from damier.rules.description import Topology

if TYPE_CHECKING:
    from damier.engine.multiplayer import MultiplayerSearch

# The engine's compiled searches embed the kernel's code, and Numba checks only a function's
# own file: their cache is keyed on the kernel's and the engine's sources together. (Numba
# reads its cache at a function's first call, so keying it at import is in time.) The
# modules below hold no compiled code: editing them does not throw the cache away.
UNCOMPILED = {"book.py", "book_command.py", "threads.py", "openings.py", "training.py"}
key_numba_cache(
    Path(__file__).parent / "__pycache__",
    "engine.fingerprint",
    [
        *KERNEL_SOURCES,
        *EGTB_SOURCES,
        *sorted(p for p in Path(__file__).parent.glob("*.py") if p.name not in UNCOMPILED),
    ],
)


@dataclass(frozen=True)
class Info:
    """What the engine knows after one iteration (or at the end of a search)."""

    depth: int
    score: int
    """Value for the side to move, in hundredths of a man."""
    mate: int | None
    """Moves (plies) to the end when the engine sees a forced win (> 0) or loss (< 0)."""
    pv: tuple[Move, ...]
    """Principal variation, starting with the best move."""
    nodes: int
    seconds: float
    seldepth: int
    lines: tuple[Info, ...] = ()
    """With multi-PV: the best lines, this one first, ordered by score (each its own
    :class:`Info`, with no lines of its own)."""
    book: bool = False
    """The move comes from the opening book (:mod:`damier.engine.book`): ``depth`` and
    ``score`` are those of the search that made the book."""

    @property
    def best_move(self) -> Move | None:
        return self.pv[0] if self.pv else None

    @property
    def nps(self) -> int:
        """Nodes per second."""
        return int(self.nodes / self.seconds) if self.seconds > 0 else 0


SearchResult = Info
"""The final :class:`Info` of a search."""


def mate_in(score: int) -> int | None:
    """The plies to a forced win (> 0) or loss (< 0) a score means, or None."""
    if abs(score) <= MATE - 1000:
        return None
    plies = MATE - abs(score)
    return plies if score > 0 else -plies


def clock_times(
    remaining: float, increment: float = 0.0, moves_to_go: int | None = None
) -> tuple[float, float]:
    """(the time to aim at, the most to spend) for a move with ``remaining`` on the clock:
    :func:`time_budget`, and up to three times it within 40% of what is left (a per-move
    clock: all of it). Give them to :meth:`Engine.search` as ``target`` and ``time``."""
    target = time_budget(remaining, increment, moves_to_go)
    if moves_to_go == 1:
        return target, target
    return target, max(target, min(3 * target, remaining * 0.4))


def time_budget(remaining: float, increment: float = 0.0, moves_to_go: int | None = None) -> float:
    """Seconds to spend on a move with ``remaining`` on the clock (sudden death or
    increment); a per-move clock passes its time per move as ``remaining`` with
    ``moves_to_go=1``."""
    share = remaining / (moves_to_go or 30) + 0.8 * increment
    return max(0.01, min(share, remaining * 0.4 if moves_to_go != 1 else remaining * 0.9))


def move_time(
    level: int, most: float, remaining: float | None = None, increment: float = 0.0
) -> float:
    """Seconds for the computer's move in a game: the level's limit, ``most`` (what the
    front end allows a move), and with a clock, the share of ``remaining`` that
    :func:`time_budget` gives; never less than a hundredth of a second."""
    seconds = min(LEVELS[level].seconds, most)
    if remaining is not None:
        seconds = min(seconds, time_budget(max(remaining, 0.0), increment))
    return max(seconds, 0.01)


CONTEMPT = 0
"""What a draw costs the engine in a game by default, in hundredths of a man (see
:attr:`Engine.contempt`): nothing. Against the engine of issue 35's day in Russian, 15
scored no better than 0 (56.0% of 200 games against 57.5%)."""


class Engine:
    """A searcher for one variant at one level (1-10; 10 is the full engine)."""

    def __init__(
        self,
        variant: str | Variant = "international",
        level: int = 10,
        table_megabytes: int = 32,
        seed: int | None = None,
        learned: bool | None = None,
        threads: int = 1,
        book: bool | Book = True,
        databases: bool = True,
        network: bool | None = None,
        contempt: int = CONTEMPT,
    ) -> None:
        """``learned``: evaluate with the learned pattern weights and network where the
        variant has some (None: as ``DAMIER_EVAL`` says, see :mod:`damier.engine.patterns`);
        ``network=False``: the patterns without the network (:mod:`damier.engine.network`).
        ``threads``: search with that many threads (Lazy SMP, :mod:`damier.engine.threads`;
        the full level, two-player variants). ``book``: the full level plays from the
        variant's shipped opening book (or this one) when a search is bounded by time
        only, not when it searches to a depth or a node count (:mod:`damier.engine.book`).
        ``databases``: probe the variant's endgame databases (those built so far, see
        :mod:`damier.egtb.auto`); off, a search depends on its position alone on every
        machine, as the puzzles' verdicts must. ``contempt``: what a draw costs the engine
        in a game's move, in hundredths of a man (:data:`CONTEMPT`: nothing by default)."""
        if level not in LEVELS:
            raise ValueError(f"level must be 1-10, not {level}")
        if not 1 <= threads <= MAX_THREADS:
            raise ValueError(f"threads must be 1-{MAX_THREADS}, not {threads}")
        self.variant = get_variant(variant)
        self.level: Level = LEVELS[level]
        self.book: Book | None = None
        """The opening book the engine plays from, if any."""
        self.contempt = contempt
        """What a draw costs the engine in a search bounded by time only (a game's move),
        in hundredths of a man: it plays on where a draw is near and its own chances are
        not worse by more. Searches to a depth or a node count value draws at 0."""
        if level == max(LEVELS) and book is not False:
            self.book = shipped_book(self.variant.name) if book is True else book
        self._multi: MultiplayerSearch | None = None
        self._tail: tuple[Move, np.ndarray | None] | None = None
        """The last brief line's best move and the keys of the rest (:meth:`_iterate`)."""
        if self.variant.players > 2 or self.variant.topology is not Topology.SQUARE:
            # Three or more players (and the radial boards): paranoid search, see multiplayer.py.
            from damier.engine.multiplayer import MultiplayerSearch

            rng = random.Random(seed)
            self._multi = MultiplayerSearch(self.variant, self.level, rng, table_megabytes)
            self._lock = threading.Lock()
            return
        self._tables = compile_tables(self.variant)
        self._maxc = int(self._tables.rules[L.R_MAXC])
        cells = len(self._tables.rays)
        bitboards = bitboard_position(self.variant, self._tables, databases)
        self._context = SearchContext(cells, self._maxc, table_megabytes, bitboards)
        self._databases = databases and bitboards is not None
        if level == max(LEVELS) and self._databases:
            build_in_background(self.variant)
        self._helpers = Helpers(self._context, threads - 1)
        self._pst, self._extra = evaluation_tables(self.variant, learned, network)
        self._rng = random.Random(seed)
        self._lock = threading.Lock()
        self._lines_table: np.ndarray | None = None
        """The transposition table of the multi-PV lines after the first (made when used)."""
        self._warm_up()

    def _warm_up(self) -> None:
        """Compile (or load from the cache) the search before any clock runs."""
        context = self._context
        context.new_search()
        board = Board(self.variant)
        sq = board.cells
        context.run(
            self._tables,
            sq,
            board.turn,
            board.zobrist_hash(),
            1,
            1,
            -INFINITY,
            INFINITY,
            self._pst,
            self._extra,
        )
        context.new_search()

    def stop(self) -> None:
        """Make the running search return as soon as possible (it keeps its best move)."""
        if self._multi is not None:
            return self._multi.stop()
        self._context.stats[S_STOP] = 1

    def new_game(self) -> None:
        """Forget the transposition table, and take up an endgame database built since the
        last game (:mod:`damier.egtb.auto`)."""
        if self._multi is not None:
            return self._multi.clear()
        self._context.clear()
        self._lines_table = None
        if self._databases:
            self._context.refresh_tablebase(self.variant)
            for helper in self._helpers.contexts:
                helper.refresh_tablebase(self.variant)

    def search(
        self,
        board: Board,
        *,
        time: float | None = None,
        depth: int | None = None,
        nodes: int | None = None,
        multipv: int = 1,
        book: bool = True,
        target: float | None = None,
    ) -> SearchResult:
        """The best move with its score and principal variation.

        Limits: ``time`` (seconds), ``depth`` (plies), ``nodes``; the level's bounds apply
        too. With no limit at all the level's own bounds decide. ``multipv`` above 1 fills
        :attr:`Info.lines` with that many best lines (exact scores, so a slower search).
        ``book=False``: search even a position of the engine's opening book. ``target``:
        the time a game's clock allows the move (:func:`clock_times`); the search spends
        less when its best move stays the same iteration after iteration and more, up to
        ``time``, when it changes or its score falls.
        """
        last = None
        self._tail = None
        for info in self._iterate(board, time, depth, nodes, multipv, book, target, brief=True):
            last = info
        assert last is not None
        if self._tail is not None and last.pv == (self._tail[0],):
            last = replace(last, pv=(last.pv[0], *self._pv_moves(board, *self._tail)))
        return last

    def analyse(
        self,
        board: Board,
        *,
        time: float | None = None,
        depth: int | None = None,
        nodes: int | None = None,
        multipv: int = 1,
        book: bool = True,
        target: float | None = None,
    ) -> Generator[Info, None, None]:
        """The search's information after every iteration, as it comes (the search runs
        in a background thread; :meth:`stop` ends it); ``multipv``, ``book`` and
        ``target`` as in :meth:`search`."""
        channel: queue.Queue[Info | BaseException | None] = queue.Queue()

        def work() -> None:
            try:
                for info in self._iterate(board, time, depth, nodes, multipv, book, target):
                    channel.put(info)
            except BaseException as error:  # handed to the consumer
                channel.put(error)
            channel.put(None)

        thread = threading.Thread(target=work, daemon=True)
        thread.start()
        try:
            while (item := channel.get()) is not None:
                if isinstance(item, BaseException):
                    raise item
                yield item
        finally:
            self.stop()
            thread.join()

    # -- the root ------------------------------------------------------------------

    def _iterate(
        self,
        board: Board,
        time: float | None,
        depth: int | None,
        nodes: int | None,
        multipv: int = 1,
        book: bool = True,
        target: float | None = None,
        brief: bool = False,
    ) -> Iterator[Info]:
        """The search's iterations; ``brief``: only the best move of each principal
        variation is named (the rest of the last is kept in :attr:`_tail` for
        :meth:`search`, which names it: naming a line takes a board and its moves at every
        ply, more than a shallow search itself, and only the last line is returned)."""
        if get_variant(board.variant) != self.variant:
            raise ValueError(f"this engine plays {self.variant.name}, not {board.variant.name}")
        if multipv < 1:
            raise ValueError(f"multipv must be at least 1, not {multipv}")
        for name, seconds in (("time", time), ("target", target)):
            # (A NaN fails both comparisons; 0 asks for an answer at once.)
            if seconds is not None and not 0 <= seconds < float("inf"):
                raise ValueError(f"{name} must be a finite number of seconds, not {seconds}")
        for name, count in (("depth", depth), ("nodes", nodes)):
            if count is not None and count < 1:
                raise ValueError(f"{name} must be at least 1, not {count}")
        with self._lock:
            timed = time is not None and depth is None and nodes is None
            if book and timed and (known := self._book_info(board, multipv)):
                yield known
                return
            if self._multi is not None:
                infos = self._multi.iterate(board, time, depth, nodes, multipv)
            else:
                infos = self._root(board, time, depth, nodes, multipv, target, brief)
            for info in infos:
                if multipv > 1 and not info.lines and info.pv:  # a forced move: one line
                    info = replace(info, lines=(info,))
                yield info

    def _book_info(self, board: Board, multipv: int) -> Info | None:
        """The book's answer for ``board`` (its best ``multipv`` moves), or None."""
        found = self.book.moves(board) if self.book is not None else []
        lines = tuple(
            Info(entry.depth, entry.score, None, (move,), 0, 0.0, 0, book=True)
            for move, entry in found[:multipv]
        )
        if not lines:
            return None
        return replace(lines[0], lines=lines if multipv > 1 else ())

    def _root(
        self,
        board: Board,
        time: float | None,
        depth: int | None,
        nodes: int | None,
        multipv: int,
        target: float | None = None,
        brief: bool = False,
    ) -> Iterator[Info]:
        level = self.level
        max_depth = min(depth or level.depth, level.depth, MAX_PLY - 8)
        budget = min(time if time is not None else level.seconds, level.seconds)
        node_limit = min(x for x in (nodes or 0, level.nodes) if x) if (nodes or level.nodes) else 0
        context = self._context
        context.new_search()
        stats = context.stats
        stats[S_NODE_LIMIT] = node_limit
        stats[S_NO_MOVE] = MATE if self.variant.giveaway else -MATE
        stats[S_KING_LIMIT] = self.variant.max_consecutive_king_moves
        stats[S_SAME_KING] = self.variant.counted_king_moves is CountedKingMoves.SAME_KING
        stats[S_QUIET_LIMIT] = quiet_moves_limit(self.variant)
        stats[S_MEN_FORWARD] = men_only_forward(self.variant)
        timed = time is not None and depth is None and nodes is None
        stats[S_CONTEMPT] = self.contempt if timed else 0
        sq = board.cells
        player = board.turn
        key = board.zobrist_hash()
        rows = board._rows(dedupe=True)  # the board grows its buffer for any number of moves
        count = len(rows)
        moves = board._describe(rows)
        started = clock.perf_counter()
        if count == 0:
            yield Info(0, int(stats[S_NO_MOVE]), 0, (), 0, 0.0, 0)
            return
        alarm = ALARM.set(budget, self.stop)
        helped = len(self._helpers) > 0 and not node_limit and not level.noise and multipv == 1
        try:
            if helped and count > 1:
                self._helpers.start(self._tables, board, key, max_depth, self._pst, self._extra)
            infos = self._deepen(
                board, sq, player, key, rows, moves, max_depth, started, multipv, brief
            )
            yield from infos if target is None else self._within(infos, target, started)
        finally:
            ALARM.cancel(alarm)
            self._helpers.stop()

    def _within(self, infos: Iterator[Info], target: float, started: float) -> Iterator[Info]:
        """``infos``, stopped once the next iteration would end past ``target``, which the
        iterations' history stretches: a best move that has held for four iterations is
        played at 60% of it; a best move that changed in the last iteration, or a score
        that fell by a quarter of a man, is given 160% (the hard limit stays ``time``).
        An iteration costs about as much as all those before it, so the next one is begun
        only before half the allowance."""
        best: Move | None = None
        held, score = 0, None
        for info in infos:
            yield info
            if info.depth == 0:
                continue
            held = held + 1 if info.best_move == best else 0
            stretch = 0.6 if held >= 3 else 1.0
            if (best is not None and info.best_move != best) or (
                score is not None and info.score < score - 25
            ):
                stretch = 1.6
            best, score = info.best_move, info.score
            if clock.perf_counter() - started > 0.5 * target * stretch:
                return

    def _deepen(
        self,
        board: Board,
        sq: np.ndarray,
        player: int,
        key: int,
        rows: np.ndarray,
        moves: list[Move],
        max_depth: int,
        started: float,
        multipv: int,
        brief: bool = False,
    ) -> Iterator[Info]:
        context, stats = self._context, self._context.stats
        t, pst, extra = self._tables, self._pst, self._extra
        following = (player + 1) % int(t.rules[L.R_PLAYERS])
        order = list(range(len(moves)))
        noise = self.level.noise
        children = child_keys(t, rows, player, following, key)
        if len(moves) == 1 and noise == 0:
            yield Info(0, 0, None, (moves[0],), 0, 0.0, 0)
            return
        context.read_king_runs(board)
        context.read_history(board, key)
        for iteration in range(1, max_depth + 1):
            alpha, best, best_index = -INFINITY, -INFINITY, order[0]
            scores: dict[int, int] = {}
            child_pv = None
            for n, i in enumerate(order):
                context.root_move(rows[i])
                make_move(t, sq, rows, i)
                if n == 0 or noise:
                    score = -context.run(
                        t,
                        sq,
                        following,
                        children[i],
                        iteration - 1,
                        1,
                        -INFINITY,
                        INFINITY if noise else -alpha,
                        pst,
                        extra,
                    )
                else:
                    score = -context.run(
                        t,
                        sq,
                        following,
                        children[i],
                        iteration - 1,
                        1,
                        -alpha - 1,
                        -alpha,
                        pst,
                        extra,
                    )
                    if score > alpha and stats[S_STOP] == 0:
                        score = -context.run(
                            t,
                            sq,
                            following,
                            children[i],
                            iteration - 1,
                            1,
                            -INFINITY,
                            -alpha,
                            pst,
                            extra,
                        )
                unmake_move(t, sq, rows, i)
                if stats[S_STOP] == 1:
                    break
                scores[i] = score
                if score > best:
                    best, best_index = score, i
                    child_pv = context.pv[1, 1 : 1 + context.pv[1, 0]].copy()
                alpha = max(alpha, score)
            if stats[S_STOP] == 1 and (not scores or noise or best_index == order[0]):
                # Stopped before a move beat the last iteration's best: keep that one.
                if iteration == 1:  # stopped before one move was searched: any legal move
                    yield Info(
                        0,
                        0,
                        None,
                        (moves[order[0]],),
                        self._nodes(),
                        clock.perf_counter() - started,
                        int(stats[S_SELDEPTH]),
                    )
                break
            # (Stopped after a move beat the last best, searched in full: a better move,
            # reported at this depth.)
            if noise:
                noisy = {i: s + self._rng.gauss(0, noise) for i, s in scores.items()}
                best_index = max(noisy, key=lambda i: noisy[i])
                best = scores[best_index]
                child_pv = None
            order.sort(key=lambda i: -scores.get(i, -INFINITY))
            if noise:
                order.remove(best_index)
                order.insert(0, best_index)
            if brief and multipv == 1:
                best_pv: tuple[Move, ...] = (moves[best_index],)
                self._tail = (moves[best_index], child_pv)
            else:
                best_pv = (moves[best_index], *self._pv_moves(board, moves[best_index], child_pv))
            info = Info(
                iteration,
                int(best),
                mate_in(best),
                best_pv,
                self._nodes(),
                clock.perf_counter() - started,
                int(stats[S_SELDEPTH]),
            )
            if multipv > 1 and stats[S_STOP] == 1 and iteration > 1:
                break  # a better move, but no time for the other lines: keep the last ones
            if multipv > 1 and stats[S_STOP] == 0:
                others = [i for i in order if i != best_index]
                lines = self._other_lines(board, sq, key, rows, moves, others, info, multipv - 1)
                if stats[S_STOP] == 1:  # the other lines are unfinished: keep the last ones
                    if iteration == 1:  # (none yet: the main line alone)
                        yield info
                    break
                info = replace(info, lines=(info, *lines))
            yield info
            # The timer ends the search: each iteration, even unfinished, can only improve
            # on the last one, so the whole allowance is used.
            if stats[S_STOP] == 1 or (info.mate is not None and iteration > abs(info.mate) + 2):
                break

    def _nodes(self) -> int:
        """The nodes of the running search, its helper threads' included."""
        return int(self._context.stats[S_NODES]) + self._helpers.nodes

    def _other_lines(
        self,
        board: Board,
        sq: np.ndarray,
        key: int,
        rows: np.ndarray,
        moves: list[Move],
        candidates: list[int],
        main: Info,
        count: int,
    ) -> list[Info]:
        """The ``count`` best lines after the main one, at its depth: the other root moves
        searched above the ``count``-th best score so far (so the best get exact scores)
        and at most the main line's score (a move the main search ranked lower is shown
        level with it, never above).

        This search has its own transposition table, killers and history, so that the
        main line stays exactly what a single-line search finds."""
        context, stats = self._context, self._context.stats
        t, pst, extra = self._tables, self._pst, self._extra
        following = (board.turn + 1) % int(t.rules[L.R_PLAYERS])
        children = child_keys(t, rows, board.turn, following, key)
        saved = (context.table, context.killers.copy(), context.history.copy())
        if self._lines_table is None:
            self._lines_table = empty_table(len(context.table))
        context.table = self._lines_table
        scores: dict[int, int] = {}
        found: dict[int, np.ndarray] = {}
        alpha = -INFINITY
        try:
            for i in candidates:
                context.root_move(rows[i])
                make_move(t, sq, rows, i)
                score = -context.run(
                    t, sq, following, children[i], main.depth - 1, 1, -main.score - 1, -alpha,
                    pst, extra,
                )  # fmt: skip
                if score > main.score and stats[S_STOP] == 0:
                    # Above the main line (this search's own table): its reply failed low and
                    # left no line, so it is searched again without the upper bound.
                    score = -context.run(
                        t, sq, following, children[i], main.depth - 1, 1, -INFINITY, -alpha,
                        pst, extra,
                    )  # fmt: skip
                unmake_move(t, sq, rows, i)
                if stats[S_STOP] == 1:
                    return []
                scores[i] = min(score, main.score)
                if score > alpha:
                    found[i] = context.pv[1, 1 : 1 + context.pv[1, 0]].copy()
                if len(scores) >= count:
                    alpha = sorted(scores.values(), reverse=True)[count - 1]
        finally:
            context.table = saved[0]
            context.killers[:], context.history[:] = saved[1], saved[2]
        best = sorted(found, key=lambda i: -scores[i])[:count]
        return [
            replace(
                main,
                score=scores[i],
                mate=mate_in(scores[i]),
                pv=(moves[i], *self._pv_moves(board, moves[i], found[i])),
            )
            for i in best
        ]

    def _pv_moves(self, board: Board, first: Move, keys: np.ndarray | None) -> list[Move]:
        """The moves a principal variation's keys name, after ``first``."""
        if keys is None or len(keys) == 0:
            return []
        line = board.copy()
        line.push(first)
        result: list[Move] = []
        for wanted in keys:
            rows, legal = line._generate()
            matches = [m for m, k in zip(legal, row_keys(rows), strict=True) if k == wanted]
            if not matches:
                break
            line.push(matches[0])
            result.append(matches[0])
        return result
