"""``damier.review``: the engine's verdicts on a game's positions, what each move lost, and
the annotated PDN (``damier pdn annotate``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from damier.board import Board
from damier.cli import main
from damier.engine import Engine, Info
from damier.notation.pdn import dump_pdn, read_pdn
from damier.review import (
    BLUNDER,
    MATE_SCORE,
    annotate,
    move_judgements,
    review_positions,
    score_text,
)

BLUNDER_GAME = """[Event "club"]
[White "Ana"]
[Black "Bob"]
[GameType "20"]

1. 31-27 18-23 {Bob's idea} 2. 37-31 23-29 3. 34x23 19x26 *
"""
"""International: White's 37-31 leaves 23-29 34x23 19x26 and a man lost (33-28 or 34-29
hold); the last two moves are forced captures."""


def _search(depth: int = 6) -> tuple[list[Board], Callable[[Board], Info]]:
    engine = Engine("international", level=10)
    seen: list[Board] = []

    def search(board: Board) -> Info:
        seen.append(board)
        return engine.search(board, depth=depth)

    return seen, search


def test_the_blunder_is_found_and_the_forced_capture_costs_nothing() -> None:
    board = Board("international")
    boards, played = [board.copy()], []
    for text in ("31-27", "18-23", "37-31", "23-29", "34x23", "19x26"):
        played.append(board.push(text))
        boards.append(board.copy())
    searched, search = _search()
    results = review_positions(boards, search)
    assert len(results) == len(boards)
    # A position with one legal move is not searched: the first with a choice is.
    assert all(len(position.legal_moves) > 1 for position in searched)
    judged = move_judgements(boards, played, results)
    assert [j.judgement for j in judged][2] == "blunder" and judged[2].loss >= BLUNDER
    assert judged[5].forced and judged[5].loss == 0  # 19x26, the only capture
    assert results[-1].score <= -BLUNDER  # a man down for White at the end


def test_a_finished_position_is_won_for_the_side_that_moved_last() -> None:
    board = Board("russian", "W:W15,16,20:B7,8")
    boards = [board.copy()]
    for text in ("16-11", "7x16", "20x4"):
        board.push(text)
        boards.append(board.copy())
    engine = Engine("russian", level=10)
    results = review_positions(boards, lambda b: engine.search(b, depth=8))
    assert results[-1].score == MATE_SCORE and results[-1].mate == 0
    assert score_text(results[-1]) == "White wins"
    assert results[0].mate is not None and results[0].mate > 0  # the shot is a forced win
    assert score_text(results[0]).startswith("White wins in ")


def test_annotate_marks_the_blunder_with_the_better_line_and_keeps_the_comments() -> None:
    record = read_pdn(BLUNDER_GAME)[0]
    _, search = _search()
    game = annotate(record, search)
    blunder = game.moves[2]
    assert blunder.text == "37-31" and blunder.nags == ["??"]
    assert "blunder, best" in blunder.comments[0]
    (line,) = blunder.variations
    assert line and line[0].text != "37-31"
    assert game.moves[1].comments[0] == "Bob's idea"  # the player's comment stays first
    assert all(node.comments for node in game.moves)  # a value after every move
    # The annotated game reads back whole, its variation legal from the position before.
    again = read_pdn(dump_pdn(game))[0]
    assert not again.errors and again.replay().ply == 6
    board = Board("international")
    for text in ("31-27", "18-23"):
        board.push(text)
    for node in again.moves[2].variations[0]:
        board.push(node.text)


def test_the_command_writes_the_file_and_names_the_games_it_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "games.pdn"
    source.write_text(BLUNDER_GAME + '\n[Event "broken"]\n1. 32-28 99-98 *\n', encoding="utf-8")
    output = tmp_path / "annotated.pdn"
    status = main(["pdn", "annotate", str(source), "-o", str(output), "--depth", "6"])
    err = capsys.readouterr().err
    assert status == 1  # one game could not be read
    assert "game 1 (line 1): 6 moves" in err and "1 blunder," in err
    assert "game 2 (line 8): skipped:" in err and "'99'" in err
    (annotated,) = read_pdn(output.read_text(encoding="utf-8"))
    assert annotated.tags["Annotator"].startswith("Damier ")
    assert annotated.moves[2].nags == ["??"]


def test_an_output_that_cannot_be_written_is_said_before_any_search(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "games.pdn"
    source.write_text(BLUNDER_GAME, encoding="utf-8")
    status = main(["pdn", "annotate", str(source), "-o", str(tmp_path / "none" / "out.pdn")])
    err = capsys.readouterr().err
    assert status == 2 and "cannot write" in err and "game 1" not in err


def test_a_game_of_three_players_is_skipped_with_a_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "tripad.pdn"
    source.write_text('[Variant "tripad"]\n\n1. Wc3-Wd4 *\n', encoding="utf-8")
    assert main(["pdn", "annotate", str(source)]) == 1
    assert "a review is for two players' games" in capsys.readouterr().err
