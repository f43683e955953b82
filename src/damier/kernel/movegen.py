"""Legal-move generation for every variant: one walker, steered by the tables.

This is the hot path, written as Numba-compiled loops over integer arrays. It reads rules
only from ``Tables``; it never knows which variant it plays. The readable account of what it
must do is RULES.md; the tests hold it to that.

A capture is searched depth first from each piece. The capture-choice rule is applied while
moves are emitted (Scan's way): each finished capture gets an integer value built from the
variant's criteria, a better value throws away what was kept, a worse one is not kept.
"""

from __future__ import annotations

import numpy as np

from damier.kernel.jit import kernel, kernel_inline
from damier.kernel.layout import (
    AREA,
    CAPS,
    CHOICE_MOST_KINGS,
    CHOICE_MOST_PIECES,
    CHOICE_MOST_VALUE,
    CHOICE_WITH_KING,
    CROWN,
    FROM,
    KING_CAPTURE,
    KING_STEP,
    MAN_CAPTURE,
    MAN_STEP,
    NCAP,
    NEW_PIECE,
    NPATH,
    PIECE,
    PROMOTE_CONTINUE,
    PROMOTE_ENDS_MOVE,
    QUIET_KEY,
    R_CHOICE,
    R_CHOICE_COUNT,
    R_IMMEDIATE_REMOVAL,
    R_KING_FLYING,
    R_KING_ORDER,
    R_KING_VALUE,
    R_LAND_NEXT,
    R_LINE_MOVES,
    R_MAXC,
    R_MEN_TAKE_KINGS,
    R_NO_REVERSAL,
    R_OPPOSITE,
    R_PROMOTION,
    R_STOP_BEHIND_KING,
    R_TEAM,
    R_TEAMS,
    SHARED,
    TO,
    W_CAPS,
    W_CODES,
    W_MARKED,
    W_PATH,
)
from damier.kernel.tables import HEADER, Tables

# Slots of the generator's state (the last row of the frames array).
_COUNT = 0  # moves written so far
_BEST = 1  # value of the best capture so far (-1: none yet)
_OVERFLOW = 2  # set when the move buffer is full


class Scratch:
    """Work arrays of the move generator, allocated once per board size.

    ``work`` holds the capture in progress (rows ``W_*`` of :mod:`layout`), ``frames`` the
    capture search stack, its last row the generator's state. Two arrays rather than seven:
    Numba's call overhead grows with the number of array arguments.
    """

    def __init__(self, cells: int, max_captures: int) -> None:
        self.work = np.zeros((4, max(cells, max_captures)), dtype=np.int32)
        self.frames = np.zeros((max_captures + 2, FRAME_FIELDS), dtype=np.int64)


@kernel_inline
def _capture_value(t, piece, ncap, codes):
    """The capture-choice value of a finished capture: higher is preferred."""
    value = 0
    for i in range(t.rules[R_CHOICE_COUNT]):
        criterion = t.rules[R_CHOICE + i]
        if criterion == CHOICE_MOST_PIECES:
            value = (value << 8) | ncap
        elif criterion == CHOICE_WITH_KING:
            value = (value << 1) | (1 if piece % 2 == 0 else 0)
        elif criterion == CHOICE_MOST_VALUE:
            worth = 0
            for i in range(ncap):
                worth += t.rules[R_KING_VALUE] if codes[i] % 2 == 0 else 100
            value = (value << 14) | worth
        elif criterion == CHOICE_MOST_KINGS:
            kings = 0
            for i in range(ncap):
                if codes[i] % 2 == 0:
                    kings += 1
            value = (value << 8) | kings
        else:  # earliest king: a bit per capture, the first capture the highest bit
            order = 0
            for i in range(min(ncap, 24)):
                if codes[i] % 2 == 0:
                    order |= 1 << (23 - i)
            value = (value << 24) | order
    return value


@kernel_inline
def _same_capture(t, moves, row, maxc, ncap, caps, codes):
    """Whether ``row`` captures the same pieces as (caps, codes) (and, where the variant
    says so, meets the kings in the same order)."""
    for i in range(ncap):
        found = False
        for k in range(ncap):
            if moves[row, CAPS + k] == caps[i]:
                found = True
                break
        if not found:
            return False
    if t.rules[R_KING_ORDER] == 1:
        k = 0
        for i in range(ncap):
            if codes[i] % 2 == 0:
                while moves[row, CAPS + maxc + k] % 2 != 0:
                    k += 1
                if moves[row, CAPS + k] != caps[i]:
                    return False
                k += 1
    return True


@kernel_inline
def _emit_capture(t, moves, state, dedupe, origin, piece, new_piece, ncap, caps, codes, path):
    value = _capture_value(t, piece, ncap, codes)
    if value < state[_BEST]:
        return
    if value > state[_BEST]:
        state[_BEST] = value
        state[_COUNT] = 0
    count = state[_COUNT]
    maxc = t.rules[R_MAXC]
    to = path[ncap - 1]
    if dedupe:
        for row in range(count):
            if (
                moves[row, TO] == to
                and moves[row, FROM] == origin
                and moves[row, NCAP] == ncap
                and _same_capture(t, moves, row, maxc, ncap, caps, codes)
            ):
                return
    if count >= moves.shape[0]:
        state[_OVERFLOW] = 1
        return
    moves[count, FROM] = origin
    moves[count, TO] = to
    moves[count, NCAP] = ncap
    moves[count, PIECE] = piece
    moves[count, NEW_PIECE] = new_piece
    moves[count, NPATH] = ncap
    for i in range(ncap):
        moves[count, CAPS + i] = caps[i]
        moves[count, CAPS + maxc + i] = codes[i]
        moves[count, CAPS + 2 * maxc + i] = path[i]
    state[_COUNT] = count + 1


# Fields of one frame of the capture search stack (one frame per jump made so far).
_F_CUR = 0  # cell the capturing piece stands on
_F_KING = 1  # 1 if it captures as a king from here
_F_LAST = 2  # the direction back along the jump that brought it here (-1 at the start)
_F_K = 3  # index of the direction being tried
_F_DIR = 4  # that direction
_F_VICTIM = 5  # cell of the piece being jumped
_F_FIRST = 6  # ray index of the first landing cell
_F_STOP = 7  # ray index past the last landing cell
_F_J = 8  # ray index of the landing cell being tried
_F_FINISHED = 9  # bit mask of landing indices where the capture ends
_F_WENT_ON = 10  # 1 if some landing cell let the capture go on
_F_JUMPED = 11  # 1 once a jump was found from this frame's cell
FRAME_FIELDS = 12


@kernel_inline
def _friendly(t, code, player):
    """Whether the piece ``code`` belongs to ``player`` or to a partner (team mode)."""
    owner = (code - 1) >> 1
    if owner == player:
        return True
    return t.rules[R_TEAMS] == 1 and t.rules[R_TEAM + owner] == t.rules[R_TEAM + player]


@kernel_inline
def _back(t, cur, land, d):
    """The direction that walks from ``land`` back to ``cur`` along ``d``: its opposite, or
    ``d`` itself when the line crossed into another area, whose frame is turned round."""
    if t.counts[AREA, 0, land] == t.counts[AREA, 0, cur]:
        return t.rules[R_OPPOSITE + d]
    return d


@kernel_inline
def _next_jump(t, sq, player, frames, level, marked):
    """Advance frame ``level`` to its next possible jump; return False when there is none.

    On success the frame holds the victim and the range of landing cells. (Arrays are
    indexed in full rather than sliced: a slice costs a reference count in Numba.)
    """
    rules = t.rules
    rays = t.rays
    cur = frames[level, _F_CUR]
    king = frames[level, _F_KING] == 1
    flying = king and rules[R_KING_FLYING] == 1
    count = t.counts[KING_CAPTURE, player, cur] if king else t.counts[MAN_CAPTURE, player, cur]
    last = frames[level, _F_LAST]
    length = rays.shape[2]
    k = frames[level, _F_K]
    while k < count:
        d = t.dirs[KING_CAPTURE, player, cur, k] if king else t.dirs[MAN_CAPTURE, player, cur, k]
        k += 1
        if last >= 0 and rules[R_NO_REVERSAL] == 1 and d == last:
            continue
        i = 0
        victim = rays[cur, d, 0]
        if flying:
            while victim >= 0 and sq[victim] == 0:
                i += 1
                victim = rays[cur, d, i] if i < length else -1
        if victim < 0:
            continue
        code = sq[victim]
        if code == 0 or _friendly(t, code, player) or marked[victim] == 1:
            continue
        if code % 2 == 0 and not king and rules[R_MEN_TAKE_KINGS] == 0:
            continue
        first = i + 1
        if first >= length or rays[cur, d, first] < 0 or sq[rays[cur, d, first]] != 0:
            continue
        stop = length
        if not flying or rules[R_LAND_NEXT] == 1:
            stop = first + 1
        skip = t.dirs[SHARED, 0, cur, d]
        if skip > first:
            # A hub branch: landing cells before the hub belong to the line's main label;
            # this label lands only beyond it, over empty cells.
            open_line = skip < stop
            for j in range(first, min(skip, stop)):
                if rays[cur, d, j] < 0 or sq[rays[cur, d, j]] != 0:
                    open_line = False
                    break
            if not open_line:
                continue
            first = skip
        frames[level, _F_K] = k
        frames[level, _F_DIR] = d
        frames[level, _F_VICTIM] = victim
        frames[level, _F_FIRST] = first
        frames[level, _F_STOP] = stop
        frames[level, _F_J] = first
        frames[level, _F_FINISHED] = 0
        frames[level, _F_WENT_ON] = 0
        return True
    frames[level, _F_K] = k
    return False


@kernel_inline
def _captures_from(t, sq, player, origin, piece, work, frames, moves, state, dedupe):
    """Emit every finished capture of the piece on ``origin`` (already lifted from ``sq``).

    A depth-first search on an explicit stack: frame ``n`` is the piece after ``n`` jumps.
    From each landing cell the capture must go on if it can; landing cells where it ends
    count only when no landing cell of the same jump lets it go on.
    """
    caps = work[W_CAPS]
    codes = work[W_CODES]
    path = work[W_PATH]
    marked = work[W_MARKED]
    rules = t.rules
    rays = t.rays
    immediate = rules[R_IMMEDIATE_REMOVAL] == 1
    man_code = 2 * player + 1
    level = 0
    frames[0, _F_CUR] = origin
    frames[0, _F_KING] = 1 if piece == man_code + 1 else 0
    frames[0, _F_LAST] = -1
    frames[0, _F_K] = 0
    frames[0, _F_JUMPED] = 0
    seeking = True  # False while trying the landing cells of the current jump
    while True:
        if seeking:
            if not _next_jump(t, sq, player, frames, level, marked):
                if level == 0:
                    return
                # Every jump from here tried: the parent's landing cell either let the
                # capture go on or ends it.
                jumped = frames[level, _F_JUMPED]
                level -= 1
                if jumped == 1:
                    frames[level, _F_WENT_ON] = 1
                else:
                    frames[level, _F_FINISHED] |= 1 << frames[level, _F_J]
                frames[level, _F_J] += 1
                seeking = False
                continue
            frames[level, _F_JUMPED] = 1
            victim = frames[level, _F_VICTIM]
            marked[victim] = 1
            caps[level] = victim
            codes[level] = sq[victim]
            if immediate:
                sq[victim] = 0
            seeking = False
            continue
        cur = frames[level, _F_CUR]
        d = frames[level, _F_DIR]
        j = frames[level, _F_J]
        land = rays[cur, d, j] if j < frames[level, _F_STOP] else -1
        if land >= 0 and sq[land] == 0:
            path[level] = land
            king = frames[level, _F_KING]
            if king == 0 and t.counts[CROWN, player, land] == 1:
                if rules[R_PROMOTION] == PROMOTE_CONTINUE:
                    king = 1
                elif rules[R_PROMOTION] == PROMOTE_ENDS_MOVE:
                    frames[level, _F_FINISHED] |= 1 << j
                    frames[level, _F_J] = j + 1
                    continue
            level += 1
            frames[level, _F_CUR] = land
            frames[level, _F_KING] = king
            frames[level, _F_LAST] = _back(t, cur, land, d)
            frames[level, _F_K] = 0
            frames[level, _F_JUMPED] = 0
            seeking = True
            continue
        # All landing cells of this jump tried.
        if frames[level, _F_WENT_ON] == 0:
            finished = frames[level, _F_FINISHED]
            first = frames[level, _F_FIRST]
            stop = frames[level, _F_STOP]
            if codes[level] % 2 == 0 and rules[R_STOP_BEHIND_KING] == 1:
                stop = first + 1  # a capture ending on a king ends right behind it (Killer)
            for j in range(first, stop):
                if finished & (1 << j):
                    land = rays[cur, d, j]
                    path[level] = land
                    crowned = frames[level, _F_KING] == 1 or t.counts[CROWN, player, land] == 1
                    new_piece = man_code + 1 if crowned else man_code
                    _emit_capture(
                        t,
                        moves,
                        state,
                        dedupe,
                        origin,
                        piece,
                        new_piece,
                        level + 1,
                        caps,
                        codes,
                        path,
                    )
        victim = frames[level, _F_VICTIM]
        if immediate:
            sq[victim] = codes[level]
        marked[victim] = 0
        seeking = True


@kernel_inline
def _add_quiet(t, moves, state, origin, to, piece, player, write):
    count = state[_COUNT]
    if not write:
        state[_COUNT] = count + 1
        return
    if count >= moves.shape[0]:
        state[_OVERFLOW] = 1
        return
    maxc = t.rules[R_MAXC]
    crowns = 1 if piece % 2 == 1 and t.counts[CROWN, player, to] == 1 else 0
    moves[count, FROM] = origin
    moves[count, TO] = to
    moves[count, NCAP] = 0
    moves[count, PIECE] = piece
    moves[count, NEW_PIECE] = piece + crowns
    moves[count, NPATH] = 1
    moves[count, QUIET_KEY] = (origin * t.rays.shape[0] + to) * 2 + crowns
    moves[count, CAPS + 2 * maxc] = to
    state[_COUNT] = count + 1


@kernel_inline
def _quiet_moves(t, sq, player, moves, state, write):
    rules = t.rules
    rays = t.rays
    length = rays.shape[2]
    man_code = 2 * player + 1
    for cell in range(sq.shape[0]):
        code = sq[cell]
        if code == man_code + 1:
            flying = rules[R_KING_FLYING] == 1
            for k in range(t.counts[KING_STEP, player, cell]):
                d = t.dirs[KING_STEP, player, cell, k]
                skip = t.dirs[SHARED, 0, cell, d]  # cells another label reaches
                for i in range(length):
                    to = rays[cell, d, i]
                    if to < 0 or sq[to] != 0:
                        break
                    if i >= skip:
                        _add_quiet(t, moves, state, cell, to, code, player, write)
                    if not flying:
                        break
        elif code == man_code:
            for k in range(t.counts[MAN_STEP, player, cell]):
                d = t.dirs[MAN_STEP, player, cell, k]
                to = rays[cell, d, 0]
                if to < 0 or t.dirs[SHARED, 0, cell, d] > 0:
                    continue
                if sq[to] == 0:
                    _add_quiet(t, moves, state, cell, to, code, player, write)
                elif rules[R_LINE_MOVES] == 1:
                    # Dameo: a line of own men advances one square; the same position as
                    # the rear man stepping over the line to the first empty square ahead.
                    i = 0
                    while to >= 0 and sq[to] == man_code:
                        i += 1
                        to = rays[cell, d, i] if i < length else -1
                    if to >= 0 and sq[to] == 0:
                        _add_quiet(t, moves, state, cell, to, code, player, write)


@kernel_inline
def _man_may_jump(t, sq, player, cell):
    """Whether the man on ``cell`` has a first jump: a cheap filter before the capture
    search, which most men in most positions do not need."""
    rays = t.rays
    for k in range(t.counts[MAN_CAPTURE, player, cell]):
        d = t.dirs[MAN_CAPTURE, player, cell, k]
        victim = rays[cell, d, 0]
        if victim < 0 or sq[victim] == 0 or _friendly(t, sq[victim], player):
            continue
        land = rays[cell, d, 1]
        if land >= 0 and sq[land] == 0:
            return True
    return False


@kernel
def generate(t, sq, player, moves, work, frames, dedupe, write):
    """Write the legal moves of ``player`` into ``moves``; return their number, or -1 when
    ``moves`` is too small. ``dedupe`` merges captures of the same pieces between the same
    squares (RULES.md decision 5). Without ``write`` quiet moves are only counted (perft's
    last ply); captures are always written, since the choice rule compares them."""
    state = frames[frames.shape[0] - 1]
    state[_COUNT] = 0
    state[_BEST] = -1
    state[_OVERFLOW] = 0
    man_code = 2 * player + 1
    for cell in range(sq.shape[0]):
        code = sq[cell]
        if code != man_code + 1 and (code != man_code or not _man_may_jump(t, sq, player, cell)):
            continue
        sq[cell] = 0  # the moving piece has left its square
        _captures_from(t, sq, player, cell, code, work, frames, moves, state, dedupe)
        sq[cell] = code
    if state[_COUNT] == 0:
        _quiet_moves(t, sq, player, moves, state, write)
    if state[_OVERFLOW] == 1:
        return -1
    return state[_COUNT]


@kernel
def make_move(t, sq, moves, i):
    """Play move row ``i`` on ``sq``."""
    sq[moves[i, FROM]] = 0
    for k in range(moves[i, NCAP]):
        sq[moves[i, CAPS + k]] = 0
    sq[moves[i, TO]] = moves[i, NEW_PIECE]


@kernel
def unmake_move(t, sq, moves, i):
    """Take back move row ``i`` (played by :func:`make_move`)."""
    maxc = t.rules[R_MAXC]
    sq[moves[i, TO]] = 0
    for k in range(moves[i, NCAP]):
        sq[moves[i, CAPS + k]] = moves[i, CAPS + maxc + k]
    sq[moves[i, FROM]] = moves[i, PIECE]


@kernel
def position_hash(t, sq, player):
    """Zobrist hash of the pieces and the player to move."""
    h = t.zobrist[sq.shape[0], player]
    for cell in range(sq.shape[0]):
        if sq[cell] != 0:
            h ^= t.zobrist[cell, sq[cell]]
    return h


# -- entries for the Board: the tables packed in one array ----------------------------------
# Each call of a compiled function costs Numba a type check and an unboxing per argument;
# for the ``Tables`` NamedTuple that is ~2 us, more than generating the moves. These entries
# take the tables as one byte array (``tables.packed_tables``) and unpack them into views.


@kernel_inline
def unpack_tables(packed):
    """The ``Tables`` of a packed array: views, nothing is copied."""
    h = packed[: HEADER * 8].view(np.int64)
    a = h[0]
    rays = packed[a : a + 2 * h[1] * h[2] * h[3]].view(np.int16).reshape((h[1], h[2], h[3]))
    a = h[5]
    size = h[6] * h[7] * h[8] * h[9]
    dirs = packed[a : a + size].view(np.int8).reshape((h[6], h[7], h[8], h[9]))
    a = h[10]
    counts = packed[a : a + h[11] * h[12] * h[13]].view(np.int8).reshape((h[11], h[12], h[13]))
    a = h[15]
    zobrist = packed[a : a + 8 * h[16] * h[17]].view(np.uint64).reshape((h[16], h[17]))
    a = h[20]
    rules = packed[a : a + 8 * h[21]].view(np.int64)
    return Tables(rays, dirs, counts, zobrist, rules)


@kernel
def generate_packed(packed, sq, player, moves, work, frames, dedupe):
    """:func:`generate` (writing every move) on packed tables."""
    t = unpack_tables(packed)
    return generate(t, sq, player, moves, work, frames, dedupe, True)


@kernel
def make_move_packed(packed, sq, moves, i):
    """:func:`make_move` on packed tables."""
    make_move(unpack_tables(packed), sq, moves, i)


@kernel
def unmake_move_packed(packed, sq, moves, i):
    """:func:`unmake_move` on packed tables."""
    unmake_move(unpack_tables(packed), sq, moves, i)


@kernel
def position_hash_packed(packed, sq, player):
    """:func:`position_hash` on packed tables."""
    return position_hash(unpack_tables(packed), sq, player)
