"""Endgame databases: the generator against a brute-force solver, colour symmetry, the
command line, and the search finding wins it cannot see without them."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import pytest

from damier import Board
from damier.cli import main
from damier.egtb import Tablebase, build
from damier.egtb.index import DRAW, LOSS, WIN, layout
from damier.egtb.probe import database_spec, unpack
from damier.engine import Engine
from damier.engine.bitsearch import TABLEBASE_WIN
from damier.errors import FenError
from damier.geometry import geometry_of
from damier.rules import get_variant

NAMES = {WIN: "win", DRAW: "draw", LOSS: "loss"}


# -- a brute-force solver on the board's own moves (the table kernel) --------------------


def positions(variant: str, pieces: int, kinds: str = "mkMK") -> Iterable[str]:
    """The FEN of every legal position of 2 to ``pieces`` pieces, each side with one, either
    side to move; ``kinds`` limits the pieces (m, k White's men and kings, M, K Black's)."""
    names = geometry_of(get_variant(variant)).names
    for count in range(2, pieces + 1):
        for squares in itertools.combinations(range(len(names)), count):
            for chosen in itertools.product(kinds, repeat=count):
                white = [
                    ("K" if k == "k" else "") + names[s]
                    for s, k in zip(squares, chosen)
                    if k in "mk"
                ]
                black = [
                    ("K" if k == "K" else "") + names[s]
                    for s, k in zip(squares, chosen)
                    if k in "MK"
                ]
                if not white or not black:
                    continue
                for turn in "WB":
                    yield f"{turn}:W{','.join(white)}:B{','.join(black)}"


Key = tuple[bytes, int]


def fen_of(variant: str, key: Key) -> str:
    """The FEN of a position key (cells, player to move)."""
    names = geometry_of(get_variant(variant)).names
    cells, turn = np.frombuffer(key[0], dtype=np.int8), key[1]
    sides = ([], [])
    for cell in np.flatnonzero(cells):
        code = int(cells[cell])
        sides[(code - 1) // 2].append(("K" if code % 2 == 0 else "") + names[cell])
    return f"{'WB'[turn]}:W{','.join(sides[0])}:B{','.join(sides[1])}"


def solve_by_brute_force(variant: str, fens: Iterable[str]) -> dict[Key, int]:
    """The value of every position reachable from ``fens`` for the side to move: a win if
    some move reaches a lost position, a loss if every move (none included) reaches a won
    one, repeated until nothing changes; what is left is a draw (play goes on forever)."""
    board = Board(variant)
    children: dict[Key, list[Key]] = {}
    stack: list[Key] = []
    for fen in fens:
        try:
            board.set_fen(fen)
        except FenError:  # a man on its crowning row
            continue
        stack.append((board.cells.tobytes(), board.turn))
    while stack:
        key = stack.pop()
        if key in children:
            continue
        board.set_fen(fen_of(variant, key))
        following = []
        for move in board.legal_moves:
            board.push(move)
            following.append((board.cells.tobytes(), board.turn))
            board.pop()
        children[key] = following
        stack.extend(child for child in following if child not in children)
    value: dict[Key, int] = {}
    changed = True
    while changed:
        changed = False
        for key, following in children.items():
            if key in value:
                continue
            outcomes = [value.get(child) for child in following]
            if LOSS in outcomes:
                value[key] = WIN
            elif all(outcome == WIN for outcome in outcomes):
                value[key] = LOSS
            else:
                continue
            changed = True
    return {key: value.get(key, DRAW) for key in children}


def both_sides_have_pieces(key: Key) -> bool:
    cells = np.frombuffer(key[0], dtype=np.int8)
    return bool(((cells == 1) | (cells == 2)).any() and (cells >= 3).any())


def rotated(key: Key) -> Key:
    """The position turned half a turn, colours swapped (the other side to move)."""
    cells = np.frombuffer(key[0], dtype=np.int8)[::-1]
    swapped = np.where(cells == 0, 0, np.where(cells <= 2, cells + 2, cells - 2))
    return swapped.astype(np.int8).tobytes(), 1 - key[1]


@pytest.fixture(scope="module")
def directory(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("egtb")
    for variant in ("russian", "english"):
        build(variant, 3, path)
    build("international", 2, path)
    return path


def agree(variant: str, directory: Path, solved: dict[Key, int]) -> int:
    base = Tablebase.load(variant, directory)
    assert base is not None
    checked = 0
    for key, value in solved.items():
        if both_sides_have_pieces(key):
            cells = np.frombuffer(key[0], dtype=np.int8)
            assert base.value_of(cells, key[1]) == NAMES[value], fen_of(variant, key)
            checked += 1
    return checked


@pytest.mark.parametrize("variant", ["russian", "english"])
def test_three_kings_agree_with_brute_force(variant: str, directory: Path) -> None:
    solved = solve_by_brute_force(variant, positions(variant, 3, kinds="kK"))
    assert agree(variant, directory, solved) > 20_000
    assert {WIN, DRAW, LOSS} <= set(solved.values())


def test_two_pieces_on_ten_by_ten_agree_with_brute_force(directory: Path) -> None:
    solved = solve_by_brute_force("international", positions("international", 2))
    assert agree("international", directory, solved) > 5_000


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["russian", "english"])
def test_every_three_piece_position_agrees_with_brute_force(variant: str, directory: Path) -> None:
    solved = solve_by_brute_force(variant, positions(variant, 3))
    assert agree(variant, directory, solved) > 300_000
    # Colour symmetry: the brute force sees each colour as it is; the database stores a
    # position once, turned so that the side to move plays White. They agree: a position
    # and its colour-swapped half-turn have the same value.
    for key, value in solved.items():
        if both_sides_have_pieces(key):
            assert solved[rotated(key)] == value, fen_of(variant, key)


@pytest.mark.parametrize("variant", ["russian", "english", "international"])
def test_colour_symmetry_of_the_rules(variant: str, directory: Path) -> None:
    """What the database relies on: turning a position round and swapping the colours
    changes nothing. Held on every two-piece and three-king position (and their
    successors) by the brute force, which sees both colours as they are."""
    pieces = 2 if variant == "international" else 3
    kinds = "mkMK" if variant == "international" else "kK"
    solved = solve_by_brute_force(variant, positions(variant, pieces, kinds))
    turned = 0
    for key, value in solved.items():
        if both_sides_have_pieces(key):
            assert solved[rotated(key)] == value, fen_of(variant, key)
            turned += 1
    assert turned > 1000


def test_every_value_agrees_with_its_successors(directory: Path) -> None:
    from damier.egtb.probe import verify

    base = Tablebase.load("russian", directory)
    assert base is not None and verify(base) == 0
    # A corrupted value is found.
    values = unpack(base.values, base.layout.total)
    won = int(np.flatnonzero(values == WIN)[0])
    values[won] = DRAW
    broken = Tablebase(base.variant, base.pieces, pack_values(values), base.layout.total)
    assert verify(broken) >= 1


def pack_values(values: np.ndarray) -> np.ndarray:
    from damier.egtb.probe import pack

    return pack(values)
