"""Helpers for the game-layer tests (not a test module).

``plan`` finds a line of quiet king moves (no capture anywhere, no position a third time,
no end of game) so that a draw counter can run to its limit without any other rule or a
win getting in the way. It only *chooses* moves; the expected plies in the tests are
derived by hand from the rules, never from what the game reports.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

from damier import Board
from damier.game import Game, Result

Check = Callable[[Board], bool]


def _is_king_move(board: Board, move_from: object) -> bool:
    piece = board.piece_at(move_from)  # type: ignore[arg-type]
    return piece is not None and piece[1]


def plan(
    board: Board,
    plies: int,
    *,
    seen: Counter[str] | None = None,
    keep: Check | None = None,
    final: Check | None = None,
    men: bool = False,
    budget: int = 200_000,
) -> list[str]:
    """``plies`` legal moves from ``board`` (left unchanged): none captures, every mover
    is a king (unless ``men``), no move crowns, every position reached satisfies ``keep``
    and occurs at most twice counting ``seen`` (FEN counts of the game so far); the last
    position satisfies ``final`` (if given). Depth-first search with backtracking."""
    work = board.copy()
    counts: Counter[str] = Counter(seen or {work.fen: 1})
    line: list[str] = []
    nodes = 0

    def search(depth: int) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            raise AssertionError("plan: search budget exhausted")
        if depth == plies:
            return final is None or final(work)
        options = []
        for index, move in enumerate(work.legal_moves):
            if move.is_capture or move.crowns:
                continue
            if not men and not _is_king_move(work, move.from_square):
                continue
            options.append((index, move))
        scored = []
        for index, move in options:
            work.push(move)
            fen = work.fen
            ok = counts[fen] < 2 and not work.is_game_over() and (keep is None or keep(work))
            scored.append((counts[fen], index, move, ok))
            work.pop()
        scored.sort(key=lambda item: (item[0], item[1]))
        for _, _, move, ok in scored:
            if not ok:
                continue
            work.push(move)
            fen = work.fen
            counts[fen] += 1
            line.append(move.notation)
            if search(depth + 1):
                return True
            line.pop()
            counts[fen] -= 1
            work.pop()
        return False

    if has_capture(work):
        raise AssertionError(f"plan: a capture is due in {work.fen}")
    if not search(0):
        raise AssertionError(f"plan: no line of {plies} plies from {board.fen}")
    return line


def fen_counts(game: Game) -> Counter[str]:
    """How often each position of ``game`` occurred (replayed from its start)."""
    board = Board(game.variant, game.start_fen)
    counts = Counter([board.fen])
    for move in game.moves:
        board.push(move)
        counts[board.fen] += 1
    return counts


def play_quiet(game: Game, moves: Iterable[str]) -> None:
    """Push each move, checking it is legal and that the game goes on after it."""
    for text in moves:
        assert text in {m.notation for m in game.board.legal_moves}, (text, game.board.fen)
        game.push(text)
        assert game.result is None, (game.ply, game.result)


def run_to(
    game: Game,
    plies: int,
    result: Result | None,
    **options: object,
) -> None:
    """Play quiet king moves until ``game.ply == plies``; the game must go on until the
    last of them and then end with ``result`` (None: still going on)."""
    count = plies - game.ply
    assert count >= 1
    line = plan(game.board, count, seen=fen_counts(game), **options)  # type: ignore[arg-type]
    play_quiet(game, line[:-1])
    assert game.ply == plies - 1 and game.result is None
    game.push(line[-1])
    assert game.ply == plies
    assert game.result == result, (game.ply, game.result, game.board.fen)


def has_capture(board: Board) -> bool:
    return any(m.is_capture for m in board.legal_moves)


def safe_captures(board: Board, pieces: int = 1) -> list[str]:
    """Captures of ``pieces`` pieces after which the opponent has nothing to capture."""
    found = []
    work = board.copy()
    for move in work.legal_moves:
        if len(move.captured) != pieces:
            continue
        work.push(move)
        if not has_capture(work):
            found.append(move.notation)
        work.pop()
    return found


def can_capture(pieces: int = 1) -> Check:
    """Final condition: the side to move has a safe capture of ``pieces`` pieces."""
    return lambda board: bool(safe_captures(board, pieces))


def then_quiet(move: str) -> Check:
    """Final condition: ``move`` is legal and leaves nothing to capture."""

    def check(board: Board) -> bool:
        if move not in {m.notation for m in board.legal_moves}:
            return False
        work = board.copy()
        work.push(move)
        return not has_capture(work) and not work.is_game_over()

    return check


def on_squares(board: Board, squares: Iterable[object], player: int, king: bool = True) -> int:
    """How many of ``player``'s kings (or men) stand on ``squares``."""
    return sum(1 for s in squares if board.piece_at(s) == (player, king))  # type: ignore[arg-type]
