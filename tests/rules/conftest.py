"""Helpers for the rule tests: the legal moves of a position as plain sets.

Expected values in these tests are worked out by hand from docs RULES.md; the helpers only
turn the program's answer into something comparable.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from damier import Board


def _notations(variant: str, fen: str | None = None) -> set[str]:
    return {m.notation for m in Board(variant, fen).legal_moves}


def _captures(variant: str, fen: str | None = None) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    return {(m.path, m.captured) for m in Board(variant, fen).legal_moves}


def _crowning(
    variant: str, fen: str | None = None
) -> set[tuple[tuple[int, ...], tuple[int, ...], bool]]:
    return {(m.path, m.captured, m.crowns) for m in Board(variant, fen).legal_moves}


@pytest.fixture
def notations() -> Callable[..., set[str]]:
    """``notations(variant, fen)``: the set of the legal moves' notations."""
    return _notations


@pytest.fixture
def captures() -> Callable[..., set[tuple[tuple[int, ...], tuple[int, ...]]]]:
    """``captures(variant, fen)``: the set of ``(path, captured)`` of the legal moves."""
    return _captures


@pytest.fixture
def crowning() -> Callable[..., set[tuple[tuple[int, ...], tuple[int, ...], bool]]]:
    """``crowning(variant, fen)``: the set of ``(path, captured, crowns)``."""
    return _crowning
