"""The process's one alarm thread (:mod:`damier.engine.alarm`), and the brief lines of
:meth:`Engine.search`."""

from __future__ import annotations

import threading
import time

from damier import Board
from damier.engine import Engine
from damier.engine.alarm import Alarm


def test_an_alarm_calls_once_its_delay_has_passed() -> None:
    alarm = Alarm()
    rang = threading.Event()
    began = time.monotonic()
    alarm.set(0.05, rang.set)
    assert rang.wait(5)
    assert time.monotonic() - began >= 0.05


def test_alarms_ring_in_the_order_of_their_deadlines() -> None:
    alarm = Alarm()
    order: list[str] = []
    done = threading.Event()
    alarm.set(0.15, lambda: (order.append("late"), done.set()))
    alarm.set(0.02, lambda: order.append("early"))
    assert done.wait(5)
    assert order == ["early", "late"]


def test_a_cancelled_alarm_is_never_called() -> None:
    alarm = Alarm()
    called = threading.Event()
    later = threading.Event()
    alarm.cancel(alarm.set(0.02, called.set))
    alarm.set(0.1, later.set)
    assert later.wait(5)
    assert not called.is_set()


def test_many_cancelled_alarms_do_not_pile_up() -> None:
    alarm = Alarm()
    for _ in range(1_000):
        alarm.cancel(alarm.set(60, lambda: None))
    assert len(alarm._heap) <= 64 + 2


def test_an_infinite_delay_never_calls() -> None:
    alarm = Alarm()
    alarm.set(float("inf"), lambda: None)
    assert alarm._heap == []


def test_a_timed_search_is_stopped_by_the_alarm() -> None:
    """Without the alarm a search of the start position would run to the level's depth."""
    engine = Engine("international", table_megabytes=1)
    found = engine.search(Board("international"), time=0.2, book=False)
    assert found.best_move is not None
    assert 0 < found.depth < engine.level.depth


def test_search_names_the_same_whole_line_as_analyse() -> None:
    """:meth:`Engine.search` names only the last iteration's line (brief iterations); it is
    the line :meth:`Engine.analyse` names at the same depth."""
    board = Board("russian")
    for move in ("c3-d4", "f6-g5", "g3-f4"):
        board.push(move)
    engine = Engine("russian", table_megabytes=1)
    engine.new_game()
    searched = engine.search(board, depth=7)
    engine.new_game()
    *_, analysed = engine.analyse(board, depth=7)
    assert len(searched.pv) > 1
    assert searched.pv == analysed.pv
    assert (searched.score, searched.depth) == (analysed.score, analysed.depth)


def test_a_failing_call_leaves_the_alarm_working() -> None:
    alarm = Alarm()
    rang = threading.Event()

    def broken() -> None:
        raise RuntimeError("broken")

    alarm.set(0.01, broken)
    alarm.set(0.05, rang.set)
    assert rang.wait(5)


def test_a_very_long_delay_leaves_the_alarm_working() -> None:
    alarm = Alarm()
    rang = threading.Event()
    alarm.set(1e15, lambda: None)
    time.sleep(0.05)  # the thread now waits for the far alarm (past threading's limit)
    alarm.set(0.02, rang.set)
    assert rang.wait(5)
