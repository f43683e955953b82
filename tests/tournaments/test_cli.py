"""``damier tournament``: a club's Swiss and round robin run from a CSV file."""

from __future__ import annotations

from pathlib import Path

import pytest

from damier.cli import main
from damier.tournament_cli import next_round, read_sheet, sheet_standings

SWISS = """\
# Club Swiss, spring
system,swiss
rounds,3
player,Anna,2000
player,Eva,1600
player,Bob,1900
player,Dora,1700
player,Carl,1800
"""


def run(path: Path, capsys: pytest.CaptureFixture[str], *more: str) -> tuple[int, str, str]:
    status = main(["tournament", str(path), *more])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_a_swiss_is_paired_round_by_round_from_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "club.csv"
    path.write_text(SWISS, encoding="utf-8")
    status, out, _ = run(path, capsys, "--append")
    assert status == 0
    # By rating: Anna, Bob, Carl, Dora, Eva; the lowest gets the bye, top half meets bottom.
    assert "Round 1 (lines for the file):" in out
    assert path.read_text(encoding="utf-8").endswith("round,1\nAnna,Carl,\nDora,Bob,\nEva,bye\n")
    status, out, _ = run(path, capsys)  # no results yet: nothing new is paired
    assert "Round 1 goes on: no result yet for" in out and "Anna - Carl" in out
    assert read_sheet(path.read_text(encoding="utf-8")).played[0][0].result == ""

    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("Anna,Carl,", "Anna,Carl,1-0").replace("Dora,Bob,", "Dora,Bob,="))
    status, out, _ = run(path, capsys, "--append")
    sheet = read_sheet(path.read_text(encoding="utf-8"))
    assert len(sheet.played) == 2
    round_two = sheet.played[1]
    assert not any(g.black is None and g.white == "Eva" for g in round_two)  # one bye each
    met = {frozenset((g.white, g.black)) for g in round_two if g.black}
    assert not met & {frozenset(("Anna", "Carl")), frozenset(("Dora", "Bob"))}
    # The lowest score has the bye; Bob and Dora (on ½) met, so the groups cross.
    assert (round_two[-1].white, round_two[-1].black) == ("Carl", None)
    assert len(met) == 2 and frozenset(("Anna", "Eva")) not in met
    table = {line.player: line for line in sheet_standings(sheet)}
    assert table["Anna"].score == table["Eva"].score == 1
    assert table["Eva"].games == 0  # the bye scores but is no game
    assert "TB1: Buchholz (Solkoff)" in out and "TB4: Result between the tied players" in out


def test_a_finished_swiss_prints_its_final_standings_with_the_tie_breaks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "final.csv"
    path.write_text(
        SWISS
        + "round,1\nAnna,Carl,1-0\nDora,Bob,1/2-1/2\nEva,bye\n"
        + "round,2\nEva,Anna,0-1\nBob,Carl,1-0\nDora,bye\n"
        + "round,3\nAnna,Bob,1/2-1/2\nCarl,Eva,+/-\nDora,bye\n",
        encoding="utf-8",
    )
    status, out, _ = run(path, capsys, "--append")
    assert status == 0 and "The tournament is over: final standings." in out
    assert "round,4" not in path.read_text(encoding="utf-8")
    lines = out.splitlines()
    first = next(line for line in lines if line.strip().startswith("1  "))
    # Anna 2½ (beat Carl and Eva, drew Bob); her Buchholz: Carl 1 + Eva 1 + Bob 2.
    assert first.split()[:3] == ["1", "Anna", "2000"]
    assert first.split()[3:9] == ["2½", "3", "2", "1", "0", "4"]
    sheet = read_sheet(path.read_text(encoding="utf-8"))
    by = {line.player: line for line in sheet_standings(sheet)}
    assert by["Carl"].games == 2 and by["Carl"].score == 1  # the default is no game
    assert by["Eva"].ties["buchholz"] == by["Anna"].score  # the default adds no opponent


def test_a_round_robin_follows_the_berger_table_and_defaults_a_withdrawn_player(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "rr.csv"
    path.write_text(
        "system,round-robin\nplayer,P1\nplayer,P2\nplayer,P3\nplayer,P4\n"
        "round,1\nP1,P4,0-1\nP2,P3,1/2-1/2\nwithdrawn,P3\n",
        encoding="utf-8",
    )
    status, out, _ = run(path, capsys, "--append")
    assert status == 0 and "1 of 3 rounds paired" in out
    # The published table's round 2: 4-3 1-2; P3 has withdrawn, P4 wins by default.
    assert path.read_text(encoding="utf-8").endswith("round,2\nP4,P3,+/-\nP1,P2,\n")
    sheet = read_sheet(path.read_text(encoding="utf-8"))
    assert next_round(sheet) is None  # P1-P2 goes on
    by = {line.player: line for line in sheet_standings(sheet)}
    assert by["P4"].score == 2 and by["P4"].games == 1
    assert "TB1: Result between the tied players" in out


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("system,swiss\nplayer,A\nplayer,B\n", "rounds"),
        ("system,swiss\nrounds,2\nplayer,A\nplayer,B\nround,1\nA,Zed,1-0\n", "line 6"),
        ("system,swiss\nrounds,2\nplayer,A\nplayer,B\nround,1\nA,B,2-0\n", "not a result"),
        ("system,swiss\nrounds,2\nplayer,A\nplayer,A\n", "entered twice"),
        ("system,swiss\nrounds,2\nplayer,A\nplayer,B\nround,2\n", "out of order"),
        ("system,swiss\nrounds,2\nplayer,A\nplayer,B\nround,1\nA,B,1-0\nB,bye\n", "twice"),
    ],
)
def test_a_broken_file_is_refused_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    path = tmp_path / "broken.csv"
    path.write_text(text, encoding="utf-8")
    status, out, err = run(path, capsys)
    assert status == 2 and not out
    assert err.startswith("damier: error:") and message in err
