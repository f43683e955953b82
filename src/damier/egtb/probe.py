"""Endgame database files: building one to disk, loading it, asking it about a position.

A file ``<variant>-<pieces>.npz`` (NumPy, zlib-compressed) holds every class of 2 to
``pieces`` pieces, their values packed four to a byte, and a fingerprint of the rules
that decide the values (the bitboard switches and the giveaway flag), so that a file is
never read for rules it was not built for. Files live in the user's data directory
(``DAMIER_EGTB_DIR`` overrides it).
"""

from __future__ import annotations

import hashlib
import os
import time
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from damier.board import Board
from damier.egtb.build import Work, check, material_name, solve
from damier.egtb.index import (
    DRAW,
    IX_SIZE,
    LOSS,
    WIN,
    Layout,
    Material,
    layout,
    probe_position,
)
from damier.kernel.bitboard import (
    DIAGONAL_DIRECTIONS,
    ORTHOGONAL_DIRECTIONS,
    Q_IMMEDIATE,
    Q_KING_STEP,
    Q_MAN_STEP,
    Q_NO_REVERSAL,
    Spec,
    bitboard_spec,
)
from damier.rules import Variant, get_variant

U8 = npt.NDArray[np.uint8]
I64 = npt.NDArray[np.int64]

VALUE_NAMES = {WIN: "win", DRAW: "draw", LOSS: "loss"}


def default_dir() -> Path:
    """Where databases are built and looked for: ``$DAMIER_EGTB_DIR``, or ``egtb`` in the
    user's data directory (the server keeps its database there too)."""
    override = os.environ.get("DAMIER_EGTB_DIR")
    if override:
        return Path(override)
    from platformdirs import user_data_dir

    return Path(user_data_dir("damier", appauthor=False)) / "egtb"


def database_spec(variant: Variant) -> Spec:
    """The bitboard tables the databases of ``variant`` are built on; ValueError when it
    has none (rules outside the bitboard code, history-dependent ones such as Frisian's
    limit on king moves, or pieces moving along files and ranks, Turkish's, which the
    retrograde analysis does not move back)."""
    spec = bitboard_spec(variant)
    if spec is None or variant.max_consecutive_king_moves:
        raise ValueError(f"no endgame databases for {variant.name}: its rules are not covered")
    steps = spec.q[Q_MAN_STEP] | spec.q[Q_MAN_STEP + 1] | spec.q[Q_KING_STEP]
    if steps & ORTHOGONAL_DIRECTIONS:  # the builder moves pieces back along diagonals only
        raise ValueError(
            f"no endgame databases for {variant.name}: its pieces move along the lines"
        )
    return spec


LATER_RULE_WORDS = ((Q_KING_STEP, DIAGONAL_DIRECTIONS), (Q_IMMEDIATE, 0), (Q_NO_REVERSAL, 0))
"""Rule words the bitboard code gained after databases were first built (for Turkish), with
the value every game had before: a fingerprint reads one only where it differs, so that the
files built before stay valid (International's 5 pieces take half an hour)."""
FIRST_RULE_WORDS = min(word for word, _ in LATER_RULE_WORDS)


def fingerprint(variant: Variant) -> str:
    """What the values depend on: the board, the move rules and the giveaway flag."""
    spec = database_spec(variant)
    words = spec.q[:FIRST_RULE_WORDS].tobytes()
    for word, before in LATER_RULE_WORDS:
        if spec.q[word] != before:
            words += spec.q[word : word + 1].tobytes() + bytes([word])
    digest = hashlib.sha256(spec.geo.tobytes() + words + bytes([variant.giveaway]))
    return digest.hexdigest()[:16]


def path_of(variant: Variant, pieces: int, directory: Path | None = None) -> Path:
    return (directory or default_dir()) / f"{variant.name}-{pieces}.npz"


def pack(values: U8) -> U8:
    """Four two-bit values to a byte, the first in the lowest bits."""
    padded = np.zeros((len(values) + 3) // 4 * 4, dtype=np.uint8)
    padded[: len(values)] = values
    quads = padded.reshape(-1, 4)
    packed = quads[:, 0] | (quads[:, 1] << 2) | (quads[:, 2] << 4) | (quads[:, 3] << 6)
    return packed.astype(np.uint8)


def unpack(packed: U8, count: int) -> U8:
    shifts = np.array([0, 2, 4, 6], dtype=np.uint8)
    values = ((packed[:, None] >> shifts) & 3).reshape(-1)[:count]
    return values.astype(np.uint8)


@dataclass(frozen=True)
class BuildReport:
    path: Path
    positions: int
    """Indices of the database (invalid ones, two pieces on a square, included)."""
    seconds: float
    """Solving and checking."""
    size: int
    """Bytes on disk."""


def build(
    variant: str | Variant,
    pieces: int,
    directory: Path | None = None,
    report: Callable[[str], None] | None = None,
) -> BuildReport:
    """Build, check and write the database of up to ``pieces`` pieces of ``variant``."""
    rules = get_variant(variant)
    work = Work(database_spec(rules), pieces, rules.giveaway)
    began = time.perf_counter()
    values, distances = solve(work, report)
    wrong = check(work, values, distances)
    if wrong:
        raise RuntimeError(f"{wrong} positions disagree with their successors: not written")
    seconds = time.perf_counter() - began
    path = path_of(rules, pieces, directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".part.npz")
    np.savez_compressed(
        partial,
        values=pack(values),
        distances=distances,
        count=np.int64(len(values)),
        pieces=np.int64(pieces),
        fingerprint=np.array(fingerprint(rules)),
    )
    partial.replace(path)
    return BuildReport(path, len(values), seconds, path.stat().st_size)


class Tablebase:
    """A loaded database: the value of any position of up to ``pieces`` pieces."""

    def __init__(
        self, variant: Variant, pieces: int, values: U8, distances: U8, count: int
    ) -> None:
        self.variant = variant
        self.pieces = pieces
        self.spec = database_spec(variant)
        self.layout: Layout = layout(self.spec, pieces)
        if count != self.layout.total:
            raise ValueError("the database file does not match its layout")
        self.values = values
        """Packed values (four a byte)."""
        self.distances = distances
        """Plies to the next capture or crowning in won and lost positions (a byte each)."""

    @classmethod
    def load(cls, variant: str | Variant, directory: Path | None = None) -> Tablebase | None:
        """The largest database of ``variant`` in ``directory`` (default: :func:`default_dir`),
        or None when there is none."""
        rules = get_variant(variant)
        for pieces in range(5, 1, -1):
            path = path_of(rules, pieces, directory)
            if path.exists() and fits(rules, path):
                return cls.read(rules, path)
        return None

    @classmethod
    def read(cls, variant: Variant, path: Path) -> Tablebase:
        with np.load(path) as data:
            if str(data["fingerprint"]) != fingerprint(variant):
                raise ValueError(f"{path} was built for other rules than {variant.name}'s")
            return cls(
                variant,
                int(data["pieces"]),
                data["values"],
                data["distances"],
                int(data["count"]),
            )

    def value(self, board: Board) -> str:
        """``"win"``, ``"draw"`` or ``"loss"`` for the side to move."""
        if board.variant != self.variant:
            raise ValueError(f"this database is for {self.variant.name}, not {board.variant.name}")
        return self.value_of(board.cells, board.turn)

    def value_of(self, cells: npt.NDArray[np.int8], turn: int) -> str:
        """:meth:`value` of the kernel's cell array ``cells``, ``turn`` to move."""
        bits = self.spec.bits
        mine = (cells == 2 * turn + 1) | (cells == 2 * turn + 2)
        theirs = (cells > 0) & ~mine
        pieces = int(mine.sum() + theirs.sum())
        if pieces > self.pieces:
            raise ValueError(f"{pieces} pieces: this database holds at most {self.pieces}")
        if not mine.any():
            return VALUE_NAMES[WIN if self.variant.giveaway else LOSS]
        if not theirs.any():
            raise ValueError("the side not to move has no piece: the game is over")
        kings = (cells > 0) & (cells % 2 == 0)
        words = [np.uint64(np.bitwise_or.reduce(bits[m], initial=0)) for m in (mine, theirs, kings)]
        value = probe_position(self.layout.ix, self.values, *words, turn)
        return VALUE_NAMES[int(value)]

    def counts(self) -> list[tuple[Material, int, int, int]]:
        """(class, won, drawn, lost) of every class, for the side to move."""
        lay = self.layout
        values = unpack(self.values, lay.total)
        rows = []
        for material, start, size in zip(lay.classes, lay.starts, lay.sizes, strict=True):
            tally = np.bincount(values[start : start + size], minlength=4)
            rows.append((material, int(tally[WIN]), int(tally[DRAW]), int(tally[LOSS])))
        return rows


def verify(base: Tablebase) -> int:
    """How many positions of a loaded database disagree with their successors (0: sound)."""
    work = Work(base.spec, base.pieces, base.variant.giveaway)
    return check(work, unpack(base.values, base.layout.total), base.distances)


NO_TABLES = (
    np.zeros(IX_SIZE, dtype=np.int64),
    np.zeros(1, dtype=np.uint8),
    np.zeros(1, dtype=np.uint8),
)
"""What the search gets without a database: ``H_PIECES`` 0, so it never probes."""


@lru_cache(maxsize=16)
def _search_tables(
    variant: Variant, directory: Path, files: tuple[tuple[str, int], ...]
) -> tuple[I64, U8, U8]:
    """(``files``, the database files and their times, keys the cache: a database built
    while the process runs is loaded by the next engine.)"""
    try:
        base = Tablebase.load(variant, directory)
    except UNREADABLE:
        return NO_TABLES  # an unreadable file costs the search nothing
    if base is None:
        return NO_TABLES
    return base.layout.ix, base.values, base.distances


def search_tables(variant: Variant) -> tuple[I64, U8, U8]:
    """(index tables, packed values, distances) of ``variant``'s largest database in
    :func:`default_dir`, loaded once per process, or :data:`NO_TABLES`."""
    try:
        database_spec(variant)
    except ValueError:
        return NO_TABLES
    directory = default_dir()
    return _search_tables(variant, directory, database_files(variant, directory))


UNREADABLE = (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, zlib.error)
"""What reading a damaged database file (cut short by a copy, say) can raise."""


def file_problem(variant: Variant, path: Path) -> str | None:
    """Why the engine passes over the database file ``path`` (reading its fingerprint only),
    or None when it was built for ``variant``'s rules. A file passed over counts as none:
    the automatic build replaces it (:mod:`damier.egtb.auto`)."""
    try:
        with np.load(path) as data:
            if str(data["fingerprint"]) != fingerprint(variant):
                return "built for other rules"
    except UNREADABLE:
        return "unreadable"
    return None


def fits(variant: Variant, path: Path) -> bool:
    """Whether the engine reads the database file ``path`` for ``variant``."""
    return file_problem(variant, path) is None


def database_files(variant: Variant, directory: Path) -> tuple[tuple[str, int], ...]:
    """The names and modification times of ``variant``'s database files in ``directory``."""
    found = []
    for pieces in range(5, 1, -1):
        path = path_of(variant, pieces, directory)
        try:
            found.append((path.name, path.stat().st_mtime_ns))
        except OSError:
            continue
    return tuple(found)


def describe_counts(base: Tablebase) -> list[str]:
    """One line per class: won, drawn and lost positions for the side to move."""
    lines = []
    for material, won, drawn, lost in base.counts():
        lines.append(
            f"{material_name(material):12} win {won:>10,} draw {drawn:>10,} loss {lost:>10,}"
        )
    return lines
