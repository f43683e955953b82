"""The puzzle trainer: the next puzzle for a player, his attempts checked move by move, and
the Glicko-2 ratings of players and puzzles (``services.ratings``' :func:`rate`).

The puzzles are the shipped sets (:mod:`damier.puzzles`), read once per process; a
directory of ``<variant>.jsonl`` files named by ``DAMIER_PUZZLES_DIR`` replaces them. The
server keeps no state of an attempt in progress: the client sends the solver's moves so
far, and the server replays them against the solution. A right move is answered with the
defender's reply; the last right move solves the puzzle, a wrong one (or giving up) fails
it. Only a player's first finished attempt at a puzzle is rated: a player against the
puzzle as his opponent, scored 1 when solved; the puzzle against the player, the other
way round. Puzzle ratings are stored from their first rated attempt; until then a puzzle
has the rating it was shipped with.

The next puzzle is one the player has not tried yet, among the :data:`NEAREST` whose
ratings are nearest his own (in streak mode: nearest :func:`streak_target`, so that the
puzzles grow harder as the streak grows); a theme narrows the choice.
"""

from __future__ import annotations

import os
import random
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from damier.board import Board, Move
from damier.errors import IllegalMoveError
from damier.puzzles import VARIANTS, Puzzle, read_puzzles, shipped
from damier.puzzles.themes import THEMES
from damier.rules import get_variant
from damier.server.i18n import tr, tr_n
from damier.server.schemas import COLORS, Color, MoveView
from damier.server.services.context import Services
from damier.server.services.errors import BadRequest, Conflict, NotFound
from damier.server.services.ratings import (
    INITIAL_DEVIATION,
    INITIAL_RATING,
    INITIAL_VOLATILITY,
    Rating,
    rate,
)
from damier.server.services.views import move_view
from damier.server.store.models import PuzzleAttemptRow, PuzzlePlayerRow, PuzzleRatingRow

PUZZLES_DIR = "DAMIER_PUZZLES_DIR"
"""An environment variable naming a directory of ``<variant>.jsonl`` files to serve
instead of the shipped puzzles."""
PUZZLE_DEVIATION = 250.0
"""A puzzle's deviation before its first rated attempt (its first rating is a guess)."""
NEAREST = 8
"""The next puzzle is drawn from this many untried puzzles nearest the target rating."""
HISTORY = 50
"""Attempts listed in a player's history."""
MAX_MOVES = 60
"""The most moves an attempt may send."""

Mode = Literal["rated", "streak"]


# -- the puzzles ------------------------------------------------------------------------


class Catalog:
    """The puzzles the server offers, by variant and by id."""

    def __init__(self, sets: dict[str, tuple[Puzzle, ...]]) -> None:
        self.sets = sets
        self.by_id = {p.id: p for puzzles in sets.values() for p in puzzles}

    def of(self, variant: str) -> tuple[Puzzle, ...]:
        return self.sets.get(variant, ())

    def get(self, puzzle_id: str) -> Puzzle:
        puzzle = self.by_id.get(puzzle_id)
        if puzzle is None:
            raise NotFound(tr("no puzzle {puzzle}", puzzle=repr(puzzle_id)))
        return puzzle


@cache
def _catalog(directory: str | None) -> Catalog:
    if directory is None:
        return Catalog({name: shipped(name) for name in VARIANTS})
    sets = {}
    for name in VARIANTS:
        path = Path(directory) / f"{name}.jsonl"
        sets[name] = tuple(read_puzzles(path)) if path.exists() else ()
    return Catalog(sets)


def catalog() -> Catalog:
    """The puzzles of this process (see :data:`PUZZLES_DIR`)."""
    return _catalog(os.environ.get(PUZZLES_DIR) or None)


def variant_name(variant: str) -> str:
    """The variant's own name; 404 for a variant without puzzles."""
    try:
        name = get_variant(variant).name
    except ValueError:
        raise NotFound(tr("no variant {variant}", variant=repr(variant))) from None
    if name not in VARIANTS:
        raise NotFound(tr("there are no puzzles in {variant}", variant=name))
    return name


# -- views ------------------------------------------------------------------------------


class PuzzleSet(BaseModel):
    variant: str
    title: str
    count: int
    themes: dict[str, int]
    """How many puzzles have each theme."""


class PlayerPuzzleRating(BaseModel):
    variant: str
    rating: float
    deviation: float
    attempts: int
    solved: int
    streak: int
    best_streak: int


class PuzzleView(BaseModel):
    id: str
    variant: str
    fen: str
    color: Color
    """The solver's colour: the board is turned to him."""
    themes: list[str]
    rating: float
    """The puzzle's current rating."""
    solver_moves: int
    """How many moves the solver has to find."""
    legal_moves: list[MoveView]
    tried: bool
    """Whether the player has finished an attempt at it before (a new one is not rated)."""


class NextPuzzle(BaseModel):
    puzzle: PuzzleView
    player: PlayerPuzzleRating
    mode: Mode
    remaining: int
    """Untried puzzles left in the player's choice (the variant, the theme)."""


class AttemptIn(BaseModel):
    moves: list[str] = Field(default_factory=list, max_length=MAX_MOVES)
    """The solver's moves so far, in order (his only: the server plays the replies)."""
    give_up: bool = False
    """Fail the puzzle here and see the solution."""


class AttemptResult(BaseModel):
    status: Literal["right", "solved", "wrong"]
    """``right``: every move so far is right and the line goes on (``reply`` is the
    defender's answer); ``solved``; ``wrong``: a wrong move, or given up."""
    reply: MoveView | None = None
    fen: str
    """The position to play on: after the reply (``right``), at the end (``solved``),
    before the wrong move (``wrong``)."""
    legal_moves: list[MoveView] = Field(default_factory=list)
    """The moves in ``fen`` (``right`` only)."""
    expected: str | None = None
    """The right move where the wrong one was played."""
    solution: list[str] | None = None
    """The whole line, once the attempt is over."""
    rated: bool = False
    """Whether this attempt changed the ratings (the player's first at this puzzle)."""
    player: PlayerPuzzleRating | None = None
    puzzle_rating: float | None = None


class HistoryEntry(BaseModel):
    puzzle_id: str
    at: float
    solved: bool
    rated: bool
    rating: float | None
    """The player's puzzle rating after it, when it was rated."""
    puzzle_rating: float
    themes: list[str]


class PuzzleHistory(BaseModel):
    variant: str
    player: PlayerPuzzleRating
    attempts: list[HistoryEntry]


def _player_view(variant: str, row: PuzzlePlayerRow | None) -> PlayerPuzzleRating:
    if row is None:
        return PlayerPuzzleRating(
            variant=variant,
            rating=INITIAL_RATING,
            deviation=INITIAL_DEVIATION,
            attempts=0,
            solved=0,
            streak=0,
            best_streak=0,
        )
    return PlayerPuzzleRating(
        variant=variant,
        rating=row.rating,
        deviation=row.deviation,
        attempts=row.attempts,
        solved=row.solved,
        streak=row.streak,
        best_streak=row.best_streak,
    )


def legal_move_views(board: Board) -> list[MoveView]:
    """The moves of ``board`` as the trainer sends them."""
    return [move_view(move) for move in board.legal_moves]


def streak_target(streak: int) -> float:
    """The rating aimed at in streak mode after ``streak`` puzzles solved in a row.

    >>> streak_target(0), streak_target(10)
    (900.0, 1500.0)
    """
    return 900.0 + 60.0 * streak


# -- the services ------------------------------------------------------------------------


def puzzle_sets() -> list[PuzzleSet]:
    """Every variant's puzzles: how many, and how many of each theme."""
    sets = []
    for name in VARIANTS:
        puzzles = catalog().of(name)
        counts = {theme: sum(theme in p.themes for p in puzzles) for theme in THEMES}
        sets.append(
            PuzzleSet(
                variant=name,
                title=get_variant(name).title,
                count=len(puzzles),
                themes={theme: n for theme, n in counts.items() if n},
            )
        )
    return sets


async def next_puzzle(
    *,
    services: Services,
    player_id: str,
    variant: str,
    theme: str | None = None,
    mode: Mode = "rated",
    rng: random.Random | None = None,
) -> NextPuzzle:
    """A puzzle for the player (see the module's description); 404 when the variant (or
    the theme) has none."""
    name = variant_name(variant)
    if theme is not None and theme not in THEMES:
        raise BadRequest(
            tr("no theme {theme}; themes: {themes}", theme=repr(theme), themes=", ".join(THEMES))
        )
    puzzles = [p for p in catalog().of(name) if theme is None or theme in p.themes]
    if not puzzles:
        if theme:
            raise NotFound(
                tr("no puzzles in {variant} with the theme {theme}", variant=name, theme=theme)
            )
        raise NotFound(tr("no puzzles in {variant}", variant=name))
    async with services.database.session() as session:
        player = await session.get(PuzzlePlayerRow, (player_id, name))
        tried = set(
            (
                await session.scalars(
                    select(PuzzleAttemptRow.puzzle_id).where(
                        PuzzleAttemptRow.player_id == player_id,
                        PuzzleAttemptRow.variant == name,
                    )
                )
            ).all()
        )
        ratings = await _puzzle_ratings(session, name)
    view = _player_view(name, player)
    target = streak_target(view.streak) if mode == "streak" else view.rating
    fresh = [p for p in puzzles if p.id not in tried]
    pool = fresh or puzzles
    pool.sort(key=lambda p: abs(ratings.get(p.id, p.rating) - target))
    chosen = (rng or random).choice(pool[:NEAREST])
    board = Board(name, chosen.fen)
    return NextPuzzle(
        puzzle=PuzzleView(
            id=chosen.id,
            variant=name,
            fen=chosen.fen,
            color=COLORS[board.turn],
            themes=list(chosen.themes),
            rating=ratings.get(chosen.id, float(chosen.rating)),
            solver_moves=len(chosen.solver_moves),
            legal_moves=legal_move_views(board),
            tried=chosen.id in tried,
        ),
        player=view,
        mode=mode,
        remaining=len(fresh) - (0 if chosen.id in tried else 1),
    )


async def _puzzle_ratings(session: AsyncSession, variant: str) -> dict[str, float]:
    rows = await session.execute(
        select(PuzzleRatingRow.puzzle_id, PuzzleRatingRow.rating).where(
            PuzzleRatingRow.variant == variant
        )
    )
    return {puzzle_id: rating for puzzle_id, rating in rows.all()}


def replay(puzzle: Puzzle, played: list[str], give_up: bool) -> AttemptResult:
    """The verdict on the solver's moves so far against the puzzle's line (no ratings)."""
    board = Board(puzzle.variant, puzzle.fen)
    line = puzzle.moves
    if len(played) > len(puzzle.solver_moves):
        raise BadRequest(
            tr_n(
                "the puzzle has {n} move to find, not more",
                "the puzzle has {n} moves to find, not more",
                len(puzzle.solver_moves),
            )
        )
    for index, text in enumerate(played):
        ply = 2 * index
        if ply >= len(line):
            raise BadRequest(tr("the puzzle is over: too many moves"))
        try:
            move: Move = board.parse_move(text)
        except IllegalMoveError as error:
            raise BadRequest(tr("move {n}: {error}", n=index + 1, error=str(error))) from None
        expected = board.parse_move(line[ply])
        if move != expected:
            return AttemptResult(
                status="wrong", fen=board.fen, expected=expected.notation, solution=list(line)
            )
        board.push(move)
        if ply + 1 >= len(line):
            return AttemptResult(status="solved", fen=board.fen, solution=list(line))
        reply = board.push(line[ply + 1])
        if index == len(played) - 1 and not give_up:
            return AttemptResult(
                status="right",
                reply=move_view(reply),
                fen=board.fen,
                legal_moves=legal_move_views(board),
            )
    if not give_up:
        raise BadRequest(tr("no move sent"))
    next_move = board.parse_move(line[2 * len(played)])
    return AttemptResult(
        status="wrong", fen=board.fen, expected=next_move.notation, solution=list(line)
    )


async def attempt(
    *, services: Services, player_id: str, puzzle_id: str, attempt: AttemptIn
) -> AttemptResult:
    """Check an attempt (see the module's description); a finished one is stored, and
    rated when it is the player's first at this puzzle."""
    puzzle = catalog().get(puzzle_id)
    result = replay(puzzle, attempt.moves, attempt.give_up)
    if result.status == "right":
        return result
    solved = result.status == "solved"
    now = services.now()
    try:
        async with services.database.session() as session, session.begin():
            count = await session.scalar(
                select(func.count())
                .select_from(PuzzleAttemptRow)
                .where(
                    PuzzleAttemptRow.player_id == player_id,
                    PuzzleAttemptRow.puzzle_id == puzzle.id,
                )
            )
            number = int(count or 0) + 1
            player = await session.get(PuzzlePlayerRow, (player_id, puzzle.variant))
            stored = await session.get(PuzzleRatingRow, puzzle.id)
            rated = number == 1
            if rated:
                player, stored = _rate(puzzle, player, stored, player_id, solved, now)
                session.add_all([player, stored])
            session.add(
                PuzzleAttemptRow(
                    player_id=player_id,
                    puzzle_id=puzzle.id,
                    number=number,
                    variant=puzzle.variant,
                    at=now,
                    solved=solved,
                    moves=" ".join(attempt.moves),
                    rating=player.rating if rated and player is not None else None,
                )
            )
            result.rated = rated
            result.player = _player_view(puzzle.variant, player)
            result.puzzle_rating = stored.rating if stored is not None else float(puzzle.rating)
    except IntegrityError:
        raise Conflict(tr("another attempt at this puzzle was stored at the same time")) from None
    return result


def _rate(
    puzzle: Puzzle,
    player: PuzzlePlayerRow | None,
    stored: PuzzleRatingRow | None,
    player_id: str,
    solved: bool,
    now: float,
) -> tuple[PuzzlePlayerRow, PuzzleRatingRow]:
    """Both ratings after the player's first attempt at the puzzle."""
    if player is None:
        player = PuzzlePlayerRow(
            player_id=player_id,
            variant=puzzle.variant,
            rating=INITIAL_RATING,
            deviation=INITIAL_DEVIATION,
            volatility=INITIAL_VOLATILITY,
            attempts=0,
            solved=0,
            streak=0,
            best_streak=0,
        )
    if stored is None:
        stored = PuzzleRatingRow(
            puzzle_id=puzzle.id,
            variant=puzzle.variant,
            rating=float(puzzle.rating),
            deviation=PUZZLE_DEVIATION,
            volatility=INITIAL_VOLATILITY,
            attempts=0,
            solved=0,
        )
    before_player = Rating(player.rating, player.deviation, player.volatility)
    before_puzzle = Rating(stored.rating, stored.deviation, stored.volatility)
    score = 1.0 if solved else 0.0
    new_player = rate(before_player, [(before_puzzle, score)])
    new_puzzle = rate(before_puzzle, [(before_player, 1.0 - score)])
    player.rating, player.deviation = new_player.rating, new_player.deviation
    player.volatility = new_player.volatility
    player.attempts += 1
    player.solved += int(solved)
    player.streak = player.streak + 1 if solved else 0
    player.best_streak = max(player.best_streak, player.streak)
    player.updated = now
    stored.rating, stored.deviation = new_puzzle.rating, new_puzzle.deviation
    stored.volatility = new_puzzle.volatility
    stored.attempts += 1
    stored.solved += int(solved)
    stored.updated = now
    return player, stored


async def history(*, services: Services, player_id: str, variant: str) -> PuzzleHistory:
    """The player's latest attempts in ``variant``, newest first, with his rating."""
    name = variant_name(variant)
    known = catalog()
    async with services.database.session() as session:
        player = await session.get(PuzzlePlayerRow, (player_id, name))
        rows = (
            await session.scalars(
                select(PuzzleAttemptRow)
                .where(PuzzleAttemptRow.player_id == player_id, PuzzleAttemptRow.variant == name)
                .order_by(PuzzleAttemptRow.at.desc(), PuzzleAttemptRow.number.desc())
                .limit(HISTORY)
            )
        ).all()
        ratings = await _puzzle_ratings(session, name)
    entries = []
    for row in rows:
        puzzle = known.by_id.get(row.puzzle_id)
        entries.append(
            HistoryEntry(
                puzzle_id=row.puzzle_id,
                at=row.at,
                solved=row.solved,
                rated=row.number == 1,
                rating=row.rating,
                puzzle_rating=ratings.get(
                    row.puzzle_id, float(puzzle.rating) if puzzle else INITIAL_RATING
                ),
                themes=list(puzzle.themes) if puzzle else [],
            )
        )
    return PuzzleHistory(variant=name, player=_player_view(name, player), attempts=entries)
