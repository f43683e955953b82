"""A game's review: the engine's verdict on every position, and how much each move lost.

Scores are for White, in hundredths of a man. A forced win ``n`` plies deep is ``mate: n``
(positive: White wins; negative: Black wins) and scores ``±(MATE_SCORE - n)``, so that a
graph and the losses can use ``score`` alone; a finished position (no legal move) has
``mate: 0`` and ``score: ±MATE_SCORE``.

A position with a single legal move is not searched itself: the review looks past the
forced moves (a forced capture sequence, most often) and the position takes the value of
the first one with a choice. Positions are judged from the end of the game, so that a
forced position most often finds the later one already known.

The loss of a move is how much worse, for the player who made it, the position after it
is than the position before it (whose value is that of the engine's best move); a move the
engine would have played, or the only legal move, loses nothing. Classes by loss: ``good``
below :data:`INACCURACY`, ``inaccuracy`` below :data:`MISTAKE`, ``mistake`` below
:data:`BLUNDER`, ``blunder`` from :data:`BLUNDER` (a man) up.

The searching is left to the caller (the platform's thread pool, or the command line's
engine): :func:`verdict_steps` yields the position to search and is sent the search's
:class:`~damier.engine.Info`; :func:`review_positions` drives it with a plain function.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from damier.board import Board, Move
from damier.notation.pdn import Node, PdnGame, normalised

if TYPE_CHECKING:
    from damier.engine import Info

MATE_SCORE = 10_000
"""The score of a finished position; a forced win ``n`` plies away scores ``MATE_SCORE - n``."""
MAX_SCORE = MATE_SCORE - 1_000
"""Scores of positions without a forced result are kept below this."""
INACCURACY = 25
MISTAKE = 50
BLUNDER = 100
"""Loss thresholds, in hundredths of a man: half a man is a mistake, a man a blunder."""
FORCED_LOOKAHEAD = 40
"""How many forced moves the review follows from a position with a single legal move."""

Judgement = Literal["good", "inaccuracy", "mistake", "blunder"]


@dataclass(frozen=True)
class Verdict:
    """The engine's verdict on one position, from White's side."""

    score: int
    mate: int | None
    """Plies to the end of a forced win (positive: White wins), 0 in a finished position."""
    depth: int
    """Depth of the search that gave the score (0 for a finished position)."""
    best: Move | None
    """The engine's move (None when there is no legal move)."""
    pv: tuple[str, ...]
    """The engine's principal variation (notations)."""


@dataclass(frozen=True)
class MoveJudgement:
    """What one played move cost its player."""

    ply: int
    """1 for the first move."""
    move: Move
    mover: int
    best: Move | None
    """The engine's move in the position before this one."""
    loss: int
    """Hundredths of a man lost against the engine's move (0 for it, or a forced move)."""
    judgement: Judgement
    forced: bool
    """The only legal move."""


def judge(loss: int) -> Judgement:
    """The class of a move that lost ``loss`` hundredths of a man."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return "good"


def verdict_steps(board: Board, verdicts: dict[str, Verdict]) -> Generator[Board, Info, Verdict]:
    """The verdict on ``board``: yields the position to search (past the forced moves) and
    is sent the search's result, unless ``verdicts`` (by FEN, filled as it goes) knows it."""
    known = verdicts.get(board.fen)
    if known is not None:
        return known
    line = board.copy()
    forced: list[Move] = []
    while len(line.legal_moves) == 1 and len(forced) < FORCED_LOOKAHEAD:
        forced.append(line.push(line.legal_moves[0]))
        later = verdicts.get(line.fen)
        if later is not None:
            verdict = _prepend(later, forced)
            verdicts[board.fen] = verdict
            return verdict
    info = yield line.copy()
    verdict = _prepend(_from_info(info, line.turn), forced)
    verdicts[board.fen] = verdict
    return verdict


def review_positions(boards: Sequence[Board], search: Callable[[Board], Info]) -> list[Verdict]:
    """The verdict on each of ``boards`` (a game's positions in order), searched by
    ``search`` from the last to the first."""
    verdicts: dict[str, Verdict] = {}
    results: list[Verdict | None] = [None] * len(boards)
    for ply in range(len(boards) - 1, -1, -1):
        steps = verdict_steps(boards[ply], verdicts)
        try:
            position = next(steps)
            while True:
                position = steps.send(search(position))
        except StopIteration as done:
            results[ply] = done.value
    return [verdict for verdict in results if verdict is not None]


def move_judgements(
    boards: Sequence[Board], played: Sequence[Move], results: Sequence[Verdict]
) -> list[MoveJudgement]:
    """What each of ``played`` cost, from the verdicts on the positions before and after it
    (``boards`` and ``results``: one more than the moves)."""
    judged = []
    for ply, move in enumerate(played, start=1):
        before, after = results[ply - 1], results[ply]
        mover = boards[ply - 1].turn
        forced = len(boards[ply - 1].legal_moves) == 1
        sign = 1 if mover == 0 else -1
        loss = max(0, sign * (before.score - after.score))
        if forced or (before.best is not None and move == before.best):
            loss = 0
        judged.append(MoveJudgement(ply, move, mover, before.best, loss, judge(loss), forced))
    return judged


GLYPHS: dict[Judgement, str] = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""The annotation glyph of each class of move (a good move gets none)."""


def score_text(verdict: Verdict) -> str:
    """A verdict in words for a comment: ``+0.35`` (hundredths of a man, for White),
    ``White wins in 7 plies``, ``Black wins (database)``."""
    winner = "White" if verdict.score > 0 else "Black"
    if verdict.mate is not None:
        return f"{winner} wins in {abs(verdict.mate)} plies" if verdict.mate else f"{winner} wins"
    if abs(verdict.score) >= MAX_SCORE:  # an endgame database's verdict (held to MAX_SCORE)
        return f"{winner} wins (database)"
    return f"{verdict.score / 100:+.2f}"


def annotate(
    record: PdnGame,
    search: Callable[[Board], Info],
    default: str = "international",
    line_plies: int = 8,
) -> PdnGame:
    """``record`` with the engine's review: after each move of the main line, the value of
    the position it leaves (for White) and, for an inaccuracy, a mistake or a blunder, its
    glyph, the engine's move with what it was worth, and the engine's line as a variation
    (``line_plies`` long). Comments and variations already there are kept.

    Raises :class:`~damier.notation.pdn.PdnError` for a game that does not replay."""
    game = normalised(record, default)
    board = Board(game.variant(default), game.tags.get("FEN"))
    boards, played = [board.copy()], []
    for node in game.moves:
        played.append(board.push(node.text))
        boards.append(board.copy())
    results = review_positions(boards, search)
    for node, judged in zip(game.moves, move_judgements(boards, played, results), strict=True):
        before, after = results[judged.ply - 1], results[judged.ply]
        comment = score_text(after)
        if judged.judgement != "good" and before.best is not None:
            node.nags.append(GLYPHS[judged.judgement])
            comment += f"; {judged.judgement}, best {before.best.notation} ({score_text(before)})"
            node.variations.append([Node(text, 0, 0) for text in before.pv[:line_plies]])
        node.comments.append(comment)
    return game


def _from_info(info: Info, turn: int) -> Verdict:
    sign = 1 if turn == 0 else -1
    if info.mate is not None:
        plies = abs(info.mate)
        mover_wins = info.score > 0
        score = sign * (MATE_SCORE - plies) * (1 if mover_wins else -1)
        mate: int | None = plies if score > 0 else -plies
    else:
        score = sign * max(-MAX_SCORE, min(MAX_SCORE, info.score))
        mate = None
    return Verdict(score, mate, info.depth, info.best_move, tuple(m.notation for m in info.pv))


def _prepend(verdict: Verdict, forced: list[Move]) -> Verdict:
    """The verdict on a position ``len(forced)`` forced moves before one known."""
    if not forced:
        return verdict
    steps = len(forced)
    score, mate = verdict.score, verdict.mate
    if mate is not None:
        plies = abs(mate) + steps
        mate = plies if score > 0 else -plies
        score = (MATE_SCORE - plies) * (1 if score > 0 else -1)
    pv = (*(move.notation for move in forced), *verdict.pv)
    return Verdict(score, mate, verdict.depth, forced[0], pv)
