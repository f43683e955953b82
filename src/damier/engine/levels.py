"""Strength levels 1-10: each a bound on depth, nodes and time, and evaluation noise.

Noise is added to the value of every root move before the best is chosen, so a weak level
plays plausible moves and sometimes the wrong one, as a beginner does, rather than random
ones. Level 10 is the full engine.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    """The limits of one level."""

    depth: int
    """Deepest iteration (plies; captures are always played out)."""
    nodes: int
    """Node budget per move (0: none)."""
    seconds: float
    """Longest think per move."""
    noise: int
    """Standard deviation of the noise added to root move values (hundredths of a man)."""


LEVELS: dict[int, Level] = {
    1: Level(depth=1, nodes=2_000, seconds=0.2, noise=250),
    2: Level(depth=2, nodes=5_000, seconds=0.2, noise=150),
    3: Level(depth=3, nodes=10_000, seconds=0.3, noise=100),
    4: Level(depth=4, nodes=30_000, seconds=0.3, noise=60),
    5: Level(depth=5, nodes=100_000, seconds=0.5, noise=35),
    6: Level(depth=6, nodes=300_000, seconds=0.5, noise=20),
    7: Level(depth=8, nodes=1_000_000, seconds=1.0, noise=10),
    8: Level(depth=10, nodes=3_000_000, seconds=2.0, noise=0),
    9: Level(depth=14, nodes=10_000_000, seconds=5.0, noise=0),
    10: Level(depth=100, nodes=0, seconds=3600.0, noise=0),
}

MAX_THREADS = 64
"""The most search threads an engine takes (``Engine(threads=...)``, Hub, DXP)."""
