"""A game's clocks and time-outs: the time control a game may have, when its clock starts
(no clock runs before every player has made his first move), and the fallen flag or late
first move that ends a game, or puts a player out, before anything else is done to it."""

from __future__ import annotations

from damier.board import PLAYER_NAMES
from damier.clock import Clock
from damier.game import Game
from damier.play import parse_clock
from damier.server.i18n import tr
from damier.server.services.context import Services
from damier.server.services.errors import BadRequest, Conflict
from damier.server.services.ratings import ABORTED
from damier.server.store.models import GameRow

MAX_CLOCK_SECONDS = 24 * 3600.0
"""The longest time a clock may give a player."""


def check_clock(text: str | None) -> str | None:
    """A time control as given (its spaces stripped), None for none; 400 saying why when it
    does not parse or gives more than a day."""
    if text is None or not text.strip():
        return None
    text = text.strip()
    try:
        clock = parse_clock(text)
    except ValueError as error:
        raise BadRequest(str(error)) from None
    assert clock is not None
    control = clock.control
    if not 0 < control.base <= MAX_CLOCK_SECONDS or control.reserve > MAX_CLOCK_SECONDS:
        raise BadRequest(
            tr("clock {clock}: the time must be above 0 and at most 24 hours", clock=repr(text))
        )
    if control.increment > 3600:
        raise BadRequest(tr("clock {clock}: the increment is at most an hour", clock=repr(text)))
    return text


def first_moves_made(row: GameRow, game: Game) -> bool:
    """Whether every player still in has made his first move (the moves of the first round
    come in turn order, and a player out before moving has none). The plies of an opening
    the game started with (``row.opening_ply``, a match's) are nobody's moves."""
    return game.ply - (row.opening_ply or 0) >= len(game.board.active_players)


def _start_clock(
    game: Game, control: str | None, at: float, services: Services, times: list[float] | None
) -> None:
    """Attach a clock, one time per player (``times``, or the control's), started at ``at``
    for the player to move."""
    if control is None:
        return
    parsed = parse_clock(control, now=services.now)
    if parsed is not None:
        clock = Clock(parsed.control, game.variant.players, services.now)
        if times is not None:
            clock.set_times(times)
        clock.start(at=at, player=game.board.turn)
        game.clock = clock


def clock_due(row: GameRow, game: Game, at: float, services: Services) -> None:
    """Start the clock when it is due: at the move that makes every player's first move (no
    clock runs before a player's first move), or where a takeback left it. The live game and
    the game rebuilt from its stored moves both call it after each move, at the move's time,
    so both have the same clock."""
    if game.clock is not None or row.clock_control is None or row.started is None:
        return
    if row.clock_base_ply is None:
        if first_moves_made(row, game):
            _start_clock(game, row.clock_control, at, services, _berserk_times(row, game, services))
    elif game.ply == row.clock_base_ply and row.clock_base_at is not None:
        times = [row.clock_base_white or 0.0, row.clock_base_black or 0.0]
        _start_clock(game, row.clock_control, row.clock_base_at, services, times)


def _berserk_times(row: GameRow, game: Game, services: Services) -> list[float] | None:
    """The times the clock starts with when a player of an arena went berserk (a bit per
    seat in ``row.berserk``): half his time; None for the control's own."""
    parsed = parse_clock(row.clock_control, now=services.now) if row.berserk else None
    if parsed is None:
        return None
    full = Clock(parsed.control, game.variant.players, services.now)
    halves = [row.berserk >> seat & 1 for seat in range(full.players)]
    return [full.remaining(seat) / (2 if half else 1) for seat, half in enumerate(halves)]


def time_out(row: GameRow, game: Game, now: float) -> Conflict | None:
    """Apply a fallen flag before anything else: the game is lost on time (two players) or
    the player to move is out (more players), or aborted when a player has not made his
    first move in time; the refusal of the request that found it."""
    if row.status != "playing" or game.result is not None:
        return None
    if game.clock is None and row.flag_at is not None and row.flag_at <= now:
        late = game.board.turn
        if row.match_id is not None or row.tournament_id is not None:  # lost, not aborted
            game.forfeit(late, "time forfeit", now)
            return Conflict(f"time is up: {PLAYER_NAMES[late]} did not make a first move")
        game.adjudicate(None, ABORTED)
        return Conflict(f"the game is aborted: {PLAYER_NAMES[late]} did not move")
    mover, events = game.board.turn, len(game.events)
    if game.check_time(now) is None and len(game.events) == events:
        return None
    if row.players == 2:
        return Conflict(f"time is up: {PLAYER_NAMES[mover]} lost on time")
    return Conflict(f"time is up: {PLAYER_NAMES[mover]} is out of the game")
