"""Alpha-beta search in the kernel's style: principal-variation search with a transposition
table, killer and history move ordering, late-move reductions, and a quiescence that plays
captures out (in draughts a capture is compulsory, so there is no "stand pat").

The recursive :func:`negamax` is compiled with Numba and called from Python once per root
move (Numba's cache cannot hold a recursive function called from another compiled one).
Every array is allocated by :class:`SearchContext`. The node's steps (entry, table probe
and store, ordering, reductions, the best move's bookkeeping) are small inline helpers, so
that the bitboard search (:mod:`damier.engine.bitsearch`) and the multi-player one are the
same search on another position.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import numpy as np
import numpy.typing as npt

from damier.engine.evaluation import evaluate
from damier.kernel import layout as L
from damier.kernel.jit import kernel, kernel_inline, prefetch
from damier.kernel.movegen import Scratch, generate, make_move, unmake_move
from damier.rules import Variant
from damier.rules.description import Direction
from damier.rules.draws import QuietMoves

if TYPE_CHECKING:
    from damier.board import Board

MATE = 1_000_000
"""Score of a won position (minus the plies to reach it)."""
INFINITY = 2_000_000
MAX_PLY = 128
HISTORY = 200
"""Game positions before the root that the search sees (a repetition of one is a draw)."""

# Slots of ``stats``.
S_NODES = 0
S_STOP = 1
S_NODE_LIMIT = 2  # 0: none
S_SELDEPTH = 3
S_NO_MOVE = 4  # score of having no move: -MATE (lose) or +MATE (giveaway: win)
S_HISTORY = 5  # number of game positions before the root in ``keys``
S_KING_LIMIT = 6  # Frisian: quiet moves in a row a king may make while its side has men (0: none)
S_SAME_KING = 7  # 1: only one king's moves count (another king's starts anew), 0: any king's
S_QUIET_LIMIT = 8  # plies without a capture or a man move after which the game is drawn (0: none)
S_CONTEMPT = 9  # what a draw costs the side to move at the root, in hundredths of a man
S_MEN_FORWARD = 10  # 1: men only step forward, so no position comes back across a man's move

# Transposition-table entry flags: the score is exact, a lower bound, an upper bound.
EXACT, LOWER, UPPER = 0, 1, 2


@kernel_inline
def move_key(moves, i):
    """A compact identity of move row ``i``: origin, destination and captured set."""
    signature = 0
    for k in range(moves[i, L.NCAP]):
        signature |= 1 << (moves[i, L.CAPS + k] % 47)
    return moves[i, L.FROM] | (moves[i, L.TO] << 8) | (signature << 16)


@kernel_inline
def _key_delta(t, moves, i, player, following, maxc):
    """How the Zobrist hash changes when move row ``i`` is played."""
    z = t.zobrist
    cells = z.shape[0] - 1
    delta = z[moves[i, L.FROM], moves[i, L.PIECE]] ^ z[moves[i, L.TO], moves[i, L.NEW_PIECE]]
    for k in range(moves[i, L.NCAP]):
        delta ^= z[moves[i, L.CAPS + k], moves[i, L.CAPS + maxc + k]]
    return delta ^ z[cells, player] ^ z[cells, following]


@kernel_inline
def enter(stats, keys, pv, key, ply, quiet):
    """Count the node and record its key on the line; True when it is over before it
    starts: the search must stop, or the position repeats one on the way here with the same
    player to move (scored as a draw). Where men only step forward, only the ``quiet`` plies
    since the last capture or man move can hold a repetition, and the walk stops there."""
    if stats[S_STOP] == 1:  # (a node never searched is not counted)
        return True
    stats[S_NODES] += 1
    if stats[S_NODE_LIMIT] > 0 and stats[S_NODES] >= stats[S_NODE_LIMIT]:
        stats[S_STOP] = 1
        return True
    pv[ply, 0] = 0
    if ply > stats[S_SELDEPTH]:
        stats[S_SELDEPTH] = ply
    position = stats[S_HISTORY] + ply
    keys[position] = key
    back = position - 2
    reach = quiet if stats[S_MEN_FORWARD] == 1 and quiet < 100 else 100
    while back >= 0 and position - back <= reach:
        if keys[back] == key:
            return True
        back -= 2
    return False


@kernel_inline
def _folded(move):
    """A move's key as an entry remembers it (:func:`_entry`)."""
    return (move ^ (move >> 32)) & 0xFFFFFFFF


@kernel_inline
def _entry(depth, score, flag, move):
    """An entry's fields in one word: the remembered move's key folded to 32 bits (it only
    orders moves), the flag, the depth in 8 bits (those below -128 search alike: only
    captures are left; a search never goes past :data:`MAX_PLY` - 8) and the score (within
    a mate either way)."""
    if depth < -128:
        depth = -128
    elif depth > 127:
        depth = 127
    return np.uint64(_folded(move) | (flag << 32) | ((depth + 128) << 34) | ((score + MATE) << 42))


@kernel_inline
def probe(table, key, depth, ply, alpha, beta):
    """(the remembered best move's folded key or -1, whether the entry decides the node, its
    score): a transposition-table lookup. An entry is two words, the position's key XORed
    with the fields and the fields, one cache line: an entry torn by two threads writing
    the same slot at once (Lazy SMP, see :mod:`damier.engine.threads`) no longer matches
    its key and is ignored."""
    slot = key & (table.shape[0] - 1)
    fields = table[slot, 1]
    if table[slot, 0] ^ fields != key:
        return -1, False, 0
    word = np.int64(fields)
    remembered = word & 0xFFFFFFFF
    stored_depth = ((word >> 34) & 255) - 128
    if stored_depth < depth or ply == 0:
        return remembered, False, 0
    flag = (word >> 32) & 3
    score = (word >> 42) - MATE
    if score > MATE - 1000:
        score -= ply
    elif score < -MATE + 1000:
        score += ply
    decides = (
        flag == EXACT or (flag == LOWER and score >= beta) or (flag == UPPER and score <= alpha)
    )
    return remembered, decides, score


@kernel_inline
def prefetch_entry(table, key):
    """Ask for the table entry of ``key`` ahead of :func:`probe` (a node's child, before
    the move is played): the entry is the search's costliest memory wait."""
    prefetch(table, key & (table.shape[0] - 1))


@kernel_inline
def store(table, key, depth, ply, best, flag, best_key):
    """Remember the node's result (mate scores made relative to the node)."""
    if best > MATE - 1000:
        best += ply
    elif best < -MATE + 1000:
        best -= ply
    slot = key & (table.shape[0] - 1)
    fields = _entry(depth, best, flag, best_key)
    table[slot, 1] = fields
    table[slot, 0] = key ^ fields


@kernel_inline
def ordering_score(k, remembered, ncap, killers, history, ply, origin, to):
    """How early a move is tried: the remembered best move, then captures by size, then the
    killers, then quiet moves by history."""
    if _folded(k) == remembered:
        return 1 << 40
    if ncap > 0:
        return ncap << 20
    if k == killers[ply, 0]:
        return 1 << 30
    if k == killers[ply, 1]:
        return 1 << 29
    return history[origin, to]


@kernel_inline
def pick(order, ply, n, count):
    """Selection sort, one step: bring the best remaining move to place ``n``; its row."""
    top = n
    for m in range(n + 1, count):
        if order[ply, m, 0] > order[ply, top, 0]:
            top = m
    if top != n:
        for f in range(order.shape[2]):
            swap = order[ply, n, f]
            order[ply, n, f] = order[ply, top, f]
            order[ply, top, f] = swap
    return order[ply, n, 1]


@kernel_inline
def reduced(n, depth, captures, child_depth, pv_node, crowns):
    """Late-move reduction: the depth at which the ``n``-th move is first searched. Quiet
    moves after the first (after the third on the principal line), crowning excepted, lose
    a ply, and two from the fifth off the principal line."""
    if depth < 2 or captures or crowns or n < (3 if pv_node else 1):
        return child_depth
    return child_depth - (2 if not pv_node and n >= 4 else 1)


FUTILITY_DEPTH = 3
FUTILITY_MARGIN = 50
"""Reverse futility: how far above beta a shallow node's static value must stand, per ply
left, for the node to be cut without searching its moves."""


@kernel_inline
def futile(stats, depth, alpha, beta, captures):
    """Whether the node may be cut on its static value: a shallow node off the principal
    line whose side has no capture to play, and whose bound is no won or lost score; not
    in a giveaway game (having no move wins), where the evaluation says little of what a
    sacrifice forces."""
    return (
        0 < depth <= FUTILITY_DEPTH
        and beta - alpha == 1
        and not captures
        and abs(beta) < MATE // 4
        and stats[S_NO_MOVE] < 0
    )


@kernel_inline
def threatened(t, sq, player, spare, work, frames):
    """Whether the other side of ``player`` might capture (the bitboard search's
    ``threatens``): he has a king, or a capture (listed into the ``spare`` move buffer)."""
    other = 1 - player
    for cell in range(sq.shape[0]):
        if sq[cell] == 2 * other + 2:
            return True
    spare[0, L.NCAP] = 0
    return generate(t, sq, other, spare, work, frames, True, False) < 0 or spare[0, L.NCAP] > 0


@kernel_inline
def next_depth(depth, count):
    """The depth left to a child: one ply less, except after the only move (a forced capture
    most often), which costs no depth, so that exchanges and sacrifices are seen to their
    end."""
    if depth <= 0:
        return 0
    if count == 1:
        return depth
    return depth - 1


@kernel_inline
def tired_king(stats, runs, ply, has_men):
    """The cell of the king of the side to move that may not make another quiet move
    (Frisian), -2 when no king may, -1 when every king may."""
    if stats[S_KING_LIMIT] == 0 or runs[ply, 0] < stats[S_KING_LIMIT] or not has_men:
        return -1
    return runs[ply, 1] if stats[S_SAME_KING] == 1 else -2


@kernel_inline
def resting(tired, quiet_king, origin):
    """Whether the rule of :func:`tired_king` forbids this move."""
    return quiet_king and (tired == -2 or (tired >= 0 and origin == tired))


@kernel_inline
def count_king_run(stats, runs, ply, quiet_king, origin, to):
    """After the move at ``ply``, the mover's quiet king moves in a row (and where the king
    stands) as ``runs[ply + 2]``: what :func:`tired_king` reads two plies down."""
    if stats[S_KING_LIMIT] == 0:
        return
    if not quiet_king:
        runs[ply + 2, 0] = 0
    elif stats[S_SAME_KING] == 1 and runs[ply, 1] != origin:
        runs[ply + 2, 0] = 1
    else:
        runs[ply + 2, 0] = runs[ply, 0] + 1
    runs[ply + 2, 1] = to


@kernel_inline
def count_quiet_plies(runs, ply, irreversible):
    """After the move at ``ply``, the plies since the last capture or man move as
    ``runs[ply + 1, 2]`` (0 after an ``irreversible`` move)."""
    runs[ply + 1, 2] = 0 if irreversible else runs[ply, 2] + 1


@kernel_inline
def draw_value(stats, ply):
    """A draw's value for the side to move at ``ply``: the contempt less for the root's
    side (even plies), more for the other (a player ahead in strength avoids draws)."""
    return -stats[S_CONTEMPT] if ply % 2 == 0 else stats[S_CONTEMPT]


@kernel_inline
def quiet_moves_draw(stats, runs, ply):
    """Whether the game is drawn here by its rule of quiet moves (the 25-move rule, ...):
    as many plies as it allows without a capture or a man move. Having no move comes first
    (the caller knows the side to move has one), as in the game."""
    return stats[S_QUIET_LIMIT] > 0 and runs[ply, 2] >= stats[S_QUIET_LIMIT]


@kernel_inline
def new_best(pv, ply, best_key):
    """The principal variation of this node: the move, then its child's line."""
    pv[ply, 1] = best_key
    length = pv[ply + 1, 0]
    for p in range(length):
        pv[ply, 2 + p] = pv[ply + 1, 1 + p]
    pv[ply, 0] = length + 1


@kernel_inline
def refuted(killers, history, ply, best_key, depth, origin, to):
    """A quiet move caused a cut-off: remember it as a killer and in the history."""
    if killers[ply, 0] != best_key:
        killers[ply, 1] = killers[ply, 0]
        killers[ply, 0] = best_key
    history[origin, to] += depth * depth


@kernel_inline
def tried_in_vain(history, order, ply, n, depth):
    """The quiet moves tried before the ``n``-th, which caused a cut-off, each lose in the
    history what it gained (their squares are in ``order[ply, m, 2]``), so that the next
    ordering tries them later, and the reductions fall on them."""
    for m in range(n):
        squares = order[ply, m, 2]
        history[squares & 0xFFFF, squares >> 16] -= depth * depth


@kernel
def negamax(
    t,
    sq,
    player,
    key,
    depth,
    ply,
    alpha,
    beta,
    buffers,
    order,
    work,
    frames,
    table,
    killers,
    history,
    keys,
    pv,
    stats,
    runs,
    pst,
    extra,
):
    """The value of the position for ``player`` within (alpha, beta), ``depth`` plies deep
    (captures are always played out)."""
    if enter(stats, keys, pv, key, ply, runs[ply, 2]):
        return draw_value(stats, ply)
    if t.rules[L.R_CROWNING_WINS] == 1:  # Breakthrough: the opponent has crowned and won
        opponent_king = 2 * (1 - player) + 2
        for cell in range(sq.shape[0]):
            if sq[cell] == opponent_king:
                return -MATE + ply
    moves = buffers[ply]
    # At a leaf only a capture is searched on: quiet moves are counted (is there any move at
    # all?), not written, and row 0 shows whether a capture was found.
    moves[0, L.NCAP] = 0
    count = generate(t, sq, player, moves, work, frames, True, depth > 0)
    if count < 0:  # more moves than the buffer holds: judge the position as it stands
        return evaluate(t, sq, player, pst, extra)
    if count == 0:
        return stats[S_NO_MOVE] + (ply if stats[S_NO_MOVE] < 0 else -ply)
    if quiet_moves_draw(stats, runs, ply):
        return draw_value(stats, ply)
    captures = moves[0, L.NCAP] > 0
    if (depth <= 0 and not captures) or ply >= MAX_PLY - 2:
        return evaluate(t, sq, player, pst, extra)
    remembered, decides, score = probe(table, key, depth, ply, alpha, beta)
    if decides:
        return score
    if futile(stats, depth, alpha, beta, captures) and t.rules[L.R_PLAYERS] == 2:
        static = evaluate(t, sq, player, pst, extra) - FUTILITY_MARGIN * depth
        if static >= beta and not threatened(t, sq, player, buffers[ply + 1], work, frames):
            return static
    for i in range(count):
        k = move_key(moves, i)
        origin, to = moves[i, L.FROM], moves[i, L.TO]
        order[ply, i, 0] = ordering_score(
            k, remembered, moves[i, L.NCAP], killers, history, ply, origin, to
        )
        order[ply, i, 1] = i
        order[ply, i, 2] = np.int64(origin) | (np.int64(to) << 16)
    following = (player + 1) % t.rules[L.R_PLAYERS]
    maxc = t.rules[L.R_MAXC]
    best = -INFINITY
    best_key = 0
    flag = UPPER
    child_depth = next_depth(depth, count)
    tired = -1
    if stats[S_KING_LIMIT] > 0:
        men = False
        for cell in range(sq.shape[0]):
            men = men or sq[cell] == 2 * player + 1
        tired = tired_king(stats, runs, ply, men)
    for n in range(count):
        i = pick(order, ply, n, count)
        quiet_king = not captures and moves[i, L.PIECE] % 2 == 0
        if resting(tired, quiet_king, moves[i, L.FROM]):
            continue
        count_king_run(stats, runs, ply, quiet_king, moves[i, L.FROM], moves[i, L.TO])
        count_quiet_plies(runs, ply, not quiet_king)
        child_key = key ^ _key_delta(t, moves, i, player, following, maxc)
        make_move(t, sq, moves, i)
        # Principal-variation search: the first move gets the full window; the others a
        # null window, reduced when late and quiet, searched again in full if they beat it.
        window = -beta if n == 0 else -alpha - 1
        crowns = moves[i, L.PIECE] != moves[i, L.NEW_PIECE]
        search_depth = reduced(n, depth, captures, child_depth, beta - alpha > 1, crowns)
        while True:
            score = -negamax(
                t,
                sq,
                following,
                child_key,
                search_depth,
                ply + 1,
                window,
                -alpha,
                buffers,
                order,
                work,
                frames,
                table,
                killers,
                history,
                keys,
                pv,
                stats,
                runs,
                pst,
                extra,
            )
            narrowed = search_depth < child_depth or (window != -beta and score < beta)
            if n == 0 or score <= alpha or not narrowed:
                break
            window, search_depth = -beta, child_depth
        unmake_move(t, sq, moves, i)
        if stats[S_STOP] == 1:
            return 0
        if score > best:
            best = score
            best_key = move_key(moves, i)
            if score > alpha:
                alpha = score
                flag = EXACT
                new_best(pv, ply, best_key)
                if alpha >= beta:
                    flag = LOWER
                    if not captures:
                        refuted(
                            killers, history, ply, best_key, depth, moves[i, L.FROM], moves[i, L.TO]
                        )
                        tried_in_vain(history, order, ply, n, depth)
                    break
    if best == -INFINITY:  # every move was a tired king's: no move
        best = stats[S_NO_MOVE] + (ply if stats[S_NO_MOVE] < 0 else -ply)
    store(table, key, depth, ply, best, flag, best_key)
    return best


def quiet_moves_limit(variant: Variant) -> int:
    """The plies of ``variant``'s rule of quiet moves (:data:`S_QUIET_LIMIT`), 0 without one."""
    return next((rule.plies for rule in variant.draw_rules if isinstance(rule, QuietMoves)), 0)


def men_only_forward(variant: Variant) -> int:
    """1 when ``variant``'s men only step forward (:data:`S_MEN_FORWARD`): then no position
    comes back across a man's move. Turkish men step sideways too."""
    return int(variant.man_moves <= {Direction.FORWARD, Direction.FORWARD_DIAGONAL})


def game_keys(board: Board) -> tuple[list[int], int]:
    """The game's positions since its last capture or man move (none can come back across
    one), oldest first, at most :data:`HISTORY`; and the quiet moves since then."""
    line = board.copy()
    keys: list[int] = []
    quiet = 0
    while line.move_stack and len(keys) < HISTORY:
        move = line.pop()
        if not move.path:  # a resignation's elimination
            break
        keys.append(line.zobrist_hash())
        man = line.piece_at(move.from_square)
        if move.is_capture or (man is not None and not man[1]):
            break
        quiet += 1
    return keys[::-1], quiet


@kernel
def _fill_child_keys(t, rows, count, player, following, key, out):
    maxc = t.rules[L.R_MAXC]
    for i in range(count):
        out[i] = key ^ _key_delta(t, rows, i, player, following, maxc)


@kernel
def _fill_move_keys(rows, count, out):
    for i in range(count):
        out[i] = move_key(rows, i)


def child_keys(t: object, rows: np.ndarray, player: int, following: int, key: int) -> list[int]:
    """The hash of the position after each move row."""
    out = np.zeros(len(rows), dtype=np.uint64)
    _fill_child_keys(t, rows, len(rows), player, following, np.uint64(key), out)
    return [int(k) for k in out]


def row_keys(rows: np.ndarray) -> list[int]:
    """:func:`move_key` of each move row."""
    out = np.zeros(len(rows), dtype=np.int64)
    _fill_move_keys(rows, len(rows), out)
    return [int(k) for k in out]


class FasterSearch(Protocol):
    """The same search as :func:`negamax` on another representation of the position (the
    bitboard search of :mod:`damier.engine.bitsearch` is one): same values, faster."""

    tablebase: tuple[np.ndarray, np.ndarray, np.ndarray]
    """The endgame database it probes (:func:`damier.egtb.probe.search_tables`)."""

    def twin(self) -> FasterSearch:
        """The same search with buffers of its own, for another thread."""
        ...

    def run(
        self,
        context: SearchContext,
        sq: npt.NDArray[np.int8],
        player: int,
        key: int,
        depth: int,
        ply: int,
        alpha: int,
        beta: int,
        pst: npt.NDArray[np.int32],
        extra: npt.NDArray[np.int32],
    ) -> int: ...


def empty_table(entries: int) -> npt.NDArray[np.uint64]:
    """A transposition table of ``entries`` empty entries, its memory written now. Zeros
    from ``np.zeros`` are mapped lazily, page by page as the search first writes them, and
    those faults fell in a new engine's first timed search: 140 ms of it (the table of 32
    MB, on this project's 2-core VM, with the 5-piece database loaded beside it), so that
    ``Engine("russian").search(board, time=0.1)`` returned a depth-1 move. Written here,
    5 ms before any clock runs."""
    table = np.empty((entries, 2), dtype=np.uint64)
    table.fill(0)
    return table


class SearchContext:
    """Every array one search needs, allocated once per engine and variant."""

    def __init__(
        self,
        cells: int,
        max_captures: int,
        table_megabytes: int = 32,
        bitboards: FasterSearch | None = None,
    ) -> None:
        self.bitboards = bitboards
        """When set, :meth:`run` searches with it (on bitboards: the same values, faster)."""
        self._shape = (cells, max_captures)
        width = L.row_width(max_captures)
        capacity = 256
        self.buffers = np.zeros((MAX_PLY, capacity, width), dtype=np.int32)
        self.order = np.zeros((MAX_PLY, capacity, 3), dtype=np.int64)
        """Per ply and move: its ordering score, its row and its squares (from | to << 16)."""
        scratch = Scratch(cells, max_captures)
        self.work, self.frames = scratch.work, scratch.frames
        entries = 1 << max(10, (table_megabytes * 1024 * 1024 // 16).bit_length() - 1)
        self.table = empty_table(entries)
        """The transposition table: two words an entry (see :func:`probe`)."""
        self.killers = np.zeros((MAX_PLY, 2), dtype=np.int64)
        self.history = np.zeros((cells, cells), dtype=np.int64)
        self.keys = np.zeros(MAX_PLY + 1024, dtype=np.uint64)
        self.pv = np.zeros((MAX_PLY + 1, MAX_PLY + 2), dtype=np.int64)
        self.stats = np.zeros(11, dtype=np.int64)
        self.runs = np.zeros((MAX_PLY + 4, 3), dtype=np.int64)
        """Per ply: (Frisian) the side to move's quiet king moves in a row and the cell of
        that king (:func:`count_king_run`); the plies since the last capture or man move
        (:func:`count_quiet_plies`)."""

    def sibling(self) -> SearchContext:
        """A context for another thread searching beside this one: arrays of its own, the
        same transposition table (:mod:`damier.engine.threads`)."""
        bitboards = self.bitboards.twin() if self.bitboards is not None else None
        sibling = SearchContext(*self._shape, table_megabytes=0, bitboards=bitboards)
        sibling.table = self.table
        return sibling

    def refresh_tablebase(self, variant: Variant) -> None:
        """Take up the variant's endgame database if one was built since the context was
        made (:mod:`damier.egtb.auto`)."""
        from damier.egtb.probe import search_tables

        if self.bitboards is not None:
            self.bitboards.tablebase = search_tables(variant)

    def clear(self) -> None:
        """Forget everything learnt (a new game): a search then depends on its position
        only."""
        self.table[:] = 0
        self.history[:] = 0
        self.new_search()

    def read_king_runs(self, board: Board) -> None:
        """Frisian: take each side's quiet king moves in a row from the game (before a search
        from ``board``; the count is in ``stats``)."""
        if self.stats[S_KING_LIMIT]:
            self.runs[0, :2] = board._king_run(int(board._tables.rules[L.R_PLAYERS]))
            self.runs[1, :2] = board._king_run(1)

    def read_history(self, board: Board, key: int) -> None:
        """Put the game's positions before the root, then the root's ``key``, where the
        search looks for repetitions: a line that goes back to one of them is a draw, so
        that the side ahead does not walk into the game's repetition rule; and the plies
        since the game's last capture or man move, which its rule of quiet moves counts."""
        history, quiet = game_keys(board)
        self.keys[: len(history)] = history
        self.keys[len(history)] = np.uint64(key)
        self.stats[S_HISTORY] = len(history)
        self.runs[0, 2] = quiet

    def root_move(self, row: np.ndarray) -> None:
        """Count root move ``row`` into the king runs and the quiet plies (call before
        searching it)."""
        quiet_king = row[L.NCAP] == 0 and row[L.PIECE] % 2 == 0
        count_king_run(self.stats, self.runs, 0, quiet_king, row[L.FROM], row[L.TO])
        count_quiet_plies(self.runs, 0, not quiet_king)

    def new_search(self) -> None:
        """Reset the per-search tables, keeping the transposition table."""
        self.killers[:] = 0
        self.history //= 8
        self.stats[S_NODES] = 0
        self.stats[S_STOP] = 0
        self.stats[S_SELDEPTH] = 0

    def run(
        self,
        t: object,
        sq: np.ndarray,
        player: int,
        key: int,
        depth: int,
        ply: int,
        alpha: int,
        beta: int,
        pst: np.ndarray,
        extra: np.ndarray,
    ) -> int:
        """:func:`negamax` on this context's arrays (or its bitboard twin)."""
        if self.bitboards is not None:
            return self.bitboards.run(self, sq, player, key, depth, ply, alpha, beta, pst, extra)
        return int(
            negamax(
                t,
                sq,
                player,
                np.uint64(key),
                depth,
                ply,
                alpha,
                beta,
                self.buffers,
                self.order,
                self.work,
                self.frames,
                self.table,
                self.killers,
                self.history,
                self.keys,
                self.pv,
                self.stats,
                self.runs,
                pst,
                extra,
            )
        )
