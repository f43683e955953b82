"""The search on bitboards: :func:`damier.engine.search.negamax` for the two-player games
that the bitboard fast path covers (International, Russian, English, ...), with two to
three times as many nodes a second.

The algorithm, the transposition table, the move keys, the Zobrist keys and the evaluation
are the table search's own: moves are named by the kernel's cells (``cell_of``), so the
root, the principal variation and the game history need no translation, and the tests hold
both searches to the same values. Only the position is different: three words (the side to
move, the other side, the kings) and the bitboard move generator.
"""

from __future__ import annotations

import copy
import os

import numpy as np
import numpy.typing as npt

from damier.egtb.index import DRAW, H_PIECES, WIN, packed_value, probe_index
from damier.egtb.probe import NO_TABLES, search_tables
from damier.engine.evaluation import NETWORK, combine
from damier.engine.network import (
    add_piece,
    clear_accumulators,
    counted,
    move_piece,
    network_output,
)
from damier.engine.patterns import (
    REGIONS,
    configured_value,
    reconfigure,
    set_configurations,
    squares_by,
)
from damier.engine.search import (
    EXACT,
    FUTILITY_MARGIN,
    INFINITY,
    LOWER,
    MATE,
    MAX_PLY,
    S_KING_LIMIT,
    S_NO_MOVE,
    S_STOP,
    UPPER,
    SearchContext,
    count_king_run,
    count_quiet_plies,
    draw_value,
    enter,
    futile,
    new_best,
    next_depth,
    ordering_score,
    pick,
    prefetch_entry,
    probe,
    quiet_moves_draw,
    reduced,
    refuted,
    resting,
    store,
    tired_king,
    tried_in_vain,
)
from damier.geometry import SquareGeometry, geometry_of
from damier.kernel.bitboard import (
    FB_WIDTH,
    FI_WIDTH,
    G_BOARD,
    G_NOT_LEFT,
    G_NOT_RIGHT,
    M_CAPS,
    M_FROM,
    M_KING,
    M_TO,
    M_WIDTH,
    MAX_LEVELS,
    ONE,
    ORTHOGONAL_DIRECTIONS,
    Q_MAN_STEP,
    Q_SHIFT_A,
    Q_SHIFT_B,
    Q_SHIFT_V,
    ZERO,
    Spec,
    bit_index,
    bitboard_spec,
    cell_words,
    has_quiet,
    jump_step,
    list_captures,
    list_quiet,
    popcount,
    step,
    threatens,
)
from damier.kernel.jit import FRAME_SLOT, frame_array, framed, kernel, kernel_inline
from damier.kernel.tables import Tables
from damier.rules import Variant

CAPACITY = 256  # moves per ply, as the table search's buffers
TABLEBASE_WIN = MATE // 2
"""The score of a position an endgame database says is won, less 256 for each piece and
each man left and one for each ply to the next capture or crowning: each step of a won
ending then scores more than the last, so the search makes progress through them. Far
below the mate scores, so a win the search sees to the end is preferred."""


@kernel_inline
def placement(me, opp, kings, player, pst):
    """The material and placement of ``player``'s pieces ``me`` less those of the other
    side's ``opp`` (``pst`` indexed by bit): what the search carries from ply to ply."""
    score = 0
    for side in range(2):
        pieces = me if side == 0 else opp
        owner = player if side == 0 else 1 - player
        sign = 1 if side == 0 else -1
        while pieces != ZERO:
            bit = pieces & ~(pieces - ONE)
            pieces ^= bit
            score += sign * pst[2 * owner + (2 if bit & kings else 1), bit_index(bit)]
    return score


@kernel_inline
def evaluate_bits(q, me, opp, kings, player, wings, extra, carried, ply):
    """:func:`damier.engine.evaluation.evaluate` of the position ``me`` (``player``, to
    move) against ``opp``; ``extra`` is indexed by bit (:meth:`BitboardPosition.by_bit`),
    ``wings`` holds the left and right halves of the board, the board and its edge masks
    (:attr:`BitboardPosition.wings`), and ``carried[ply]`` what the search carries of the
    position: its pattern configurations
    (:func:`damier.engine.patterns.set_configurations`), then White's :func:`placement`,
    then the network's accumulators of both views (:mod:`damier.engine.network`)."""
    regions = extra[REGIONS]
    white = carried[ply, 2 * regions]
    if regions > 0:
        white += configured_value(carried, ply, extra)
    own = white if player == 0 else -white
    network = extra[NETWORK]
    if network > 0 and counted(extra, network, popcount(me | opp)):
        own += network_output(carried, ply, 2 * regions + 1, player, extra, network)
    sa = np.uint64(q[Q_SHIFT_A])
    sb = np.uint64(q[Q_SHIFT_B])
    empty = ~(me | opp) & wings[2]
    my_men = me & ~kings
    their_men = opp & ~kings
    mine_step, theirs_step = q[Q_MAN_STEP + player], q[Q_MAN_STEP + 1 - player]
    mobility = 0
    for d in range(4):
        if (mine_step >> d) & 1:
            mobility += popcount(step(my_men, d, sa, sb) & empty)
        if (theirs_step >> d) & 1:
            mobility -= popcount(step(their_men, d, sa, sb) & empty)
    if (mine_step | theirs_step) & ORTHOGONAL_DIRECTIONS:  # men that step along the lines
        sh = (sa, sb, np.uint64(q[Q_SHIFT_V]), wings[3], wings[4])
        for d in range(4, 8):
            if (mine_step >> d) & 1:
                mobility += popcount(jump_step(my_men, d, sh) & empty)
            if (theirs_step >> d) & 1:
                mobility -= popcount(jump_step(their_men, d, sh) & empty)
    mine = popcount(my_men & wings[1]) - popcount(my_men & wings[0])
    theirs = popcount(their_men & wings[1]) - popcount(their_men & wings[0])
    return combine(
        own,
        mobility,
        mine,
        theirs,
        popcount(me),
        popcount(opp),
        popcount(me & kings),
        popcount(opp & kings),
        extra,
    )


@kernel_inline
def carried_width(extra):
    """How many numbers the search carries at each ply: the configurations of the
    patterns' regions in both views, the placement, the network's accumulators of both
    views."""
    network = extra[NETWORK]
    return 2 * extra[REGIONS] + 1 + (2 * extra[network] if network > 0 else 0)


@kernel
def set_accumulators(carried, ply, slot, white, black, kings, cell_of, extra):
    """The network's accumulators of both views in ``carried[ply]`` (from ``slot``), summed
    afresh for the pieces ``white`` and ``black`` (``kings`` among them)."""
    start = extra[NETWORK]
    clear_accumulators(carried, ply, slot, extra, start)
    for owner in range(2):
        pieces = white if owner == 0 else black
        while pieces != ZERO:
            bit = pieces & ~(pieces - ONE)
            pieces ^= bit
            code = 2 * owner + (2 if bit & kings else 1)
            add_piece(carried, ply, slot, code, cell_of[bit_index(bit)], 1, extra, start)


@kernel_inline
def _move_key(moves, ply, i, cell_of):
    """:func:`damier.engine.search.move_key` of bitboard move ``i``: origin, destination
    and captured set, by the kernel's cells."""
    signature = 0
    caps = moves[ply, i, M_CAPS]
    while caps != ZERO:
        bit = caps & ~(caps - ONE)
        caps ^= bit
        signature |= 1 << (cell_of[bit_index(bit)] % 47)
    origin = cell_of[bit_index(moves[ply, i, M_FROM])]
    return origin | (cell_of[bit_index(moves[ply, i, M_TO])] << 8) | (signature << 16)


@kernel_inline
def _play_carried(carried, ply, moves, i, kings, player, cell_of, pst, extra):
    """``carried[ply + 1]``: what ``carried[ply]`` says of the position (see
    :func:`evaluate_bits`) after bitboard move ``i``. Kings are not in the patterns: only
    the men that move, crown or are taken change the configurations; every piece is in the
    network's input."""
    regions = extra[REGIONS]
    network = extra[NETWORK]
    accumulators = 2 * regions + 1
    width = carried_width(extra)
    # The network's accumulators are written by move_piece; the rest is copied.
    copied = accumulators if network > 0 else width
    here, after = carried[ply, :copied], carried[ply + 1, :copied]
    for slot in range(copied):
        after[slot] = here[slot]
    origin = moves[ply, i, M_FROM]
    to = moves[ply, i, M_TO]
    crowned = moves[ply, i, M_KING] != ZERO
    if network > 0:
        was_king = origin & kings != ZERO
        code = 2 * player + (2 if was_king else 1)
        new_code = 2 * player + (2 if was_king or crowned else 1)
        origin_cell, to_cell = cell_of[bit_index(origin)], cell_of[bit_index(to)]
        move_piece(carried, ply, accumulators, code, origin_cell, new_code, to_cell, extra, network)
    gain = pst[2 * player + (2 if crowned else 1), bit_index(to)]
    gain -= pst[2 * player + (2 if origin & kings else 1), bit_index(origin)]
    if regions > 0 and origin & kings == ZERO:
        reconfigure(carried, ply + 1, cell_of[bit_index(origin)], player, -1, extra)
        if not crowned:
            reconfigure(carried, ply + 1, cell_of[bit_index(to)], player, 1, extra)
    caps = moves[ply, i, M_CAPS]
    while caps != ZERO:
        bit = caps & ~(caps - ONE)
        caps ^= bit
        king = bit & kings != ZERO
        gain += pst[2 * (1 - player) + (2 if king else 1), bit_index(bit)]
        if regions > 0 and not king:
            reconfigure(carried, ply + 1, cell_of[bit_index(bit)], 1 - player, -1, extra)
        if network > 0:
            code = 2 * (1 - player) + (2 if king else 1)
            add_piece(
                carried, ply + 1, accumulators, code, cell_of[bit_index(bit)], -1, extra, network
            )
    carried[ply + 1, 2 * regions] += gain if player == 0 else -gain


@kernel_inline
def _key_delta(moves, ply, i, kings, player, cell_of, z):
    """How the Zobrist hash changes when bitboard move ``i`` is played (the table kernel's
    keys: piece codes by cell)."""
    cells = z.shape[0] - 1
    origin = moves[ply, i, M_FROM]
    piece = 2 * player + (2 if origin & kings else 1)
    new_piece = 2 * player + (2 if moves[ply, i, M_KING] != ZERO else 1)
    delta = z[cell_of[bit_index(origin)], piece]
    delta ^= z[cell_of[bit_index(moves[ply, i, M_TO])], new_piece]
    caps = moves[ply, i, M_CAPS]
    while caps != ZERO:
        bit = caps & ~(caps - ONE)
        caps ^= bit
        taken = 2 * (1 - player) + (2 if bit & kings else 1)
        delta ^= z[cell_of[bit_index(bit)], taken]
    return delta ^ z[cells, player] ^ z[cells, 1 - player]


@kernel_inline
def _probe_tablebase(me, opp, kings, player, draw, tb_ix, tb_values, tb_distances):
    """(whether the endgame database holds the position, its score): a draw ``draw``, a win
    :data:`TABLEBASE_WIN` less 256 a piece and a man and its distance, a loss the
    opposite."""
    index = probe_index(tb_ix, me, opp, kings, player)
    if index < 0:
        return False, 0
    value = packed_value(tb_values, index)
    if value == DRAW:
        return True, draw
    left = popcount(me | opp) + popcount((me | opp) & ~kings)
    score = TABLEBASE_WIN - 256 * left - tb_distances[index]
    return True, score if value == WIN else -score


@kernel_inline
def _quiet_leaf(
    geo, q, me, opp, kings, player, wings, extra, carried, ply, stats, runs, tb_ix, tb_values,
    tb_distances,
):  # fmt: skip
    """The value of a node at the horizon whose side to move has no capture (entered):
    a draw by the rule of quiet moves, the endgame database's value, no move (a loss, or
    a win in the giveaway games), else the evaluation."""
    quiet = has_quiet(geo, q, me, opp, kings, player)
    if quiet and quiet_moves_draw(stats, runs, ply):
        return draw_value(stats, ply)
    if popcount(me | opp) <= tb_ix[H_PIECES]:
        draw = draw_value(stats, ply)
        found, score = _probe_tablebase(
            me, opp, kings, player, draw, tb_ix, tb_values, tb_distances
        )
        if found:
            return score
    if not quiet:
        return stats[S_NO_MOVE] + (ply if stats[S_NO_MOVE] < 0 else -ply)
    return evaluate_bits(q, me, opp, kings, player, wings, extra, carried, ply)


FRAME_ARRAYS = 23
"""Arrays in the frame of :func:`bit_negamax` (:func:`_framed`)."""


@kernel_inline
def _framed(
    frame, geo, q, cell_of, wings, z, moves, order, fb, fi, st, table, killers, history, keys,
    pv, stats, runs, pst, extra, carried, tb_ix, tb_values, tb_distances,
):  # fmt: skip
    """Write the search's arrays into ``frame`` (:func:`damier.kernel.jit.frame_array`),
    in the order :func:`bit_negamax` reads them back."""
    frame_array(frame, 0, geo)
    frame_array(frame, 1, q)
    frame_array(frame, 2, cell_of)
    frame_array(frame, 3, wings)
    frame_array(frame, 4, z)
    frame_array(frame, 5, moves)
    frame_array(frame, 6, order)
    frame_array(frame, 7, fb)
    frame_array(frame, 8, fi)
    frame_array(frame, 9, st)
    frame_array(frame, 10, table)
    frame_array(frame, 11, killers)
    frame_array(frame, 12, history)
    frame_array(frame, 13, keys)
    frame_array(frame, 14, pv)
    frame_array(frame, 15, stats)
    frame_array(frame, 16, runs)
    frame_array(frame, 17, pst)
    frame_array(frame, 18, extra)
    frame_array(frame, 19, carried)
    frame_array(frame, 20, tb_ix)
    frame_array(frame, 21, tb_values)
    frame_array(frame, 22, tb_distances)


@kernel
def bit_search(
    geo, q, cell_of, wings, z, me, opp, kings, player, key, depth, ply, alpha, beta, moves,
    order, fb, fi, st, table, killers, history, keys, pv, stats, runs, pst, extra, carried,
    tb_ix, tb_values, tb_distances, frame,
):  # fmt: skip
    """:func:`damier.engine.search.negamax` on bitboards: the value for ``player`` (whose
    pieces are ``me``) within (alpha, beta), ``depth`` plies deep, captures played out.
    ``tb_ix``, ``tb_values`` and ``tb_distances`` are an endgame database
    (:mod:`damier.egtb`), probed when no capture is pending and few enough pieces are
    left; ``frame`` is room for :func:`_framed`."""
    _framed(
        frame, geo, q, cell_of, wings, z, moves, order, fb, fi, st, table, killers, history,
        keys, pv, stats, runs, pst, extra, carried, tb_ix, tb_values, tb_distances,
    )  # fmt: skip
    return bit_negamax(frame, me, opp, kings, player, key, depth, ply, alpha, beta)


@kernel
def bit_negamax(frame, me, opp, kings, player, key, depth, ply, alpha, beta):
    """:func:`bit_search`'s recursion, its arrays in ``frame``."""
    # The arrays :func:`_framed` wrote, one by one (see :func:`damier.kernel.jit.framed`).
    geo = framed(frame, 0, np.uint64, 1)
    q = framed(frame, 1, np.int64, 1)
    cell_of = framed(frame, 2, np.int64, 1)
    wings = framed(frame, 3, np.uint64, 1)
    z = framed(frame, 4, np.uint64, 2)
    moves = framed(frame, 5, np.uint64, 3)
    order = framed(frame, 6, np.int64, 3)
    fb = framed(frame, 7, np.uint64, 2)
    fi = framed(frame, 8, np.int64, 2)
    st = framed(frame, 9, np.int64, 1)
    table = framed(frame, 10, np.uint64, 2)
    killers = framed(frame, 11, np.int64, 2)
    history = framed(frame, 12, np.int64, 2)
    keys = framed(frame, 13, np.uint64, 1)
    pv = framed(frame, 14, np.int64, 2)
    stats = framed(frame, 15, np.int64, 1)
    runs = framed(frame, 16, np.int64, 2)
    pst = framed(frame, 17, np.int32, 2)
    extra = framed(frame, 18, np.int32, 1)
    carried = framed(frame, 19, np.int32, 2)
    tb_ix = framed(frame, 20, np.int64, 1)
    tb_values = framed(frame, 21, np.uint8, 1)
    tb_distances = framed(frame, 22, np.uint8, 1)
    if enter(stats, keys, pv, key, ply, runs[ply, 2]):
        return draw_value(stats, ply)
    count = list_captures(geo, q, me, opp, kings, player, moves, ply, fb, fi, st, True)
    if count < 0:  # too many moves, or too many kings met in one capture
        return evaluate_bits(q, me, opp, kings, player, wings, extra, carried, ply)
    captures = count > 0
    if not captures and (depth <= 0 or ply >= MAX_PLY - 2):
        return _quiet_leaf(
            geo, q, me, opp, kings, player, wings, extra, carried, ply, stats, runs, tb_ix,
            tb_values, tb_distances,
        )  # fmt: skip
    if quiet_moves_draw(stats, runs, ply) and (
        captures or has_quiet(geo, q, me, opp, kings, player)
    ):
        return draw_value(stats, ply)
    if not captures and popcount(me | opp) <= tb_ix[H_PIECES]:
        draw = draw_value(stats, ply)
        found, score = _probe_tablebase(
            me, opp, kings, player, draw, tb_ix, tb_values, tb_distances
        )
        if found:
            return score
    if ply >= MAX_PLY - 2:
        return evaluate_bits(q, me, opp, kings, player, wings, extra, carried, ply)
    # The table comes before the quiet moves are listed: a node it decides costs no move
    # generation. (A position without moves is never stored.)
    remembered, decides, score = probe(table, key, depth, ply, alpha, beta)
    if decides:
        return score
    if not captures:
        count = list_quiet(geo, q, me, opp, kings, player, moves, ply, st)
        if count < 0:
            return evaluate_bits(q, me, opp, kings, player, wings, extra, carried, ply)
        if count == 0:
            return stats[S_NO_MOVE] + (ply if stats[S_NO_MOVE] < 0 else -ply)
    if futile(stats, depth, alpha, beta, captures):
        static = evaluate_bits(q, me, opp, kings, player, wings, extra, carried, ply)
        static -= FUTILITY_MARGIN * depth
        # Only when the other side threatens no capture: then the value stands.
        if static >= beta and not threatens(geo, q, opp, me, kings, 1 - player):
            return static
    for i in range(count):
        k = _move_key(moves, ply, i, cell_of)
        ncap = popcount(moves[ply, i, M_CAPS])
        origin, to = k & 255, (k >> 8) & 255
        order[ply, i, 0] = ordering_score(k, remembered, ncap, killers, history, ply, origin, to)
        order[ply, i, 1] = i
        order[ply, i, 2] = np.int64(origin) | (np.int64(to) << 16)
    best = -INFINITY
    best_key = 0
    flag = UPPER
    child_depth = next_depth(depth, count)
    tired = -1
    if stats[S_KING_LIMIT] > 0:
        tired = tired_king(stats, runs, ply, me & ~kings != ZERO)
    for n in range(count):
        i = pick(order, ply, n, count)
        quiet_king = not captures and moves[ply, i, M_FROM] & kings != ZERO
        if quiet_king and stats[S_KING_LIMIT] > 0:
            origin_cell = cell_of[bit_index(moves[ply, i, M_FROM])]
            if resting(tired, quiet_king, origin_cell):
                continue
            to_cell = cell_of[bit_index(moves[ply, i, M_TO])]
            count_king_run(stats, runs, ply, quiet_king, origin_cell, to_cell)
        else:
            count_king_run(stats, runs, ply, False, 0, 0)
        count_quiet_plies(runs, ply, not quiet_king)
        child_key = key ^ _key_delta(moves, ply, i, kings, player, cell_of, z)
        # Play the move: the child's side to move is the other side, less the captured set.
        origin = moves[ply, i, M_FROM]
        to = moves[ply, i, M_TO]
        caps = moves[ply, i, M_CAPS]
        child_kings = kings & ~origin & ~caps
        if moves[ply, i, M_KING] != ZERO:
            child_kings |= to
        child_me = opp & ~caps
        child_opp = (me & ~origin) | to
        window = -beta if n == 0 else -alpha - 1
        crowns = moves[ply, i, M_KING] != ZERO and origin & kings == ZERO
        search_depth = reduced(n, depth, captures, child_depth, beta - alpha > 1, crowns)
        # A child at the horizon whose side has no capture is valued here, not by a call:
        # most nodes are such leaves, and a call's thirty-odd arguments cost more than the
        # leaf itself. (``threatens`` is exact when it says no: no man has a first jump and
        # there is no king.) A leaf reads no table entry: only the others are asked for.
        leaf = search_depth <= 0 and not threatens(
            geo, q, child_me, child_opp, child_kings, 1 - player
        )
        if not leaf:
            prefetch_entry(table, child_key)
        _play_carried(carried, ply, moves, i, kings, player, cell_of, pst, extra)
        while True:
            if leaf:
                score = -draw_value(stats, ply + 1)
                if not enter(stats, keys, pv, child_key, ply + 1, runs[ply + 1, 2]):
                    score = -_quiet_leaf(
                        geo, q, child_me, child_opp, child_kings, 1 - player, wings, extra,
                        carried, ply + 1, stats, runs, tb_ix, tb_values, tb_distances,
                    )  # fmt: skip
            else:
                score = -bit_negamax(
                    frame,
                    child_me,
                    child_opp,
                    child_kings,
                    1 - player,
                    child_key,
                    search_depth,
                    ply + 1,
                    window,
                    -alpha,
                )
            narrowed = search_depth < child_depth or (window != -beta and score < beta)
            if n == 0 or score <= alpha or not narrowed:
                break
            window, search_depth = -beta, child_depth
            leaf = leaf and search_depth <= 0
        if stats[S_STOP] == 1:
            return 0
        if score > best:
            best = score
            best_key = _move_key(moves, ply, i, cell_of)
            if score > alpha:
                alpha = score
                flag = EXACT
                new_best(pv, ply, best_key)
                if alpha >= beta:
                    flag = LOWER
                    if not captures:
                        refuted(
                            killers,
                            history,
                            ply,
                            best_key,
                            depth,
                            best_key & 255,
                            (best_key >> 8) & 255,
                        )
                        tried_in_vain(history, order, ply, n, depth)
                    break
    if best == -INFINITY:  # every move was a tired king's: no move
        best = stats[S_NO_MOVE] + (ply if stats[S_NO_MOVE] < 0 else -ply)
    store(table, key, depth, ply, best, flag, best_key)
    return best


class BitboardPosition:
    """What :func:`bit_search` needs beside the search context: the variant's bitboard
    tables, the cell of each bit, the wing masks, move buffers and room for its frame."""

    def __init__(
        self,
        spec: Spec,
        zobrist: npt.NDArray[np.uint64],
        columns: npt.NDArray[np.int64],
        width: int,
        tablebase: tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8], npt.NDArray[np.uint8]],
    ) -> None:
        self.spec = spec
        self.tablebase = tablebase
        """The endgame database's index tables, values and distances (:func:`search_tables`)."""
        self.zobrist = zobrist
        self.bit_of_cell = np.array([int(bit).bit_length() - 1 for bit in spec.bits])
        self.cell_of = np.zeros(64, dtype=np.int64)
        self.cell_of[self.bit_of_cell] = np.arange(len(spec.bits))
        middle = (width - 1) / 2
        left = np.bitwise_or.reduce(spec.bits[columns < middle], initial=0)
        right = np.bitwise_or.reduce(spec.bits[columns > middle], initial=0)
        geo = spec.geo
        self.wings = np.array(
            [left, right, geo[G_BOARD], geo[G_NOT_LEFT], geo[G_NOT_RIGHT]], dtype=np.uint64
        )
        """The left and right wings, the board, and the squares off its left and right
        edges (a step along a rank is masked by them)."""
        self.moves = np.zeros((MAX_PLY, CAPACITY, M_WIDTH), dtype=np.uint64)
        self.fb = np.zeros((MAX_LEVELS, FB_WIDTH), dtype=np.uint64)
        self.fi = np.zeros((MAX_LEVELS, FI_WIDTH), dtype=np.int64)
        self.st = np.zeros(3, dtype=np.int64)
        self.frame = np.zeros(FRAME_SLOT * FRAME_ARRAYS, dtype=np.int64)
        self._carried = np.zeros((MAX_PLY + 1, 1), dtype=np.int32)
        self._by_bit: tuple[npt.NDArray[np.int32], ...] | None = None

    def twin(self) -> BitboardPosition:
        """The same tables with move buffers of its own, for another thread's search."""
        twin = copy.copy(self)
        twin.moves = np.zeros_like(self.moves)
        twin.fb = np.zeros_like(self.fb)
        twin.fi = np.zeros_like(self.fi)
        twin.st = np.zeros_like(self.st)
        twin.frame = np.zeros_like(self.frame)
        twin._carried = np.zeros_like(self._carried)
        twin._by_bit = None
        return twin

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
    ) -> int:
        """:func:`bit_negamax` of the position ``sq`` on ``context``'s tables."""
        me, opp, kings = self.sides(sq, player)
        pst, extra = self.by_bit(pst, extra)
        carried = self.carried(me, opp, kings, player, pst, extra, ply)
        return int(
            bit_search(
                self.spec.geo,
                self.spec.q,
                self.cell_of,
                self.wings,
                self.zobrist,
                me,
                opp,
                kings,
                player,
                np.uint64(key),
                depth,
                ply,
                alpha,
                beta,
                self.moves,
                context.order,
                self.fb,
                self.fi,
                self.st,
                context.table,
                context.killers,
                context.history,
                context.keys,
                context.pv,
                context.stats,
                context.runs,
                pst,
                extra,
                carried,
                *self.tablebase,
                self.frame,
            )
        )

    def by_bit(
        self, pst: npt.NDArray[np.int32], extra: npt.NDArray[np.int32]
    ) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
        """The piece-square table ``pst[code, cell]`` and the ``extra`` weights (whose
        pattern squares are cells) indexed by bit instead of cell. The last pair is kept:
        an engine passes the same tables at every call."""
        last = self._by_bit
        if last is not None and last[0] is pst and last[1] is extra:
            return last[2], last[3]
        out = np.zeros((pst.shape[0], 64), dtype=np.int32)
        out[:, self.bit_of_cell] = pst
        renumbered = extra.copy()
        squares_by(renumbered, self.bit_of_cell)
        self._by_bit = (pst, extra, out, renumbered)
        return out, renumbered

    def evaluate(
        self,
        sq: npt.NDArray[np.int8],
        player: int,
        pst: npt.NDArray[np.int32],
        extra: npt.NDArray[np.int32],
    ) -> int:
        """:func:`evaluate_bits` of the position ``sq`` for ``player``."""
        me, opp, kings = self.sides(sq, player)
        pst, extra = self.by_bit(pst, extra)
        carried = self.carried(me, opp, kings, player, pst, extra, 0)
        q, wings = self.spec.q, self.wings
        return int(evaluate_bits(q, me, opp, kings, player, wings, extra, carried, 0))

    def carried(
        self,
        me: np.uint64,
        opp: np.uint64,
        kings: np.uint64,
        player: int,
        pst: npt.NDArray[np.int32],
        extra: npt.NDArray[np.int32],
        ply: int,
    ) -> npt.NDArray[np.int32]:
        """Room for what the search carries at each ply (:func:`evaluate_bits`; ``pst``
        and ``extra`` indexed by bit), that of the position at ``ply`` filled in."""
        regions, network = int(extra[REGIONS]), int(extra[NETWORK])
        width = int(carried_width(extra))
        if self._carried.shape[1] < width:
            self._carried = np.zeros((MAX_PLY + 1, width), dtype=np.int32)
        white, black = (me, opp) if player == 0 else (opp, me)
        set_configurations(white & ~kings, black & ~kings, extra, self._carried, ply)
        value = int(placement(me, opp, kings, player, pst))
        self._carried[ply, 2 * regions] = value if player == 0 else -value
        if network:
            set_accumulators(
                self._carried, ply, 2 * regions + 1, white, black, kings, self.cell_of, extra
            )
        return self._carried

    def sides(
        self, sq: npt.NDArray[np.int8], player: int
    ) -> tuple[np.uint64, np.uint64, np.uint64]:
        """(``player``'s pieces, the other side's, the kings) of a kernel cell array."""
        white, black, kings = (np.uint64(w) for w in cell_words(self.spec.bits, sq))
        return (white, black, kings) if player == 0 else (black, white, kings)


def bitboard_position(
    variant: Variant, tables: Tables, databases: bool = True
) -> BitboardPosition | None:
    """The bitboard search's tables for ``variant`` (with its endgame database when one
    was built and ``databases`` asks for it), or None when the bitboard code does not
    cover it (the table search runs then). ``DAMIER_TABLE_SEARCH=1`` forces the table
    search (to compare the two)."""
    spec = bitboard_spec(variant)
    if spec is None or os.environ.get("DAMIER_TABLE_SEARCH") == "1":
        return None
    geometry = geometry_of(variant)
    assert isinstance(geometry, SquareGeometry)
    columns = np.array([column for _, column in geometry.coordinates], dtype=np.int64)
    tablebase = search_tables(variant) if databases else NO_TABLES
    return BitboardPosition(spec, tables.zobrist, columns, geometry.width, tablebase)
