"""The analysis board: positions of any variant (set up freely, or reached by a line of
moves), PDN games with their variations as trees, and the engine's best lines streamed as
the search deepens.

Engine analyses run in a thread pool of their own, apart from the computer opponents', with
few threads at a lower priority: a live game's computer never waits behind an analysis.
Each analysis holds a slot for its whole run; a player may hold ``per_player`` slots and the
server ``workers``; a start beyond either is refused at once (no queue), and every analysis
ends after ``seconds`` at the latest.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Annotated, Any, Generic, TypeVar

from pydantic import BaseModel, Field, field_validator, model_validator

from damier.board import PLAYER_NAMES, Board, Move
from damier.engine import Engine, Info
from damier.errors import FenError
from damier.game import Forfeit, Game
from damier.notation.pdn import (
    MAX_DEPTH,
    RESULTS,
    Node,
    PdnGame,
    dump_pdn,
    forfeit_text,
    parse_forfeit,
    read_pdn,
    tag_name_problem,
)
from damier.rules import Variant
from damier.server.i18n import tr, tr_n
from damier.server.schemas import Square
from damier.server.services.errors import BadRequest, RateLimited
from damier.server.services.games import rules_of

MAX_LINE = 600
"""Most moves a position's line may have (a long game and then some)."""


# -- positions -------------------------------------------------------------------------


class PositionRequest(BaseModel):
    variant: str = Field(max_length=64)
    fen: str | None = Field(default=None, max_length=2000)
    """The start (default: the variant's); an editor's position is checked by the kernel."""
    moves: list[str] = Field(default_factory=list, max_length=MAX_LINE)
    """Moves (and multi-player forfeits, ``R:resigns``) played from ``fen``."""


class PositionMove(BaseModel):
    notation: str
    path: list[Square]
    captured: list[Square]


class LineMove(PositionMove):
    fen: str
    """The position after the move."""


class PositionView(BaseModel):
    variant: str
    start_fen: str
    fen: str
    turn: str
    """The colour to move (``white``, ``black``, ``red``...)."""
    line: list[LineMove]
    """The moves played, in the variant's own notation (a forfeit has no path)."""
    legal_moves: list[PositionMove]
    result: str | None
    """Why the game is over at this position (None while it goes on)."""


def _variant(name: str) -> Variant:
    """The variant ``name`` names, with its options; BadRequest with the registry's reason."""
    return rules_of(name)


def _play(game: Game, text: str) -> Move | Forfeit:
    """Play one move (or forfeit) of a line; the kernel's reason when it is refused."""
    forfeit = parse_forfeit(text)
    try:
        if forfeit is not None:
            game.forfeit(forfeit.player, forfeit.reason)
            return forfeit
        return game.push(text)
    except ValueError as error:  # illegal, ambiguous, or the game is over
        raise BadRequest(
            tr("move {n} ({move}): {error}", n=len(game.events) + 1, move=text, error=str(error))
        ) from None


def position(variant: str, fen: str | None, moves: list[str]) -> Game:
    """The game from ``fen`` (or the start) after ``moves``; BadRequest with the kernel's own
    reason for a position or a move it refuses."""
    return _replay(variant, fen, moves)[0]


def _replay(variant: str, fen: str | None, moves: list[str]) -> tuple[Game, list[LineMove]]:
    """:func:`position`, and each move played with the position after it."""
    rules = _variant(variant)
    try:
        game = Game(rules, fen.strip() if fen and fen.strip() else None)
    except (FenError, ValueError) as error:
        raise BadRequest(tr("impossible position: {error}", error=str(error))) from None
    line = []
    for text in moves:
        event = _play(game, text)
        move = event if isinstance(event, Move) else None
        line.append(
            LineMove(
                notation=event_text(event),
                path=list(move.path) if move else [],
                captured=list(move.captured) if move else [],
                fen=game.board.fen,
            )
        )
    return game, line


def position_view(variant: str, fen: str | None, moves: list[str]) -> PositionView:
    """The position after ``moves`` as the page shows it."""
    game, line = _replay(variant, fen, moves)
    board = game.board
    over = game.result is not None
    return PositionView(
        variant=game.variant.name,
        start_fen=game.start_fen,
        fen=board.fen,
        turn=PLAYER_NAMES[board.turn],
        line=line,
        legal_moves=[]
        if over
        else [
            PositionMove(notation=m.notation, path=list(m.path), captured=list(m.captured))
            for m in board.legal_moves
        ],
        result=game.result.reason if game.result is not None else None,
    )


def event_text(event: Move | Forfeit) -> str:
    """A move's notation, or a forfeit's word (``R:resigns``)."""
    return event.notation if isinstance(event, Move) else forfeit_text(event)


# -- PDN trees -------------------------------------------------------------------------

MAX_PDN = 32_000
"""Most characters of a PDN text read into a tree (the request body limit may be lower)."""

_NAG = r"^(\$[0-9]{1,6}|[!?]{1,6})$"


class TreeMove(BaseModel):
    """A move of a PDN tree: the move, what is written after it, and its alternatives."""

    notation: str = Field(max_length=128)
    path: list[Square] = Field(default_factory=list)
    captured: list[Square] = Field(default_factory=list)
    fen: str = ""
    """The position after the move (filled when the server reads a PDN)."""
    comments: list[str] = Field(default_factory=list)
    nags: list[Annotated[str, Field(pattern=_NAG)]] = Field(default_factory=list)
    """Glyphs: ``$1``... or ``!``, ``?!``..."""
    variations: list[list[TreeMove]] = Field(default_factory=list)
    """Lines played instead of this move."""


class PdnTree(BaseModel):
    variant: str = Field(max_length=64)
    fen: str = ""
    """The start position (the variant's start when empty)."""
    tags: dict[str, str] = Field(default_factory=dict)
    comment: str = ""
    result: str = "*"
    moves: list[TreeMove] = Field(default_factory=list)
    """The main line."""

    @model_validator(mode="before")
    @classmethod
    def _not_too_deep(cls, data: Any) -> Any:
        """Refuse variations nested deeper than a PDN may have them, before the nested
        moves are read (each level of them would be read by a call within a call)."""
        if isinstance(data, dict):
            _check_depth(data.get("moves"))
        return data

    @field_validator("tags")
    @classmethod
    def _tag_names(cls, tags: dict[str, str]) -> dict[str, str]:
        for name in tags:
            problem = tag_name_problem(name)
            if problem is not None:
                raise ValueError(problem)
        return tags

    @field_validator("result")
    @classmethod
    def _pdn_result(cls, result: str) -> str:
        if result not in RESULTS and result != "*":
            raise ValueError(f"a PDN result is one of {', '.join([*RESULTS, '*'])}")
        return result


def _check_depth(moves: Any) -> None:
    """ValueError if the variations of a tree as sent (JSON lists and objects) nest deeper
    than :data:`MAX_DEPTH`; looks at each list once, without calls within calls."""
    lines: list[tuple[Any, int]] = [(moves, 0)]
    while lines:
        line, depth = lines.pop()
        if not isinstance(line, list):
            continue  # not a line: the model's own checks say what is wrong
        for move in line:
            variations = move.get("variations") if isinstance(move, dict) else None
            if not isinstance(variations, list) or not variations:
                continue
            if depth >= MAX_DEPTH:
                raise ValueError(f"PDN variations nest at most {MAX_DEPTH} deep")
            lines.extend((variation, depth + 1) for variation in variations)


class PdnText(BaseModel):
    pdn: str = Field(max_length=MAX_PDN)
    variant: str = Field(default="international", max_length=64)
    """The variant when the game's tags name none."""


def pdn_tree(text: str, default: str) -> PdnTree:
    """The first game of a PDN text as a tree (every move checked, variations too); a
    broken game is refused with its line and column."""
    games = read_pdn(text)
    if not games:
        raise BadRequest(tr("no game in this PDN"))
    record = games[0]
    if record.errors:
        problem = record.errors[0]
        raise BadRequest(_at(problem.line, problem.column, problem.message))
    try:
        variant = record.variant(_variant(default))
    except ValueError as error:  # an unknown GameType or Variant, or options refused
        raise BadRequest(str(error)) from None
    game = position(variant.name, record.tags.get("FEN"), [])

    def tree_move(node: Node, event: Move | Forfeit, variations: list[list[TreeMove]]) -> TreeMove:
        move = event if isinstance(event, Move) else None
        return TreeMove(
            notation=event_text(event),
            path=list(move.path) if move else [],
            captured=list(move.captured) if move else [],
            fen=game.board.fen,  # the position after the move
            comments=list(node.comments),
            nags=list(node.nags),
            variations=variations,
        )

    return PdnTree(
        variant=variant.name,
        fen=game.start_fen,
        tags=dict(record.tags),
        comment=record.comment,
        result=record.result,
        moves=_walk(
            game,
            record.moves,
            lambda node: node.text,
            lambda node: (node.line, node.column),
            tree_move,
        ),
    )


def tree_pdn(tree: PdnTree) -> str:
    """A tree written as PDN (its tags, comments, glyphs and variations); every move is
    checked first, and written in the variant's own notation."""
    variant = _variant(tree.variant)
    start = position(variant.name, tree.fen or None, [])

    def node(move: TreeMove, event: Move | Forfeit, variations: list[list[Node]]) -> Node:
        return Node(event_text(event), 0, 0, list(move.comments), list(move.nags), variations)

    moves = _walk(start, tree.moves, lambda move: move.notation, lambda _: None, node)
    tags = dict(tree.tags)
    if variant.pdn_game_type is not None:
        tags.setdefault("GameType", str(variant.pdn_game_type))
    else:
        tags.setdefault("Variant", variant.name)
    if start.start_fen != Board(variant).fen:
        tags.setdefault("FEN", start.start_fen)
    record = PdnGame(tags=tags, moves=moves, result=tree.result, comment=tree.comment)
    try:
        return dump_pdn(record)
    except ValueError as error:  # a tag name or a result PDN cannot hold
        raise BadRequest(str(error)) from None


def _at(line: int, column: int, error: str) -> str:
    """A refusal of a PDN: where in the text, and why (a reader's or the kernel's reason)."""
    return tr("PDN line {line}, column {column}: {error}", line=line, column=column, error=error)


In = TypeVar("In", Node, TreeMove)
Out = TypeVar("Out", Node, TreeMove)


@dataclass
class _Line(Generic[In, Out]):
    """A line the walk is in: its moves, how far it has gone, and what it built."""

    moves: Sequence[In]
    out: list[Out]
    index: int = 0
    variation: int = 0
    """The next variation of ``moves[index]`` to walk, before the move is played."""
    built: list[list[Out]] = field(default_factory=list)
    """The variations of ``moves[index]`` built so far."""
    played: list[Move | Forfeit] = field(default_factory=list)


def _walk(
    game: Game,
    line: Sequence[In],
    text: Callable[[In], str],
    where: Callable[[In], tuple[int, int] | None],
    make: Callable[[In, Move | Forfeit, list[list[Out]]], Out],
) -> list[Out]:
    """Play ``line`` on ``game`` with every variation in it, each from the position before
    the move it replaces, and build the moves of the tree again with ``make`` (called just
    after its move is played: ``game`` is at the position after it).

    Each move is played once and taken back once (the draw rules see the moves before
    it); the walk keeps its own stack of lines, so a deep tree makes no deep calls.
    BadRequest for a move refused, with ``where`` the move is (its PDN line and column).
    """
    root: list[Out] = []
    stack = [_Line(line, root)]
    while stack:
        top = stack[-1]
        if top.index == len(top.moves):
            for event in reversed(top.played):
                _take_back(game, event)
            stack.pop()
            continue
        move = top.moves[top.index]
        variations = move.variations
        if top.variation < len(variations):
            branch: list[Out] = []
            top.built.append(branch)
            stack.append(_Line(variations[top.variation], branch))
            top.variation += 1
            continue
        try:
            event = _play(game, text(move))
        except BadRequest as error:
            at = where(move)
            if at is None:
                raise
            raise BadRequest(_at(*at, error.detail)) from None
        top.played.append(event)
        top.out.append(make(move, event, top.built))
        top.index += 1
        top.variation = 0
        top.built = []
    return root


def _take_back(game: Game, event: Move | Forfeit) -> None:
    """Undo the last move or forfeit of ``game``. A two-player forfeit only ends the game
    (it leaves no ply for :meth:`Game.undo`), so taking it back clears the result."""
    if isinstance(event, Forfeit) and game.variant.players == 2:
        game.result = None
    else:
        game.undo()


# -- engine analyses -------------------------------------------------------------------


def line_view(line: Info) -> dict[str, Any]:
    """One engine line as the page shows it (score for the side to move)."""
    return {
        "score": line.score,
        "mate": line.mate,
        "depth": line.depth,
        "pv": [move.notation for move in line.pv],
        "book": line.book,
    }


class Slot:
    """One running analysis's place under the limits; released once."""

    def __init__(self, analyses: Analyses, owner: str) -> None:
        self._analyses = analyses
        self.owner = owner
        self.released = asyncio.Event()
        self.searching = False
        """Whether the search was handed to a thread (which then releases the slot)."""

    def release(self) -> None:
        if not self.released.is_set():
            self.released.set()
            self._analyses._release(self.owner)


class Analyses:
    """The engine analyses of one server process."""

    def __init__(
        self, workers: int = 1, per_player: int = 1, seconds: float = 30.0, interval: float = 0.2
    ) -> None:
        self.workers = max(1, workers)
        self.per_player = max(1, per_player)
        self.seconds = seconds
        self.interval = interval
        """Least seconds between two updates sent to a page."""
        self._executor = ThreadPoolExecutor(
            self.workers, thread_name_prefix="damier-analysis", initializer=_yield_to_games
        )
        self._running: dict[str, int] = {}
        self._idle: dict[str, list[Engine]] = {}
        self._busy: set[Engine] = set()
        self._lock = threading.Lock()

    @property
    def running(self) -> int:
        return sum(self._running.values())

    def reserve(self, owner: str) -> Slot:
        """A slot for ``owner``'s next analysis; RateLimited with the reason when one of the
        limits is reached."""
        if self._running.get(owner, 0) >= self.per_player:
            raise RateLimited(
                tr_n(
                    "you already have {n} engine analysis running"
                    " (close the other analysis pages, or stop their engine)",
                    "you already have {n} engine analyses running"
                    " (close the other analysis pages, or stop their engine)",
                    self.per_player,
                )
            )
        if self.running >= self.workers:
            raise RateLimited(
                tr("the server's engines are all busy with other analyses: try again in a moment")
            )
        self._running[owner] = self._running.get(owner, 0) + 1
        return Slot(self, owner)

    async def reserve_soon(self, owner: str, patience: float = 1.0) -> Slot:
        """:meth:`reserve`, waiting up to ``patience`` seconds for a slot to be given back:
        a reloaded page's new socket often comes while the old socket's search is still
        stopping, and must not be refused for it."""
        deadline = time.monotonic() + patience
        while True:
            try:
                return self.reserve(owner)
            except RateLimited:
                if time.monotonic() >= deadline:
                    raise
                await asyncio.sleep(0.05)

    def _release(self, owner: str) -> None:
        left = self._running.get(owner, 0) - 1
        if left > 0:
            self._running[owner] = left
        else:
            self._running.pop(owner, None)

    async def run(
        self,
        slot: Slot,
        board: Board,
        lines: int,
        send: Callable[[dict[str, Any]], Awaitable[None]],
        book: bool = True,
    ) -> None:
        """Analyse ``board`` (a copy the caller gives up), sending an ``analysis`` frame as
        the search deepens (at most every ``interval`` seconds) and a last one with
        ``done``; cancelling stops the search. The slot is released when the search thread
        has finished (:attr:`Slot.released` is set then). ``book``: answer a position of
        the engine's opening book from it."""
        loop = asyncio.get_running_loop()
        latest: list[Info] = []
        changed = asyncio.Event()
        stopping = threading.Event()
        engines: list[Engine] = []

        def report(info: Info) -> None:
            latest[:] = [info]
            changed.set()

        def work() -> None:
            engine = self._engine(board.variant)
            engines.append(engine)
            try:
                if stopping.is_set():
                    return
                search = engine.analyse(board, time=self.seconds, multipv=lines, book=book)
                with contextlib.closing(search):
                    for info in search:
                        loop.call_soon_threadsafe(report, info)
                        if stopping.is_set():
                            break
            finally:
                self._give_back(engine)

        future: asyncio.Future[Any] = asyncio.wrap_future(self._executor.submit(work))
        future.add_done_callback(lambda _: slot.release())
        slot.searching = True
        sent: Info | None = None
        try:
            while not future.done():
                waiter: asyncio.Future[Any] = asyncio.ensure_future(changed.wait())
                await asyncio.wait({future, waiter}, return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
                changed.clear()
                if latest and latest[0] is not sent and not future.done():
                    sent = latest[0]
                    await send(_frame(sent, board, done=False))
                    await asyncio.sleep(self.interval)
            future.result()  # a failed search raises here
            if latest:
                await send(_frame(latest[0], board, done=True))
        finally:
            # No await here: a cancelled caller may be cancelled again. The stop is asked
            # until the search thread ends (an engine forgets a stop that comes before its
            # search has begun).
            stopping.set()

            def halt() -> None:
                if not future.done():
                    for engine in engines:
                        engine.stop()
                    loop.call_later(0.05, halt)

            halt()

    def _engine(self, variant: Variant) -> Engine:
        with self._lock:
            idle = self._idle.get(variant.name)
            engine = idle.pop() if idle else None
        if engine is None:
            engine = Engine(variant, level=10, table_megabytes=8)
        with self._lock:
            self._busy.add(engine)
        return engine

    def _give_back(self, engine: Engine) -> None:
        """Keep an engine for the next analysis of its variant (a few at most)."""
        with self._lock:
            self._busy.discard(engine)
            self._idle.setdefault(engine.variant.name, []).append(engine)
            while sum(len(idle) for idle in self._idle.values()) > self.workers * 2:
                longest = max(self._idle.values(), key=len)
                longest.pop(0)

    def close(self) -> None:
        """Stop every search (the process is stopping: its threads must end)."""
        with self._lock:
            for engine in self._busy:
                engine.stop()
        self._executor.shutdown(wait=False, cancel_futures=True)


ANALYSIS_NICENESS = 10
"""How much lower than the rest of the server the analysis threads run (Linux niceness)."""


def _yield_to_games() -> None:
    """Lower this thread's scheduling priority (the engine's search thread, started from
    it, inherits it): on a busy machine the live games' computer moves go first."""
    with contextlib.suppress(AttributeError, OSError):  # not Linux: same priority
        thread = threading.get_native_id()
        lower = min(os.getpriority(os.PRIO_PROCESS, thread) + ANALYSIS_NICENESS, 19)
        os.setpriority(os.PRIO_PROCESS, thread, lower)


def _frame(info: Info, board: Board, *, done: bool) -> dict[str, Any]:
    lines = info.lines or (info,)
    return {
        "type": "analysis",
        "fen": board.fen,
        "depth": info.depth,
        "nodes": info.nodes,
        "seconds": round(info.seconds, 2),
        "lines": [line_view(line) for line in lines if line.pv],
        "done": done,
    }
