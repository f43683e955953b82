"""Finding puzzles: positions where exactly one move wins, and the forced line after it.

A position is a puzzle when, searched to :attr:`Criteria.depth` plies with two lines, its
best move scores at least :attr:`Criteria.margin` for the side to move (the solver) while
the best other move scores below :attr:`Criteria.bound`. The line is then played out: the
defender answers with his only move or the engine's best, the solver's every move must be
the only one that keeps the win (the same test), until the solver has won
:attr:`Criteria.margin` of material with no capture left to the defender, or the defender
has no move. A second winning move anywhere in the solver's line rejects the position, as
does a line that does not end in :attr:`Criteria.max_moves` moves of the solver (or ends
in fewer than :attr:`Criteria.min_moves`), or an end position the engine does not find won
by the margin.
"""

from __future__ import annotations

from dataclasses import dataclass

from damier.board import Board, Move
from damier.engine import Engine
from damier.puzzles.puzzle import Puzzle, balance, puzzle_id
from damier.puzzles.themes import initial_rating, line_facts, themes_of
from damier.rules import get_variant


@dataclass(frozen=True)
class Criteria:
    """The thresholds of a puzzle (scores for the solver, in hundredths of a man)."""

    depth: int = 10
    """Plies of the search that decides (two lines)."""
    scan_depth: int = 6
    """Plies of the quick search that picks the candidates."""
    margin: int = 190
    """The winning move's score, and the material won by the line's end, at least."""
    bound: int = 60
    """Every other move of the solver scores below this."""
    max_moves: int = 10
    """The solver's moves in a line, at most."""
    min_moves: int = 2
    """The solver's moves in a line, at least (one would be a mere choice of captures)."""


@dataclass(frozen=True)
class Verdict:
    """What :meth:`Finder.examine` decided: the puzzle, or why there is none."""

    puzzle: Puzzle | None
    reason: str = ""


@dataclass(frozen=True)
class Lines:
    """The two best moves of a position, as a search at one depth sees them."""

    best: Move
    score: int
    second: int | None
    """The best other move's score; None when the move is the only legal one."""


class Finder:
    """Examines positions of one variant with a full-strength engine that probes no
    endgame database: the verdict on a position is then the same on every machine, whatever
    databases it has built (a shipped puzzle is verified again in CI, which has none). Its
    evaluation is the one the shipped puzzles were judged with, the learned patterns
    without the network (:mod:`damier.engine.network`), so that a verdict does not move
    when the playing engine's evaluation does."""

    def __init__(
        self, variant: str, criteria: Criteria | None = None, engine: Engine | None = None
    ) -> None:
        self.variant = get_variant(variant)
        self.criteria = criteria or Criteria()
        # 4 MB: the 262,144 table entries the shipped puzzles were judged with (a search's
        # tree, and so a verdict, depends on the number of entries).
        self.engine = engine or Engine(
            self.variant, level=10, table_megabytes=4, databases=False, network=False
        )
        self.scanner = Engine(
            self.variant, level=10, table_megabytes=1, databases=False, network=False
        )
        """The quick test's engine: its small table is cleared before each of the many
        shallow searches in a fraction of the time the judge's takes."""

    def lines(self, board: Board, depth: int) -> Lines:
        """The best two moves at ``depth``, from a cleared table (so the same answer every
        time)."""
        legal = board.legal_moves
        if len(legal) == 1:
            only = legal[0]
            self.engine.new_game()
            after = board.copy()
            after.push(only)
            score = (
                -self.engine.search(after, depth=max(1, depth - 1)).score
                if after.legal_moves
                else self._no_move_score()
            )
            return Lines(only, score, None)
        self.engine.new_game()
        info = self.engine.search(board, depth=depth, multipv=2)
        assert info.best_move is not None
        second = info.lines[1].score if len(info.lines) > 1 else None
        return Lines(info.best_move, info.score, second)

    def _no_move_score(self) -> int:
        return 10_000 if not self.variant.giveaway else -10_000

    def is_candidate(self, board: Board) -> bool:
        """The quick test: the solver is not already well ahead, has a choice, and a
        shallow search finds a winning move and no second one that reaches the bound.

        The second line costs a search of the other moves, so it is asked only of the
        positions that pass the first test; it turns most of them away (most shots leave a
        second way to win) before the deep search does. On 114 Turkish candidates of
        self-play games, it turned away 83, all of which the deep search rejected too."""
        c = self.criteria
        if len(board.legal_moves) < 2 or balance(board, board.turn) >= c.bound:
            return False
        self.scanner.new_game()
        if self.scanner.search(board, depth=c.scan_depth).score < c.margin:
            return False
        lines = self.scanner.search(board, depth=c.scan_depth, multipv=2).lines
        return len(lines) < 2 or lines[1].score < c.bound

    def examine(self, board: Board, source: str = "") -> Verdict:
        """The puzzle at ``board`` (the side to move solves), or the reason there is none."""
        c = self.criteria
        board = Board(self.variant, board.fen)  # the puzzle starts from its FEN, no history
        solver = board.turn
        if len(board.legal_moves) < 2:
            return Verdict(None, "a single legal move")
        first = self.lines(board, c.depth)
        if first.score < c.margin:
            return Verdict(None, f"no winning move (best {first.score})")
        if first.second is not None and first.second >= c.bound:
            return Verdict(None, f"two winning first moves ({first.score}, {first.second})")
        start = balance(board, solver)
        line = board.copy()
        moves = [line.push(first.best).notation]
        solver_moves = 1
        while True:
            # The defender to move.
            gained = balance(line, solver) - start
            defender_moves = line.legal_moves
            if not defender_moves:
                break
            if gained >= c.margin and not defender_moves[0].is_capture:
                break
            if solver_moves >= c.max_moves:
                return Verdict(None, "the line does not end")
            if len(defender_moves) == 1:
                reply = defender_moves[0]
            else:
                self.engine.new_game()
                found = self.engine.search(line, depth=c.depth).best_move
                assert found is not None
                reply = found
            moves.append(line.push(reply).notation)
            # The solver to move.
            if not line.legal_moves:
                return Verdict(None, "the solver is left without a move")
            step = self.lines(line, c.depth)
            if step.score < c.margin:
                return Verdict(None, f"the win fades after {' '.join(moves)}")
            if step.second is not None and step.second >= c.bound:
                return Verdict(None, f"two winning moves after {' '.join(moves)}")
            moves.append(line.push(step.best).notation)
            solver_moves += 1
        if solver_moves < c.min_moves:
            return Verdict(None, "too short a line")
        gain = balance(line, solver) - start
        if line.legal_moves:
            if gain < c.margin:
                return Verdict(None, "the line wins too little")
            self.engine.new_game()
            final = -self.engine.search(line, depth=c.depth).score
            if final < c.margin:
                return Verdict(None, f"the end of the line is not won ({final})")
        facts = line_facts(board, moves)
        found_at = self._found_at(board, first.best)
        puzzle = Puzzle(
            id=puzzle_id(self.variant.name, board.fen),
            variant=self.variant.name,
            fen=board.fen,
            moves=tuple(moves),
            themes=themes_of(facts),
            rating=initial_rating(facts, found_at),
            depth=c.depth,
            score=first.score,
            second=first.second if first.second is not None else -10_000,
            gain=gain,
            source=source,
        )
        return Verdict(puzzle)

    def _found_at(self, board: Board, move: Move) -> int:
        """The shallowest even depth at which the engine already plays ``move`` (a measure
        of how deep the shot lies)."""
        for depth in range(2, self.criteria.depth, 2):
            self.engine.new_game()
            if self.engine.search(board, depth=depth).best_move == move:
                return depth
        return self.criteria.depth
