"""Endgame databases without a manual step: the full engine of a variant that has none
starts building its 4-piece database in the background, once, and uses it from its next
game (:meth:`damier.engine.Engine.new_game`). A file built for other rules (older ones)
counts as none: it is passed over, and the 4-piece one is built again.

The build runs in a process of its own at the lowest priority, so that it slows neither
the search nor a server; a lock file in the data directory (holding the builder's process
id) keeps two engines, or two processes, from building the same database, and a lock whose
process has died is taken over. The 4-piece databases take from a few seconds (8x8
boards) to a minute (International) on one core; ``damier egtb build`` makes bigger ones.
``DAMIER_EGTB_AUTO=0`` turns the automatic build off (the tests do).
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

from damier.egtb.probe import build, database_files, database_spec, default_dir, fits
from damier.rules import Variant, get_variant

AUTO_PIECES = 4
log = logging.getLogger("damier.egtb")


def _lock_path(variant: Variant, directory: Path) -> Path:
    return directory / f"{variant.name}-{AUTO_PIECES}.building"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive
        return True
    return True


def building(variant: str | Variant) -> bool:
    """Whether a background build of ``variant``'s database is under way."""
    lock = _lock_path(get_variant(variant), default_dir())
    try:
        return _alive(int(lock.read_text() or "0"))
    except (OSError, ValueError):
        return False


def build_in_background(variant: str | Variant) -> bool:
    """Start building ``variant``'s database when it has none and none is being built;
    whether one is being built now."""
    rules = get_variant(variant)
    if os.environ.get("DAMIER_EGTB_AUTO") == "0":
        return False
    try:
        database_spec(rules)
    except ValueError:  # no databases for these rules
        return False
    directory = default_dir()
    files = [directory / name for name, _ in database_files(rules, directory)]
    if any(fits(rules, path) for path in files):
        return False
    if building(rules):
        return True
    lock = _lock_path(rules, directory)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        lock.unlink(missing_ok=True)  # a dead builder's
        handle = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except OSError:  # another process took it first, or no room: let it be
        return building(rules)
    code = (
        "import os, sys; os.nice(19); "
        "from damier.egtb.auto import build_locked; build_locked(sys.argv[1])"
    )
    with open(directory / f"{rules.name}-{AUTO_PIECES}.log", "ab") as output:
        builder = subprocess.Popen(
            [sys.executable, "-c", code, rules.name],
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=output,
            start_new_session=True,
        )
    os.write(handle, str(builder.pid).encode())
    os.close(handle)
    log.info(
        "building the %d-piece endgame database of %s in the background (once; "
        "the engine uses it from its next game)%s",
        AUTO_PIECES,
        rules.title,
        f"; passed over, built for other rules: {', '.join(p.name for p in files)}"
        if files
        else "",
    )
    return True


def build_locked(variant: str) -> None:
    """The background builder's work: build, then let go of the lock."""
    rules = get_variant(variant)
    directory = default_dir()
    try:
        report = build(rules, AUTO_PIECES, directory)
        print(f"{report.path}: {report.positions:,} positions in {report.seconds:.0f} s")
    finally:
        _lock_path(rules, directory).unlink(missing_ok=True)
