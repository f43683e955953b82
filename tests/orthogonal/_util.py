"""Small helpers shared by the orthogonal-variant rule tests (not a test module)."""

from __future__ import annotations

from damier import Board


def move_set(board: Board) -> set[tuple[tuple[str, ...], tuple[str, ...]]]:
    """The legal moves of ``board`` as ``(path, captured)`` pairs."""
    return {(tuple(m.path), tuple(m.captured)) for m in board.legal_moves}


def q(*moves: str) -> set[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Quiet moves written ``"d4-d5"`` as ``(path, ())`` pairs."""
    return {(tuple(m.split("-")), ()) for m in moves}


def x(path: str, captured: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A capture: ``x("b4xf4xf8", "d4 f6")`` -> ``(("b4", "f4", "f8"), ("d4", "f6"))``."""
    return tuple(path.split("x")), tuple(captured.split())


def notations(board: Board) -> set[str]:
    return {m.notation for m in board.legal_moves}
