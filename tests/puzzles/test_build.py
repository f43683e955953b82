"""``damier puzzles build`` and ``verify`` on recorded games (a PDN file, a list of games)
and a few self-play games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import damier.puzzles.build as build_module
from damier.cli import main
from damier.engine import Engine
from damier.puzzles import read_puzzles
from damier.puzzles.build import build
from damier.puzzles.command import server_games
from tests.server.conftest import another, database_url, sign_in

SHOT = "W:W12,16,31,32:B7,14,15,25"

PDN = """[Event "A composed shot, played out"]
[GameType "25"]
[FEN "W:W12,16,31,32:B7,14,15,25"]
1. 16-11 7x16 2. 12x17 *

[Event "Another game"]
[GameType "25"]
1. 22-18 11-15 2. 18x11 8x15 *
"""


def test_build_from_a_pdn_file_then_verify(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = tmp_path / "games.pdn"
    games.write_text(PDN, encoding="utf-8")
    output = tmp_path / "russian.jsonl"
    arguments = ["puzzles", "build", "--variant", "russian", "--pdn", str(games)]
    assert main([*arguments, "-o", str(output)]) == 0
    assert "1 new puzzles" in capsys.readouterr().out
    (puzzle,) = read_puzzles(output)
    assert puzzle.moves == ("16-11", "7x16", "12x17") and puzzle.source == "pdn:games.pdn"
    # A second run finds nothing new: the file is not changed.
    text = output.read_text()
    assert main([*arguments, "-o", str(output)]) == 0
    assert "0 new puzzles" in capsys.readouterr().out and output.read_text() == text
    verify = ["puzzles", "verify", "--variant", "russian", "--file", str(output)]
    assert main(verify) == 0
    assert "1 of 1 puzzles verified" in capsys.readouterr().out


def test_build_from_recorded_games_and_from_self_play(tmp_path: Path) -> None:
    output = tmp_path / "international.jsonl"
    recorded = [("W:W23,25,29,31,32,44:B6,8,11,21,22,28", ["23-18", "28x26", "18x7"])]
    report = build("international", output, recorded=recorded)
    assert [p.moves[0] for p in report.found] == ["23-18"]
    assert report.found[0].source == "games"
    played = build("international", tmp_path / "self.jsonl", games=1, seed=3)
    assert played.games == 1 and played.positions > 10


def test_build_from_the_servers_finished_games(
    client: TestClient, database: Path, tmp_path: Path
) -> None:
    host, guest = client, another(client)
    sign_in(host, "Host")
    sign_in(guest, "Guest")
    created = host.post(
        "/api/games",
        json={"variant": "russian", "opponent": "open", "color": "white", "fen": SHOT},
    )
    assert created.status_code == 201, created.text
    game = created.json()["id"]
    assert guest.post(f"/api/games/{game}/join").status_code == 200
    for ply, (player, move) in enumerate([(host, "16-11"), (guest, "7x16"), (host, "12x17")]):
        answer = player.post(f"/api/games/{game}/moves", json={"move": move, "ply": ply})
        assert answer.status_code == 200, answer.text
    assert guest.post(f"/api/games/{game}/resign").json()["status"] == "finished"
    recorded = server_games(database_url(database), "russian")
    assert recorded == [(SHOT, ["16-11", "7x16", "12x17"])]
    assert server_games(database_url(database), "international") == []
    report = build("russian", tmp_path / "russian.jsonl", recorded=recorded)
    assert [p.moves for p in report.found] == [("16-11", "7x16", "12x17")]


def test_self_play_levels_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    output = tmp_path / "turkish.jsonl"
    arguments = ["puzzles", "build", "--variant", "turkish", "--games", "3", "--seed", "5"]
    levels: list[int] = []
    engine = build_module.Engine

    def recording(*args: Any, **kwargs: Any) -> Engine:
        levels.append(kwargs["level"])
        return engine(*args, **kwargs)

    monkeypatch.setattr(build_module, "Engine", recording)
    assert main([*arguments, "--levels", "1,2", "-o", str(output)]) == 0
    assert "of 3 games" in capsys.readouterr().out
    assert levels and set(levels) <= {1, 2}  # the self-play players, only those levels
    for wrong in ("0,3", "2,x", "11", ""):
        with pytest.raises(SystemExit):
            main([*arguments, "--levels", wrong, "-o", str(output)])
        assert "--levels" in capsys.readouterr().err
