"""Lazy SMP: helper threads share the table, find what one thread finds, never outlive the
search, and a table entry torn by two writers is ignored."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from damier import Board
from damier.engine import Engine
from damier.engine.search import EXACT, INFINITY, LOWER, MATE, MAX_PLY, UPPER, probe, store


def helper_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("damier-helper")]


@pytest.mark.parametrize(
    ("variant", "fen", "best", "mate"),
    [
        ("international", "W:W38,39,42,47:B28,29", "38-33", 3),
        ("russian", "W:W9,13,14:B11,15", "14-10", 3),
        # Turkish's orthogonal moves go through the table search, not the bitboards.
        ("turkish", "W:W:B", None, None),
    ],
)
def test_two_threads_find_the_shot(
    variant: str, fen: str, best: str | None, mate: int | None
) -> None:
    board = Board(variant) if best is None else Board(variant, fen)
    alone = Engine(variant, table_megabytes=4, threads=1).search(board, depth=6)
    helped = Engine(variant, table_megabytes=4, threads=2).search(board, depth=6)
    assert helped.best_move in board.legal_moves
    if best is not None:
        assert alone.best_move is not None and alone.best_move.notation == best
        assert helped.best_move is not None and helped.best_move.notation == best
        assert helped.mate == alone.mate == mate
    assert not helper_threads()


def test_helpers_search_and_stop_with_the_main_search() -> None:
    board = Board("international")
    engine = Engine("international", table_megabytes=8, threads=3)
    seen: list[int] = []
    for _info in engine.analyse(board, time=0.5, book=False):
        seen.append(len(helper_threads()))
    assert max(seen) == 2  # two helpers beside the main search while it ran
    assert not helper_threads()  # and none after
    result = engine.search(board, depth=8)
    assert result.depth == 8 and result.best_move in board.legal_moves


def test_weak_levels_search_alone() -> None:
    """A level bounded by nodes or blurred by noise keeps its strength: no helpers."""
    board = Board("international")
    engine = Engine("international", level=5, table_megabytes=4, threads=2, seed=3)
    for _ in engine.analyse(board):
        assert not helper_threads()


def test_threads_are_bounded() -> None:
    with pytest.raises(ValueError, match="threads"):
        Engine("international", threads=0)


def test_a_torn_entry_is_ignored() -> None:
    """Two threads writing one slot at once may leave one's key with the other's fields:
    the key no longer matches and the entry decides nothing."""
    table = np.zeros((1024, 2), dtype=np.uint64)
    key = np.uint64(0x1234_5678_9ABC_0007)
    store(table, key, 5, 1, 37, EXACT, 99)
    remembered, decides, score = probe(table, key, 5, 1, -100, 100)
    assert (remembered, decides, score) == (99, True, 37)
    other = np.zeros((1024, 2), dtype=np.uint64)
    store(other, np.uint64(0x0BAD_0000_0000_0007), 5, 1, -500, EXACT, 12)
    table[7, 1] = other[7, 1]  # another thread's fields for another position
    assert probe(table, key, 5, 1, -100, 100) == (-1, False, 0)


def test_an_entry_keeps_its_fields() -> None:
    """Each field of an entry comes back as stored, at the edges of its range: depths from
    -128 (any lower searches alike, only captures left) to 127 (a search goes to
    ``MAX_PLY`` - 8 at most), scores within a
    mate either way (mates made relative to the node), every flag; the remembered move's
    key comes back folded to 32 bits, as the move ordering compares it."""
    table = np.zeros((1024, 2), dtype=np.uint64)
    key = np.uint64(0xFEDC_BA98_7654_3001)
    capture = 12 | (34 << 8) | ((1 << 46 | 1 << 3) << 16)
    for depth, score, flag, move in [
        (MAX_PLY - 8, MATE - 8, EXACT, capture),  # the deepest search, an even score
        (127, 2 - MATE, EXACT, 0),
        (300, 6 - MATE, EXACT, 0),  # kept as 127, not spilled into the score
        (-128, -MATE + 3, LOWER, 0),
        (-300, 0, UPPER, 31 | (27 << 8)),
        (0, -123_456, EXACT, capture),
    ]:
        store(table, key, depth, 2, score, flag, move)
        remembered, decides, found = probe(table, key, min(depth, 0) - 200, 2, -INFINITY, INFINITY)
        assert remembered == (move ^ (move >> 32)) & 0xFFFFFFFF
        assert decides == (flag == EXACT)
        if decides:
            assert found == score
        assert probe(table, key, max(depth, -128) + 1, 2, -INFINITY, INFINITY)[1] is False
        # A lower bound decides a node whose beta it reaches, an upper one below alpha.
        assert probe(table, key, -200, 2, -INFINITY, -INFINITY)[1] == (flag != UPPER)
        assert probe(table, key, -200, 2, INFINITY, INFINITY)[1] == (flag != LOWER)


def test_hub_threads_parameter() -> None:
    from damier.protocols.hub import HubEngine

    replies: list[str] = []
    hub = HubEngine(replies.append)
    hub.handle("hub")
    assert any(line.startswith("param name=threads value=1 type=int") for line in replies)
    hub.handle("set-param name=threads value=0")
    assert replies[-1].startswith("error") and "threads" in replies[-1]
    hub.handle("set-param name=threads value=2")
    hub.handle("init")
    assert replies[-1] == "ready"
    assert hub.engine is not None and len(hub.engine._helpers) == 1
