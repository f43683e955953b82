"""Differential test: Damier against py-draughts on random games.

Seeded random playouts in International, Russian and Brazilian draughts. At every ply the
legal moves of both libraries are compared as sets of
``(from square, to square, frozenset(captured squares))``; in positions where no capture can
be made by two routes, the full paths (origin, every landing square, destination) must match
too. The
same random move is then played in both and the piece placement and side to move compared.

Duplicate captures (same start, end and set of captured pieces by different routes) collapse
to one key (RULES.md decision 5; both libraries list one route for them, not always the same
one).

English is not tested: py-draughts' English rules are known to be wrong.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

draughts = pytest.importorskip("draughts")

from damier import Board  # noqa: E402

GAMES = 150
MAX_PLIES = 150
SEED = 20240601

PEER_BOARDS = {
    "international": draughts.StandardBoard,
    "russian": draughts.RussianBoard,
    "brazilian": draughts.BrazilianBoard,
}

Key = tuple[int, int, frozenset[int]]


def damier_moves(board: Board) -> dict[Key, list[tuple[int, ...]]]:
    """Damier's legal moves: key -> full paths (PDN square numbers)."""
    moves: dict[Key, list[tuple[int, ...]]] = {}
    for m in board.legal_moves:
        path = tuple(int(s) for s in m.path)
        key = (path[0], path[-1], frozenset(int(s) for s in m.captured))
        moves.setdefault(key, []).append(path)
    return moves


def peer_moves(board: Any) -> dict[Key, list[Any]]:
    """py-draughts' legal moves (0-based squares in ``square_list``/``captured_list``)."""
    moves: dict[Key, list[Any]] = {}
    for m in board.legal_moves:
        captured = frozenset(c + 1 for c in m.captured_list)
        key = (m.square_list[0] + 1, m.square_list[-1] + 1, captured)
        moves.setdefault(key, []).append(m)
    return moves


def peer_path(move: Any) -> tuple[int, ...]:
    return tuple(s + 1 for s in move.square_list)


def damier_placement(board: Board, squares: int) -> dict[int, tuple[int, bool]]:
    placement = {}
    for square in range(1, squares + 1):
        piece = board.piece_at(square)
        if piece is not None:
            placement[square] = piece
    return placement


def peer_placement(board: Any) -> dict[int, tuple[int, bool]]:
    placement = {}
    for bitboard, piece in (
        (board.white_men, (0, False)),
        (board.white_kings, (0, True)),
        (board.black_men, (1, False)),
        (board.black_kings, (1, True)),
    ):
        while bitboard:
            low = bitboard & -bitboard
            placement[low.bit_length()] = piece
            bitboard ^= low
    return placement


def show(moves: dict[Key, Any]) -> str:
    def text(key: Key) -> str:
        start, end, captured = key
        if not captured:
            return f"{start}-{end}"
        return f"{start}x{end} [{','.join(map(str, sorted(captured)))}]"

    keys = sorted(moves, key=lambda k: (k[0], k[1], sorted(k[2])))
    return "{" + ", ".join(text(k) for k in keys) + "}"


def play_game(variant: str, rng: random.Random, history: list[str]) -> int:
    """Play one random game in both libraries, checking every ply. Returns the plies played."""
    board = Board(variant)
    peer = PEER_BOARDS[variant]()
    squares = peer.SQUARES_COUNT
    for ply in range(MAX_PLIES + 1):
        fen = board.fen
        context = f"{variant}, ply {ply}, FEN {fen}\nmoves so far: {' '.join(history) or '-'}"

        ours = damier_moves(board)
        theirs = peer_moves(peer)
        assert set(ours) == set(theirs), (
            f"legal moves differ in {context}\n"
            f"damier:      {show(ours)}\n"
            f"py-draughts: {show(theirs)}\n"
            f"only damier:      {show(dict.fromkeys(set(ours) - set(theirs)))}\n"
            f"only py-draughts: {show(dict.fromkeys(set(theirs) - set(ours)))}"
        )
        # Paths: when no capture can be made by two routes (Damier's perft(1) counts the
        # same with and without duplicates), each move has one path and both must show it.
        # Otherwise each library shows one of the equivalent routes, not necessarily the same.
        if board.perft(1, duplicates="keep") == board.perft(1):
            for key, paths in ours.items():
                assert [paths[0]] == [peer_path(m) for m in theirs[key]], (
                    f"paths differ for {show({key: 0})} in {context}\n"
                    f"damier: {paths}, py-draughts: {[peer_path(m) for m in theirs[key]]}"
                )
        if not ours or ply == MAX_PLIES:
            return ply

        move = rng.choice(sorted(board.legal_moves, key=lambda m: m.notation))
        key = (int(move.path[0]), int(move.path[-1]), frozenset(int(s) for s in move.captured))
        history.append(move.notation)
        board.push(move)
        peer.push(theirs[key][0])

        assert board.turn == (0 if peer.turn == draughts.Color.WHITE else 1), (
            f"side to move differs after {move.notation} in {context}"
        )
        ours_placed = damier_placement(board, squares)
        theirs_placed = peer_placement(peer)
        assert ours_placed == theirs_placed, (
            f"positions differ after {move.notation} in {context}\n"
            f"damier FEN:      {board.fen}\npy-draughts FEN: {peer.fen}"
        )
    raise AssertionError("unreachable")


@pytest.mark.parametrize("variant", sorted(PEER_BOARDS))
def test_random_games_agree(variant: str) -> None:
    rng = random.Random(f"{SEED}-{variant}")
    plies = 0
    for _ in range(GAMES):
        plies += play_game(variant, rng, [])
    assert plies > GAMES * 10  # the games did get played


@pytest.mark.parametrize("variant", sorted(PEER_BOARDS))
def test_fen_round_trip_into_peer(variant: str) -> None:
    """Damier's FEN (with square ranges) is read by py-draughts as the same position."""
    rng = random.Random(f"{SEED}-fen-{variant}")
    board = Board(variant)
    for _ in range(40):
        if not board.legal_moves:
            break
        board.push(rng.choice(sorted(board.legal_moves, key=lambda m: m.notation)))
        peer = PEER_BOARDS[variant].from_fen(board.fen)
        assert peer_placement(peer) == damier_placement(board, peer.SQUARES_COUNT), board.fen
        assert set(peer_moves(peer)) == set(damier_moves(board)), board.fen
