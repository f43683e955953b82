"""The finder on shots composed for these tests (each checked with the engine): it finds
them with their whole line, and refuses near-misses where a second move wins too."""

from __future__ import annotations

import pytest

from damier import Board
from damier.engine import Engine
from damier.engine.evaluation import NETWORK
from damier.engine.patterns import REGIONS
from damier.puzzles import Finder, Puzzle, verify
from damier.puzzles.build import later_starts, prune
from damier.puzzles.puzzle import balance
from damier.puzzles.themes import line_facts, themes_of

# (variant, position, the line the finder must give, themes it must name)
SHOTS = [
    # A man given on 12 draws the black man from 17 to 28; 12 then goes through to crown.
    (
        "international",
        "W:W18,22,39,45:B8,11,17,35",
        ("18-12", "17x28", "12x3"),
        {"sacrifice", "quiet-move", "crowning", "ending"},
    ),
    # Two men given (the black capture 28x26 takes two), three taken back in two captures.
    (
        "international",
        "W:W23,25,29,31,32,44:B6,8,11,21,22,28",
        ("23-18", "28x26", "18x7", "8-12", "7x18"),
        {"sacrifices", "quiet-move", "medium", "multi-capture"},
    ),
    # Russian: 16-11 opens the way for a backward capture of two by the man on 12.
    (
        "russian",
        "W:W12,16,31,32:B7,14,15,25",
        ("16-11", "7x16", "12x17"),
        {"sacrifice", "quiet-move", "multi-capture", "ending"},
    ),
    # Russian: 15-10 draws 14 away; the man on 10 crowns and goes on as a king (x26).
    (
        "russian",
        "W:W15,18,21,24,29,30:B1,5,7-9,14",
        ("15-10", "14x23", "10x26"),
        {"sacrifice", "quiet-move", "multi-capture", "crowning"},
    ),
]

# Positions where a second move wins too: at the first move, or later in the line.
NEAR_MISSES = [
    ("international", "W:W9,28,29,47:B10,11,15,19", "two winning first moves"),
    ("russian", "W:W10,23,25,26:B3,5,7,11", "two winning moves after"),
]


@pytest.fixture(scope="module")
def finders() -> dict[str, Finder]:
    return {}


def finder_of(finders: dict[str, Finder], variant: str) -> Finder:
    if variant not in finders:
        finders[variant] = Finder(variant)
    return finders[variant]


@pytest.mark.parametrize(("variant", "fen", "line", "themes"), SHOTS)
def test_the_finder_finds_a_composed_shot_with_its_line_and_themes(
    finders: dict[str, Finder], variant: str, fen: str, line: tuple[str, ...], themes: set[str]
) -> None:
    finder = finder_of(finders, variant)
    board = Board(variant, fen)
    assert finder.is_candidate(board)
    verdict = finder.examine(board, "test")
    puzzle = verdict.puzzle
    assert puzzle is not None, verdict.reason
    assert puzzle.moves == line
    assert themes <= set(puzzle.themes)
    assert puzzle.score >= finder.criteria.margin > finder.criteria.bound > puzzle.second
    end = board.copy()
    for move in line:
        end.push(move)
    assert balance(end, board.turn) - balance(board, board.turn) == puzzle.gain >= 190
    assert verify(puzzle, finder, every_move=True) == []


@pytest.mark.parametrize(("variant", "fen", "reason"), NEAR_MISSES)
def test_a_near_miss_with_two_winning_moves_is_refused(
    finders: dict[str, Finder], variant: str, fen: str, reason: str
) -> None:
    finder = finder_of(finders, variant)
    verdict = finder.examine(Board(variant, fen))
    assert verdict.puzzle is None
    assert verdict.reason.startswith(reason), verdict.reason


def test_the_quick_test_turns_away_two_winning_first_moves(finders: dict[str, Finder]) -> None:
    """The near miss whose two first moves both win already at the quick test's depth is
    not examined (the deep search would refuse it too)."""
    finder = finder_of(finders, "international")
    board = Board("international", NEAR_MISSES[0][1])
    scan = finder.scanner.search(board, depth=finder.criteria.scan_depth, multipv=2)
    assert scan.lines[1].score >= finder.criteria.bound <= scan.score
    assert not finder.is_candidate(board)
    assert finder.examine(board).reason.startswith("two winning first moves")


def test_a_position_without_a_winning_move_is_no_puzzle(finders: dict[str, Finder]) -> None:
    finder = finder_of(finders, "international")
    board = Board("international")
    assert not finder.is_candidate(board)
    assert finder.examine(board).puzzle is None


def test_verify_catches_a_wrong_line_and_a_wrong_margin(finders: dict[str, Finder]) -> None:
    finder = finder_of(finders, "russian")
    variant, fen, line, _ = SHOTS[2]
    good = Puzzle("t", variant, fen, line, (), 1000, 10, 374, -20, 200)
    assert verify(good, finder) == []
    other_first = next(m.notation for m in Board(variant, fen).legal_moves if m.notation != line[0])
    wrong = Puzzle("t", variant, fen, (other_first,), (), 1000, 10, 374, -20, 200)
    problems = verify(wrong, finder)
    assert any("prefers 16-11" in p for p in problems), problems
    overstated = Puzzle("t", variant, fen, line, (), 1000, 10, 374, -20, 300)
    assert any("not the stated 300" in p for p in verify(overstated, finder))
    illegal = Puzzle("t", variant, fen, ("16-11", "7x16", "31-27"), (), 1000, 10, 374, -20, 200)
    assert any("illegal" in p for p in verify(illegal, finder))


def test_themes_and_tails() -> None:
    variant, fen, line, _ = SHOTS[1]
    board = Board(variant, fen)
    facts = line_facts(board, line)
    assert (facts.solver_moves, facts.sacrificed, facts.quiet_start) == (3, 2, True)
    assert facts.largest_capture == 3
    assert "medium" in themes_of(facts)
    long = Puzzle("a", variant, fen, line, (), 1500, 10, 306, -35, 200)
    tail = board.copy()
    for move in line[:2]:
        tail.push(move)
    assert tail.fen in later_starts(long)
    short = Puzzle("b", variant, tail.fen, line[2:], (), 1200, 10, 300, 0, 200)
    assert prune([long, short]) == [long]


def test_the_referee_judges_with_the_patterns_not_the_network() -> None:
    """A shipped puzzle's verdict does not move with the playing engine's evaluation: the
    finder's engines read International's patterns but not its network, which a playing
    engine reads."""
    finder = Finder("international")
    for engine in (finder.engine, finder.scanner):
        assert engine._extra[NETWORK] == 0 and engine._extra[REGIONS] > 0
    assert Engine("international", table_megabytes=1)._extra[NETWORK] > 0
