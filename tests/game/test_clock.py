"""Clocks with a fake time source: sudden death, Fischer, per move, elastic; a flag fall
in a game."""

from __future__ import annotations

import pytest

from damier.clock import Clock, ClockKind, TimeControl
from damier.game import Game, GameOverError, Result
from damier.play import parse_clock


class FakeTime:
    """A time source the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def wait(self, seconds: float) -> None:
        self.now += seconds


def test_sudden_death() -> None:
    t = FakeTime()
    clock = Clock.sudden_death(60, now=t)
    clock.start()
    assert clock.running == 0
    t.wait(10)
    assert clock.remaining(0) == 50 and clock.remaining(1) == 60
    clock.press(0)  # White used 10 s: 50 left, no increment
    assert clock.running == 1
    t.wait(15)
    assert clock.snapshot() == [50, 45]  # White's time stands still
    clock.press(1)
    t.wait(49.5)
    assert clock.flagged() is None
    t.wait(0.5)  # White's 50 s are gone: 0 left is a flag fall
    assert clock.flagged() == 0


def test_fischer() -> None:
    t = FakeTime()
    clock = Clock.fischer(60, 2, now=t)
    clock.start()
    t.wait(5)
    clock.press(0)  # 60 - 5 + 2
    assert clock.remaining(0) == 57
    t.wait(3)
    clock.press(1)  # 60 - 3 + 2
    assert clock.snapshot() == [57, 59]
    t.wait(1)
    clock.press(0)  # a quick move gains time: 57 - 1 + 2
    assert clock.remaining(0) == 58
    t.wait(59)
    assert clock.flagged() == 1  # Black had 59


def test_per_move_time_is_not_saved() -> None:
    t = FakeTime()
    clock = Clock.per_move(30, now=t)
    clock.start()
    t.wait(10)
    assert clock.remaining(0) == 20
    clock.press(0)
    assert clock.remaining(0) == 30  # 20 unused seconds are lost, not banked
    t.wait(29.9)
    assert clock.flagged() is None
    t.wait(0.1)
    assert clock.flagged() == 1


def test_elastic_reserve_drawn_down_only_by_excess() -> None:
    t = FakeTime()
    clock = Clock.elastic(30, 60, now=t)  # 30 s a move, 60 s reserve
    clock.start()
    assert clock.remaining(0) == 90
    t.wait(20)
    clock.press(0)  # within the 30 s: the reserve stays 60 (no saving either)
    assert clock.remaining(0) == 90
    t.wait(45)
    clock.press(1)  # 15 s over: Black's reserve 60 -> 45
    assert clock.remaining(1) == 75
    t.wait(30)
    clock.press(0)  # exactly the allowance: reserve untouched
    assert clock.remaining(0) == 90
    t.wait(74)
    assert clock.flagged() is None
    t.wait(1)  # 30 + 45 = 75 s into Black's move
    assert clock.flagged() == 1


def test_press_by_the_wrong_player() -> None:
    clock = Clock.sudden_death(60, now=FakeTime())
    clock.start()
    with pytest.raises(ValueError):
        clock.press(1)


def test_stop_charges_the_running_player() -> None:
    t = FakeTime()
    clock = Clock.sudden_death(60, now=t)
    clock.start()
    t.wait(12)
    clock.stop()
    t.wait(100)
    assert clock.running is None
    assert clock.snapshot() == [48, 60]
    assert clock.flagged() is None


def test_explicit_times_override_the_source() -> None:
    clock = Clock.fischer(60, 2, now=lambda: 1000.0)
    clock.start(0.0)
    clock.press(0, at=5.0)
    assert clock.remaining(0, at=5.0) == 57
    assert clock.remaining(1, at=9.0) == 56


def test_three_players_rotate() -> None:
    t = FakeTime()
    clock = Clock.sudden_death(10, players=3, now=t)
    clock.start()
    for player in (0, 1, 2):
        t.wait(player + 1)
        clock.press(player)
    assert clock.running == 0
    assert clock.snapshot() == [9, 8, 7]


@pytest.mark.parametrize(
    ("control", "text"),
    [
        (TimeControl(ClockKind.FISCHER, 300, 3), "300+3"),
        (TimeControl(ClockKind.SUDDEN_DEATH, 600), "600"),
        (TimeControl(ClockKind.PER_MOVE, 30), "30/move"),
        (TimeControl(ClockKind.ELASTIC, 30, reserve=600), "30/move+600"),
    ],
)
def test_describe(control: TimeControl, text: str) -> None:
    assert control.describe() == text


@pytest.mark.parametrize(
    ("text", "kind", "start"),
    [
        ("5+3", ClockKind.FISCHER, 300 + 0),  # 5 minutes, 3 s increment
        ("10", ClockKind.SUDDEN_DEATH, 600),
        ("30/move", ClockKind.PER_MOVE, 30),
        ("30/move+600", ClockKind.ELASTIC, 630),
        ("0.5+1", ClockKind.FISCHER, 30),
    ],
)
def test_parse_clock(text: str, kind: ClockKind, start: float) -> None:
    clock = parse_clock(text, now=FakeTime())
    assert clock is not None and clock.control.kind is kind
    assert clock.remaining(0) == start


def test_parse_clock_errors() -> None:
    assert parse_clock(None) is None and parse_clock("") is None
    for text in ("5:3", "fast", "-5", "30/move+"):
        with pytest.raises(ValueError):
            parse_clock(text)


# -- clocks in games ----------------------------------------------------------------------

FIRST_MOVES = [
    ("international", "32-28", "18-23", 0),
    ("russian", "c3-d4", "f6-e5", 0),
    ("english", "11-15", "23-19", 1),  # Black first
    ("turkish", "a3-a4", "h6-h5", 0),
]


@pytest.mark.parametrize(("variant", "first", "second", "starter"), FIRST_MOVES)
def test_flag_fall_found_by_check_time(variant: str, first: str, second: str, starter: int) -> None:
    t = FakeTime()
    game = Game(variant, clock=Clock.fischer(60, 5, now=t))
    assert game.clock is not None and game.clock.running == starter
    t.wait(10)
    game.push(first)  # the starter: 60 - 10 + 5 = 55
    t.wait(20)
    game.push(second)  # the other: 60 - 20 + 5 = 45
    assert game.clock.snapshot()[starter] == 55
    t.wait(54)
    assert game.check_time() is None
    t.wait(1)  # the starter's 55 s are gone
    assert game.check_time() == Result(1 - starter, "time forfeit")
    assert game.result == Result(1 - starter, "time forfeit")
    assert game.clock.running is None  # the clock stops with the game


@pytest.mark.parametrize(("variant", "first", "second", "starter"), FIRST_MOVES)
def test_move_after_the_flag_loses(variant: str, first: str, second: str, starter: int) -> None:
    t = FakeTime()
    game = Game(variant, clock=Clock.sudden_death(30, now=t))
    t.wait(30)  # the starter's whole time, before his first move
    with pytest.raises(GameOverError):
        game.push(first)
    assert game.ply == 0
    assert game.result == Result(1 - starter, "time forfeit")
    loser = "2-0" if starter == 1 else "0-2"
    assert game.result.pdn == loser


def test_move_with_explicit_times() -> None:
    game = Game("russian", clock=Clock.per_move(10, now=lambda: 0.0))
    game.push("c3-d4", at=9.5)
    game.push("f6-e5", at=19.0)  # 9.5 s for Black's move
    assert game.check_time(at=28.9) is None
    with pytest.raises(GameOverError):
        game.push("d4xf6", at=29.0)  # 10 s into White's move: the flag has fallen
    assert game.result == Result(1, "time forfeit")


def test_elastic_clock_in_a_game() -> None:
    t = FakeTime()
    game = Game("spanish", clock=Clock.elastic(10, 20, now=t))
    t.wait(25)  # 15 s over the allowance: White's reserve 20 -> 5
    game.push(game.board.legal_moves[0])
    t.wait(3)
    game.push(game.board.legal_moves[0])
    assert game.clock is not None
    assert game.clock.snapshot() == [15, 30]
    t.wait(14.5)
    assert game.check_time() is None
    t.wait(0.5)
    assert game.check_time() == Result(1, "time forfeit")


def test_resignation_stops_the_clock() -> None:
    t = FakeTime()
    game = Game("italian", clock=Clock.sudden_death(60, now=t))
    t.wait(7)
    game.resign(0)
    t.wait(100)
    assert game.clock is not None and game.clock.snapshot() == [53, 60]
    assert game.check_time() == Result(1, "resignation")


@pytest.mark.parametrize("control", ["5+3", "30/move", "30/move+60"])
def test_a_clock_given_its_times_runs_on_from_them(control: str) -> None:
    """``set_times`` is how a server starts a clock again from stored times (a takeback):
    the clock then behaves as the one the times were read from."""
    t = FakeTime()
    parsed = parse_clock(control, now=t)
    assert parsed is not None
    original = Clock(parsed.control, now=t)
    original.start()
    t.wait(20)
    original.press(0)
    t.wait(40)
    original.press(1)
    times = original.snapshot()
    copy = Clock(parsed.control, now=t)
    copy.set_times(times)
    copy.start(player=0)
    assert copy.snapshot() == times
    for seconds, player in ((35, 0), (10, 1)):
        t.wait(seconds)
        original.press(player)
        copy.press(player)
        assert copy.snapshot() == original.snapshot()
    with pytest.raises(ValueError, match="3 times"):
        copy.set_times([1.0, 2.0, 3.0])
