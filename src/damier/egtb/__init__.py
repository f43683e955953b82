"""Endgame databases: won, drawn or lost for every position of a few pieces.

Built by Damier itself (:mod:`damier.egtb.build`, retrograde analysis in compiled code on
the bitboard move generator), stored compressed in the user's data directory
(:mod:`damier.egtb.probe`) and probed by the engine's bitboard search when present. A
database is per variant: the values depend on every move rule (capture choice, crowning
during a capture, flying kings), so Russian and Brazilian each have their own.
"""

from __future__ import annotations

from pathlib import Path

from damier.kernel import KERNEL_SOURCES, key_numba_cache

SOURCES = sorted(p for p in Path(__file__).parent.glob("*.py") if p.name != "auto.py")
"""The compiled databases code (the engine's cache is keyed on it too; the background
builder holds none)."""

# The compiled code here embeds the kernel's: key its cache on both (see damier.kernel).
key_numba_cache(
    Path(__file__).parent / "__pycache__", "egtb.fingerprint", [*KERNEL_SOURCES, *SOURCES]
)

from damier.egtb.probe import Tablebase, build, default_dir  # noqa: E402

__all__ = ["Tablebase", "build", "default_dir"]
