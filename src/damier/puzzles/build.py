"""``damier puzzles build``: puzzles from engine self-play games, a PDN file, or games
recorded elsewhere (the server's finished games).

Self-play games pair two random levels from :data:`LEVELS` or the build's own (weak levels
blunder into the shots a puzzle needs; the cheaper levels pay where the search is slow);
every position of a game where the side to move passes :meth:`Finder.is_candidate` is
examined in full. New puzzles are appended to the output file as they are found (a JSON line
each), so a run stopped by its time limit, or killed, keeps what it found; positions already
in the file are skipped.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from damier.board import Board
from damier.engine import Engine
from damier.notation.pdn import decode_pdn, read_pdn
from damier.puzzles.finding import Criteria, Finder
from damier.puzzles.puzzle import Puzzle
from damier.puzzles.shipped import read_puzzles
from damier.rules import get_variant

LEVELS = (2, 3, 4, 5, 6)
"""The self-play levels (a game pairs two of them at random)."""
MAX_PLIES = 160
"""A self-play game is cut off after this many plies."""
OPENING_PLIES = 4
"""Random moves at the start of a self-play game, so that no two games are alike."""


@dataclass
class BuildReport:
    """What a build did."""

    games: int = 0
    positions: int = 0
    candidates: int = 0
    found: list[Puzzle] = field(default_factory=list)
    seconds: float = 0.0


def self_play_positions(
    variant: str,
    rng: random.Random,
    games: int | None,
    deadline: float,
    levels: tuple[int, ...] = LEVELS,
) -> Iterator[tuple[int, Board]]:
    """(game number, position) of self-play games between ``levels``, until ``games`` or
    the deadline."""
    rules = get_variant(variant)
    players: dict[int, Engine] = {}
    number = 0
    while (games is None or number < games) and time.monotonic() < deadline:
        number += 1
        engines = []
        for level in (rng.choice(levels), rng.choice(levels)):
            if level not in players:
                players[level] = Engine(
                    rules, level=level, table_megabytes=4, seed=rng.getrandbits(32)
                )
            engines.append(players[level])
        for engine in engines:
            engine.new_game()
        board = Board(rules)
        for ply in range(MAX_PLIES):
            legal = board.legal_moves
            if not legal or time.monotonic() >= deadline:
                break
            if ply >= OPENING_PLIES:
                yield number, board.copy()
            if ply < OPENING_PLIES:
                move = rng.choice(list(legal))
            else:
                found = engines[board.turn].search(board).best_move
                assert found is not None
                move = found
            board.push(move)


def pdn_positions(variant: str, text: str) -> Iterator[tuple[int, Board]]:
    """(game number, position) of every game of a PDN text in ``variant``."""
    rules = get_variant(variant)
    for number, record in enumerate(read_pdn(text), start=1):
        try:
            if record.variant(rules) != rules:
                continue
            board = Board(rules, record.tags.get("FEN"))
            for node in record.moves:
                if board.legal_moves:
                    yield number, board.copy()
                board.push(node.text)
        except ValueError:
            continue  # a broken game: the positions before the error were used


def later_starts(puzzle: Puzzle) -> set[str]:
    """The positions of a puzzle's line where the solver is to move again: each would be
    the same puzzle, shorter."""
    board = Board(puzzle.variant, puzzle.fen)
    found = set()
    for ply, move in enumerate(puzzle.moves[:-1]):
        board.push(move)
        if ply % 2 == 1:
            found.add(board.fen)
    return found


def prune(puzzles: list[Puzzle]) -> list[Puzzle]:
    """``puzzles`` without those that are the tail of another's line."""
    tails = set().union(*(later_starts(p) for p in puzzles)) if puzzles else set()
    return [p for p in puzzles if p.fen not in tails]


def recorded_positions(
    variant: str, recorded: Iterable[tuple[str | None, list[str]]]
) -> Iterator[tuple[int, Board]]:
    """(game number, position) of recorded games: (start FEN or None, notations) each."""
    rules = get_variant(variant)
    for number, (fen, notations) in enumerate(recorded, start=1):
        try:
            board = Board(rules, fen)
            for notation in notations:
                if board.legal_moves:
                    yield number, board.copy()
                board.push(notation)
        except ValueError:
            continue


def build(
    variant: str,
    output: Path,
    *,
    games: int | None = None,
    minutes: float | None = None,
    pdn: str | None = None,
    recorded: Iterable[tuple[str | None, list[str]]] | None = None,
    seed: int | None = None,
    levels: tuple[int, ...] = LEVELS,
    criteria: Criteria | None = None,
    report: Callable[[str], None] | None = None,
) -> BuildReport:
    """Find puzzles and append them to ``output`` (see the module's description)."""
    rules = get_variant(variant)
    began = time.monotonic()
    deadline = began + minutes * 60 if minutes is not None else float("inf")
    known: set[str] = set()
    if output.exists():
        for old in read_puzzles(output):
            known.add(old.fen)
            known.update(later_starts(old))
    finder = Finder(rules.name, criteria)
    result = BuildReport()
    positions: Iterator[tuple[int, Board]]
    if recorded is not None:
        source, positions = "games", recorded_positions(rules.name, recorded)
    elif pdn is not None:
        source = f"pdn:{Path(pdn).name}"
        positions = pdn_positions(rules.name, decode_pdn(Path(pdn).read_bytes()))
    else:
        source = "self-play"
        positions = self_play_positions(rules.name, random.Random(seed), games, deadline, levels)
    output.parent.mkdir(parents=True, exist_ok=True)
    with output.open("a", encoding="utf-8") as out:
        for number, board in positions:
            if time.monotonic() >= deadline:
                break
            result.games = number
            result.positions += 1
            if board.fen in known or not finder.is_candidate(board):
                continue
            result.candidates += 1
            verdict = finder.examine(board, source)
            known.add(board.fen)
            if verdict.puzzle is None:
                continue
            puzzle = verdict.puzzle
            known.update(later_starts(puzzle))
            result.found.append(puzzle)
            out.write(puzzle.to_json() + "\n")
            out.flush()
            if report is not None:
                elapsed = time.monotonic() - began
                report(
                    f"{len(result.found)} puzzles ({result.candidates} candidates, "
                    f"{result.positions} positions, {result.games} games, {elapsed:.0f} s): "
                    f"{puzzle.id} {' '.join(puzzle.moves)} [{', '.join(puzzle.themes)}]"
                )
    everything = read_puzzles(output)
    kept = prune(everything)
    if len(kept) < len(everything):
        partial = output.with_suffix(".part")
        partial.write_text("".join(p.to_json() + "\n" for p in kept), encoding="utf-8")
        partial.replace(output)
        ids = {p.id for p in kept}
        result.found = [p for p in result.found if p.id in ids]
    result.seconds = time.monotonic() - began
    return result
