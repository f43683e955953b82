"""Endgame databases: the generator against a brute-force solver, colour symmetry, the
command line, and the search finding wins it cannot see without them."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import pytest

from damier import Board
from damier.cli import main
from damier.egtb import Tablebase
from damier.egtb.index import DRAW, H_PIECES, LOSS, WIN
from damier.egtb.probe import (
    database_spec,
    file_problem,
    fingerprint,
    fits,
    pack,
    search_tables,
    unpack,
    verify,
)
from damier.engine import Engine
from damier.engine.bitsearch import TABLEBASE_WIN
from damier.errors import FenError
from damier.geometry import geometry_of
from damier.rules import get_variant

NAMES = {WIN: "win", DRAW: "draw", LOSS: "loss"}


# -- a brute-force solver on the board's own moves (the table kernel) --------------------


def positions(variant: str, pieces: int, kinds: str = "mkMK") -> Iterable[str]:
    """The FEN of every legal position of 2 to ``pieces`` pieces, each side with one, either
    side to move; ``kinds`` limits the pieces (m, k White's men and kings, M, K Black's)."""
    names = geometry_of(get_variant(variant)).names
    for count in range(2, pieces + 1):
        for squares in itertools.combinations(range(len(names)), count):
            for chosen in itertools.product(kinds, repeat=count):
                white = [
                    ("K" if k == "k" else "") + names[s]
                    for s, k in zip(squares, chosen, strict=True)
                    if k in "mk"
                ]
                black = [
                    ("K" if k == "K" else "") + names[s]
                    for s, k in zip(squares, chosen, strict=True)
                    if k in "MK"
                ]
                if not white or not black:
                    continue
                for turn in "WB":
                    yield f"{turn}:W{','.join(white)}:B{','.join(black)}"


Key = tuple[bytes, int]


def fen_of(variant: str, key: Key) -> str:
    """The FEN of a position key (cells, player to move)."""
    names = geometry_of(get_variant(variant)).names
    cells, turn = np.frombuffer(key[0], dtype=np.int8), key[1]
    sides = ([], [])
    for cell in np.flatnonzero(cells):
        code = int(cells[cell])
        sides[(code - 1) // 2].append(("K" if code % 2 == 0 else "") + names[cell])
    return f"{'WB'[turn]}:W{','.join(sides[0])}:B{','.join(sides[1])}"


def solve_by_brute_force(variant: str, fens: Iterable[str]) -> dict[Key, int]:
    """The value of every position reachable from ``fens`` for the side to move: a win if
    some move reaches a lost position, a loss if every move (none included) reaches a won
    one, repeated until nothing changes; what is left is a draw (play goes on forever). In
    the giveaway forms having no move wins."""
    board = Board(variant)
    no_move = WIN if board.variant.giveaway else LOSS
    children: dict[Key, list[Key]] = {}
    stack: list[Key] = []
    for fen in fens:
        try:
            board.set_fen(fen)
        except FenError:  # a man on its crowning row
            continue
        stack.append((board.cells.tobytes(), board.turn))
    while stack:
        key = stack.pop()
        if key in children:
            continue
        board.set_fen(fen_of(variant, key))
        following = []
        for move in board.legal_moves:
            board.push(move)
            following.append((board.cells.tobytes(), board.turn))
            board.pop()
        children[key] = following
        stack.extend(child for child in following if child not in children)
    value: dict[Key, int] = {}
    changed = True
    while changed:
        changed = False
        for key, following in children.items():
            if key in value:
                continue
            outcomes = [value.get(child) for child in following]
            if not following:
                value[key] = no_move
            elif LOSS in outcomes:
                value[key] = WIN
            elif all(outcome == WIN for outcome in outcomes):
                value[key] = LOSS
            else:
                continue
            changed = True
    return {key: value.get(key, DRAW) for key in children}


def both_sides_have_pieces(key: Key) -> bool:
    cells = np.frombuffer(key[0], dtype=np.int8)
    return bool(((cells == 1) | (cells == 2)).any() and (cells >= 3).any())


def rotated(key: Key) -> Key:
    """The position turned half a turn, colours swapped (the other side to move)."""
    cells = np.frombuffer(key[0], dtype=np.int8)[::-1]
    swapped = np.where(cells == 0, 0, np.where(cells <= 2, cells + 2, cells - 2))
    return swapped.astype(np.int8).tobytes(), 1 - key[1]


@pytest.fixture(scope="module")
def directory(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Databases of up to 3 pieces (Russian, English) and 2 (International, and rules of
    other kinds: giveaway, men that do not take kings on a mirrored board, crowning at the
    end with free choice), built by the command line."""
    path = tmp_path_factory.mktemp("egtb")
    builds = [("russian", 3), ("english", 3), ("international", 2)]
    builds += [(variant, 2) for variant in ("russian-giveaway", "italian", "pool")]
    for variant, pieces in builds:
        status = main(
            ["egtb", "build", "--variant", variant, "--pieces", str(pieces), "--dir", str(path)]
        )
        assert status == 0
    return path


def agree(variant: str, directory: Path, solved: dict[Key, int]) -> int:
    """Check the database against the brute force, and the brute force against itself
    turned round (colour symmetry); the number of positions checked."""
    base = Tablebase.load(variant, directory)
    assert base is not None
    checked = 0
    for key, value in solved.items():
        if both_sides_have_pieces(key):
            cells = np.frombuffer(key[0], dtype=np.int8)
            assert base.value_of(cells, key[1]) == NAMES[value], fen_of(variant, key)
            # The brute force sees each colour as it is; the database stores a position
            # once, turned so that the side to move plays White. That is sound because a
            # position and its colour-swapped half-turn have the same value.
            assert solved[rotated(key)] == value, fen_of(variant, key)
            checked += 1
    return checked


@pytest.mark.parametrize(
    "variant", ["russian", "english", "international", "russian-giveaway", "italian", "pool"]
)
def test_two_piece_positions_agree_with_brute_force(variant: str, directory: Path) -> None:
    solved = solve_by_brute_force(variant, positions(variant, 2))
    assert agree(variant, directory, solved) > 1_000
    assert {WIN, DRAW, LOSS} <= set(solved.values())


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["russian", "english"])
def test_every_three_piece_position_agrees_with_brute_force(variant: str, directory: Path) -> None:
    solved = solve_by_brute_force(variant, positions(variant, 3))
    assert agree(variant, directory, solved) > 300_000


def test_every_value_agrees_with_its_successors(directory: Path) -> None:
    base = Tablebase.load("russian", directory)
    assert base is not None and verify(base) == 0
    values = unpack(base.values, base.layout.total)
    won = int(np.flatnonzero(values == WIN)[0])
    values[won] = DRAW  # a won position said drawn
    broken = Tablebase(base.variant, base.pieces, pack(values), base.distances, base.layout.total)
    assert verify(broken) >= 1
    distances = base.distances.copy()
    far = int(np.flatnonzero(distances > 0)[0])
    distances[far] -= 1  # a win said nearer than it is
    broken = Tablebase(base.variant, base.pieces, base.values, distances, base.layout.total)
    assert verify(broken) >= 1


def test_probe_and_counts_on_the_command_line(
    directory: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def run(*args: str) -> tuple[int, str, str]:
        status = main(["egtb", *args, "--variant", "russian", "--dir", str(directory)])
        captured = capsys.readouterr()
        return status, captured.out, captured.err

    # White's king takes Black's at once; the lone king on the long diagonal against two
    # kings that cannot take it draws; the king to move against two is lost when trapped.
    assert run("probe", "--fen", "W:WK1:BK10")[1] == "win\n"
    assert run("probe", "--fen", "B:WK1,K5:BK14")[1] == "draw\n"
    status, out, _ = run("verify")
    assert status == 0 and "agrees" in out
    status, out, _ = run("counts")
    lines = out.splitlines()
    assert status == 0 and len(lines) == 16 and lines[0].startswith("1K v 1K")
    status, _, err = run("probe", "--fen", "W:W21,22:B5,6")
    assert status == 2 and "at most 3" in err
    missing = main(
        ["egtb", "probe", "--variant", "brazilian", "--fen", "W:W21:B5", "--dir", str(directory)]
    )
    assert missing == 2 and "damier egtb build" in capsys.readouterr().err
    assert (
        main(["egtb", "build", "--variant", "frisian", "--pieces", "2", "--dir", str(directory)])
        == 2
    )
    assert "not covered" in capsys.readouterr().err
    # A variant that has no databases is not told to build one.
    for variant, fen, why in (
        ("frisian", "W:W46:B5", "not covered"),
        ("turkish", "W:Wa2:Bh7", "lines"),
    ):
        command = ["egtb", "probe", "--variant", variant, "--fen", fen, "--dir", str(directory)]
        assert main(command) == 2
        err = capsys.readouterr().err
        assert why in err and "damier egtb build" not in err


def won_positions(variant: str, directory: Path, count: int, kinds: str) -> list[Board]:
    """A sample of won positions without a capture, White to move, whose pieces are of
    ``kinds`` (m, k White's men and kings, M, K Black's; one letter a piece)."""
    base = Tablebase.load(variant, directory)
    assert base is not None
    rng = random.Random(5)
    names = geometry_of(base.variant).names
    found: list[Board] = []
    while len(found) < count:
        squares = rng.sample(range(len(names)), len(kinds))
        pieces = list(zip(squares, kinds, strict=True))
        white = [("K" if k == "k" else "") + names[s] for s, k in pieces if k in "mk"]
        black = [("K" if k == "K" else "") + names[s] for s, k in pieces if k in "MK"]
        try:
            board = Board(variant, f"W:W{','.join(white)}:B{','.join(black)}")
        except FenError:
            continue
        if base.value(board) == "win" and not any(m.is_capture for m in board.legal_moves):
            found.append(board)
    return found


def wins_found(variant: str, directory: Path, boards: list[Board], depth: int) -> list[bool]:
    """For each position, whether the search with the databases of ``directory`` scores
    it won (and then its move keeps the win)."""
    base = Tablebase.load(variant, directory)
    engine = Engine(variant)
    found = []
    for board in boards:
        result = engine.search(board, depth=depth)
        won = result.score > TABLEBASE_WIN // 2
        if won and base is not None:
            assert result.best_move is not None
            after = board.copy()
            after.push(result.best_move)
            assert base.value(after) == "loss", board.fen  # the move keeps the win
        found.append(won)
    return found


def test_the_search_finds_wins_only_the_database_knows(
    directory: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    boards = won_positions("russian", directory, 30, "mmM")
    monkeypatch.setenv("DAMIER_EGTB_DIR", str(directory / "none"))
    without = wins_found("russian", directory / "none", boards, depth=3)
    monkeypatch.setenv("DAMIER_EGTB_DIR", str(directory))
    with_database = wins_found("russian", directory, boards, depth=3)
    assert all(with_database)
    assert without.count(False) >= 5  # wins beyond the search's horizon


def play_out(variant: str, board: Board, plies: int) -> int | None:
    """The engine (one ply deep, with the databases) against itself: the winner (the side
    left without a move loses), or None after ``plies``."""
    engine = Engine(variant)
    board = board.copy()
    for _ in range(plies):
        if not board.legal_moves:
            return 1 - board.turn
        move = engine.search(board, depth=1).best_move
        assert move is not None
        board.push(move)
    return None


def test_the_engine_converts_a_won_ending(directory: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Won and lost values carry the distance to the next capture or crowning: one ply of
    search walks a won ending down to the win, the loser holding out as long as it can."""
    monkeypatch.setenv("DAMIER_EGTB_DIR", str(directory))
    for board in won_positions("russian", directory, 10, "kkK") + won_positions(
        "russian", directory, 10, "mmM"
    ):
        assert play_out("russian", board, 200) == 0, board.fen


# -- four pieces: known endings ----------------------------------------------------------


Tally = dict[tuple[str, bool, bool, str], int]


def three_kings_against_one(variant: str, directory: Path) -> Tally:
    """How many positions of three kings against one are won, drawn or lost for the side
    to move, by (who moves, whether the lone king stands on the long diagonal, whether one
    of the three does, value)."""
    base = Tablebase.load(variant, directory)
    assert base is not None and base.pieces >= 4
    geometry = geometry_of(base.variant)
    diagonal = geometry.main_diagonal
    tally: Tally = {}
    for strong in itertools.combinations(range(geometry.cell_count), 3):
        for lone in set(range(geometry.cell_count)) - set(strong):
            cells = np.zeros(geometry.cell_count, dtype=np.int8)
            cells[list(strong)] = 2  # White kings
            cells[lone] = 4  # Black's king
            for turn, mover in ((0, "three"), (1, "one")):
                held = any(cell in diagonal for cell in strong)
                key = (mover, lone in diagonal, held, base.value_of(cells, turn))
                tally[key] = tally.get(key, 0) + 1
    return tally


@pytest.fixture(scope="module")
def four(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("egtb4")
    assert main(["egtb", "build", "--variant", "russian", "--pieces", "4", "--dir", str(path)]) == 0
    return path


@pytest.mark.slow
def test_petrov_triangle(four: Path) -> None:
    """Russian draughts: three kings beat one unless the lone king holds the long diagonal
    (the win is Petrov's triangle)."""
    tally = three_kings_against_one("russian", four)

    def count(mover: str, lone_on: bool, held: bool | None, value: str) -> int:
        return sum(
            n
            for (m, on, h, v), n in tally.items()
            if (m, on, v) == (mover, lone_on, value) and held in (None, h)
        )

    # The three to move, the lone king off the long diagonal: won (but for a few
    # positions where it escapes there at once or takes a king).
    assert count("three", False, None, "win") > 100 * count("three", False, None, "draw")
    # The lone king on the long diagonal, none of the three on it: mostly drawn.
    assert count("three", True, False, "draw") > count("three", True, False, "win")
    assert count("three", True, None, "loss") == count("three", False, None, "loss") == 0


@pytest.mark.slow
def test_the_search_wins_three_kings_against_one_only_with_the_database(
    four: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    boards = won_positions("russian", four, 10, "kkkK")
    monkeypatch.setenv("DAMIER_EGTB_DIR", str(four / "none"))
    without = wins_found("russian", four / "none", boards, depth=6)
    monkeypatch.setenv("DAMIER_EGTB_DIR", str(four))
    assert all(wins_found("russian", four, boards, depth=6))
    assert without.count(False) >= 3
    for board in boards:  # and walks each down to the win
        assert play_out("russian", board, 200) == 0, board.fen


@pytest.mark.slow
def test_a_lone_king_draws_against_three_on_ten_by_ten(tmp_path: Path) -> None:
    assert (
        main(
            ["egtb", "build", "--variant", "international", "--pieces", "4", "--dir", str(tmp_path)]
        )
        == 0
    )
    tally = three_kings_against_one("international", tmp_path)
    lone_moves = {
        value: sum(n for (who, _, _, v), n in tally.items() if who == "one" and v == value)
        for value in ("win", "draw", "loss")
    }
    assert lone_moves["draw"] > 9 * (lone_moves["win"] + lone_moves["loss"])


def test_a_database_is_per_variant(directory: Path, tmp_path: Path) -> None:
    """Russian and Brazilian share the board, not the values (crowning during a capture,
    majority capture); a file is refused for rules it was not built for, and the search
    then runs without it."""
    assert (
        main(["egtb", "build", "--variant", "brazilian", "--pieces", "3", "--dir", str(tmp_path)])
        == 0
    )
    russian = Tablebase.load("russian", directory)
    brazilian = Tablebase.load("brazilian", tmp_path)
    assert russian is not None and brazilian is not None
    differ = unpack(russian.values, russian.layout.total) != unpack(
        brazilian.values, brazilian.layout.total
    )
    assert differ.sum() > 0
    (tmp_path / "russian-3.npz").write_bytes((tmp_path / "brazilian-3.npz").read_bytes())
    with pytest.raises(ValueError, match="other rules"):
        Tablebase.read(get_variant("russian"), tmp_path / "russian-3.npz")
    assert Tablebase.load("russian", tmp_path) is None  # passed over
    assert search_tables_in("russian", tmp_path)[0][H_PIECES] == 0


def test_a_file_of_other_rules_is_passed_over_for_a_smaller_one_that_fits(
    directory: Path, tmp_path: Path
) -> None:
    """A larger file built for other rules (older ones, say) does not hide a smaller one
    built for these: the search takes the one that fits."""
    (tmp_path / "russian-3.npz").write_bytes((directory / "russian-3.npz").read_bytes())
    (tmp_path / "russian-4.npz").write_bytes((directory / "english-3.npz").read_bytes())
    assert not fits(get_variant("russian"), tmp_path / "russian-4.npz")
    loaded = Tablebase.load("russian", tmp_path)
    assert loaded is not None and loaded.pieces == 3
    assert search_tables_in("russian", tmp_path)[0][H_PIECES] == 3


def test_the_command_line_lists_which_files_the_engine_reads(
    directory: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "russian-3.npz").write_bytes((directory / "russian-3.npz").read_bytes())
    (tmp_path / "russian-2.npz").write_bytes((directory / "russian-3.npz").read_bytes())
    (tmp_path / "russian-4.npz").write_bytes((directory / "english-3.npz").read_bytes())
    assert main(["egtb", "list", "--dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "russian-4.npz",
        "russian-3.npz",
        "russian-2.npz",
    ]
    assert lines[0].endswith("built for other rules: passed over")
    assert lines[1].endswith("read by the engine")
    assert lines[2].endswith("fits (a larger one is read)")
    assert main(["egtb", "list", "--dir", str(tmp_path / "none")]) == 0
    assert capsys.readouterr().out.startswith("no endgame database in")


def test_a_damaged_file_is_passed_over(
    directory: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file cut short (a copy stopped half way, say) costs the engine its database, not
    its start: the search runs without it and the list says why."""
    whole = (directory / "russian-3.npz").read_bytes()
    (tmp_path / "russian-3.npz").write_bytes(whole[: len(whole) // 2])
    (tmp_path / "english-3.npz").write_bytes(b"not a database")
    for variant in ("russian", "english"):
        assert file_problem(get_variant(variant), tmp_path / f"{variant}-3.npz") == "unreadable"
        assert search_tables_in(variant, tmp_path)[0][H_PIECES] == 0
    assert main(["egtb", "list", "--dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.count("unreadable: passed over") == 2
    probe = ["egtb", "probe", "--variant", "russian", "--dir", str(tmp_path)]
    assert main([*probe, "--fen", "W:WK1:BK32"]) == 2
    assert "no russian database" in capsys.readouterr().err


def test_databases_built_before_the_rule_words_grew_stay_valid() -> None:
    """The bitboard code's rule words grew for Turkish (kings stepping along lines, pieces
    taken at once, no reversal); the fingerprints of the games that were covered before
    are the ones their files were written with (International's 5 pieces take half an
    hour to build: they must not be refused after an upgrade)."""
    written_before = {
        "international": "469df66026b553ee",
        "russian": "313ec8dd7c8eaa54",
        "brazilian": "3d9922c2186b8bab",
        "english": "a4ad823eb4604076",
        "italian": "3f44e455a4028eda",
        "spanish": "4be19152ee0bfab7",
        "russian-giveaway": "741b4d495268b4d9",
    }
    for variant, written in written_before.items():
        assert fingerprint(get_variant(variant)) == written, variant


def test_no_database_for_pieces_that_move_along_the_lines() -> None:
    """Turkish men and kings step along files and ranks, which the retrograde analysis does
    not move back (a build disagreed with its own successors): no database is offered, so
    no engine starts a background build that cannot end."""
    with pytest.raises(ValueError, match="along the lines"):
        database_spec(get_variant("turkish"))
    assert search_tables(get_variant("turkish"))[0][H_PIECES] == 0
    assert main(["egtb", "build", "--variant", "turkish", "--pieces", "2"]) != 0


def search_tables_in(variant: str, directory: Path) -> tuple[np.ndarray, np.ndarray]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DAMIER_EGTB_DIR", str(directory))
        return search_tables(get_variant(variant))


def test_analyse_names_a_database_win(
    directory: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A database's verdict is printed as such, not as a huge evaluation."""
    monkeypatch.setenv("DAMIER_EGTB_DIR", str(directory))
    board = won_positions("russian", directory, 1, "kkK")[0]
    assert main(["analyse", "--variant", "russian", "--fen", board.fen, "--depth", "1"]) == 0
    out = capsys.readouterr().out
    assert "database win" in out or "win in" in out
    assert not re.search(r"[+-]\d{3,}\.\d\d", out)
