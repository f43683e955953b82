"""Damier: every draughts variant, one rules kernel.

>>> import damier
>>> board = damier.Board("russian")
>>> board.push("c3-d4")
Move('22-18')
"""

from damier.board import BLACK, WHITE, Board, LegalMoves, Move, Square
from damier.errors import AmbiguousMoveError, FenError, IllegalMoveError
from damier.rules import Variant, all_variants, get_variant

__all__ = [
    "BLACK",
    "WHITE",
    "AmbiguousMoveError",
    "Board",
    "FenError",
    "IllegalMoveError",
    "LegalMoves",
    "Move",
    "Square",
    "Variant",
    "all_variants",
    "get_variant",
]
__version__ = "0.1.0"
