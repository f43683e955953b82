"""One puzzle as shipped: a position, the winning line, its themes and its rating.

>>> p = Puzzle("russian-0", "russian", "W:W21:B9", ("21-17",), ("short",), 1000, 6, 300, 10, 200)
>>> Puzzle.from_json(p.to_json()) == p
True
>>> p.solver_moves
('21-17',)
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from damier.board import Board
from damier.rules import Range, Variant, get_variant

MAN = 100
"""A man's worth, in hundredths (the engine's unit)."""


def king_worth(variant: Variant) -> int:
    """What a king counts for in the material balance: three men with flying kings, one and
    a half with short ones."""
    return 300 if variant.king_range is Range.FLYING else 150


def material(variant: Variant, cells: npt.NDArray[np.int8], player: int) -> int:
    """``player``'s material minus his opponent's (two-player boards), in hundredths."""
    king = king_worth(variant)
    codes = cells[cells > 0].astype(np.int64)
    owners = (codes - 1) // 2
    worth = np.where(codes % 2 == 0, king, MAN)
    return int(worth[owners == player].sum() - worth[owners != player].sum())


def balance(board: Board, player: int) -> int:
    """:func:`material` of a board."""
    return material(board.variant, board.cells, player)


def puzzle_id(variant: str, fen: str) -> str:
    """A puzzle's id: its variant and a digest of its position."""
    digest = hashlib.sha1(f"{variant} {fen}".encode()).hexdigest()[:10]
    return f"{variant}-{digest}"


@dataclass(frozen=True)
class Puzzle:
    """A position where exactly one move wins, and the forced line that follows it."""

    id: str
    variant: str
    """The variant's name."""
    fen: str
    """The position, the solver to move."""
    moves: tuple[str, ...]
    """The line: the solver's move, the defender's reply, ... ending on the solver's move."""
    themes: tuple[str, ...]
    rating: int
    """The puzzle's starting rating (Glicko scale)."""
    depth: int
    """The search depth (plies) at which the first move is the only winning one."""
    score: int
    """The first move's value at that depth, for the solver, in hundredths of a man."""
    second: int
    """The best other first move's value at that depth (every other move is below it)."""
    gain: int
    """Material won by the end of the line, in hundredths (kings as :func:`king_worth`)."""
    source: str = ""
    """Where the position came from (self-play, a PDN file)."""

    @property
    def solver_moves(self) -> tuple[str, ...]:
        """The moves the solver plays (every other move of the line, from the first)."""
        return self.moves[::2]

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["moves"], data["themes"] = list(self.moves), list(self.themes)
        return data

    def to_json(self) -> str:
        """One compact line of JSON."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Puzzle:
        get_variant(data["variant"])  # an unknown variant fails here
        return cls(
            id=str(data["id"]),
            variant=str(data["variant"]),
            fen=str(data["fen"]),
            moves=tuple(str(m) for m in data["moves"]),
            themes=tuple(str(t) for t in data["themes"]),
            rating=int(data["rating"]),
            depth=int(data["depth"]),
            score=int(data["score"]),
            second=int(data["second"]),
            gain=int(data["gain"]),
            source=str(data.get("source", "")),
        )

    @classmethod
    def from_json(cls, line: str) -> Puzzle:
        return cls.from_dict(json.loads(line))
