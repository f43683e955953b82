"""Themes named from a puzzle's line, and a first rating from how hard the line looks.

Themes:

- ``sacrifice``: the solver gives up a piece on the way (``sacrifices``: two or more);
- ``quiet-move``: the first move takes nothing;
- ``short`` (one or two moves of the solver), ``medium`` (three or four), ``long`` (more);
- ``multi-capture``: one of the solver's captures takes three pieces or more;
- ``crowning``: a man of the solver is crowned in the line;
- ``king-caught``: the solver takes a king;
- ``ending``: ten pieces or fewer on the board;
- ``game-over``: the defender is left without a move (or a piece).
"""

from __future__ import annotations

from dataclasses import dataclass

from damier.board import Board

THEMES = (
    "sacrifice",
    "sacrifices",
    "quiet-move",
    "short",
    "medium",
    "long",
    "multi-capture",
    "crowning",
    "king-caught",
    "ending",
    "game-over",
)
"""Every theme, in the order a puzzle lists them."""

ENDING_PIECES = 10
"""At most this many pieces on the board: an ending."""


@dataclass(frozen=True)
class LineFacts:
    """What happens in a line, counted while it is replayed."""

    solver_moves: int
    sacrificed: int
    """Pieces the defender takes from the solver."""
    quiet_start: bool
    largest_capture: int
    crowns: bool
    kings_caught: int
    pieces: int
    """Pieces on the board at the start."""
    game_over: bool


def line_facts(board: Board, moves: tuple[str, ...] | list[str]) -> LineFacts:
    """Replay ``moves`` from a copy of ``board`` and count what happens."""
    line = board.copy()
    solver = line.turn
    pieces = int((line.cells > 0).sum())
    sacrificed = largest = kings = 0
    crowns = False
    quiet_start = True
    for ply, text in enumerate(moves):
        move = line.parse_move(text)
        if line.turn == solver:
            if ply == 0:
                quiet_start = not move.is_capture
            largest = max(largest, len(move.captured))
            crowns = crowns or move.crowns
            kings += sum(1 for square in move.captured if (line.piece_at(square) or (0, 0))[1])
        else:
            sacrificed += len(move.captured)
        line.push(move)
    return LineFacts(
        solver_moves=(len(moves) + 1) // 2,
        sacrificed=sacrificed,
        quiet_start=quiet_start,
        largest_capture=largest,
        crowns=crowns,
        kings_caught=kings,
        pieces=pieces,
        game_over=not line.legal_moves,
    )


def themes_of(facts: LineFacts) -> tuple[str, ...]:
    """The themes of a line (in :data:`THEMES` order)."""
    found = set()
    if facts.sacrificed:
        found.add("sacrifice" if facts.sacrificed == 1 else "sacrifices")
    if facts.quiet_start:
        found.add("quiet-move")
    n = facts.solver_moves
    found.add("short" if n <= 2 else "medium" if n <= 4 else "long")
    if facts.largest_capture >= 3:
        found.add("multi-capture")
    if facts.crowns:
        found.add("crowning")
    if facts.kings_caught:
        found.add("king-caught")
    if facts.pieces <= ENDING_PIECES:
        found.add("ending")
    if facts.game_over:
        found.add("game-over")
    return tuple(theme for theme in THEMES if theme in found)


def initial_rating(facts: LineFacts, found_at: int) -> int:
    """A first rating: 1000, more for every move of the solver after the first, every piece
    given up, a quiet first move, and the depth the engine needed to find the first move
    (``found_at`` plies); between 600 and 2400. Solving and failing move it from there.

    >>> facts = LineFacts(3, 2, True, 3, False, 0, 30, False)
    >>> initial_rating(facts, 6)
    1740
    """
    rating = 1000 + 130 * (facts.solver_moves - 1) + 90 * facts.sacrificed
    rating += 100 * facts.quiet_start + 50 * max(0, found_at - 2)
    return max(600, min(2400, rating))
