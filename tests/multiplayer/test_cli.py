"""The command line on multi-player boards: perft, moves, show, variants, pdn check and a
three-player game at one keyboard."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from damier.cli import main
from damier.notation.pdn import read_pdn
from damier.play import play_in_terminal
from damier.rules.multiplayer import MULTIPLAYER


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize(
    ("variant", "nodes"),
    [
        # White's men on a3, c3, e3, g3 step to b4; b4, d4; d4, f4; f4, h4 (d4 is the hub).
        # No move brings a man next to another player's: Black then has his own 7.
        ("tripad", [7, 49]),
        # Each of White's six men on row 2 steps to one of its two cells on row 3.
        ("hex3", [12]),
        # e3, g3, i3 have two steps each; k3 only j4 (l4 holds a Green man, m5 too). After
        # e3-d4 Black's c5 must take d4 (landing on e3): 6 x 7 + 1.
        ("cross4", [7, 43]),
    ],
)
def test_perft(capsys: pytest.CaptureFixture[str], variant: str, nodes: list[int]) -> None:
    status, out, _ = run(capsys, "perft", "--variant", variant, "--depth", str(len(nodes)))
    assert status == 0
    assert out.splitlines() == [f"depth {d} nodes {n}" for d, n in enumerate(nodes, start=1)]


def test_moves(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "moves", "--variant", "hex3")
    assert status == 0
    rows = [("a", "b", "c", "d", "e", "f"), ("a", "b", "c", "d", "e", "f", "g")]
    expected = {
        f"{cell}2-{rows[1][i + step]}3" for i, cell in enumerate(rows[0]) for step in (0, 1)
    }
    assert set(out.split()) == expected
    status, out, _ = run(capsys, "moves", "--variant", "tripad", "--json")
    moves = json.loads(out)
    assert {"notation": "Wc3-Wd4", "path": ["Wc3", "Wd4"], "captured": []} in moves


def test_moves_of_a_position(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "moves", "--variant", "cross4", "--fen", "W:We5:Bf6:Rh8:Gm9")
    assert status == 0 and out == "e5xi9\n"


@pytest.mark.parametrize("variant", [v.name for v in MULTIPLAYER])
def test_show(capsys: pytest.CaptureFixture[str], variant: str) -> None:
    status, out, _ = run(capsys, "show", "--variant", variant)
    assert status == 0
    assert "white to move" in out
    assert out.splitlines()[-1].strip().startswith("W:W")


def test_show_who_is_out(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "show", "--variant", "tripad", "--fen", "R:WWa1:B:RRc3")
    assert status == 0
    assert "    red to move; out: black\n    R:WWa1:B:RRc3\n" in out


def test_variants_lists_the_multiplayer_boards(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "variants")
    head, _, tail = out.partition("Multi-player boards")
    assert "tripad" not in head and "international" in head
    rows = [line for line in tail.splitlines()[2:] if line and not line.startswith(" ")]
    table = {line.split()[0]: line.split()[1:] for line in rows}
    for variant in MULTIPLAYER:
        assert table[variant.name][0] == str(variant.players)
    assert table["tripad"][1:5] == ["radial:", "3", "areas", "of"]
    assert "+teams" in tail and "+pass-when-blocked" in tail


def test_pdn_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "three.pdn"
    path.write_text(
        '[White "Ann"]\n[Black "Bob"]\n[Red "Rita"]\n[Variant "tripad"]\n\n'
        "1. Wc3-Wd4 B:resigns 2. Rc3-Rb4 *\n"
    )
    status, out, _ = run(capsys, "pdn", "check", str(path))
    assert status == 0
    assert out.splitlines()[0] == "game 1 (line 1): ok, tripad, 2 moves, *, Ann - Bob - Rita"
    # A finished game shows its ranking (here: White's time ran out after Red's move).
    path.write_text(path.read_text().replace(" *", " W:time *"))
    status, out, _ = run(capsys, "pdn", "check", str(path))
    assert out.splitlines()[0] == "game 1 (line 1): ok, tripad, 2 moves, R, W, B, Ann - Bob - Rita"


def test_three_players_at_one_keyboard(tmp_path: Path) -> None:
    record = tmp_path / "game.pdn"
    typed = "Wc3-Wd4\nresign\ndraw\nRc3-Rb4\ndraw\n"
    out = io.StringIO()
    play_in_terminal("tripad", pdn_path=str(record), stdin=io.StringIO(typed), stdout=out)
    screen = out.getvalue()
    assert "Black resigns" in screen
    assert "    red to move; out: black" in screen
    assert "    Red offers a draw (agreed: Red): type draw to accept" in screen
    assert "result: W=R, B (White and Red share first place: agreement)" in screen
    (game,) = read_pdn(record.read_text())
    assert game.tags["Red"] == "Red" and game.tags["Ranking"] == "W=R, B"
    assert [n.text for n in game.moves] == ["Wc3-Wd4", "B:resigns", "Rc3-Rb4"]
