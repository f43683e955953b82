"""Engine matches: the Elo estimate, Damier against itself, Hub engines as subprocesses
(Damier's own, broken ones, and dame-rs' ``dame hub`` when it is on PATH)."""

from __future__ import annotations

import math
import shlex
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from damier import Board
from damier.board import Move
from damier.cli import main
from damier.game import Game
from damier.match import OpeningDeck
from damier.notation.pdn import read_pdn
from damier.protocols.engine_match import (
    GameRecord,
    HubPlayer,
    Limits,
    MatchReport,
    Player,
    run_match,
    summary,
)
from damier.protocols.hub import board_from_hub
from damier.protocols.hub_client import EngineError, hub_position
from damier.protocols.match_statistics import Sprt, elo_difference, elo_estimate
from damier.rules import get_variant

PYTHON = shlex.quote(sys.executable)
DAMIER_HUB = f"{PYTHON} -m damier.cli hub"

# -- Elo -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("score", "elo"),
    [(0.5, 0.0), (0.75, 190.85), (0.25, -190.85), (0.64, 100.0), (0.9, 381.7), (0.99, 798.3)],
)
def test_elo_difference_known_values(score: float, elo: float) -> None:
    assert elo_difference(score) == pytest.approx(elo, abs=0.5)


def test_elo_difference_at_the_ends_is_infinite() -> None:
    assert elo_difference(1.0) == math.inf and elo_difference(0.0) == -math.inf


def test_elo_error_from_the_per_game_variance() -> None:
    # 100 games, 50 wins, 50 losses: score 0.5, per-game sd 0.5, standard error 0.05
    estimate = elo_estimate([1.0] * 50 + [0.0] * 50)
    assert estimate.difference == 0.0
    margin = 1.959964 * 0.05
    expected = (elo_difference(0.5 + margin) - elo_difference(0.5 - margin)) / 2
    assert estimate.error == pytest.approx(expected)
    assert estimate.error == pytest.approx(69.0, abs=0.5)
    # draws lower the variance and the error
    drawn = elo_estimate([1.0] * 25 + [0.5] * 50 + [0.0] * 25)
    assert drawn.difference == 0.0 and drawn.error < estimate.error
    # 75%: about +191
    assert elo_estimate([1.0] * 3 + [0.0]).difference == pytest.approx(190.85, abs=0.5)
    assert "+191 +/- " in str(elo_estimate([1.0] * 40 + [0.5] * 10 + [0.0] * 10))


# -- matches ---------------------------------------------------------------------------


def _check_pdn(text: str, games: int, variant: str = "international") -> None:
    records = read_pdn(text)
    assert len(records) == games
    for record in records:
        assert not record.errors
        game = record.replay(variant)
        assert record.result in ("2-0", "1-1", "0-2")
        assert game.ply == len(record.moves)


def test_short_match_damier_1_against_damier_3(tmp_path: Path) -> None:
    lines: list[str] = []

    def on_game(record: GameRecord, report: MatchReport) -> None:
        lines.append(f"{record.number} {record.white} {record.black} {record.result.pdn}")

    report = run_match(
        "international", ["damier:1", "damier:3"], 4, Limits(depth=2), on_game=on_game
    )
    assert len(report.games) == 4 == len(lines)
    assert [(g.white, g.black) for g in report.games] == [
        ("damier:1", "damier:3"),
        ("damier:3", "damier:1"),
    ] * 2
    assert sum(report.scores) == 4
    _check_pdn(report.pdn(), 4)


def test_opening_deck_each_opening_with_each_colour() -> None:
    deck = OpeningDeck.builtin("english-2move")
    report = run_match("english", ["damier:1", "damier:2"], 4, Limits(depth=1), deck=deck, seed=3)
    openings = [g.opening for g in report.games]
    assert openings[0] == openings[1] and openings[2] == openings[3]
    assert all(len(o) == 2 for o in openings)
    assert report.games[0].white == report.games[1].black
    for record in report.games:
        assert [m.notation for m in record.game.moves[:2]] == list(record.opening)
    _check_pdn(report.pdn(), 4, "english")


def test_a_giveaway_match_plays_its_variant_s_deck_and_no_other() -> None:
    deck = OpeningDeck.builtin("english-2move")
    report = run_match(
        "english-giveaway", ["damier:1", "damier:2"], 2, Limits(depth=1), deck=deck, seed=3
    )
    assert report.games[0].opening == report.games[1].opening in deck.openings
    for record in report.games:
        assert record.game.variant.giveaway
        assert [m.notation for m in record.game.moves[:2]] == list(record.opening)
    with pytest.raises(ValueError, match="is for english, not russian-giveaway"):
        run_match("russian-giveaway", ["damier:1", "damier:1"], 2, Limits(depth=1), deck=deck)


def test_same_engine_twice_gets_two_names() -> None:
    report = run_match("international", ["damier:1", "damier:1"], 2, Limits(depth=1))
    assert report.players == ("damier:1", "damier:1 #2")
    assert sum(report.scores) == 2


def _played(report: MatchReport) -> list[tuple[int, str, tuple[str, ...], str, list[str]]]:
    return [
        (g.number, g.white, g.opening, g.result.pdn, [m.notation for m in g.game.moves])
        for g in report.games
    ]


def test_games_played_at_once_are_the_games_played_one_by_one() -> None:
    """Two games at a time, each by engines of its own: the same schedule, and (searches to
    a depth without the weak levels' noise, from a cleared table each game) the very same
    games, reported in order."""
    deck = OpeningDeck.builtin("russian-3move")
    engines = ["damier:10", "damier:10"]
    one = run_match("russian", engines, 6, Limits(depth=2), deck=deck, seed=11)
    seen: list[int] = []
    two = run_match(
        "russian",
        engines,
        6,
        Limits(depth=2),
        deck=deck,
        seed=11,
        concurrency=2,
        on_game=lambda record, report: seen.append(record.number),
    )
    assert _played(two) == _played(one)
    assert sorted(seen) == list(range(6))
    assert two.elo.pairs == 3 and "6 games in 3 pairs" in str(two.elo)
    _check_pdn(two.pdn(), 6, "russian")
    with pytest.raises(ValueError, match="specs"):
        run_match("russian", [engines[0], Scripted("A", [])], 2, Limits(depth=1), concurrency=2)


class Scripted(Player):
    """An engine that plays the first legal move, or fails (and so loses) in the games
    ``script`` names, counted by its own new games."""

    def __init__(self, name: str, script: Sequence[str]) -> None:
        self.name = name
        self.script = script
        self.games = -1

    def new_game(self, game: Game) -> None:
        self.games += 1

    def choose(self, game: Game, limits: Limits) -> Move:
        if self.script[self.games % len(self.script)] != self.name:
            raise EngineError("resigns (scripted)")
        return game.board.legal_moves[0]


@pytest.mark.parametrize(("winners", "verdict"), [("AAAB", "H1"), ("BBBA", "H0")])
def test_a_match_stops_once_the_sprt_has_decided(winners: str, verdict: str) -> None:
    """The first engine wins three games of four (or loses them): the test decides long
    before the 200 games, and the match stops there."""
    script = list(winners)
    sprt = Sprt(0.0, 100.0)
    report = run_match(
        "english", [Scripted("A", script), Scripted("B", script)], 200, Limits(), sprt=sprt
    )
    units = report.units()
    assert sprt.verdict(units) == verdict
    assert sprt.verdict(units[:-1]) is None  # the game before the last had not decided
    assert 4 < len(report.games) < 60
    assert f"{verdict} accepted" in summary(report, sprt)[-1]


def test_hub_position_is_what_the_hub_front_end_reads() -> None:
    variant = get_variant("international")
    for fen in ("W:W31-50:B1-20", "B:WK4,28:B12,K45"):
        board = Board(variant, fen)
        assert board_from_hub(variant, hub_position(board)).fen == board.fen


def test_damier_hub_engine_plays_a_game_in_a_match() -> None:
    report = run_match("international", [DAMIER_HUB + " --level 2", "damier:1"], 1, Limits(depth=2))
    [record] = report.games
    assert record.white == DAMIER_HUB + " --level 2"
    # Ended by the rules (a win or a draw rule), not by a failure or the ply cap.
    by_the_rules = {"no pieces", "blocked"} | {
        rule.reason for rule in get_variant("international").draw_rules
    }
    assert record.result.reason in by_the_rules, record.result.reason
    _check_pdn(report.pdn(), 1)


FAKE_HUB = r"""
import sys
mode = sys.argv[1]
def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "hub":
        say("id name=Fake version=0")
        say("wait")
    elif word == "init":
        say("ready")
    elif word == "go":
        if mode == "crash":
            sys.stderr.write("fake engine: segmentation fault (pretend)\n")
            sys.stderr.flush()
            sys.exit(3)
        if mode == "illegal":
            say("done move=32-26")
        if mode == "garbage":
            say("\x00\x01 lorem ipsum")
            say("done")
        if mode == "silent":
            say("info depth=1")
    elif word == "quit":
        break
"""


@pytest.fixture()
def fake_hub(tmp_path: Path) -> str:
    script = tmp_path / "fake_hub.py"
    script.write_text(FAKE_HUB)
    return f"{PYTHON} {shlex.quote(str(script))}"


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        ("crash", "engine exited with code 3: fake engine: segmentation fault (pretend)"),
        ("illegal", "played the illegal move '32-26'"),
        ("garbage", "answered 'done' without a move"),
    ],
)
def test_broken_hub_engine_loses_with_a_clear_reason(fake_hub: str, mode: str, reason: str) -> None:
    log: list[str] = []
    report = run_match(
        "international",
        ["damier:1", f"{fake_hub} {mode}"],
        2,
        Limits(depth=1),
        log=log.append,
    )
    assert report.scores == (2.0, 0.0)
    for record in report.games:
        assert reason in record.result.reason
        assert record.result.reason.startswith(f"{fake_hub} {mode} ")
    if mode == "crash":  # started again for the second game
        assert any("starting it again" in line for line in log)
    if mode == "garbage":
        assert any("lorem ipsum" in line for line in log)
    _check_pdn(report.pdn(), 2)
    assert "Termination" in report.pdn()


def test_silent_hub_engine_loses_on_time(fake_hub: str) -> None:
    silent = HubPlayer(f"{fake_hub} silent", get_variant("international"), move_timeout=0.5)
    report = run_match("international", [silent, "damier:1"], 1, Limits(depth=1))
    silent.close()
    [record] = report.games
    assert record.result.winner == 1
    assert "no 'done' within 0.5 s" in record.result.reason


def test_an_engine_that_does_not_start_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["match", "--engine", "damier:1", "--engine", "/nonexistent/engine hub"]
    assert main([*args, "--games", "1", "--depth", "1"]) == 2
    assert "does not start" in capsys.readouterr().err


def test_cli_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pdn = tmp_path / "match.pdn"
    args = ["match", "--engine", "damier:1", "--engine", "damier:3", "--games", "2"]
    assert main([*args, "--depth", "2", "--pdn", str(pdn)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("[") and "1/2 game 1: damier:1 - damier:3" in out[0]
    assert out[-2].startswith("score damier:1 - damier:3: ")
    assert out[-1].startswith("Elo difference damier:1 vs damier:3: ")
    _check_pdn(pdn.read_text(), 2)


def test_cli_match_keeps_the_games_played_when_interrupted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each game is written as it ends: a match stopped after two games leaves two games."""
    from damier.protocols import engine_match

    pdn = tmp_path / "match.pdn"
    played = engine_match.play_game
    calls = 0

    def play_then_stop(*args: object, **kwargs: object) -> Game:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise KeyboardInterrupt
        return played(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(engine_match, "play_game", play_then_stop)
    args = ["match", "--engine", "damier:1", "--engine", "damier:2", "--games", "6"]
    with pytest.raises(KeyboardInterrupt):
        main([*args, "--depth", "1", "--pdn", str(pdn)])
    _check_pdn(pdn.read_text(), 2)
    unwritable = tmp_path / "no-such-folder" / "match.pdn"
    assert main([*args, "--depth", "1", "--pdn", str(unwritable)]) == 2


def test_cli_match_with_openings(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["match", "--variant", "english", "--engine", "damier:1", "--engine", "damier:2"]
    assert main([*args, "--games", "2", "--openings", "english-2move", "--depth", "1"]) == 0
    assert main([*args, "--games", "2", "--openings", "spanish-2move"]) == 2
    assert "is for spanish, not english" in capsys.readouterr().err


def test_cli_match_at_once_with_a_sequential_test(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["match", "--variant", "russian", "--engine", "damier:10", "--engine", "damier:10"]
    args += ["--games", "4", "--openings", "russian-3move", "--depth", "2", "--seed", "3"]
    assert main([*args, "--concurrency", "2", "--sprt", "0", "50"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-2].startswith("Elo difference damier:10 vs damier:10 #2: ")
    assert out[-2].endswith("(95%, 4 games in 2 pairs)")
    assert out[-1].startswith("SPRT elo0=0 elo1=50 alpha=0.05 beta=0.05: LLR ")
    assert main([*args, "--sprt", "50", "0"]) == 2
    assert "elo0 < elo1" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("dame") is None, reason="dame-rs' dame command not on PATH")
def test_cli_match_against_dame_hub(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pdn = tmp_path / "dame.pdn"
    args = ["match", "--engine", "dame hub", "--engine", "damier:2", "--games", "1"]
    assert main([*args, "--time", "0.05", "--pdn", str(pdn)]) == 0
    out = capsys.readouterr().out
    assert "game 1: dame hub - damier:2" in out
    [record] = read_pdn(pdn.read_text())
    assert "dame hub" not in (record.tags.get("Termination") or "")  # no failure of dame
    _check_pdn(pdn.read_text(), 1)
