"""Puzzles: finding positions where one move wins, checking them, and the shipped sets.

>>> from damier.puzzles import Puzzle, shipped
>>> isinstance(shipped("russian"), tuple)
True
"""

from __future__ import annotations

from damier.puzzles.finding import Criteria, Finder, Verdict
from damier.puzzles.puzzle import Puzzle, balance, puzzle_id
from damier.puzzles.shipped import VARIANTS, read_puzzles, shipped
from damier.puzzles.themes import THEMES
from damier.puzzles.verifying import verify

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
]
