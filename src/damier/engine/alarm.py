"""One alarm thread for every search of the process: a search's time limit is an entry on
its heap, not a thread of its own.

A :class:`threading.Timer` a search cost more than a shallow search itself on a busy
machine (the new thread has to be scheduled before its start returns: 0.6 ms a search with
both cores taken, where a depth-6 search takes 0.5), and the puzzle finder, the weak levels
and the server's computer players run many shallow searches.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import os
import threading
import time
from collections.abc import Callable

logger = logging.getLogger(__name__)


class Alarm:
    """Calls a function once its delay has passed, unless cancelled before (one daemon
    thread for all, started at the first :meth:`set`)."""

    def __init__(self) -> None:
        self._heap: list[tuple[float, int]] = []
        self._waiting: dict[int, Callable[[], object]] = {}
        self._numbers = itertools.count()
        self._changed = threading.Condition()
        self._thread_pid = 0
        """The process whose thread runs the alarms (a forked child starts its own)."""

    def set(self, seconds: float, call: Callable[[], object]) -> int:
        """Call ``call`` in ``seconds`` (never when infinite); the number to cancel it."""
        number = next(self._numbers)
        if seconds == float("inf"):
            return number
        with self._changed:
            if self._thread_pid != os.getpid():
                self._thread_pid = os.getpid()
                threading.Thread(target=self._run, name="damier-alarm", daemon=True).start()
            self._waiting[number] = call
            heapq.heappush(self._heap, (time.monotonic() + seconds, number))
            if self._heap[0][1] == number:
                self._changed.notify()
        return number

    def cancel(self, number: int) -> None:
        """Forget alarm ``number``: once this returns, it will not be called (calls are made
        under the same lock)."""
        with self._changed:
            self._waiting.pop(number, None)
            if len(self._heap) > 2 * len(self._waiting) + 64:  # mostly cancelled ones
                self._heap = [entry for entry in self._heap if entry[1] in self._waiting]
                heapq.heapify(self._heap)

    def _run(self) -> None:
        with self._changed:
            while True:
                while self._heap and self._heap[0][1] not in self._waiting:
                    heapq.heappop(self._heap)  # cancelled
                if not self._heap:
                    self._changed.wait()
                    continue
                due, number = self._heap[0]
                left = due - time.monotonic()
                if left > 0:
                    self._changed.wait(min(left, 3600.0))  # (threading's limit is finite)
                    continue
                heapq.heappop(self._heap)
                try:
                    self._waiting.pop(number)()
                except Exception:  # one caller's error must not end every search's alarm
                    logger.exception("an alarm's call failed")


ALARM = Alarm()
"""The process's alarm (the callers' functions are short: they set a stop flag)."""
