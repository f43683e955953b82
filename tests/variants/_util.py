"""Helpers for the variant rule tests (not a test module).

Expected values in the tests are worked out by hand from docs/VARIANTS.md and RULES.md; these
helpers only turn the program's answer into plain sets that can be compared.
"""

from __future__ import annotations

from damier import Board

Capture = tuple[tuple[int, ...], tuple[int, ...]]


def notations(variant: str, fen: str | None = None) -> set[str]:
    """The notations of the legal moves of ``fen`` (the variant's start when None)."""
    return {m.notation for m in Board(variant, fen).legal_moves}


def captures(variant: str, fen: str | None = None) -> set[Capture]:
    """The legal moves of ``fen`` as ``(path, captured)`` pairs."""
    return {(tuple(m.path), tuple(m.captured)) for m in Board(variant, fen).legal_moves}


def x(*path: int, took: tuple[int, ...]) -> Capture:
    """A capture: ``x(28, 30, 10, took=(29, 20))``."""
    return tuple(path), tuple(took)
