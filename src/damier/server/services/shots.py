"""Missed shots: the winning combinations a player let pass in his finished games, found
when a game is reviewed (``services.review``), kept, and offered to practise in the puzzle
trainer (never rated).

The review hands over the moves it judged blunders in positions it found won for the
mover (:class:`Candidate`); the puzzle finder (:class:`damier.puzzles.Finder`, its
default criteria, as for the shipped puzzles) examines each: a shot is a position with a
unique winning move and a forced line after it, whose first move the player did not play.
The finder runs in a thread, one examination at a time per process, the biggest losses
first, at most :data:`MOST_EXAMINED` positions and :data:`SEARCH_SECONDS` per game. A
game's search is stored with what it found (:class:`ShotSearchRow`, :class:`MissedShotRow`),
so a game is searched once, whichever process reviews it again.

A shot is solved like a puzzle (``services.puzzles.replay``) under its own id
(``shot-<game>-<ply>``); the attempts of the player who missed it are counted on it.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace

from pydantic import BaseModel, Field
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from damier.board import Board, Move
from damier.puzzles import Finder, Puzzle
from damier.rules import get_variant
from damier.server.i18n import tr
from damier.server.schemas import COLORS, Color
from damier.server.services.context import Services
from damier.server.services.errors import NotFound
from damier.server.services.puzzles import (
    AttemptIn,
    AttemptResult,
    PuzzleView,
    legal_move_views,
    replay,
)
from damier.server.store.models import GameRow, MissedShotRow, ShotSearchRow

log = logging.getLogger("damier.server")

MOST_EXAMINED = 8
"""Positions of one game the finder examines, at most (the biggest losses first)."""
SEARCH_SECONDS = 30.0
"""No new position of a game is examined after this many seconds of its search."""
KEPT_FINDERS = 4
"""Finders (a full engine each) kept per process, the most recently used."""
LISTED = 100
"""Shots listed in a player's "my missed shots", the newest first."""
PREFIX = "shot-"


"""A player's missed shots, newest first, are one range of this index."""


@dataclass(frozen=True)
class Candidate:
    """A move the review suspects of missing a shot."""

    ply: int
    """The move (1 for the game's first)."""
    board: Board
    """The position before it."""
    played: Move
    loss: int
    """What the move lost in the review, in hundredths of a man (the biggest go first)."""


class MissedShot(BaseModel):
    id: str
    """The trainer's id: ``/puzzles/{variant}?shot={id}`` opens it."""
    game_id: str
    ply: int
    """The move that missed it (1 for the game's first); the shot is in the position
    before it."""
    variant: str
    color: Color
    """Who missed it (the solver)."""
    played: str
    """The move played instead."""
    themes: list[str]
    rating: int
    """The finder's estimate of its difficulty (Glicko scale)."""
    solver_moves: int


class MyShot(MissedShot):
    found: float
    attempts: int
    """The player's finished practice attempts at it."""
    solved: int


class MyShots(BaseModel):
    shots: list[MyShot] = Field(default_factory=list)


class ShotPuzzle(BaseModel):
    puzzle: PuzzleView
    """The shot to solve (its ``id`` is the shot's; it is never rated)."""
    shot: MyShot
    mine: bool
    """Whether the viewer is the player who missed it (his attempts are counted)."""


# -- the search ---------------------------------------------------------------------------


class _Finders:
    """The finders of this process, used by one examination at a time."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.kept: OrderedDict[str, Finder] = OrderedDict()

    def examine(self, candidate: Candidate, source: str) -> Puzzle | None:
        """The shot at the candidate's position, when its first move is not the one
        played (runs in a thread)."""
        board = candidate.board
        with self.lock:
            name = board.variant.name
            finder = self.kept.get(name)
            if finder is None:
                finder = Finder(name)
                self.kept[name] = finder
                while len(self.kept) > KEPT_FINDERS:
                    self.kept.popitem(last=False)
            self.kept.move_to_end(name)
            if not finder.is_candidate(board):
                return None
            puzzle = finder.examine(board, source).puzzle
        if puzzle is None or board.parse_move(puzzle.moves[0]) == candidate.played:
            return None
        return puzzle


_finders = _Finders()


def shot_id(game_id: str, ply: int) -> str:
    return f"{PREFIX}{game_id}-{ply}"


def is_shot(puzzle_id: str) -> bool:
    """Whether a trainer's id names a missed shot rather than a shipped puzzle."""
    return puzzle_id.startswith(PREFIX)


def can_have_shots(variant: str) -> bool:
    """Whether the finder judges this variant's positions (material is a gain: not in a
    giveaway game)."""
    return not get_variant(variant).giveaway


async def missed_shots(
    *,
    services: Services,
    game: GameRow,
    candidates: list[Candidate],
    examined: Callable[[], None] = lambda: None,
) -> list[MissedShot]:
    """The shots missed in a reviewed game: those stored when it was searched before, else
    the candidates examined now (``examined`` is called after each) and stored."""
    stored = await _stored(services, game.id)
    if stored is not None:
        return stored
    chosen = sorted(candidates, key=lambda c: (-c.loss, c.ply))[:MOST_EXAMINED]
    began = time.monotonic()
    rows = []
    for candidate in chosen:
        if time.monotonic() - began >= SEARCH_SECONDS:
            break
        puzzle = await asyncio.to_thread(_finders.examine, candidate, f"game:{game.id}")
        examined()
        if puzzle is not None:
            rows.append(_row(game, candidate, puzzle, services.now()))
    try:
        async with services.database.session() as session, session.begin():
            session.add(ShotSearchRow(game_id=game.id, at=services.now(), shots=len(rows)))
            session.add_all(rows)
    except IntegrityError:  # another process searched it meanwhile: its finds stand
        again = await _stored(services, game.id)
        if again is not None:
            return again
    return [_view(row) for row in sorted(rows, key=lambda row: row.ply)]


def _row(game: GameRow, candidate: Candidate, puzzle: Puzzle, now: float) -> MissedShotRow:
    mover = candidate.board.turn
    return MissedShotRow(
        id=shot_id(game.id, candidate.ply),
        game_id=game.id,
        ply=candidate.ply,
        player_id=game.white_id if mover == 0 else game.black_id,
        variant=puzzle.variant,
        played=candidate.played.notation,
        puzzle=puzzle.to_json(),
        found=now,
        attempts=0,
        solved=0,
    )


async def _stored(services: Services, game_id: str) -> list[MissedShot] | None:
    """The stored shots of a game, or None when it was never searched."""
    async with services.database.session() as session:
        if await session.get(ShotSearchRow, game_id) is None:
            return None
        rows = await session.scalars(
            select(MissedShotRow)
            .where(MissedShotRow.game_id == game_id)
            .order_by(MissedShotRow.ply)
        )
        return [_view(row) for row in rows.all()]


# -- practice -----------------------------------------------------------------------------


def _puzzle(row: MissedShotRow) -> Puzzle:
    """The shot as a puzzle under the trainer's id."""
    return replace(Puzzle.from_json(row.puzzle), id=row.id)


def _view(row: MissedShotRow) -> MissedShot:
    puzzle = _puzzle(row)
    return MissedShot(
        id=row.id,
        game_id=row.game_id,
        ply=row.ply,
        variant=row.variant,
        color=COLORS[Board(row.variant, puzzle.fen).turn],
        played=row.played,
        themes=list(puzzle.themes),
        rating=puzzle.rating,
        solver_moves=len(puzzle.solver_moves),
    )


def _mine(row: MissedShotRow) -> MyShot:
    return MyShot(
        **_view(row).model_dump(), found=row.found, attempts=row.attempts, solved=row.solved
    )


async def _load(services: Services, shot: str) -> MissedShotRow:
    async with services.database.session() as session:
        row = await session.get(MissedShotRow, shot)
    if row is None:
        raise NotFound(tr("no missed shot {shot}", shot=repr(shot)))
    return row


async def my_shots(*, services: Services, player_id: str | None, variant: str | None) -> MyShots:
    """The shots the player missed in his reviewed games (in one variant, or all)."""
    if player_id is None:
        return MyShots()
    query = select(MissedShotRow).where(MissedShotRow.player_id == player_id)
    if variant is not None:
        try:
            name = get_variant(variant).name
        except ValueError:
            raise NotFound(tr("no variant {variant}", variant=repr(variant))) from None
        query = query.where(MissedShotRow.variant == name)
    async with services.database.session() as session:
        rows = await session.scalars(query.order_by(MissedShotRow.found.desc()).limit(LISTED))
        return MyShots(shots=[_mine(row) for row in rows.all()])


async def shot_puzzle(*, services: Services, player_id: str | None, shot: str) -> ShotPuzzle:
    """A missed shot to solve: anyone may practise it; 404 for an unknown one."""
    row = await _load(services, shot)
    puzzle = _puzzle(row)
    board = Board(row.variant, puzzle.fen)
    mine = player_id is not None and player_id == row.player_id
    return ShotPuzzle(
        puzzle=PuzzleView(
            id=row.id,
            variant=row.variant,
            fen=puzzle.fen,
            color=COLORS[board.turn],
            themes=list(puzzle.themes),
            rating=float(puzzle.rating),
            solver_moves=len(puzzle.solver_moves),
            legal_moves=legal_move_views(board),
            tried=mine and row.attempts > 0,
        ),
        shot=_mine(row),
        mine=mine,
    )


async def attempt(
    *, services: Services, player_id: str, shot: str, attempt: AttemptIn
) -> AttemptResult:
    """Check an attempt at a missed shot, as a puzzle's (never rated); a finished attempt
    of the player who missed it is counted on the shot."""
    row = await _load(services, shot)
    result = replay(_puzzle(row), attempt.moves, attempt.give_up)
    if result.status != "right" and player_id == row.player_id:
        async with services.database.session() as session, session.begin():
            await session.execute(
                update(MissedShotRow)
                .where(MissedShotRow.id == row.id)
                .values(
                    attempts=MissedShotRow.attempts + 1,
                    solved=MissedShotRow.solved + int(result.status == "solved"),
                )
            )
    return result
