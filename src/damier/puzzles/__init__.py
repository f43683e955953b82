"""Puzzles: finding positions where one move wins, checking them, and the shipped sets.

``damier puzzles build --variant V [--games N] [--minutes M] [--pdn FILE] [--database URL]
[--seed S] [--levels 2,3,4] [-o FILE]`` plays self-play games (or reads recorded ones),
examines their positions (:class:`Finder`, thresholds in :class:`Criteria`) and appends every
puzzle found to a JSON-lines file, one :class:`Puzzle` a line; ``damier puzzles verify``
checks a file again (:func:`verify`; :func:`verify_many` shares the work among processes).
The shipped files are ``damier/data/puzzles/<variant>.jsonl`` (:func:`shipped`); the
server's trainer serves them (``server.services.puzzles``).

>>> from damier.puzzles import Puzzle, shipped
>>> isinstance(shipped("russian"), tuple)
True
"""

from __future__ import annotations

from damier.puzzles.finding import Criteria, Finder, Verdict
from damier.puzzles.puzzle import Puzzle, balance, puzzle_id
from damier.puzzles.shipped import VARIANTS, read_puzzles, shipped
from damier.puzzles.themes import THEMES
from damier.puzzles.verifying import verify, verify_many

__all__ = [
    "THEMES",
    "VARIANTS",
    "Criteria",
    "Finder",
    "Puzzle",
    "Verdict",
    "balance",
    "puzzle_id",
    "read_puzzles",
    "shipped",
    "verify",
    "verify_many",
]
