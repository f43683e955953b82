"""The command line: stable output formats and clear errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from damier.cli import main

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "variants"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_perft_prints_one_line_per_depth(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "perft", "--variant", "international", "--depth", "3")
    assert status == 0
    assert out.splitlines() == ["depth 1 nodes 9", "depth 2 nodes 81", "depth 3 nodes 658"]
    assert "nodes/s" in err


def test_perft_keep_and_divide(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys,
        "perft",
        "--variant",
        "russian",
        "--depth",
        "2",
        "--divide",
        "--duplicates",
        "keep",
    )
    lines = out.splitlines()
    assert status == 0
    assert lines[0] == "depth 1 nodes 7"
    assert lines[-1] == "depth 2 nodes 49"
    divided = [line.split() for line in lines[1:-1]]
    assert len(divided) == 7
    assert sum(int(count) for _, count in divided) == 49


def test_moves_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "moves", "--variant", "international", "--fen", "W:WK28:B19,20,30,8")
    assert out.split() == ["28x34", "28x39", "28x43", "28x48"]
    _, out, _ = run(
        capsys, "moves", "--variant", "international", "--fen", "W:WK28:B19,20,30,8", "--json"
    )
    first = json.loads(out)[0]
    assert first == {"notation": "28x34", "path": [28, 14, 25, 34], "captured": [19, 20, 30]}


def test_moves_algebraic_json(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "moves", "--variant", "turkish", "--fen", "W:Wd4:Bd5", "--json")
    assert json.loads(out) == [{"notation": "d4xd6", "path": ["d4", "d6"], "captured": ["d5"]}]


def test_show_draws_the_board(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "show", "--variant", "russian")
    assert status == 0
    assert "a b c d e f g h" in out
    assert "white to move" in out
    assert "W:W21-32:B1-12" in out


def test_variants_lists_every_variant(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "variants")
    for name in (
        "international",
        "brazilian",
        "russian",
        "english",
        "pool",
        "italian",
        "spanish",
        "turkish",
        "croda",
        "dameo",
    ):
        assert name in out


def test_variants_tables_fit_and_name_every_column(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "variants")
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 100
    for header, name, columns in (
        (lines[0], "international", 7),
        (
            next(line for line in lines if line.startswith("variant ") and "players" in line),
            "tripad",
            6,
        ),
    ):
        names = re.split(r"\s{2,}", header)
        assert len(names) == columns and all(names)
        row = next(line for line in lines if line.startswith(name + " "))
        starts = [match.start() for match in re.finditer(r"(?:^|(?<=  ))\S", row)]
        assert starts == [header.index(n) for n in names]  # each cell under its name


def test_variants_check_takes_several_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    files = sorted(str(path) for path in EXAMPLES.glob("*.toml"))
    status, out, err = run(capsys, "variants", "check", *files)
    assert status == 0 and err == ""
    assert [line.split(":")[0] for line in out.splitlines() if "ok, variant" in line] == files
    broken = tmp_path / "broken.toml"
    broken.write_text('name = "x"\n', encoding="utf-8")
    status, out, err = run(capsys, "variants", "check", files[0], str(broken), files[1])
    assert status == 2
    assert out.count("ok, variant") == 2
    assert f"{broken}, line 1" in err


@pytest.mark.parametrize(
    ("fen", "reason"),
    [
        ("W:W:B", "the board is empty, nobody can move"),
        ("W:W:B1", "white is to move and has no pieces"),
        ("W:W46:B41,37", "white is to move and every piece is blocked"),
    ],
)
def test_moves_says_why_there_is_none(
    capsys: pytest.CaptureFixture[str], fen: str, reason: str
) -> None:
    status, out, err = run(capsys, "moves", "--fen", fen)
    assert (status, out) == (1, "")
    assert err == f"damier: no legal move: {reason}\n"
    status, out, _ = run(capsys, "moves", "--fen", fen, "--json")
    assert (status, json.loads(out)) == (1, [])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["perft", "--variant", "nope", "--depth", "1"], "unknown variant"),
        (["moves", "--fen", "W:W51:B1"], "square 51"),
        (["moves", "--fen", "W:W31,31:B1"], "given twice"),
        (["moves", "--fen", "Q:W31:B1"], "side to move"),
        (["moves", "--variant", "russian", "--fen", "W:Wa2:B1"], "not a playable square"),
        (["perft", "--depth", "-1"], "depth"),
    ],
)
def test_bad_input_is_a_clear_error(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    status, out, err = run(capsys, *args)
    assert status == 2
    assert out == ""
    assert message in err
    assert "Traceback" not in err


def test_rules_in_plain_words(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "rules", "--variant", "turkish")
    assert status == 0
    assert out.startswith("Turkish draughts")
    assert "crossed again" in " ".join(out.split())


@pytest.mark.parametrize(
    ("args", "option"),
    [
        # A NaN or an infinity would leave the search unbounded, a time of nothing or less
        # would answer without searching: each is refused before anything runs.
        (["analyse", "--time", "nan"], "--time"),
        (["analyse", "--time", "-1"], "--time"),
        (["analyse", "--depth", "0"], "--depth"),
        (["analyse", "--level", "11"], "--level"),
        (["hub", "--level", "0"], "--level"),
        (["match", "--engine", "damier:1", "--engine", "damier:2", "--time", "inf"], "--time"),
        (["match", "--engine", "damier:1", "--engine", "damier:2", "--depth", "-1"], "--depth"),
        (
            ["match", "--engine", "damier:1", "--engine", "damier:2", "--max-plies", "-5"],
            "--max-plies",
        ),
        (["dxp", "--connect", "127.0.0.1:9", "--games", "-1"], "--games"),
        (["dxp", "--connect", "127.0.0.1:9", "--minutes", "-5"], "--minutes"),
        (["dxp", "--connect", "127.0.0.1:9", "--time", "0"], "--time"),
    ],
)
def test_numbers_out_of_range_are_refused(
    capsys: pytest.CaptureFixture[str], args: list[str], option: str
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(args)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {option}" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("args", [["--games", "-3"], ["--minutes", "nan"], ["--minutes", "-1"]])
def test_puzzle_build_refuses_what_would_find_nothing(
    capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    status, out, err = run(capsys, "puzzles", "build", "--variant", "russian", *args)
    assert out == ""
    assert status == 2
    assert args[0] in err
    assert "Traceback" not in err


def test_a_file_that_is_not_there_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing = tmp_path / "no-such-book.txt"
    status, out, err = run(capsys, "book", "show", "--variant", "russian", "--book", str(missing))
    assert status == 1
    assert out == ""
    assert err == f"damier: error: No such file or directory: {missing}\n"
    status, _, err = run(capsys, "book", "show", "--variant", "russian", "--book", str(tmp_path))
    assert status == 1 and "Is a directory" in err and "Traceback" not in err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from damier import __version__

    with pytest.raises(SystemExit) as stopped:
        main(["--version"])
    assert stopped.value.code == 0
    assert capsys.readouterr().out == f"damier {__version__}\n"


@pytest.mark.parametrize("seats", ["purple", "white,red", ""])
def test_play_names_the_computers_players(capsys: pytest.CaptureFixture[str], seats: str) -> None:
    status, out, err = run(capsys, "play", "--computer", seats or ",")
    assert status == 2 and not out
    assert err.startswith("damier: error: --computer") and "name white, black or all" in err


@pytest.mark.parametrize(
    ("option", "value", "message"), [("--level", "11", "out of range"), ("--think", "0", "above 0")]
)
def test_play_refuses_a_bad_level_or_thinking_time(
    capsys: pytest.CaptureFixture[str], option: str, value: str, message: str
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["play", "--computer", "black", option, value])
    assert stopped.value.code == 2 and message in capsys.readouterr().err


def test_a_line_of_moves_after_the_position(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "show", "--variant", "russian", "--line", "c3-d4 f6-g5")
    assert status == 0 and out.rstrip().endswith("W:W18,21,23-32:B1-10,12,16")
    status, out, _ = run(capsys, "moves", "--fen", "W:WK28:B19,20,30,8", "--line", "28x34")
    assert status == 0 and out.split() == ["8-12", "8-13"]  # Black to move, one man left
    status, _, err = run(capsys, "analyse", "--variant", "russian", "--line", "c3-d4 c3-d4")
    assert status == 2
    assert err.startswith("damier: error: --line: move 2 (c3-d4): 'c3-d4' is not legal here")
