"""Endgame databases without a manual step: the full engine of a variant without one has
it built in the background, once, and plays with it from its next game."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from damier import Board
from damier.egtb import auto
from damier.egtb.index import H_PIECES
from damier.egtb.probe import build, fits
from damier.engine import Engine
from damier.rules import get_variant


def wait_for_build(variant: str, seconds: float = 240) -> None:
    deadline = time.monotonic() + seconds
    while auto.building(variant):
        assert time.monotonic() < deadline, "the background build did not end"
        time.sleep(0.2)


@pytest.mark.slow  # a long run (the default run stays under 5 minutes)
def test_the_full_engine_builds_its_database_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DAMIER_EGTB_DIR", str(tmp_path))
    monkeypatch.delenv("DAMIER_EGTB_AUTO")
    engine = Engine("english", table_megabytes=4)
    Engine("english", table_megabytes=4)  # a second engine does not start another build
    builder = int(next(tmp_path.glob("*.building")).read_text())
    wait_for_build("english")
    deadline = time.monotonic() + 10
    while Path(f"/proc/{builder}").exists():  # ended and reaped, not left a zombie
        assert time.monotonic() < deadline, "the builder was not reaped"
        time.sleep(0.1)
    assert (tmp_path / "english-4.npz").is_file()
    assert (tmp_path / "english-4.log").read_text().count("positions in") == 1
    assert not list(tmp_path.glob("*.building"))
    assert not auto.build_in_background("english")  # built: nothing more to do
    assert engine._context.bitboards is not None
    assert engine._context.bitboards.tablebase[0][H_PIECES] == 0  # this game: none yet
    engine.new_game()
    assert engine._context.bitboards.tablebase[0][H_PIECES] == 4
    # Three kings against one on 8x8 English: the database says won, the search agrees.
    result = engine.search(Board("english", "W:WK18,K19,K27:BK1"), depth=2)
    assert result.score > 0


def test_weak_levels_and_switched_off_build_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DAMIER_EGTB_DIR", str(tmp_path))
    Engine("english", level=5, table_megabytes=4)  # DAMIER_EGTB_AUTO=0 here too
    monkeypatch.delenv("DAMIER_EGTB_AUTO")
    Engine("english", level=5, table_megabytes=4)
    assert not auto.building("english") and not list(tmp_path.iterdir())


@pytest.mark.slow  # a second build, of 5 s
def test_a_dead_builders_lock_is_taken_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DAMIER_EGTB_DIR", str(tmp_path))
    monkeypatch.delenv("DAMIER_EGTB_AUTO")
    (tmp_path / "russian-4.building").write_text("999999999")  # no such process
    assert not auto.building("russian")
    assert auto.build_in_background("russian")
    wait_for_build("russian")
    assert (tmp_path / "russian-4.npz").is_file()


def test_an_engine_without_databases_probes_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The puzzles' judge: the same verdict on a machine with databases as on one without."""
    monkeypatch.setenv("DAMIER_EGTB_DIR", str(tmp_path))
    build(get_variant("english"), 3, tmp_path)
    with_them = Engine("english", table_megabytes=4)
    without = Engine("english", table_megabytes=4, databases=False)
    for engine in (with_them, without):
        engine.new_game()
        assert engine._context.bitboards is not None
    assert with_them._context.bitboards.tablebase[0][H_PIECES] >= 3
    assert without._context.bitboards.tablebase[0][H_PIECES] == 0


def test_an_engine_without_databases_builds_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DAMIER_EGTB_DIR", str(tmp_path))
    monkeypatch.delenv("DAMIER_EGTB_AUTO")
    Engine("english", table_megabytes=4, databases=False)
    assert not auto.building("english") and not list(tmp_path.iterdir())


@pytest.mark.slow  # a build of a few seconds
def test_a_file_built_for_other_rules_is_built_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file whose fingerprint is not these rules' (built by an older Damier, say) counts
    as none: the engine does not read it, and the background build replaces it."""
    monkeypatch.setenv("DAMIER_EGTB_DIR", str(tmp_path))
    build(get_variant("russian"), 2, tmp_path)
    (tmp_path / "english-4.npz").write_bytes((tmp_path / "russian-2.npz").read_bytes())
    monkeypatch.delenv("DAMIER_EGTB_AUTO")
    assert auto.build_in_background("english")
    wait_for_build("english")
    assert fits(get_variant("english"), tmp_path / "english-4.npz")
    assert not auto.build_in_background("english")


def test_no_background_build_where_no_database_can_be_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Turkish (pieces along the lines) and Frisian (a limit on king moves) have no
    databases: their full engines start no build."""
    monkeypatch.setenv("DAMIER_EGTB_DIR", str(tmp_path))
    monkeypatch.delenv("DAMIER_EGTB_AUTO")
    monkeypatch.delenv("DAMIER_EGTB_PIECES")  # the size is asked of the rules then
    for variant in ("turkish", "frisian", "dameo"):
        assert not auto.build_in_background(variant)
        assert not auto.building(variant)  # asked by the Hub's init and `damier egtb list`
    assert not list(tmp_path.iterdir())


def test_how_big_the_database_built_without_asking_is(monkeypatch: pytest.MonkeyPatch) -> None:
    """5 pieces on 8x8 boards where the machine has 4 GB or more, 4 on 10x10 and on smaller
    machines; ``DAMIER_EGTB_PIECES`` decides when set."""
    monkeypatch.delenv("DAMIER_EGTB_PIECES")
    monkeypatch.setattr(auto, "machine_memory", lambda: 8 << 30)
    sizes = {name: auto.auto_pieces(get_variant(name)) for name in ("russian", "english")}
    assert sizes == {"russian": 5, "english": 5}
    assert auto.auto_pieces(get_variant("international")) == 4
    monkeypatch.setattr(auto, "machine_memory", lambda: 2 << 30)
    assert auto.auto_pieces(get_variant("russian")) == 4
    monkeypatch.setenv("DAMIER_EGTB_PIECES", "3")
    assert auto.auto_pieces(get_variant("international")) == 3
    monkeypatch.setenv("DAMIER_EGTB_PIECES", "nine")  # not a number it builds: the default
    assert auto.auto_pieces(get_variant("russian")) == 4


@pytest.mark.slow  # a build of a few seconds
def test_a_smaller_database_than_wanted_is_replaced_by_the_bigger_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where 5 pieces are wanted, a 4-piece file (built before the rule changed) serves
    while the bigger one is built beside it; a file as big as wanted, or bigger, is enough."""
    monkeypatch.setenv("DAMIER_EGTB_DIR", str(tmp_path))
    monkeypatch.delenv("DAMIER_EGTB_AUTO")
    monkeypatch.setenv("DAMIER_EGTB_PIECES", "3")
    build(get_variant("russian"), 2, tmp_path)
    assert auto.build_in_background("russian")
    wait_for_build("russian")
    assert fits(get_variant("russian"), tmp_path / "russian-3.npz")
    assert (tmp_path / "russian-2.npz").is_file()  # left as it was
    assert not auto.build_in_background("russian")
    monkeypatch.setenv("DAMIER_EGTB_PIECES", "2")
    assert not auto.build_in_background("russian")


@pytest.mark.slow  # a build of a few seconds
def test_builds_wait_for_each_other(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One background build at a time in a directory: a build started while another runs
    (here: while the test holds the queue) waits, then goes on."""
    import fcntl

    monkeypatch.setenv("DAMIER_EGTB_DIR", str(tmp_path))
    monkeypatch.delenv("DAMIER_EGTB_AUTO")
    monkeypatch.setenv("DAMIER_EGTB_PIECES", "3")
    with open(tmp_path / "builds.queue", "a") as queue:
        fcntl.flock(queue, fcntl.LOCK_EX)
        assert auto.build_in_background("russian")
        time.sleep(5)  # a 3-piece build that did not wait takes about a second
        assert auto.building("russian")
        assert not (tmp_path / "russian-3.npz").exists()
    wait_for_build("russian")
    assert fits(get_variant("russian"), tmp_path / "russian-3.npz")
