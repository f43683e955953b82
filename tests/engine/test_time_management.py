"""Time on a game clock: the search aims at a share of the clock, spends less when its best
move holds and never more than its limit."""

from __future__ import annotations

import math
import time

import pytest

from damier import Board
from damier.engine import Engine, clock_times, time_budget


@pytest.mark.parametrize(
    ("remaining", "increment", "to_go"),
    [(60.0, 0.0, None), (300.0, 2.0, None), (10.0, 0.0, 5), (0.5, 0.0, None), (3.0, 0.0, 1)],
)
def test_clock_times_aim_within_the_limit(
    remaining: float, increment: float, to_go: int | None
) -> None:
    target, limit = clock_times(remaining, increment, to_go)
    assert target == time_budget(remaining, increment, to_go)
    assert target <= limit <= max(target, remaining * 0.4) or to_go == 1
    if to_go == 1:
        assert limit == target  # a per-move clock: its whole time, no more


def test_a_target_ends_the_search_before_its_limit() -> None:
    """A quiet opening position searched with a target of 0.3 s and a limit of 20 s ends
    long before the limit: iterations stop once the next would overrun the target."""
    engine = Engine("international", table_megabytes=8, book=False)
    board = Board("international")
    began = time.perf_counter()
    result = engine.search(board, time=20.0, target=0.3)
    assert time.perf_counter() - began < 10.0
    assert result.depth > 1 and result.best_move in board.legal_moves


@pytest.mark.parametrize(
    "limits",
    [
        {"time": math.nan},
        {"time": -1.0},
        {"time": math.inf, "depth": 3},
        {"target": math.nan, "time": 1.0},
        {"depth": 0},
        {"depth": -3},
        {"nodes": -5},
    ],
)
def test_limits_that_cannot_bound_a_search_are_refused(limits: dict[str, float]) -> None:
    """A NaN, an infinity or a negative number would leave the search unbounded (level 10
    searches for an hour) or answer with an unsearched move: a clear error instead."""
    engine = Engine("russian", book=False)
    with pytest.raises(ValueError, match="must be"):
        engine.search(Board("russian"), **limits)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="must be"):
        next(engine.analyse(Board("russian"), **limits))  # type: ignore[arg-type]
    assert engine.search(Board("russian"), depth=2).best_move is not None


def test_no_time_at_all_answers_at_once() -> None:
    """``time=0`` (a clock that ran out) is a request too: a legal move, unsearched."""
    board = Board("russian")
    result = Engine("russian", book=False).search(board, time=0.0)
    assert result.best_move in board.legal_moves
