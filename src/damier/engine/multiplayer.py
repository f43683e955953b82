"""Search for three or more players, in the kernel's style: paranoid alpha-beta and max-n.

With n players "my score is minus yours" no longer holds, so two classic searches are offered:

- **paranoid**: the player to move at the root (with his partners, in team mode) against the
  coalition of everybody else, who are assumed to play only to hurt him. It is a two-sided
  game again, so alpha-beta prunes as usual; the value is the root player's utility.
- **max-n**: every player picks the move best for himself; a node's value is the vector of
  everybody's utilities (see :mod:`damier.engine.multiplayer_eval`). Since two teams'
  utilities never add up to more than ``SCALE``, a player can stop looking once he has
  secured so much that his predecessor can no longer gain here (shallow pruning).

Both search a position ``depth`` plies deep (one ply = one player's move), play captures out,
order moves by the transposition table's move, capture size, killers and history, and pass
the turn exactly as :class:`~damier.board.Board` does (:func:`advance`, tested against it):
clockwise, a player with no pieces out at once, a blocked player out (or passing) when his
turn comes, his pieces removed, dead or handed over as the variant says.

Each search is one recursive compiled function, called from Python once per root move
(Numba's cache cannot hold a recursive function called from another compiled one). Every
array is allocated by :class:`MultiplayerSearch`.
"""

from __future__ import annotations

import random
import time as clock
from collections.abc import Iterator
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from damier.board import Board, Move
from damier.engine import Info
from damier.engine.alarm import ALARM
from damier.engine.levels import Level
from damier.engine.multiplayer_eval import (
    DECIDED,
    DRAWN,
    PLAYING,
    SCALE,
    WIN,
    kernel,
    kernel_inline,
    piece_values,
    utilities,
)
from damier.engine.search import HISTORY, game_keys, pick, refuted
from damier.kernel import layout as L
from damier.kernel.movegen import Scratch, generate, make_move, unmake_move
from damier.kernel.tables import Tables, compile_tables
from damier.rules import Variant
from damier.rules.description import Blocked, Leftovers
from damier.rules.draws import QuietRounds

PARANOID = "paranoid"
MAXN = "max-n"
ALGORITHMS = (PARANOID, MAXN)

Cells = npt.NDArray[np.int8]
Rows = npt.NDArray[np.int32]
Ints = npt.NDArray[np.int64]
Keys = npt.NDArray[np.uint64]
Values = npt.NDArray[np.int32]


MAX_PLY = 64
CAPACITY = 256
"""Move rows per ply; a position with more moves is judged as it stands."""
INFINITY = 2 * WIN

# Slots of ``stats``.
S_NODES = 0
S_STOP = 1
S_NODE_LIMIT = 2  # 0: none
S_SELDEPTH = 3
S_ROOT = 4  # the player to move at the root
S_HISTORY = 5  # game positions before the root in ``keys``
S_QUIET_ROUNDS = (
    6  # rounds without a capture or a man's move that draw (RULES.md 12.2; 0: no limit)
)
# Slots of ``params``: the rules of turns that the kernel tables do not hold.
P_GIVEAWAY = 0  # 1: the first player out wins
P_PASS = 1  # 1: a blocked player with pieces passes instead of going out
P_LEFTOVERS = 2  # what an eliminated player's pieces become, one of the LEFT_* values
LEFT_REMOVED, LEFT_DEAD, LEFT_TO_ELIMINATOR = 0, 1, 2

# Transposition-table entry fields.
T_DEPTH = 0
T_SCORE = 1
T_FLAG = 2
T_MOVE = 3
EXACT, LOWER, UPPER = 0, 1, 2


def rule_params(variant: Variant) -> npt.NDArray[np.int64]:
    """The ``params`` vector of ``variant`` (the ``P_*`` slots). With two players a
    blocked player always loses, as on the two-player board."""
    passes = variant.players > 2 and variant.when_blocked is Blocked.PASS
    leftovers = {
        Leftovers.REMOVED: LEFT_REMOVED,
        Leftovers.DEAD: LEFT_DEAD,
        Leftovers.TO_ELIMINATOR: LEFT_TO_ELIMINATOR,
    }[variant.leftovers]
    return np.array(
        [int(variant.giveaway), int(passes), leftovers],
        dtype=np.int64,
    )


# -- turns ------------------------------------------------------------------------------


@kernel_inline
def _decided(t: Tables, active: int, params: Ints) -> bool:
    """One team left; in the giveaway form, as soon as anybody is out."""
    players = t.rules[L.R_PLAYERS]
    if params[P_GIVEAWAY] == 1 and active != (1 << players) - 1:
        return True
    first = -1
    for p in range(players):
        if (active >> p) & 1:
            team = t.rules[L.R_TEAM + p]
            if first < 0:
                first = team
            elif team != first:
                return False
    return True


@kernel_inline
def _drop(t: Tables, sq: Cells, player: int, eliminator: int, params: Ints) -> None:
    """Take ``player``'s pieces off the board, or make them dead, or the eliminator's (his
    own from then on: a man standing where he crowns is crowned)."""
    kind = params[P_LEFTOVERS]
    heir = t.rules[L.R_PLAYERS] if kind == LEFT_DEAD else eliminator
    for cell in range(sq.shape[0]):
        code = sq[cell]
        if code != 0 and (code - 1) >> 1 == player:
            if kind == LEFT_REMOVED:
                sq[cell] = 0
            elif code % 2 == 0 or (kind == LEFT_TO_ELIMINATOR and t.counts[L.CROWN, heir, cell]):
                sq[cell] = 2 * heir + 2
            else:
                sq[cell] = 2 * heir + 1


@kernel
def advance(
    t: Tables,
    sq: Cells,
    mover: int,
    active: int,
    params: Ints,
    moves: Rows,
    work: Rows,
    frames: Ints,
    backup: Cells,
) -> tuple[int, int, int, bool, int]:
    """After ``mover``'s move on ``sq``: the next player, the players still in, how many
    moves he has (written into ``moves``; -1: more than it holds), whether ``sq`` was
    changed (its state before is then in ``backup``), and the status (``PLAYING``,
    ``DECIDED``, or ``DRAWN`` when every player left is blocked and passes).

    The same steps as ``Board._pass_turn``: players without pieces go out at once; then,
    clockwise, each blocked player goes out (or passes) until one can move."""
    players = t.rules[L.R_PLAYERS]
    owners = 0
    for cell in range(sq.shape[0]):
        code = sq[cell]
        if code != 0:
            owner = (code - 1) >> 1
            if owner < players:
                owners |= 1 << owner
    active = active & owners
    player = mover
    passes = 0
    modified = False
    while not _decided(t, active, params):
        for step in range(1, players + 1):
            q = (player + step) % players
            if (active >> q) & 1:
                player = q
                break
        count = generate(t, sq, player, moves, work, frames, True, True)
        if count != 0:
            return player, active, count, modified, PLAYING
        if params[P_PASS] == 1 and (owners >> player) & 1:
            passes += 1
            left = 0
            for p in range(players):
                left += (active >> p) & 1
            if passes >= left:
                return player, active, 0, modified, DRAWN
            continue
        if not modified:
            for cell in range(sq.shape[0]):
                backup[cell] = sq[cell]
            modified = True
        _drop(t, sq, player, mover, params)
        active &= ~(1 << player)
    return player, active, 0, modified, DECIDED


# -- shared helpers ---------------------------------------------------------------------


@kernel_inline
def _key(t: Tables, sq: Cells, player: int, active: int) -> np.uint64:
    """The position's hash, as ``Board.zobrist_hash``: pieces, player to move, players out."""
    z = t.zobrist
    cells = sq.shape[0]
    players = t.rules[L.R_PLAYERS]
    h = z[cells, player]
    for cell in range(cells):
        if sq[cell] != 0:
            h ^= z[cell, sq[cell]]
    for p in range(players):
        if not (active >> p) & 1:
            h ^= z[cells, players + 1 + p]
    return h  # type: ignore[no-any-return]


@kernel_inline
def _move_key(moves: Rows, i: int) -> int:
    """A compact identity of move row ``i``: origin, destination and captured set."""
    signature = 0
    for k in range(moves[i, L.NCAP]):
        signature |= 1 << (moves[i, L.CAPS + k] % 47)
    return int(moves[i, L.FROM] | (moves[i, L.TO] << 8) | (signature << 16))


@kernel_inline
def _repeated(keys: Keys, position: int, key: np.uint64) -> bool:
    """Whether the position occurred before, in the game or on the way here (the search
    scores it as a draw). ``position`` is its index in ``keys``."""
    for back in range(position - 1, -1, -1):  # noqa: SIM110 (no generators in the kernel)
        if keys[back] == key:
            return True
    return False


@kernel_inline
def _score_moves(
    moves: Rows, count: int, ply: int, order: Ints, remembered: int, killers: Ints, history: Ints
) -> None:
    """Ordering scores: the table's move, bigger captures, crownings, killers, history."""
    captures = moves[0, L.NCAP] > 0
    for i in range(count):
        k = _move_key(moves, i)
        if k == remembered:
            score = 1 << 40
        elif captures:
            score = moves[i, L.NCAP] << 20
        elif moves[i, L.NEW_PIECE] != moves[i, L.PIECE]:
            score = 1 << 31
        elif k == killers[ply, 0]:
            score = 1 << 30
        elif k == killers[ply, 1]:
            score = 1 << 29
        else:
            score = history[moves[i, L.FROM], moves[i, L.TO]]
        order[ply, i, 0] = score
        order[ply, i, 1] = i


@kernel_inline
def _mark_out(t: Tables, active: int, left: int, eliminated_at: Ints, ply: int) -> None:
    for p in range(t.rules[L.R_PLAYERS]):
        if (active >> p) & 1 and not (left >> p) & 1:
            eliminated_at[p] = ply


@kernel_inline
def _restore(sq: Cells, backup: Cells) -> None:
    for cell in range(sq.shape[0]):
        sq[cell] = backup[cell]


@kernel_inline
def _good_quiet(moves: Rows, i: int, ply: int, depth: int, killers: Ints, history: Ints) -> None:
    refuted(killers, history, ply, _move_key(moves, i), depth, moves[i, L.FROM], moves[i, L.TO])


@kernel_inline
def quiet_rounds(
    t: Tables, moves: Rows, i: int, left: int, status: int, quiet: Ints, ply: int, stats: Ints
) -> int:
    """Count move ``i`` into ``quiet[ply + 1]``; the game's status after it: drawn after
    ``stats[S_QUIET_ROUNDS]`` rounds of the players in the game without a capture or a
    man's move (RULES.md 12.2), which the utilities then score below a lead in material."""
    if moves[i, L.NCAP] > 0 or moves[i, L.PIECE] % 2 == 1:
        quiet[ply + 1] = 0
    else:
        quiet[ply + 1] = quiet[ply] + 1
    if status == PLAYING and stats[S_QUIET_ROUNDS] > 0:
        players = 0
        for p in range(t.rules[L.R_PLAYERS]):
            players += (left >> p) & 1
        if quiet[ply + 1] >= stats[S_QUIET_ROUNDS] * players:
            return DRAWN
    return status


# -- paranoid ---------------------------------------------------------------------------


@kernel
def paranoid(
    t: Tables,
    sq: Cells,
    player: int,
    active: int,
    depth: int,
    ply: int,
    alpha: int,
    beta: int,
    count: int,
    params: Ints,
    values: Values,
    buffers: Rows,
    order: Ints,
    work: Rows,
    frames: Ints,
    backup: Cells,
    eliminated_at: Ints,
    vec: Ints,
    totals: Ints,
    tt_keys: Keys,
    tt_data: Ints,
    killers: Ints,
    history: Ints,
    keys: Keys,
    stats: Ints,
    quiet: Ints,
    salt: np.uint64,
) -> int:
    """The root player's utility within (alpha, beta), ``depth`` plies deep: his team
    maximises, every other player minimises. ``player``'s ``count`` moves are already in
    ``buffers[ply]`` (written by :func:`advance`)."""
    stats[S_NODES] += 1
    if stats[S_NODE_LIMIT] > 0 and stats[S_NODES] >= stats[S_NODE_LIMIT]:
        stats[S_STOP] = 1
    if stats[S_STOP] == 1:
        return 0
    if ply > stats[S_SELDEPTH]:
        stats[S_SELDEPTH] = ply
    root = stats[S_ROOT]
    giveaway = params[P_GIVEAWAY]
    key = _key(t, sq, player, active)
    keys[stats[S_HISTORY] + ply] = key
    if _repeated(keys, stats[S_HISTORY] + ply, key):
        utilities(t, sq, active, eliminated_at, DRAWN, ply, values, giveaway, totals, vec[ply])
        return int(vec[ply, root])
    moves = buffers[ply]
    if count < 0 or ply >= MAX_PLY - 2 or (depth <= 0 and moves[0, L.NCAP] == 0):
        utilities(t, sq, active, eliminated_at, PLAYING, ply, values, giveaway, totals, vec[ply])
        return int(vec[ply, root])
    captures = moves[0, L.NCAP] > 0
    tkey = key ^ salt
    slot = tkey & (tt_keys.shape[0] - 1)
    remembered = -1
    if tt_keys[slot] == tkey:
        remembered = tt_data[slot, T_MOVE]
        if tt_data[slot, T_DEPTH] >= depth:
            score = tt_data[slot, T_SCORE]
            if score > WIN - 1000:
                score -= ply
            elif score < -WIN + 1000:
                score += ply
            flag = tt_data[slot, T_FLAG]
            if (
                flag == EXACT
                or (flag == LOWER and score >= beta)
                or (flag == UPPER and score <= alpha)
            ):
                return int(score)
    _score_moves(moves, count, ply, order, remembered, killers, history)
    maximising = t.rules[L.R_TEAM + player] == t.rules[L.R_TEAM + root]
    best = -INFINITY if maximising else INFINITY
    best_key = 0
    alpha0, beta0 = alpha, beta
    child_depth = depth - 1 if depth > 0 else 0
    for n in range(count):
        i = pick(order, ply, n, count)
        make_move(t, sq, moves, i)
        following, left, moves_there, modified, status = advance(
            t, sq, player, active, params, buffers[ply + 1], work, frames, backup[ply + 1]
        )
        _mark_out(t, active, left, eliminated_at, ply + 1)
        status = quiet_rounds(t, moves, i, left, status, quiet, ply, stats)
        if status != PLAYING:
            utilities(
                t, sq, left, eliminated_at, status, ply + 1, values, giveaway, totals, vec[ply + 1]
            )
            score = vec[ply + 1, root]
        else:
            score = paranoid(
                t,
                sq,
                following,
                left,
                child_depth,
                ply + 1,
                alpha,
                beta,
                moves_there,
                params,
                values,
                buffers,
                order,
                work,
                frames,
                backup,
                eliminated_at,
                vec,
                totals,
                tt_keys,
                tt_data,
                killers,
                history,
                keys,
                stats,
                quiet,
                salt,
            )
        if modified:
            _restore(sq, backup[ply + 1])
        unmake_move(t, sq, moves, i)
        if stats[S_STOP] == 1:
            return 0
        if maximising:
            if score > best:
                best = score
                best_key = _move_key(moves, i)
                alpha = max(alpha, score)
        elif score < best:
            best = score
            best_key = _move_key(moves, i)
            beta = min(beta, score)
        if alpha >= beta:
            if not captures:
                _good_quiet(moves, i, ply, depth, killers, history)
            break
    stored = best
    if stored > WIN - 1000:
        stored += ply
    elif stored < -WIN + 1000:
        stored -= ply
    tt_keys[slot] = tkey
    tt_data[slot, T_DEPTH] = depth
    tt_data[slot, T_SCORE] = stored
    tt_data[slot, T_FLAG] = UPPER if best <= alpha0 else (LOWER if best >= beta0 else EXACT)
    tt_data[slot, T_MOVE] = best_key
    return best


# -- max-n ------------------------------------------------------------------------------


@kernel
def maxn(
    t: Tables,
    sq: Cells,
    player: int,
    active: int,
    depth: int,
    ply: int,
    parent: int,
    parent_best: int,
    count: int,
    params: Ints,
    values: Values,
    buffers: Rows,
    order: Ints,
    work: Rows,
    frames: Ints,
    backup: Cells,
    eliminated_at: Ints,
    vec: Ints,
    totals: Ints,
    tt_keys: Keys,
    tt_data: Ints,
    killers: Ints,
    history: Ints,
    keys: Keys,
    stats: Ints,
    quiet: Ints,
    salt: np.uint64,
) -> None:
    """Write the utilities of the position into ``vec[ply]``, ``depth`` plies deep, each
    player choosing the move best for himself. ``parent`` (the player who moved here, -1 at
    the root) has secured ``parent_best`` already: once ``player`` holds so much that
    ``parent`` cannot get more here, the rest is not searched (shallow pruning)."""
    stats[S_NODES] += 1
    if stats[S_NODE_LIMIT] > 0 and stats[S_NODES] >= stats[S_NODE_LIMIT]:
        stats[S_STOP] = 1
    if stats[S_STOP] == 1:
        return
    if ply > stats[S_SELDEPTH]:
        stats[S_SELDEPTH] = ply
    giveaway = params[P_GIVEAWAY]
    key = _key(t, sq, player, active)
    keys[stats[S_HISTORY] + ply] = key
    if _repeated(keys, stats[S_HISTORY] + ply, key):
        utilities(t, sq, active, eliminated_at, DRAWN, ply, values, giveaway, totals, vec[ply])
        return
    moves = buffers[ply]
    if count < 0 or ply >= MAX_PLY - 2 or (depth <= 0 and moves[0, L.NCAP] == 0):
        utilities(t, sq, active, eliminated_at, PLAYING, ply, values, giveaway, totals, vec[ply])
        return
    captures = moves[0, L.NCAP] > 0
    tkey = key ^ salt
    slot = tkey & (tt_keys.shape[0] - 1)
    remembered = -1
    if tt_keys[slot] == tkey:
        remembered = tt_data[slot, T_MOVE]
    _score_moves(moves, count, ply, order, remembered, killers, history)
    players = t.rules[L.R_PLAYERS]
    team = t.rules[L.R_TEAM + player]
    shallow = giveaway == 0 and parent >= 0 and t.rules[L.R_TEAM + parent] != team
    best = -INFINITY
    best_key = 0
    child_depth = depth - 1 if depth > 0 else 0
    for n in range(count):
        i = pick(order, ply, n, count)
        make_move(t, sq, moves, i)
        following, left, moves_there, modified, status = advance(
            t, sq, player, active, params, buffers[ply + 1], work, frames, backup[ply + 1]
        )
        _mark_out(t, active, left, eliminated_at, ply + 1)
        status = quiet_rounds(t, moves, i, left, status, quiet, ply, stats)
        if status != PLAYING:
            utilities(
                t, sq, left, eliminated_at, status, ply + 1, values, giveaway, totals, vec[ply + 1]
            )
        else:
            maxn(
                t,
                sq,
                following,
                left,
                child_depth,
                ply + 1,
                player,
                best,
                moves_there,
                params,
                values,
                buffers,
                order,
                work,
                frames,
                backup,
                eliminated_at,
                vec,
                totals,
                tt_keys,
                tt_data,
                killers,
                history,
                keys,
                stats,
                quiet,
                salt,
            )
        if modified:
            _restore(sq, backup[ply + 1])
        unmake_move(t, sq, moves, i)
        if stats[S_STOP] == 1:
            return
        if vec[ply + 1, player] > best:
            best = vec[ply + 1, player]
            best_key = _move_key(moves, i)
            for p in range(players):
                vec[ply, p] = vec[ply + 1, p]
            if best > WIN - 1000 or (shallow and best >= SCALE - parent_best):
                if not captures:
                    _good_quiet(moves, i, ply, depth, killers, history)
                break
    tt_keys[slot] = tkey
    tt_data[slot, T_DEPTH] = depth
    tt_data[slot, T_MOVE] = best_key


# -- the root ---------------------------------------------------------------------------


class MultiplayerSearch:
    """Iterative deepening over :func:`paranoid` or :func:`maxn` for one variant, at one
    level; its arrays are allocated once."""

    def __init__(
        self,
        variant: Variant,
        level: Level,
        rng: random.Random | None = None,
        table_megabytes: int = 32,
        algorithm: str = PARANOID,
    ) -> None:
        if algorithm not in ALGORITHMS:
            raise ValueError(f"algorithm must be one of {', '.join(ALGORITHMS)}")
        self.variant = variant
        self.level = level
        self.algorithm = algorithm
        self._rng = rng or random.Random()
        self._tables = compile_tables(variant)
        players = variant.players
        maxc = int(self._tables.rules[L.R_MAXC])
        cells = len(self._tables.rays)
        self._params = rule_params(variant)
        self._values = piece_values(variant)
        self.buffers = np.zeros((MAX_PLY, CAPACITY, L.row_width(maxc)), dtype=np.int32)
        self.order = np.zeros((MAX_PLY, CAPACITY, 2), dtype=np.int64)
        scratch = Scratch(cells, maxc)
        self.work, self.frames = scratch.work, scratch.frames
        self.backup = np.zeros((MAX_PLY, cells), dtype=np.int8)
        self.eliminated_at = np.zeros(players, dtype=np.int64)
        self.vec = np.zeros((MAX_PLY + 1, players), dtype=np.int64)
        self.totals = np.zeros(2 * players + 2, dtype=np.int64)
        entries = 1 << max(10, (table_megabytes * 1024 * 1024 // 40).bit_length() - 1)
        self.tt_keys = np.zeros(entries, dtype=np.uint64)
        self.tt_data = np.zeros((entries, 4), dtype=np.int64)
        self._lines_table: tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64]] | None = None
        """The transposition table of the multi-PV lines after the first (made when used)."""
        self.killers = np.zeros((MAX_PLY, 2), dtype=np.int64)
        self.history = np.zeros((cells, cells), dtype=np.int64)
        self.keys = np.zeros(HISTORY + MAX_PLY + 1, dtype=np.uint64)
        self.stats = np.zeros(8, dtype=np.int64)
        self.quiet = np.zeros(MAX_PLY + 1, dtype=np.int64)
        """Per ply, the plies in a row without a capture or a man's move (RULES.md 12.2)."""
        salts = np.random.default_rng(20261122).integers(
            1, np.iinfo(np.int64).max, size=players, dtype=np.int64
        )
        self._salts = [np.uint64(s) for s in salts]
        start_men = sum(variant.pieces_per_player)
        self._hundredths = 100 * start_men / SCALE
        """Hundredths of a man per unit of utility (at the start of the game)."""
        self._warm_up()

    def _warm_up(self) -> None:
        """Compile (or load from the cache) the search before any clock runs."""
        for _ in self.iterate(Board(self.variant), None, 1, None):
            pass
        self.clear()

    def stop(self) -> None:
        """Make the running search return as soon as possible (it keeps its best move)."""
        self.stats[S_STOP] = 1

    def clear(self) -> None:
        """Forget the transposition table (a new game)."""
        self.tt_keys[:] = 0
        self.tt_data[:] = 0
        self.killers[:] = 0
        self.history[:] = 0
        self._lines_table = None

    def _child(
        self,
        sq: npt.NDArray[np.int8],
        player: int,
        active: int,
        rows: npt.NDArray[np.int32],
        index: int,
        depth: int,
        alpha: int,
        beta: int,
    ) -> int:
        """Play root move ``index``, search the position it leads to ``depth`` plies deep,
        take the move back; the root player's utility."""
        t = self._tables
        make_move(t, sq, rows, index)
        following, left, count, modified, status = advance(
            t, sq, player, active, self._params, self.buffers[1], self.work, self.frames,
            self.backup[1],
        )  # fmt: skip
        for p in range(self.variant.players):
            if (active >> p) & 1 and not (int(left) >> p) & 1:
                self.eliminated_at[p] = 1
        status = quiet_rounds(t, rows, index, left, status, self.quiet, 0, self.stats)
        salt = self._salts[player] if self.algorithm == PARANOID else np.uint64(0)
        arrays = (
            self._params,
            self._values,
            self.buffers,
            self.order,
            self.work,
            self.frames,
            self.backup,
            self.eliminated_at,
            self.vec,
            self.totals,
            self.tt_keys,
            self.tt_data,
            self.killers,
            self.history,
            self.keys,
            self.stats,
            self.quiet,
            salt,
        )
        if status != PLAYING:
            utilities(
                t, sq, left, self.eliminated_at, status, 1, self._values,
                self._params[P_GIVEAWAY], self.totals, self.vec[1],
            )  # fmt: skip
            score = int(self.vec[1, player])
        elif self.algorithm == PARANOID:
            score = int(paranoid(t, sq, following, left, depth, 1, alpha, beta, count, *arrays))
        else:
            maxn(t, sq, following, left, depth, 1, player, alpha, count, *arrays)
            score = int(self.vec[1, player])
        if modified:
            sq[:] = self.backup[1]
        unmake_move(t, sq, rows, index)
        return score

    def iterate(
        self,
        board: Board,
        time: float | None,
        depth: int | None,
        nodes: int | None,
        multipv: int = 1,
    ) -> Iterator[Info]:
        """The search's information after every iteration (the same limits and lines as
        :meth:`damier.engine.Engine.search`)."""
        level = self.level
        max_depth = min(depth or level.depth, level.depth, MAX_PLY - 8)
        budget = min(time if time is not None else level.seconds, level.seconds)
        limits = [x for x in (nodes or 0, level.nodes) if x]
        stats = self.stats
        stats[:] = 0
        stats[S_NODE_LIMIT] = min(limits) if limits else 0
        stats[S_ROOT] = board.turn
        stats[S_QUIET_ROUNDS] = next(
            (r.rounds for r in self.variant.draw_rules if isinstance(r, QuietRounds)), 0
        )
        self.killers[:] = 0
        self.history //= 8
        started = clock.perf_counter()
        rows, legal = board._generate()
        if not legal:
            yield Info(0, 0, None, (), 0, 0.0, 0)
            return
        alarm = ALARM.set(budget, self.stop)
        try:
            yield from self._deepen(board, rows, list(legal), max_depth, budget, started, multipv)
        finally:
            ALARM.cancel(alarm)

    def _deepen(
        self,
        board: Board,
        rows: npt.NDArray[np.int32],
        moves: list[Move],
        max_depth: int,
        budget: float,
        started: float,
        multipv: int,
    ) -> Iterator[Info]:
        stats = self.stats
        sq = board.cells
        player = board.turn
        active = sum(1 << p for p in board.active_players)
        self.eliminated_at[:] = 0
        history, self.quiet[0] = game_keys(board)
        self.keys[: len(history)] = history
        self.keys[len(history)] = np.uint64(board.zobrist_hash())
        stats[S_HISTORY] = len(history)
        noise = self.level.noise / self._hundredths
        if len(moves) == 1 and noise == 0:
            yield Info(0, 0, None, (moves[0],), 0, 0.0, 0)
            return
        order = list(range(len(moves)))
        for iteration in range(1, max_depth + 1):
            best, best_index = -INFINITY, order[0]
            scores: dict[int, int] = {}
            for i in order:
                alpha = -INFINITY if noise else best
                score = self._child(sq, player, active, rows, i, iteration - 1, alpha, INFINITY)
                if stats[S_STOP] == 1:
                    break
                scores[i] = score
                if score > best:
                    best, best_index = score, i
            if stats[S_STOP] == 1 and (iteration > 1 or not scores):
                if iteration == 1:  # stopped before one move was searched: any legal move
                    yield self._info(0, 0, (moves[order[0]],), started, 2)
                break
            if noise:
                noisy = {i: s + self._rng.gauss(0, noise) for i, s in scores.items()}
                best_index = max(noisy, key=lambda i: noisy[i])
                best = scores[best_index]
            order.sort(key=lambda i: -scores.get(i, -INFINITY))
            order.remove(best_index)
            order.insert(0, best_index)
            teams_in = len({self.variant.team_of[p] for p in board.active_players})
            info = self._info(iteration, best, (moves[best_index],), started, teams_in)
            if multipv > 1 and stats[S_STOP] == 0:
                others = [i for i in order if i != best_index]
                found = self._other_lines(
                    sq, player, active, rows, others, iteration, best, multipv - 1
                )
                if stats[S_STOP] == 1:  # the other lines are unfinished: keep the last ones
                    break
                lines = [self._info(iteration, u, (moves[i],), started, teams_in) for i, u in found]
                info = replace(info, lines=(info, *lines))
            yield info
            won_or_lost = info.mate is not None and iteration > abs(info.mate) + 2
            if stats[S_STOP] == 1 or won_or_lost or info.seconds > budget * 0.5:
                break

    def _other_lines(
        self,
        sq: npt.NDArray[np.int8],
        player: int,
        active: int,
        rows: npt.NDArray[np.int32],
        candidates: list[int],
        depth: int,
        best: int,
        count: int,
    ) -> list[tuple[int, int]]:
        """(root move, utility) of the ``count`` best moves after the main one, at its
        depth, as :meth:`damier.engine.Engine._other_lines` finds them: above the
        ``count``-th best so far, at most the main line's value, with a transposition
        table, killers and history of their own (the main line stays the single line's)."""
        saved = (self.tt_keys, self.tt_data, self.killers.copy(), self.history.copy())
        if self._lines_table is None:
            self._lines_table = (np.zeros_like(self.tt_keys), np.zeros_like(self.tt_data))
        self.tt_keys, self.tt_data = self._lines_table
        scores: dict[int, int] = {}
        exact: list[int] = []
        bound = -INFINITY
        try:
            for i in candidates:
                score = self._child(sq, player, active, rows, i, depth - 1, bound, INFINITY)
                if self.stats[S_STOP] == 1:
                    return []
                scores[i] = min(score, best)
                if score > bound:
                    exact.append(i)
                if len(scores) >= count:
                    bound = sorted(scores.values(), reverse=True)[count - 1]
        finally:
            self.tt_keys, self.tt_data = saved[0], saved[1]
            self.killers[:], self.history[:] = saved[2], saved[3]
        return [(i, scores[i]) for i in sorted(exact, key=lambda i: -scores[i])[:count]]

    def _info(
        self, depth: int, utility: int, pv: tuple[Move, ...], started: float, teams_in: int
    ) -> Info:
        """The search's state as the engine reports it: the utility above an even share,
        in hundredths of a man, or the plies to a win (> 0) or to going out (< 0)."""
        mate = None
        score = round((utility - SCALE / max(teams_in, 1)) * self._hundredths)
        if utility > WIN - 1000:
            mate, score = WIN - utility, utility
        elif utility < -WIN + 1000:
            mate, score = -(utility + WIN), utility
        stats = self.stats
        return Info(
            depth,
            score,
            mate,
            pv,
            int(stats[S_NODES]),
            clock.perf_counter() - started,
            int(stats[S_SELDEPTH]),
        )
