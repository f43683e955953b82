"""Differential test of Turkish move generation against pydraughts (PyPI ``pydraughts``).

pydraughts imports as ``draughts``, the same name as py-draughts (a different library,
a dev dependency of this project), so it cannot be installed next to it. Install it in
a directory of its own and point the test at it::

    pip install --target /tmp/pyd pydraughts          # default location
    DAMIER_PYDRAUGHTS_PATH=/some/dir pytest tests/orthogonal

pydraughts then runs in a subprocess with that directory first on ``sys.path``. The test
is skipped when no pydraughts is found there.

Known differences, excluded by name:

* ``KING_FLIES_OVER_PIECES``: pydraughts lets a Turkish king fly over its own men
  ("W:WKa1,a3:Ba5" lists a1-a4 ... a1-a8), and in fact over any pieces on a quiet move
  ("W:WKa1:Ba3,a4,h8" lists a1-a5 ... a1-a8). Such moves are dropped from its list; a
  position where pydraughts has such a *capture* is not compared (the error might
  change which captures are maximal). Its captures checked here are correct.
* ``MAN_CROWNED_MID_CAPTURE``: pydraughts lets a man that reaches the last rank during
  a capture go on as a man, Damier (RULES.md decision 3) as a king. Positions where
  either side lists a capture by a man that touches the last rank are not compared.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from damier import Board

PYD_PATH = Path(os.environ.get("DAMIER_PYDRAUGHTS_PATH", "/tmp/pyd"))

KING_FLIES_OVER_PIECES = "pydraughts: Turkish king flies over pieces on a quiet move"
MAN_CROWNED_MID_CAPTURE = "pydraughts: man crowned during a capture continues as a man"

_WORKER = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import draughts
from draughts.core.variant import Board  # pydraughts only (py-draughts has no draughts.core)

def sq(n):
    return "abcdefgh"[(n - 1) % 8] + str((n - 1) // 8 + 1)

out = []
for fen in json.load(sys.stdin):
    b = Board(variant="turkish", fen=fen)
    out.append([[[sq(s) for s in m.steps_move], [sq(c) for c in m.captures]]
                for m in b.legal_moves()])
json.dump(out, sys.stdout)
"""


def _pydraughts_available() -> bool:
    return (PYD_PATH / "draughts" / "core" / "variant.py").is_file()


def pydraughts_moves(fens: list[str]) -> list[list[tuple[list[str], list[str]]]]:
    if not _pydraughts_available():
        pytest.skip(f"pydraughts not installed in {PYD_PATH} (see module docstring)")
    proc = subprocess.run(
        [sys.executable, "-c", _WORKER, str(PYD_PATH)],
        input=json.dumps(fens),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if proc.returncode != 0:
        pytest.skip(f"pydraughts worker failed: {proc.stderr[-500:]}")
    return [[(p, c) for p, c in moves] for moves in json.loads(proc.stdout)]


# --------------------------------------------------------------------------------------
# Helpers on Damier positions
# --------------------------------------------------------------------------------------

FILES = "abcdefgh"


def _coords(s: str) -> tuple[int, int]:
    return FILES.index(s[0]), int(s[1:]) - 1


def _name(f: int, r: int) -> str:
    return f"{FILES[f]}{r + 1}"


def _between(a: str, b: str) -> list[str]:
    (fa, ra), (fb, rb) = _coords(a), _coords(b)
    df = (fb > fa) - (fb < fa)
    dr = (rb > ra) - (rb < ra)
    out = []
    f, r = fa + df, ra + dr
    while (f, r) != (fb, rb):
        out.append(_name(f, r))
        f, r = f + df, r + dr
    return out


def crosses_a_piece(board: Board, path: list[str], captured: list[str]) -> bool:
    """Whether a move (in ``board``'s position) passes over or lands on a piece it does not
    capture -- an own man, or an enemy on a quiet move.

    Turkish removes captured pieces at once, so a captured square is empty once jumped;
    the mover's origin is empty after it leaves. Segment i of a capture jumps captured[i].
    """
    occupied = {f"{f}{r}" for f in FILES for r in range(1, 9)}
    occupied = {s for s in occupied if board.piece_at(s) is not None}
    occupied.discard(path[0])
    for i, (a, b) in enumerate(itertools.pairwise(path)):
        victim = captured[i] if i < len(captured) else None
        for s in _between(a, b):
            if s in occupied and s != victim:
                return True
        if b in occupied:
            return True
        if victim is not None:
            occupied.discard(victim)
    return False


def man_touches_last_rank(board: Board, path: list[str] | tuple[str, ...]) -> bool:
    piece = board.piece_at(path[0])
    assert piece is not None
    if piece[1]:
        return False
    last = "8" if board.turn == 0 else "1"
    return any(s[1:] == last for s in path[1:])


def key(path: list[str] | tuple[str, ...], captured: list[str] | tuple[str, ...]):
    return (path[0], path[-1], frozenset(captured))


# --------------------------------------------------------------------------------------
# Tests
# --------------------------------------------------------------------------------------


def test_known_error_is_recognised() -> None:
    """The excluded pydraughts error shows up where expected and our filter catches it."""
    fen = "W:WKa1,a3:Ba5"
    (pyd,) = pydraughts_moves([fen])
    board = Board("turkish", fen)
    bad = {(p[0], p[-1]) for p, c in pyd if crosses_a_piece(board, p, c)}
    # damier never lists such a move
    assert not any(
        crosses_a_piece(board, list(m.path), list(m.captured)) for m in board.legal_moves
    )
    # every remaining pydraughts move is one of Damier's
    rest = {key(p, c) for p, c in pyd if not crosses_a_piece(board, p, c)}
    assert rest == {key(m.path, m.captured) for m in board.legal_moves}
    if bad:  # the known error is still there: document it
        assert ("a1", "a4") in bad, KING_FLIES_OVER_PIECES


def test_known_error_over_enemy_pieces_is_recognised() -> None:
    fen = "W:WKa1:Ba3,a4,h8"
    (pyd,) = pydraughts_moves([fen])
    board = Board("turkish", fen)
    # by hand: a1-a2 and a1-b1 ... a1-h1; a3 cannot be taken (a4 behind it)
    assert {key(m.path, m.captured) for m in board.legal_moves} == {
        key(("a1", s), ()) for s in ["a2", "b1", "c1", "d1", "e1", "f1", "g1", "h1"]
    }
    rest = {key(p, c) for p, c in pyd if not crosses_a_piece(board, p, c)}
    assert rest == {key(m.path, m.captured) for m in board.legal_moves}


HAND_POSITIONS = [
    "W:Wd4,a2,h4:Ba8",
    "W:Wd4:Bd5,c4,d3",
    "B:We6,e4,f5,g5:Be5",
    "W:WKd4,d6,f4:Ba8",
    "W:WKd1:Bd5",
    "W:WKd1:Bd5,d6,Kb1",
    "W:Wa3,e3,h3:BKa4,e4,e6,h4",
    "W:Wa3,h3:BKa4,h4",
    "W:WKb4:Bd4,f6,e8,d2",
    "W:WKd4:Bd6,d2",
    "W:WKd1,d6:Bd4",
]


def _playout_fens(seed: int, plies: int) -> list[str]:
    rng = random.Random(seed)
    board = Board("turkish")
    fens = [board.fen]
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
        fens.append(board.fen)
    return fens


def test_move_sets_match_pydraughts() -> None:
    fens = list(HAND_POSITIONS)
    for seed in range(8):
        fens += _playout_fens(seed, 70)
    # a position without pieces for one side has no moves in either program
    fens = [f for f in fens if not f.endswith(":B") and ":W:" not in f]
    results = pydraughts_moves(fens)
    compared = skipped_error = skipped_crown = 0
    mismatches = []
    for fen, pyd in zip(fens, results, strict=True):
        board = Board("turkish", fen)
        ours = list(board.legal_moves)
        errors = [(p, c) for p, c in pyd if crosses_a_piece(board, p, c)]
        if any(c for _, c in errors):
            skipped_error += 1
            continue
        pyd = [(p, c) for p, c in pyd if (p, c) not in errors]
        caps = [(list(m.path), list(m.captured)) for m in ours if m.captured] + [
            (p, c) for p, c in pyd if c
        ]
        if any(man_touches_last_rank(board, p) for p, _ in caps):
            skipped_crown += 1
            continue
        compared += 1
        mine = {key(m.path, m.captured) for m in ours}
        theirs = {key(p, c) for p, c in pyd}
        if mine != theirs:
            mismatches.append(
                (fen, sorted(map(str, mine - theirs)), sorted(map(str, theirs - mine)))
            )
    assert not mismatches, mismatches[:5]
    # make sure the comparison was not vacuous
    assert compared >= len(fens) // 2, (compared, skipped_error, skipped_crown)
