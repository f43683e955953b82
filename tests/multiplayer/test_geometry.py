"""The multi-player boards as geometries (RULES.md 12.2, decision 6): cell counts, symmetric
lines, consistent colouring, the hub, and the decisive check: R_2 is the 8x8 board."""

from __future__ import annotations

import random

import pytest

from damier import Board
from damier.geometry import geometry_of, hex_geometry, radial_geometry
from damier.rules import get_variant
from damier.rules.multiplayer import MULTIPLAYER

CELL_COUNTS = {
    "radial2": 32,
    "tripad": 48,
    "radial4": 64,
    "radial6": 96,
    "radial8": 128,
    "radial2-orthogonal": 64,
    "tripad-orthogonal": 96,
    "radial4-orthogonal": 128,
    "radial6-orthogonal": 192,
    "radial8-orthogonal": 256,
    "cross4": 80,
    "cross4-orthogonal": 160,
    "hex3": 61,
    "hex3-orthogonal": 61,
}


@pytest.mark.parametrize("name", sorted(CELL_COUNTS))
def test_cell_counts(name: str) -> None:
    # Radial boards: 32n cells, half of them dark; the cross: 64 + 4 x 24 squares; hex: 61.
    assert geometry_of(get_variant(name)).cell_count == CELL_COUNTS[name]


@pytest.mark.parametrize("variant", MULTIPLAYER, ids=lambda v: v.name)
def test_every_step_can_be_walked_back(variant) -> None:
    # Adjacency is symmetric: whatever cell a line reaches in one step, some line of that
    # cell reaches back in one step.
    geometry = geometry_of(variant)
    rays = geometry.rays
    for cell in range(geometry.cell_count):
        for label in range(geometry.direction_count):
            neighbour = int(rays[cell, label, 0])
            if neighbour >= 0 and geometry.shared[cell, label] == 0:
                assert cell in rays[neighbour, :, 0], (geometry.names[cell], label)


@pytest.mark.parametrize("players", [2, 3, 4, 6, 8])
def test_radial_colouring_and_the_hub(players: int) -> None:
    # Every diagonal step joins two dark cells (r + f even in each cell's own frame), and d4
    # has three ordinary dark neighbours plus one hub neighbour in every other area.
    geometry = radial_geometry(players, dark_only=True)
    for cell, (_, rank, file) in enumerate(geometry.coordinates):
        assert (rank + file) % 2 == 0
        for label in range(geometry.direction_count):
            for met in geometry.rays[cell, label]:
                if met >= 0:
                    _, r, f = geometry.coordinates[met]
                    assert (r + f) % 2 == 0
    d4 = geometry.parse_square("Wd4")
    neighbours = {int(n) for n in geometry.rays[d4, :, 0] if n >= 0}
    assert {geometry.names[n] for n in neighbours} == (
        {"Wc3", "We3", "Bf4"} | {f"{'WBRGYPOC'[a]}d4" for a in range(1, players)}
    )


def test_the_radial_board_of_two_players_is_the_8x8_board() -> None:
    # (0, r, f) is the square of file f, rank r; (1, r, f) is file 9 - f, rank 9 - r: every
    # line of R_2 is a line of the 8x8 board.
    radial = radial_geometry(2, dark_only=True)
    square = geometry_of(get_variant("brazilian"))
    to_square = {
        cell: square.parse_square(_square_name(area, rank, file))
        for cell, (area, rank, file) in enumerate(radial.coordinates)
    }
    radial_lines = {
        tuple(to_square[int(c)] for c in radial.rays[cell, label] if c >= 0)
        for cell in range(radial.cell_count)
        for label in range(radial.direction_count)
    }
    square_lines = {
        tuple(int(c) for c in square.rays[cell, label] if c >= 0)
        for cell in range(square.cell_count)
        for label in range(4)
    }
    assert radial_lines - {()} == square_lines - {()}


def _square_name(area: int, rank: int, file: int) -> str:
    if area == 1:
        rank, file = 9 - rank, 9 - file
    return f"{chr(ord('a') + file - 1)}{rank}"


def _radial_name(square_name: str) -> str:
    file, rank = ord(square_name[0]) - ord("a") + 1, int(square_name[1:])
    if rank <= 4:
        return f"W{square_name}"
    return f"B{chr(ord('a') + 8 - file)}{9 - rank}"


@pytest.mark.parametrize(
    ("radial", "square"), [("radial2", "brazilian"), ("radial2-orthogonal", "turkish")]
)
@pytest.mark.parametrize("duplicates", ["drop", "keep"])
def test_radial2_perft_equals_the_8x8_game(radial: str, square: str, duplicates: str) -> None:
    # RULES.md 12.2: with the standard setup and International rules R_2 is Brazilian
    # draughts; with the orthogonal setup and Turkish rules it is Turkish draughts.
    a, b = Board(radial), Board(square)
    for depth in range(1, 7):
        assert a.perft(depth, duplicates) == b.perft(depth, duplicates, fast=False), depth


@pytest.mark.parametrize(
    ("radial", "square"), [("radial2", "brazilian"), ("radial2-orthogonal", "turkish")]
)
def test_radial2_moves_equal_the_8x8_moves_in_played_positions(radial: str, square: str) -> None:
    # Random games of the 8x8 variant (kings, long captures, the seam and the hub crossed
    # every way), each position set up on R_2: the same moves, square for square.
    rng = random.Random(7)
    geometry = geometry_of(get_variant(square))
    for _ in range(40):
        board = Board(square)
        for _ in range(rng.randrange(10, 120)):
            moves = board.legal_moves
            if not moves:
                break
            twin = Board(radial, _radial_fen(board, geometry))
            assert {_radial_move(m, geometry) for m in moves} == {
                (tuple(str(s) for s in m.path), frozenset(str(s) for s in m.captured))
                for m in twin.legal_moves
            }
            board.push(moves[rng.randrange(len(moves))])


def _algebraic(geometry, square) -> str:
    return geometry.algebraic_names[geometry.parse_square(str(square))]


def _radial_fen(board: Board, geometry) -> str:
    fields = ["W" if board.turn == 0 else "B"]
    for player, letter in enumerate("WB"):
        tokens = []
        for cell, code in enumerate(board.cells):
            if code and (code - 1) // 2 == player:
                king = "K" if code % 2 == 0 else ""
                tokens.append(king + _radial_name(geometry.algebraic_names[cell]))
        fields.append(letter + ",".join(tokens))
    return ":".join(fields)


def _radial_move(move, geometry) -> tuple[tuple[str, ...], frozenset[str]]:
    path = tuple(_radial_name(_algebraic(geometry, s)) for s in move.path)
    return path, frozenset(_radial_name(_algebraic(geometry, s)) for s in move.captured)


def test_hex_board_rows_and_edges() -> None:
    # Nine rows of 5, 6, 7, 8, 9, 8, 7, 6, 5 cells; each player's two home rows hold his 11
    # men; he crowns on the edge facing his own, whose ends the neighbours' rows reach.
    geometry = hex_geometry()
    rows = [sum(1 for r, _ in geometry.coordinates if r == row) for row in range(9)]
    assert rows == [5, 6, 7, 8, 9, 8, 7, 6, 5]
    board = Board("hex3")
    for player in range(3):
        home = geometry.home_rows(player, 2)
        assert {c for c in range(61) if board.cells[c] == 2 * player + 1} == set(home)
        crowning = {c for c in range(61) if geometry.crowns(player, c)}
        assert len(crowning) == 5 and not crowning & set(home)
        assert {geometry.names[c] for c in crowning} == [
            {"a9", "b9", "c9", "d9", "e9"},
            {"e1", "f2", "g3", "h4", "i5"},
            {"a1", "a2", "a3", "a4", "a5"},
        ][player]
