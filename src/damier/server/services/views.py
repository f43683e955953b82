"""How stored rows and live games look through the API (``GameState``, ``GameSummary``)."""

from __future__ import annotations

from damier.board import Move
from damier.game import Game
from damier.play import parse_clock
from damier.server.schemas import (
    COLORS,
    ClockView,
    GameState,
    GameSummary,
    MoveView,
    PlayedMove,
    ResultView,
    Seat,
)
from damier.server.store.models import GameRow


def color(player: int | None) -> str | None:
    return None if player is None else COLORS[player]


def seat_view(row: GameRow, player: int) -> Seat:
    """The seat of ``player`` (0 White, 1 Black)."""
    if player == 0:
        kind, level, person = row.white_kind, row.white_level, row.white
    else:
        kind, level, person = row.black_kind, row.black_level, row.black
    if kind == "computer":
        return Seat(id=None, name=f"Computer (level {level})", kind="computer", level=level)
    if person is None:
        return Seat(id=None, name="", kind="human", level=None)
    return Seat(id=person.id, name=person.name, kind="human", level=None)


def seat_of(row: GameRow, player_id: str | None) -> int | None:
    """The seat (0 or 1) that ``player_id`` holds in the game, if any."""
    if player_id is None:
        return None
    if row.white_kind == "human" and row.white_id == player_id:
        return 0
    if row.black_kind == "human" and row.black_id == player_id:
        return 1
    return None


def result_view(row: GameRow) -> ResultView | None:
    if row.result_pdn is None or row.result_reason is None:
        return None
    return ResultView(
        pdn=row.result_pdn,
        winner=COLORS[row.result_winner] if row.result_winner is not None else None,
        reason=row.result_reason,
    )


def _unstarted_clock(control: str) -> ClockView:
    clock = parse_clock(control, now=lambda: 0.0)
    assert clock is not None
    white, black = clock.snapshot(0.0)
    return ClockView(control=control, white=white, black=black, running=None)


def clock_view(row: GameRow, game: Game | None, now: float) -> ClockView | None:
    """The clock as of ``now``: from the live game when there is one, else from the row."""
    control = row.clock_control
    if control is None:
        return None
    if game is not None and game.clock is not None:
        white, black = game.clock.snapshot(now)
        running = game.clock.running
    elif row.clock_white is not None and row.clock_black is not None:
        white, black, running = row.clock_white, row.clock_black, row.clock_running
        if running is not None and row.clock_since is not None:
            spent = now - row.clock_since
            white, black = (white - spent, black) if running == 0 else (white, black - spent)
    else:
        return _unstarted_clock(control)
    return ClockView(
        control=control,
        white=round(max(white, 0.0), 3),
        black=round(max(black, 0.0), 3),
        running=COLORS[running] if running is not None else None,
    )


def move_view(move: Move) -> MoveView:
    """The kernel's move as the API shows it. The views of moves are built without
    validation (``model_construct``): the kernel made them, and a state has dozens."""
    return MoveView.model_construct(
        notation=move.notation, path=list(move.path), captured=list(move.captured)
    )


def state_view(row: GameRow, game: Game, now: float, viewer: str | None = None) -> GameState:
    """The whole game as the API shows it to ``viewer``."""
    playing = row.status == "playing" and game.result is None
    you = seat_of(row, viewer)
    return GameState(
        id=row.id,
        variant=row.variant,
        status="finished" if row.status == "finished" else row.status,  # type: ignore[arg-type]
        fen=game.board.fen,
        start_fen=game.start_fen,
        turn=COLORS[game.board.turn],
        ply=game.ply,
        moves=[
            PlayedMove.model_construct(
                ply=number,
                notation=move.notation,
                path=list(move.path),
                captured=list(move.captured),
            )
            for number, move in enumerate(game.moves, start=1)
        ],
        legal_moves=[move_view(m) for m in game.board.legal_moves] if playing else [],
        white=seat_view(row, 0),
        black=seat_view(row, 1),
        clock=clock_view(row, game, now),
        result=result_view(row),
        draw_offer=COLORS[game.draw_offer] if game.draw_offer is not None else None,
        you=COLORS[you] if you is not None else None,
        server_time=now,
        rematch=row.rematch_id,
    )


def summary_view(row: GameRow, now: float) -> GameSummary:
    return GameSummary(
        id=row.id,
        variant=row.variant,
        status=row.status,  # type: ignore[arg-type]
        white=seat_view(row, 0),
        black=seat_view(row, 1),
        clock=clock_view(row, None, now),
        result=result_view(row),
        created=row.created,
    )
