"""The review of a finished game on the platform: the full engine's verdict on every
position and what each played move lost (:mod:`damier.review`), and the shots missed.

Every position of the game (the start, and the position after each move) is searched by
``Engine(variant, level=10)`` in the computer pool's threads (never on the event loop), one
position per job so that the computer opponents' searches interleave with a review's. The
budget per position is :data:`SECONDS` (at most the server's ``engine_seconds``) and
:data:`DEPTH` plies, whichever comes first.

The blunders made in a position won for the mover then go to the puzzle finder
(``services.shots``): the review lists the shots it confirms, to find again in the trainer
(the progress counts these positions too, once they are known).

A review is computed once per game and process and kept in memory (finished games do not
change); :func:`request_review` starts it and answers its progress until it is done.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel
from sqlalchemy import select

from damier.board import Board, Move
from damier.puzzles import Criteria
from damier.review import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    Judgement,
    Verdict,
    move_judgements,
    verdict_steps,
)
from damier.server.i18n import tr
from damier.server.schemas import COLORS, Color, MoveView
from damier.server.services.context import Services
from damier.server.services.errors import Conflict, NotFound, ServiceError
from damier.server.services.shots import Candidate, MissedShot, can_have_shots, missed_shots
from damier.server.services.views import move_view
from damier.server.store.models import GameRow, MoveRow

log = logging.getLogger("damier.server")

SECONDS = 0.2
"""Search time per position (capped by the server's ``engine_seconds``)."""
DEPTH = 14
"""Deepest iteration per position (plies; captures are always played out)."""
KEPT = 256
"""Finished reviews kept in memory per process (the oldest go first)."""


class PositionReview(BaseModel):
    ply: int
    """0 for the start position, n for the position after the n-th move."""
    fen: str
    turn: Color
    score: int
    """For White, in hundredths of a man."""
    mate: int | None
    """Plies to the end of a forced win (positive: White wins), 0 in a finished position."""
    depth: int
    """Depth of the search that gave the score (0 for a finished position)."""
    best: MoveView | None
    """The engine's move in this position (None when there is no legal move)."""
    pv: list[str]
    """The engine's principal variation from this position (notations)."""


class MoveReview(BaseModel):
    ply: int
    notation: str
    color: Color
    best: str | None
    """The engine's move in the position before this one."""
    loss: int
    """Hundredths of a man lost against the engine's move (0 for it, or a forced move)."""
    judgement: Judgement
    forced: bool
    """The only legal move."""


class Thresholds(BaseModel):
    inaccuracy: int = INACCURACY
    mistake: int = MISTAKE
    blunder: int = BLUNDER


class Review(BaseModel):
    id: str
    variant: str
    status: Literal["done"] = "done"
    seconds: float
    """Search time per position."""
    depth: int
    """Depth cap per position."""
    thresholds: Thresholds
    positions: list[PositionReview]
    moves: list[MoveReview]
    shots: list[MissedShot]
    """The winning combinations the players missed (``services.shots``): "find the shot"."""


class ReviewProgress(BaseModel):
    id: str
    status: Literal["queued", "running"]
    done: int
    """Positions searched so far..."""
    total: int
    """...out of this many."""


@dataclass
class _Job:
    total: int
    done: int = 0
    started: bool = False
    result: Review | None = None
    error: str | None = None


class Reviews:
    """The reviews of one process: finished ones (the newest :data:`KEPT`) and running ones."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.jobs: OrderedDict[str, _Job] = OrderedDict()
        workers = max(1, services.settings.engine_workers - 1)
        self.slots = asyncio.Semaphore(workers)
        """Reviews running at once: one fewer than the engine threads (at least one), so
        that a thread is left for the computer opponents."""

    def keep_few(self) -> None:
        finished = [key for key, job in self.jobs.items() if job.result is not None]
        for key in finished[: max(0, len(finished) - KEPT)]:
            del self.jobs[key]


_reviews: weakref.WeakKeyDictionary[Services, Reviews] = weakref.WeakKeyDictionary()


def reviews_of(services: Services) -> Reviews:
    reviews = _reviews.get(services)
    if reviews is None:
        reviews = Reviews(services)
        _reviews[services] = reviews
    return reviews


async def request_review(*, services: Services, game_id: str) -> Review | ReviewProgress:
    """The review of a finished game, or its progress while it is computed (the first
    request starts it). 409 for a game that is not finished."""
    reviews = reviews_of(services)
    job = reviews.jobs.get(game_id)
    if job is None:
        row, notations = await _load(services, game_id)
        job = reviews.jobs.get(game_id)  # another request may have started it meanwhile
        if job is None:
            job = _Job(total=len(notations) + 1)
            reviews.jobs[game_id] = job
            services.spawn(_run(reviews, job, row, notations), name=f"review {game_id}")
    if job.result is not None:
        reviews.jobs.move_to_end(game_id)
        return job.result
    if job.error is not None:
        reviews.jobs.pop(game_id, None)  # the next request tries again
        raise ServiceError(tr("the review failed: {error}", error=job.error))
    return ReviewProgress(
        id=game_id,
        status="running" if job.started else "queued",
        done=job.done,
        total=job.total,
    )


async def _load(services: Services, game_id: str) -> tuple[GameRow, list[str]]:
    async with services.database.session() as session:
        row = await session.get(GameRow, game_id)
        if row is None:
            raise NotFound(tr("no game {game}", game=repr(game_id)))
        if row.status != "finished":
            raise Conflict(tr("only a finished game can be reviewed"))
        if row.players != 2:
            raise Conflict(tr("the engine reviews two-player games only"))
        query = select(MoveRow.notation).where(MoveRow.game_id == game_id).order_by(MoveRow.ply)
        notations = list((await session.scalars(query)).all())
    return row, notations


async def _run(reviews: Reviews, job: _Job, game: GameRow, notations: list[str]) -> None:
    try:
        async with reviews.slots:
            job.started = True
            job.result = await _review(reviews.services, job, game, notations)
        reviews.keep_few()
    except asyncio.CancelledError:
        reviews.jobs.pop(game.id, None)
        raise
    except Exception as error:
        log.exception("review of %s failed", game.id)
        job.error = str(error) or type(error).__name__


async def _review(services: Services, job: _Job, game: GameRow, notations: list[str]) -> Review:
    board = Board(game.variant, fen=game.start_fen)
    boards = [board.copy()]
    played: list[Move] = []
    for notation in notations:
        played.append(board.push(notation))
        boards.append(board.copy())
    seconds = min(SECONDS, services.settings.engine_seconds)
    verdicts: dict[str, Verdict] = {}
    results: list[Verdict] = []
    for positioned in reversed(boards):  # from the end: see damier.review
        results.insert(0, await _judge(services, positioned, seconds, verdicts))
        job.done += 1
    positions = [
        PositionReview(
            ply=ply,
            fen=positioned.fen,
            turn=COLORS[positioned.turn],
            score=verdict.score,
            mate=verdict.mate,
            depth=verdict.depth,
            best=move_view(verdict.best) if verdict.best is not None else None,
            pv=list(verdict.pv),
        )
        for ply, (positioned, verdict) in enumerate(zip(boards, results, strict=True))
    ]
    moves = [
        MoveReview(
            ply=judged.ply,
            notation=judged.move.notation,
            color=COLORS[judged.mover],
            best=judged.best.notation if judged.best is not None else None,
            loss=judged.loss,
            judgement=judged.judgement,
            forced=judged.forced,
        )
        for judged in move_judgements(boards, played, results)
    ]
    shots: list[MissedShot] = []
    if can_have_shots(game.variant):
        candidates = _shot_candidates(game, boards, played, results, moves)
        job.total += len(candidates)
        shots = await _missed_shots(services, job, game, candidates)
    return Review(
        id=game.id,
        variant=game.variant,
        seconds=seconds,
        depth=DEPTH,
        thresholds=Thresholds(),
        positions=positions,
        moves=moves,
        shots=shots,
    )


def _shot_candidates(
    game: GameRow,
    boards: list[Board],
    played: list[Move],
    results: list[Verdict],
    moves: list[MoveReview],
) -> list[Candidate]:
    """The blunders made in a position the engine found won for the mover by a puzzle's
    margin: each may have missed a shot (the finder decides)."""
    margin = Criteria().margin
    candidates = []
    for judged in moves:
        ply = judged.ply
        if judged.judgement != "blunder" or judged.forced or ply <= game.opening_ply:
            continue
        sign = 1 if boards[ply - 1].turn == 0 else -1
        if sign * results[ply - 1].score >= margin:
            candidates.append(Candidate(ply, boards[ply - 1], played[ply - 1], judged.loss))
    return candidates


async def _missed_shots(
    services: Services, job: _Job, game: GameRow, candidates: list[Candidate]
) -> list[MissedShot]:
    """The shots of :func:`missed_shots`; none when the search fails (the review stands)."""

    def examined() -> None:
        job.done += 1

    try:
        return await missed_shots(
            services=services, game=game, candidates=candidates, examined=examined
        )
    except Exception:
        log.exception("the search of the shots missed in %s failed", game.id)
        return []


async def _judge(
    services: Services, board: Board, seconds: float, verdicts: dict[str, Verdict]
) -> Verdict:
    """The verdict on one position (:func:`damier.review.verdict_steps`), its search in
    the computer pool."""
    steps = verdict_steps(board, verdicts)
    try:
        position = next(steps)
        while True:
            position = steps.send(await services.computer.analyse(position, seconds, DEPTH))
    except StopIteration as done:
        verdict: Verdict = done.value
        return verdict
