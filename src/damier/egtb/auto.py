"""Endgame databases without a manual step: the full engine of a variant that has none
starts building one in the background, once, and uses it from its next game
(:meth:`damier.engine.Engine.new_game`). A file built for other rules (older ones) counts
as none: it is passed over, and the database is built again.

How big (:func:`auto_pieces`): 5 pieces on boards of 32 squares (8x8), where most games
end in a few pieces against a few and the fifth piece scored 53.5% in Russian and 50.8% in
Brazilian against the same engine with four, and lifted Spanish from 57.0% to 64.0%
against the engine of issue 35's day (README), on a machine with the memory for it
(the file takes about 220 MB once read, and a 4-piece one serves while it is built); 4
pieces elsewhere (International's 5-piece one takes half an hour and gained nothing
measurable at 0.1 s a move). ``DAMIER_EGTB_PIECES`` sets the number.

The build runs in a process of its own at the lowest priority, so that it slows neither
the search nor a server; a lock file in the data directory (holding the builder's process
id) keeps two engines, or two processes, from building the same database, and a lock whose
process has died is taken over; builds of different variants queue (``builds.queue``).
The 4-piece databases take from a few seconds (8x8 boards) to a minute (International) on
one core, the 8x8 5-piece ones one to six minutes; ``damier egtb build`` makes others.
``DAMIER_EGTB_AUTO=0`` turns the automatic build off (the tests do).
"""

from __future__ import annotations

import fcntl
import logging
import os
import subprocess
import sys
import threading
from pathlib import Path

from damier.egtb.probe import build, database_spec, default_dir, fits, path_of
from damier.kernel.bitboard import G_BOARD
from damier.rules import Variant, get_variant

SMALL_BOARD = 32
"""Playable squares of the boards whose databases are built to 5 pieces."""
MEMORY_FOR_FIVE = 4 << 30
"""Bytes of memory a machine needs for them."""
log = logging.getLogger("damier.egtb")


def auto_pieces(variant: Variant) -> int:
    """Up to how many pieces the database built without asking goes (see above)."""
    asked = os.environ.get("DAMIER_EGTB_PIECES", "")
    if asked.isdigit() and 2 <= int(asked) <= 5:
        return int(asked)
    try:
        spec = database_spec(variant)
    except ValueError:  # none is built for it (its lock's name still asks for a number)
        return 4
    squares = bin(int(spec.geo[G_BOARD])).count("1")
    return 5 if squares <= SMALL_BOARD and machine_memory() >= MEMORY_FOR_FIVE else 4


def machine_memory() -> int:
    """The machine's memory in bytes (0 when it cannot be told)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 0


def _lock_path(variant: Variant, directory: Path) -> Path:
    return directory / f"{variant.name}-{auto_pieces(variant)}.building"


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
    pieces = auto_pieces(rules)
    wanted = [path_of(rules, count, directory) for count in range(pieces, 6)]
    if any(path.exists() and fits(rules, path) for path in wanted):
        return False
    passed_over = [path for path in wanted if path.exists()]
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
    with open(directory / f"{rules.name}-{pieces}.log", "ab") as output:
        builder = subprocess.Popen(
            [sys.executable, "-c", code, rules.name],
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=output,
            start_new_session=True,
        )
    os.write(handle, str(builder.pid).encode())
    os.close(handle)
    # Reaped when it ends: a long-lived server would otherwise keep it as a zombie.
    threading.Thread(target=builder.wait, name="damier-egtb-reaper", daemon=True).start()
    log.info(
        "building the %d-piece endgame database of %s in the background (once; "
        "the engine uses it from its next game)%s",
        pieces,
        rules.title,
        f"; passed over, built for other rules: {', '.join(p.name for p in passed_over)}"
        if passed_over
        else "",
    )
    return True


def build_locked(variant: str) -> None:
    """The background builder's work: wait for any other variant's build in the directory
    to end (one at a time: an 8x8 5-piece build peaks at about 830 MB), build, then let go of
    the lock."""
    rules = get_variant(variant)
    directory = default_dir()
    try:
        with open(directory / "builds.queue", "a") as queue:
            fcntl.flock(queue, fcntl.LOCK_EX)  # released when the file closes, or the process dies
            report = build(rules, auto_pieces(rules), directory)
        print(f"{report.path}: {report.positions:,} positions in {report.seconds:.0f} s")
    finally:
        _lock_path(rules, directory).unlink(missing_ok=True)
