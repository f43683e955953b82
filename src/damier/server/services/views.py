"""How stored rows and live games look through the API (``GameState``, ``GameSummary``).

A two-player game keeps its seats in the row's white and black columns, a game of more
players in its seat rows; :func:`sitters` reads either, so that the rest of the server
asks one question whatever the number of players.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

from damier.board import Move
from damier.game import Game
from damier.play import parse_clock
from damier.rules import get_variant
from damier.server.schemas import (
    COLORS,
    ClockView,
    Color,
    GameState,
    GameSummary,
    Mode,
    MoveView,
    PlayedMove,
    RankedResult,
    ResultView,
    Seat,
    SeatsClockView,
    SeatView,
)
from damier.server.store.models import GameRow, PlayerRow


class Sitter(NamedTuple):
    """Who sits at one seat: a person (None while the seat is open) or the computer."""

    kind: str
    level: int | None
    player_id: str | None
    player: PlayerRow | None


def sitters(row: GameRow) -> list[Sitter]:
    """The game's seats by seat number (0 White, 1 Black, 2 Red, ...)."""
    if row.players == 2:
        return [
            Sitter(row.white_kind, row.white_level, row.white_id, row.white),
            Sitter(row.black_kind, row.black_level, row.black_id, row.black),
        ]
    return [Sitter(seat.kind, seat.level, seat.player_id, seat.player) for seat in row.seats]


def seat_view(row: GameRow, player: int) -> SeatView:
    """The seat of ``player`` (0 White, 1 Black, ...)."""
    return _seat_view(sitters(row)[player], player)


def _seat_view(sitter: Sitter, player: int) -> SeatView:
    kind, level, _, person = sitter
    color = COLORS[player]
    if kind == "computer":
        name = f"Computer (level {level})"
        return SeatView(id=None, name=name, kind="computer", level=level, color=color)
    if person is None:
        return SeatView(id=None, name="", kind="human", level=None, color=color)
    return SeatView(
        id=person.id,
        name=person.name,
        kind="human",
        level=None,
        color=color,
        guest=is_guest(person),
    )


def is_guest(person: PlayerRow | None) -> bool:
    """Whether ``person`` is a guest (a player without an account)."""
    return person is not None and person.password_hash is None


def _seat(view: SeatView) -> Seat:
    """A seat as the ``white`` and ``black`` fields show it."""
    return Seat(id=view.id, name=view.name, kind=view.kind, level=view.level, guest=view.guest)


def seat_of(row: GameRow, player_id: str | None) -> int | None:
    """The seat that ``player_id`` holds in the game, if any."""
    if player_id is None:
        return None
    for seat, sitter in enumerate(sitters(row)):
        if sitter.kind == "human" and sitter.player_id == player_id:
            return seat
    return None


def _colors(players: tuple[int, ...] | list[int]) -> list[Color]:
    return [COLORS[p] for p in players]


def ranking_of(row: GameRow) -> list[list[int]]:
    """The final places of a game of more players, first to last, as stored in its seats
    (empty before the end)."""
    places: dict[int, list[int]] = {}
    for seat in row.seats:
        if seat.place is not None:
            places.setdefault(seat.place, []).append(seat.seat)
    return [places[place] for place in sorted(places)]


def result_view(row: GameRow) -> ResultView | None:
    if row.result_pdn is None or row.result_reason is None:
        return None
    result = ResultView(
        pdn=row.result_pdn,
        winner=COLORS[row.result_winner] if row.result_winner is not None else None,
        reason=row.result_reason,
    )
    if row.players == 2:
        return result
    ranking = [_colors(place) for place in ranking_of(row)]
    return RankedResult(**result.model_dump(), ranking=ranking)


def _unstarted_clock(control: str, players: int) -> list[float]:
    clock = parse_clock(control, now=lambda: 0.0)
    assert clock is not None
    return [clock.snapshot(0.0)[0]] * players


def _stored_times(row: GameRow) -> list[float | None]:
    """Every seat's time as stored, at ``row.clock_since``."""
    if row.players == 2:
        return [row.clock_white, row.clock_black]
    return [seat.clock for seat in row.seats]


def clock_view(row: GameRow, game: Game | None, now: float) -> ClockView | None:
    """The clock as of ``now``: from the live game when there is one, else from the row."""
    control = row.clock_control
    if control is None:
        return None
    stored = _stored_times(row)
    running = row.clock_running
    if game is not None and game.clock is not None:
        times = game.clock.snapshot(now)
        running = game.clock.running
    elif all(time is not None for time in stored):
        times = [time for time in stored if time is not None]
        if running is not None and row.clock_since is not None:
            times[running] -= now - row.clock_since
    else:
        times = _unstarted_clock(control, row.players)
        running = None
    times = [round(max(time, 0.0), 3) for time in times]
    clock = ClockView(
        control=control,
        white=times[0],
        black=times[1],
        running=COLORS[running] if running is not None else None,
    )
    if row.players == 2:
        return clock
    return SeatsClockView(**clock.model_dump(), times=times)


def move_view(move: Move) -> MoveView:
    """The kernel's move as the API shows it."""
    return _move_view(move, move.notation)


@lru_cache(maxsize=1 << 16)
def _move_view(move: Move, notation: str) -> MoveView:
    """A move's view, made once: every state of a game in play lists the legal moves, and
    most of them were legal a move before. The views are built without validation
    (``model_construct``: the kernel made the moves) and shared, so never changed
    (``notation`` is in the key: a move's equality leaves it out)."""
    return MoveView.model_construct(
        notation=notation, path=list(move.path), captured=list(move.captured)
    )


@lru_cache(maxsize=1 << 16)
def _played(ply: int, move: Move, notation: str) -> PlayedMove:
    """The view of a played move. Every state carries the whole game, so the views of the
    moves played before are made once, not once a state (shared like :func:`_move_view`'s)."""
    return PlayedMove.model_construct(
        ply=ply, notation=notation, path=list(move.path), captured=list(move.captured)
    )


def _seats(row: GameRow) -> list[SeatView]:
    return [_seat_view(sitter, player) for player, sitter in enumerate(sitters(row))]


def state_view(row: GameRow, game: Game, now: float, viewer: str | None = None) -> GameState:
    """The whole game as the API shows it to ``viewer``."""
    you = seat_of(row, viewer)
    seats = _seats(row)
    return GameState(
        id=row.id,
        variant=row.variant,
        start_fen=game.start_fen,
        moves=[_played(number, move, move.notation) for number, move in enumerate(game.moves, 1)],
        white=_seat(seats[0]),
        black=_seat(seats[1]),
        players=row.players,
        seats=seats,
        you=COLORS[you] if you is not None else None,
        rematch=row.rematch_id,
        match=row.match_id,
        tournament=row.tournament_id,
        takebacks=row.takebacks,
        **_position(row, game, now),
    )


def moved_view(state: GameState, row: GameRow, game: Game, now: float) -> GameState:
    """The state after the moves played since ``state`` (a state of the same game made by
    :func:`state_view` or by this function, for nobody: no ``you``), as long as nothing but
    moves changed meanwhile. Moves change the position and what follows from it; the seats,
    the game's links and the moves played before are taken from ``state``: made again at
    every move, they took about a sixth of a move's CPU in the server."""
    made = len(state.moves)
    new = [_played(number, m, m.notation) for number, m in enumerate(game.moves[made:], made + 1)]
    return state.model_copy(update={"moves": [*state.moves, *new], **_position(row, game, now)})


def _position(row: GameRow, game: Game, now: float) -> dict[str, Any]:
    """The fields of a state that a move may change."""
    playing = row.status == "playing" and game.result is None
    board = game.board
    agreed = [] if game.draw_offer is None else [game.draw_offer, *sorted(game.draw_accepted)]
    return {
        "status": "finished" if row.status == "finished" else row.status,
        "fen": board.fen,
        "turn": COLORS[board.turn],
        "ply": game.ply,
        "legal_moves": [move_view(m) for m in board.legal_moves] if playing else [],
        "active": _colors(board.active_players),
        "eliminated": [_colors(out) for out in board.eliminations()],
        "clock": clock_view(row, game, now),
        "result": result_view(row),
        "draw_offer": COLORS[game.draw_offer] if game.draw_offer is not None else None,
        "draw_agreed": _colors(agreed),
        "server_time": now,
        "first_move_deadline": row.flag_at if playing and game.clock is None else None,
        "takeback_offer": COLORS[row.takeback_offer] if row.takeback_offer is not None else None,
    }


def summary_view(row: GameRow, now: float) -> GameSummary:
    seats = _seats(row)
    return GameSummary(
        id=row.id,
        variant=row.variant,
        status=row.status,  # type: ignore[arg-type]
        white=_seat(seats[0]),
        black=_seat(seats[1]),
        players=row.players,
        seats=seats,
        clock=clock_view(row, None, now),
        result=result_view(row),
        created=row.created,
        match=row.match_id,
        mode=mode_of(row.variant, row.match_id),
    )


def mode_of(variant: str, match_id: str | None) -> Mode:
    """A game's mode: of a match, a losing (giveaway) game, or a single game."""
    if match_id is not None:
        return "match"
    try:
        return "losing" if get_variant(variant).giveaway else "single"
    except ValueError:  # a variant file no longer loaded
        return "single"
