"""Multi-PV: the engine's best few lines, as ``Engine.search(multipv=N)``, ``damier analyse
--multipv`` and the Hub parameter ``multipv`` give them."""

from __future__ import annotations

import random
import re

import pytest

from damier import Board
from damier.cli import main
from damier.engine import Engine, Info
from damier.protocols.hub import HubEngine

SAMPLED = ["international", "russian", "english", "turkish", "frisian", "tripad", "hex3"]


def sample_positions(variant: str, count: int, seed: int) -> list[Board]:
    """Positions a few random moves into the game, with at least two moves to choose from."""
    rng = random.Random(seed)
    found: list[Board] = []
    while len(found) < count:
        board = Board(variant)
        for _ in range(rng.randint(2, 16)):
            if not board.legal_moves:
                break
            board.push(rng.choice(board.legal_moves))
        if len(board.legal_moves) >= 2:
            found.append(board)
    return found


def assert_lines_sound(board: Board, info: Info, wanted: int) -> None:
    """Lines legal from the position, distinct, as many as asked (or as there are moves),
    ordered by score, all at the search's depth."""
    lines = info.lines
    assert len(lines) == min(wanted, len(board.legal_moves))
    assert lines[0].pv == info.pv and lines[0].score == info.score
    assert len({line.pv[0] for line in lines}) == len(lines)
    scores = [line.score for line in lines]
    assert scores == sorted(scores, reverse=True)
    for line in lines:
        assert line.depth == info.depth and not line.lines
        replay = board.copy()
        for move in line.pv:
            assert move in replay.legal_moves
            replay.push(move)


@pytest.mark.parametrize("variant", SAMPLED)
def test_lines_are_legal_distinct_ordered_and_the_first_is_the_single_line(variant: str) -> None:
    depth = 4 if variant in ("tripad", "hex3") else 6
    for board in sample_positions(variant, 4, seed=17):
        single = Engine(variant, table_megabytes=4).search(board, depth=depth)
        multi = Engine(variant, table_megabytes=4).search(board, depth=depth, multipv=3)
        assert_lines_sound(board, multi, 3)
        assert multi.depth == single.depth
        assert (multi.score, multi.pv) == (single.score, single.pv)


def test_every_iteration_has_its_lines() -> None:
    board = sample_positions("international", 1, seed=3)[0]
    infos = list(Engine("international", table_megabytes=4).analyse(board, depth=5, multipv=4))
    assert [info.depth for info in infos] == [1, 2, 3, 4, 5]
    for info in infos:
        assert_lines_sound(board, info, 4)


def test_more_lines_than_moves_gives_every_move() -> None:
    board = Board("russian")
    info = Engine("russian", table_megabytes=4).search(board, depth=3, multipv=50)
    assert {line.pv[0] for line in info.lines} == set(board.legal_moves)
    assert_lines_sound(board, info, 50)


def test_a_side_line_score_is_the_move_s_own_value() -> None:
    """A line's score is that move's value: searching the position after the move (one ply
    less, from the other side) gives it back. The two searches prune different trees, so
    they agree only where pruning cuts nothing that matters: here, with the hand-set
    evaluation the position was chosen with."""
    board = Board("english", "B:W21,22,23,24,25:B9,10,11,12")
    info = Engine("english", table_megabytes=4, learned=False).search(board, depth=4, multipv=3)
    for line in info.lines:
        after = board.copy()
        after.push(line.pv[0])
        reply = Engine("english", table_megabytes=4, learned=False).search(after, depth=3)
        assert line.score == -reply.score


def test_a_forced_move_is_the_only_line() -> None:
    board = Board("international", "W:W28:B22,1")  # 28x17 is the only move
    assert len(board.legal_moves) == 1
    info = Engine("international", table_megabytes=4).search(board, depth=4, multipv=3)
    assert_lines_sound(board, info, 3)
    assert info.lines[0].pv[0] == board.legal_moves[0]


def test_one_line_fills_no_lines_and_zero_lines_is_refused() -> None:
    engine = Engine("international", table_megabytes=4)
    assert engine.search(Board("international"), depth=2).lines == ()
    with pytest.raises(ValueError, match="multipv"):
        engine.search(Board("international"), depth=2, multipv=0)


def test_cli_multipv(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", "--variant", "russian", "--depth", "3", "--multipv", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    tags = [re.match(r"depth (\d) multipv (\d) score ", line) for line in lines]
    assert [(m.group(1), m.group(2)) for m in tags if m] == [
        (str(d), str(k)) for d in (1, 2, 3) for k in (1, 2, 3)
    ]
    firsts = {line.split(" pv ")[1].split()[0] for line in lines[-3:]}
    assert len(firsts) == 3
    assert main(["analyse", "--variant", "russian", "--depth", "2", "--multipv", "0"]) == 2


def test_hub_multipv_parameter() -> None:
    replies: list[str] = []
    hub = HubEngine(replies.append, "international")
    hub.handle("hub")
    assert "param name=multipv value=1 type=int min=1 max=10" in replies
    for line in ("init", "set-param name=multipv value=3", "level depth=3", "go think"):
        hub.handle(line)
    hub.wait()
    infos = [line for line in replies if line.startswith("info ")]
    assert [re.match(r"info multipv=(\d) depth=(\d) ", i).groups() for i in infos] == [  # type: ignore[union-attr]
        (str(k), str(d)) for d in (1, 2, 3) for k in (1, 2, 3)
    ]
    assert len({re.search(r'pv="(\S+)', i).group(1) for i in infos[-3:]}) == 3  # type: ignore[union-attr]
    assert replies[-1].startswith("done move=")
    replies.clear()
    hub.handle("set-param name=multipv value=11")
    assert replies == ['error message="multipv must be 1-10"']


def test_a_search_stopped_after_a_better_move_keeps_the_last_lines() -> None:
    """A node budget stops the search at every point of an iteration, including after a
    new best move and before the other lines: each report still has all its lines."""
    board = sample_positions("russian", 1, seed=5)[0]
    for nodes in range(200, 6000, 97):
        infos = list(Engine("russian", table_megabytes=4).analyse(board, nodes=nodes, multipv=3))
        assert infos, nodes
        for info in infos:
            assert len(info.lines) == min(3, len(board.legal_moves)), (nodes, info.depth)


@pytest.mark.parametrize("variant", ["international", "russian"])
def test_a_side_line_better_than_the_main_one_keeps_its_moves(variant: str) -> None:
    """A side line searched again (its own table) may come out above the main line's score:
    it is searched once more in full, so that it shows its moves, not its first alone (the
    analysis board showed such lines as one move beside lines of fifteen)."""
    for board in [Board(variant), *sample_positions(variant, 3, seed=17)]:
        info = Engine(variant, table_megabytes=4).search(board, depth=8, multipv=3)
        assert_lines_sound(board, info, 3)
        for line in info.lines:
            after = board.copy()
            after.push(line.pv[0])
            if after.legal_moves:
                assert len(line.pv) > 1, (board.fen, [m.notation for m in line.pv], line.score)
