"""The kernel gives the same answers compiled and as plain Python (NUMBA_DISABLE_JIT=1)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from damier import Board

SAMPLE = [
    ("international", None),
    ("international", "W:WK28:B19,20,30,8"),
    ("international", "W:W6,7,8,9,10:B41,42,43,44,45"),
    ("russian", "W:W18,K31:B13,14,22,23,K4"),
    ("pool", "B:WK1,22,23:B10,11,18"),
    ("english", None),
    ("italian", "W:WK14,18,19:B10,11,K15,23"),
    ("spanish", "W:WK1,10:B14,15,22,23"),
    ("turkish", "W:Wd4,Kh1:Bd5,d7,f7,b3"),
    ("croda", None),
    ("dameo", None),
]

SCRIPT = """
import json, sys
from damier import Board
out = []
for name, fen in json.loads(sys.argv[1]):
    board = Board(name, fen)
    out.append([[m.notation for m in board.legal_moves], board.perft(3), board.perft(2, "keep")])
print(json.dumps(out))
"""


def _answers(sample: list[tuple[str, str | None]]) -> list[list[object]]:
    out = []
    for name, fen in sample:
        board = Board(name, fen)
        out.append(
            [[m.notation for m in board.legal_moves], board.perft(3), board.perft(2, "keep")]
        )
    return out


def test_compiled_and_uncompiled_kernels_agree() -> None:
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(SAMPLE)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    assert json.loads(result.stdout) == _answers(SAMPLE)
