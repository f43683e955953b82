"""Game clocks: sudden death, Fischer increment, fixed time per move, and Ludoteka's
elastic clock (a time per move plus a reserve). Time is read from a source passed in, so
tests and servers decide what "now" is.

>>> clock = Clock.fischer(60, 2, players=2, now=lambda: 0.0)
>>> clock.start(0.0)
>>> clock.press(0, at=5.0)          # player 0 moved after 5 s and gains 2 s
>>> clock.remaining(0, at=5.0)
57.0
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

TimeSource = Callable[[], float]


class ClockKind(StrEnum):
    """How a clock spends time."""

    SUDDEN_DEATH = "sudden-death"
    """One amount of time for the whole game."""
    FISCHER = "fischer"
    """An amount for the game, plus an increment after every move."""
    PER_MOVE = "per-move"
    """A fixed time for each move; unused time is lost."""
    ELASTIC = "elastic"
    """A time for each move; what a move takes beyond it comes out of a reserve."""


@dataclass(frozen=True)
class TimeControl:
    """The settings of a clock, in seconds."""

    kind: ClockKind
    base: float
    """Game time (sudden death, Fischer), time per move (per-move, elastic)."""
    increment: float = 0.0
    """Fischer increment added after each move."""
    reserve: float = 0.0
    """Elastic reserve for the whole game."""

    def describe(self) -> str:
        """``"5+3"`` style text for lobbies and PDN ``TimeControl`` tags."""
        if self.kind is ClockKind.FISCHER:
            return f"{self.base:g}+{self.increment:g}"
        if self.kind is ClockKind.PER_MOVE:
            return f"{self.base:g}/move"
        if self.kind is ClockKind.ELASTIC:
            return f"{self.base:g}/move+{self.reserve:g}"
        return f"{self.base:g}"


class Clock:
    """A running clock for ``players`` players; only the player to move spends time."""

    def __init__(
        self,
        control: TimeControl,
        players: int = 2,
        now: TimeSource = time.monotonic,
    ) -> None:
        self.control = control
        self.now = now
        """The time source (seconds, monotonic)."""
        self._bank = [self._initial_bank() for _ in range(players)]
        self._running: int | None = None
        self._since = 0.0

    @classmethod
    def sudden_death(
        cls, seconds: float, players: int = 2, now: TimeSource = time.monotonic
    ) -> Clock:
        """``seconds`` for the whole game."""
        return cls(TimeControl(ClockKind.SUDDEN_DEATH, seconds), players, now)

    @classmethod
    def fischer(
        cls, seconds: float, increment: float, players: int = 2, now: TimeSource = time.monotonic
    ) -> Clock:
        """``seconds`` for the game plus ``increment`` after each move."""
        return cls(TimeControl(ClockKind.FISCHER, seconds, increment), players, now)

    @classmethod
    def per_move(cls, seconds: float, players: int = 2, now: TimeSource = time.monotonic) -> Clock:
        """``seconds`` for each move."""
        return cls(TimeControl(ClockKind.PER_MOVE, seconds), players, now)

    @classmethod
    def elastic(
        cls, per_move: float, reserve: float, players: int = 2, now: TimeSource = time.monotonic
    ) -> Clock:
        """``per_move`` seconds a move, the excess taken from a ``reserve``."""
        return cls(TimeControl(ClockKind.ELASTIC, per_move, reserve=reserve), players, now)

    def _initial_bank(self) -> float:
        kind = self.control.kind
        if kind is ClockKind.ELASTIC:
            return self.control.reserve
        if kind is ClockKind.PER_MOVE:
            return 0.0
        return self.control.base

    def _allowance(self) -> float:
        """Time a move may take before it eats into the bank."""
        if self.control.kind in (ClockKind.PER_MOVE, ClockKind.ELASTIC):
            return self.control.base
        return 0.0

    @property
    def players(self) -> int:
        """How many players the clock times."""
        return len(self._bank)

    @property
    def running(self) -> int | None:
        """The player whose time is running, or None when stopped."""
        return self._running

    def start(self, at: float | None = None, player: int = 0) -> None:
        """Start ``player``'s time (also: hand the running time to the next player when
        the one whose time ran leaves a multi-player game without moving)."""
        self._running = player
        self._since = self.now() if at is None else at

    def set_times(self, times: list[float]) -> None:
        """Give every player the time he has left (between moves: a clock rebuilt from
        stored times, after a takeback)."""
        if len(times) != len(self._bank):
            raise ValueError(f"{len(times)} times for a clock of {len(self._bank)} players")
        self._bank = [time - self._allowance() for time in times]

    def stop(self, at: float | None = None) -> None:
        """Stop the clock (end of game), charging the running player."""
        if self._running is not None:
            self._bank[self._running] = self.remaining(self._running, at)
            self._running = None

    def remaining(self, player: int, at: float | None = None) -> float:
        """Seconds ``player`` has left; for per-move clocks, left for the current move."""
        bank = self._bank[player]
        if player != self._running:
            return bank + self._allowance()
        spent = (self.now() if at is None else at) - self._since
        return bank + self._allowance() - spent

    def flagged(self, at: float | None = None) -> int | None:
        """The player whose time has run out, or None."""
        if self._running is not None and self.remaining(self._running, at) <= 0:
            return self._running
        return None

    def press(self, player: int, at: float | None = None, following: int | None = None) -> None:
        """``player`` has moved: charge his time, add his increment, start ``following``
        (by default the next player)."""
        if self._running != player:
            raise ValueError(f"the clock runs for player {self._running}, not {player}")
        moment = self.now() if at is None else at
        left = self.remaining(player, moment)
        if self.control.kind is ClockKind.PER_MOVE:
            self._bank[player] = 0.0
        elif self.control.kind is ClockKind.ELASTIC:
            self._bank[player] = min(self._bank[player], left)
        else:
            self._bank[player] = left + self.control.increment
        self._running = (player + 1) % len(self._bank) if following is None else following
        self._since = moment

    def snapshot(self, at: float | None = None) -> list[float]:
        """Remaining seconds of every player (for display and storage)."""
        return [self.remaining(p, at) for p in range(len(self._bank))]
