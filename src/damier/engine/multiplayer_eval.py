"""Evaluation for n players: a utility per player, the share of the material his team holds.

A two-player evaluation is one number, "mine minus his". With n players that loses who the
material belongs to, so each player gets a utility: his team's weighted material (men worth
more as they near a crowning cell, kings about three men, free steps of men) as a share of
everyone's, scaled to ``SCALE``. Shares are never negative and two teams' shares never add up
to more than ``SCALE``: max-n's shallow pruning needs that bound. A finished game scores
``WIN`` (less the plies to get there) for the winners, and every eliminated team scores
``-WIN`` plus the ply it went out at: being out is the worst, being out late less bad.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

from damier.kernel import layout as L
from damier.kernel.jit import kernel as _numba_kernel
from damier.kernel.jit import kernel_inline as _numba_inline
from damier.kernel.tables import Tables, compile_tables
from damier.rules import Range, Variant

_F = TypeVar("_F", bound=Callable[..., Any])


def kernel(function: _F) -> _F:
    """The kernel's decorator, keeping the function's signature for mypy."""
    return cast(_F, _numba_kernel(function))


def kernel_inline(function: _F) -> _F:
    """The kernel's inlined decorator, keeping the function's signature for mypy."""
    return cast(_F, _numba_inline(function))


SCALE = 9000
"""The utilities of a position that is not final add up to this."""
WIN = 1_000_000
"""A won game's utility (less the plies to reach it); an eliminated team scores ``-WIN``
plus its elimination ply."""

MAN = 100
"""A man's worth; the weights below are in hundredths of a man."""
ADVANCE = 40
"""A man's extra worth on the cell just before crowning (growing with the square of the
progress towards it)."""
FLYING_KING = 300
SHORT_KING = 160
MOBILITY = 3
"""Per free step of a man: a man that can move is worth a little more than a blocked one."""

# Values of ``status`` in :func:`utilities`.
PLAYING = 0
DECIDED = 1
"""One team is left (giveaway: somebody is out)."""
DRAWN = 2
"""A repetition, or nobody can move (when blocked players pass)."""


def crown_distances(tables: Tables, player: int) -> npt.NDArray[np.int32]:
    """Man steps from each cell to the nearest cell where ``player``'s men are crowned (-1 if
    none is reachable), by a breadth-first walk backwards from the crowning cells."""
    cells = tables.rays.shape[0]
    successors: list[list[int]] = [[] for _ in range(cells)]
    predecessors: list[list[int]] = [[] for _ in range(cells)]
    for cell in range(cells):
        for k in range(int(tables.counts[L.MAN_STEP, player, cell])):
            d = int(tables.dirs[L.MAN_STEP, player, cell, k])
            to = int(tables.rays[cell, d, 0])
            if to >= 0 and tables.dirs[L.SHARED, 0, cell, d] == 0:
                successors[cell].append(to)
                predecessors[to].append(cell)
    distance = np.full(cells, -1, dtype=np.int32)
    queue = deque(c for c in range(cells) if tables.counts[L.CROWN, player, c] == 1)
    for cell in queue:
        distance[cell] = 0
    while queue:
        cell = queue.popleft()
        for before in predecessors[cell]:
            if distance[before] < 0:
                distance[before] = distance[cell] + 1
                queue.append(before)
    return distance


@cache
def piece_values(variant: Variant) -> npt.NDArray[np.int32]:
    """``values[piece code, cell]``: what that piece is worth there to its owner (dead pieces'
    codes are worth nothing). Computed once per variant from the tables' rays."""
    tables = compile_tables(variant)
    players = variant.players
    cells = tables.rays.shape[0]
    king = FLYING_KING if variant.king_range is Range.FLYING else SHORT_KING
    values = np.zeros((2 * players + 3, cells), dtype=np.int32)
    for player in range(players):
        distance = crown_distances(tables, player)
        longest = max(1, int(distance.max()))
        for cell in range(cells):
            progress = 1 - distance[cell] / longest if distance[cell] >= 0 else 0.0
            values[2 * player + 1, cell] = round(MAN + ADVANCE * progress * progress)
            values[2 * player + 2, cell] = king
    return values


@kernel
def utilities(
    t: Tables,
    sq: npt.NDArray[np.int8],
    active: int,
    eliminated_at: npt.NDArray[np.int64],
    status: int,
    ply: int,
    values: npt.NDArray[np.int32],
    giveaway: int,
    totals: npt.NDArray[np.int64],
    out: npt.NDArray[np.int64],
) -> None:
    """Write each player's utility into ``out`` (``out[p]`` is p's team's).

    ``active`` is the bit set of players still in the game, ``eliminated_at[p]`` the ply
    where an eliminated player went out, ``status`` one of ``PLAYING``, ``DECIDED``,
    ``DRAWN``; ``giveaway`` 1 when the first player out wins; ``totals`` is work space (one
    slot per team number)."""
    players = t.rules[L.R_PLAYERS]
    for i in range(totals.shape[0]):
        totals[i] = 0
    # Which teams are in, and when each team that is out went out (its last member).
    teams_in = 0
    for p in range(players):
        team = t.rules[L.R_TEAM + p]
        if (active >> p) & 1:
            if totals[team] == 0:
                teams_in += 1
            totals[team] = 1
    for p in range(players):
        team = t.rules[L.R_TEAM + p]
        if totals[team] == 1:
            out[p] = 0
            continue
        last = 0
        for q in range(players):
            if t.rules[L.R_TEAM + q] == team and eliminated_at[q] > last:
                last = eliminated_at[q]
        out[p] = -WIN + last
    if status == DECIDED:
        for p in range(players):
            team_in = totals[t.rules[L.R_TEAM + p]] == 1
            if giveaway == 1:
                # The first out wins: whoever went out on this very ply.
                if team_in:
                    out[p] = -WIN + ply
                elif eliminated_at[p] == ply:
                    out[p] = WIN - ply
            elif team_in:
                out[p] = WIN - ply
        return
    if status == DRAWN:
        for p in range(players):
            if totals[t.rules[L.R_TEAM + p]] == 1:
                out[p] = SCALE // max(teams_in, 1)
        return
    for i in range(totals.shape[0]):
        totals[i] = 0
    total = 0
    for cell in range(sq.shape[0]):
        code = sq[cell]
        if code == 0:
            continue
        owner = (code - 1) >> 1
        if owner >= players:
            continue  # a dead piece
        value = values[code, cell]
        if code % 2 == 1:
            for k in range(t.counts[L.MAN_STEP, owner, cell]):
                to = t.rays[cell, t.dirs[L.MAN_STEP, owner, cell, k], 0]
                if to >= 0 and sq[to] == 0:
                    value += MOBILITY
        totals[t.rules[L.R_TEAM + owner]] += value
        total += value
    if total == 0:
        return
    for p in range(players):
        if not (active >> p) & 1:
            # An eliminated partner shares the team's fortune while a partner plays on.
            team = t.rules[L.R_TEAM + p]
            alive = False
            for q in range(players):
                if t.rules[L.R_TEAM + q] == team and (active >> q) & 1:
                    alive = True
            if not alive:
                continue
        share = totals[t.rules[L.R_TEAM + p]]
        if giveaway == 1 and teams_in > 1:
            out[p] = SCALE * (total - share) // (total * (teams_in - 1))
        else:
            out[p] = SCALE * share // total
