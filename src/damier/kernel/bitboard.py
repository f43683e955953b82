"""Bitboard perft for the two-player games on a square board (the fast path).

The table kernel (:mod:`damier.kernel.movegen`) walks per-cell ray tables so that one
generator plays every variant; this module trades that generality for speed where the board
allows it: the playable squares of a dark-square board of even width fit in one 64-bit word,
so every side's pieces are one integer and a whole army steps, or finds its first jump, in a
few shifts. It counts the same tree as :func:`damier.kernel.perft.perft` (the tests hold it
to that) and covers every variant whose rules are among its switches (:func:`covers`): flying
or short kings, landing anywhere or right behind the victim (Thai; Killer behind a king taken
last), men and kings capturing in any set of directions, orthogonal lines included (Frisian),
men taking kings or not, the three promotion rules, free choice or any chain of the criteria
most pieces, king first, most kings, earliest king and most value, and captures told apart
by the order of the kings they meet (Italian), and on a board of all 64 squares the
orthogonal games whose captured pieces leave at once and whose captures never turn straight
back (Turkish). It never asks which variant it plays: International, Brazilian, Russian,
English, pool, Italian, Spanish, Portuguese, Czech, Thai, Killer, Frisian, Frysk, Turkish
and their giveaway forms all run through it.

Layout ("ghost column", as in Scan): the square on (row, column) is bit
``(row * (width + 1) + column) // 2``. A virtual column ``width`` pads each row, so a
diagonal step is the same shift everywhere (``width / 2`` or ``width / 2 + 1`` bits) and a
step off the left or right edge lands on a padding bit, which is never a playable square:
every shifted set is masked with the board (through ``empty`` or the pieces) before use.
The 10x10 board needs 54 bits, the 8x8 ones 35 (36 mirrored). A board of all squares
(at most 64) has no padding: the square on (row, column) is bit ``row * width + column``,
a step along a file is ``width`` bits, and a step along a rank, one bit, is masked by the
edge it would wrap over.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic, overload

from damier.geometry import geometry_of
from damier.kernel.jit import kernel, kernel_inline
from damier.kernel.layout import (
    CHOICE_EARLIEST_KING,
    CHOICE_MOST_KINGS,
    CHOICE_MOST_PIECES,
    CHOICE_MOST_VALUE,
    CHOICE_WITH_KING,
    PROMOTE_AT_END,
    PROMOTE_CONTINUE,
    PROMOTE_ENDS_MOVE,
)
from damier.rules.description import (
    DIAGONAL,
    ORTHOGONAL,
    BoardKind,
    Choice,
    Direction,
    Landing,
    Promotion,
    Range,
    Removal,
    Topology,
    Variant,
)

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]

ZERO = np.uint64(0)
ONE = np.uint64(1)

# -- popcount ----------------------------------------------------------------------------


def popcount(x: int) -> int:
    """Number of set bits (plain Python when Numba is disabled; one instruction compiled)."""
    return int(x).bit_count()


@intrinsic
def _ctpop(typingctx, x):  # type: ignore[no-untyped-def]
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])

    return sig, codegen


@overload(popcount, inline="always")  # one instruction, not a call
def _popcount_compiled(x):  # type: ignore[no-untyped-def]
    def impl(x):  # type: ignore[no-untyped-def]
        return _ctpop(np.uint64(x))  # type: ignore[call-arg]

    return impl


def bit_index(x: int) -> int:
    """Index of the lowest set bit of a non-zero word."""
    return (int(x) & -int(x)).bit_length() - 1


@intrinsic
def _cttz(typingctx, x):  # type: ignore[no-untyped-def]
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@overload(bit_index, inline="always")
def _bit_index_compiled(x):  # type: ignore[no-untyped-def]
    def impl(x):  # type: ignore[no-untyped-def]
        return _cttz(np.uint64(x))  # type: ignore[call-arg]

    return impl


# -- rule switches ------------------------------------------------------------------------

# Indices into the ``q`` integer vector of the compiled functions.
Q_SHIFT_A = 0  # bits of a step along one diagonal (width / 2)
Q_SHIFT_B = 1  # and along the other (width / 2 + 1)
Q_MAN_CAPTURE = 2  # + player: bit mask of the directions his men capture in
Q_MAN_STEP = 4  # + player: bit mask of the directions his men step in
Q_FLYING = 6  # 1: kings move and capture at a distance
Q_LAND_NEXT = 7  # 1: a flying king lands right behind the piece it takes
Q_STOP_BEHIND_KING = 8  # 1: ... when that piece is a king and the last it takes
Q_MEN_TAKE_KINGS = 9
Q_PROMOTION = 10  # PROMOTE_* of layout
Q_CHOICE_COUNT = 11
Q_CHOICE = 12  # the capture-choice criteria, in priority order (4 slots)
Q_KING_ORDER = 16  # 1: captures meeting the kings in another order are other moves
Q_KING_CAPTURE = 17  # + player: bit mask of the directions his kings capture in
Q_SHIFT_V = 19  # bits of a step along a file (two rows, width + 1; all squares: width)
Q_KING_VALUE = 20  # a captured king's worth for the most-value choice (a man is 100)
Q_KING_STEP = 21  # bit mask of the directions kings move in (no capture)
Q_IMMEDIATE = 22  # 1: a captured piece leaves the board at once (Turkish), not at the end
Q_NO_REVERSAL = 23  # 1: a capture never goes straight back the way its last jump came
Q_SIZE = 24

# Indices into the ``geo`` word vector.
G_BOARD = 0  # the playable squares
G_CROWN = 1  # + player: the row where his men are crowned
G_NOT_LEFT = 3  # squares not on the left edge: a step along the rank to the left wraps
G_NOT_RIGHT = 4  # squares not on the right edge (to the previous or next row) from there
G_SIZE = 5

# Directions: 0 up-left, 1 up-right (towards row 0, White's forward), 2 down-left,
# 3 down-right; the opposite of d < 4 is 3 - d. Captures may also go along the orthogonal
# lines of a dark-square board, which skip the light square between two dark ones (Frisian):
# 4 up and 5 down a file (two rows), 6 left and 7 right along a rank (two columns); the
# opposite of d >= 4 is d ^ 1. On a board of all squares (Turkish) only these four lines
# exist, one row or one column a step.
DIAGONAL_DIRECTIONS = 0b00001111
ORTHOGONAL_DIRECTIONS = 0b11110000

# Columns of a move row (all words): origin bit, destination bit, captured set, and 1 if the
# piece ends the move as a king. A move is its from, to and captured squares (Scan's way).
M_FROM = 0
M_TO = 1
M_CAPS = 2
M_KING = 3
M_KINGS_MET = 4  # with Q_KING_ORDER: the captured kings in order, 6 bits each (0 otherwise)
M_WIDTH = 5
MAX_KINGS_MET = 10  # kings one capture can record (6 bits each in a word)

# Slots of the generator state ``st``.
S_COUNT = 0  # moves written so far
S_BEST = 1  # choice value of the kept captures (-1: none yet)
S_OVERFLOW = 2  # 1 once the move buffer was too small, 2 after too many kings in a row
TOO_MANY_KINGS = -2  # what the functions return for overflow 2: the caller gives up

# Capture search frames, one per jump made: words (``fb``) and small integers (``fi``).
FB_CUR = 0  # square the capturing piece stands on
FB_VICTIM = 1  # the piece being jumped
FB_PENDING = 2  # landing squares of this jump not tried yet
FB_FINISHED = 3  # landing squares where the capture ends
FB_TAKEN = 4  # pieces jumped before this frame's square
FB_LAND = 5  # landing square being tried
FB_KINGS_MET = 6  # kings jumped before this frame's square, in order (``M_KINGS_MET``)
FB_ENDS = 7  # landing squares of this jump where the capture may end (Killer: fewer)
FB_WIDTH = 8
FI_K = 0  # next direction to try
FI_KING = 1  # 1 if it captures as a king from here
FI_JUMPED = 2  # 1 once a jump was found from this frame's square
FI_WENT_ON = 3  # 1 if some landing square of the current jump let the capture go on
FI_ORDER = 4  # bit 23 - i set if the i-th piece jumped before this frame's square is a king
FI_WIDTH = 5
MAX_LEVELS = 66  # a capture takes at most every enemy piece: < 64 jumps
FIRST_CAPACITY = 128  # moves per ply; grown fourfold when a position has more


# -- compiled code ----------------------------------------------------------------------


@kernel_inline
def step(x, d, sa, sb):
    """Every square of ``x`` moved one step in direction ``d`` (off-board bits included)."""
    if d == 0:
        return x >> sb
    if d == 1:
        return x >> sa
    if d == 2:
        return x << sa
    return x << sb


@kernel_inline
def jump_step(x, d, sh):
    """:func:`step` in any of the 8 capture directions; ``sh`` holds the diagonal and file
    shifts and the edge masks (a step along a rank is one bit, so it would wrap)."""
    if d < 4:
        return step(x, d, sh[0], sh[1])
    if d == 4:
        return x >> sh[2]
    if d == 5:
        return x << sh[2]
    if d == 6:
        return (x & sh[3]) >> ONE
    return (x & sh[4]) << ONE


@kernel_inline
def _choice_value(q, king_moves, ncap, kings_taken, order):
    """The capture-choice value of a finished capture (higher is preferred), as in movegen."""
    value = 0
    for i in range(q[Q_CHOICE_COUNT]):
        criterion = q[Q_CHOICE + i]
        if criterion == CHOICE_MOST_PIECES:
            value = (value << 8) | ncap
        elif criterion == CHOICE_WITH_KING:
            value = (value << 1) | king_moves
        elif criterion == CHOICE_MOST_KINGS:
            value = (value << 8) | kings_taken
        elif criterion == CHOICE_MOST_VALUE:
            worth = 100 * (ncap - kings_taken) + q[Q_KING_VALUE] * kings_taken
            value = (value << 14) | worth
        else:  # CHOICE_EARLIEST_KING: a bit per capture, the first capture the highest
            value = (value << 24) | order
    return value


@kernel_inline
def _emit(moves, ply, st, dedupe, origin, to, caps, kings_met, ends_king, value):
    """Keep a finished capture if the choice rule allows it (a better value drops the
    captures kept so far) and, with ``dedupe``, if no kept one has its from, to and set
    (and order of kings, where that counts)."""
    if value < st[S_BEST]:
        return
    if value > st[S_BEST]:
        st[S_BEST] = value
        st[S_COUNT] = 0
    count = st[S_COUNT]
    if dedupe:
        for i in range(count):
            if (
                moves[ply, i, M_CAPS] == caps
                and moves[ply, i, M_KINGS_MET] == kings_met
                and moves[ply, i, M_TO] == to
                and moves[ply, i, M_FROM] == origin
            ):
                return
    if count >= moves.shape[1]:
        st[S_OVERFLOW] = 1
        return
    moves[ply, count, M_FROM] = origin
    moves[ply, count, M_TO] = to
    moves[ply, count, M_CAPS] = caps
    moves[ply, count, M_KING] = ONE if ends_king else ZERO
    moves[ply, count, M_KINGS_MET] = kings_met
    st[S_COUNT] = count + 1


@kernel_inline
def _jump_in(q, sh, d, cur, king, flying, jumpable, empty, kings):
    """(victim, landing squares, those where the capture may end) of the jump from ``cur``
    in direction ``d``, or zeros.

    Captured pieces stay on the board until the move ends: they are not ``empty`` (they
    block) and not ``jumpable``; where they leave at once (Turkish) the caller counts them
    ``empty``.
    """
    victim = jump_step(cur, d, sh)
    if flying:
        while victim & empty:  # slide up to the first piece
            victim = jump_step(victim, d, sh)
    if victim & jumpable == ZERO or (not king and q[Q_MEN_TAKE_KINGS] == 0 and victim & kings):
        return ZERO, ZERO, ZERO
    behind = jump_step(victim, d, sh) & empty
    if behind == ZERO:
        return ZERO, ZERO, ZERO
    lands = behind
    if flying and q[Q_LAND_NEXT] == 0:
        land = jump_step(behind, d, sh)
        while land & empty:  # every empty square behind the victim
            lands |= land
            land = jump_step(land, d, sh)
    return victim, lands, _ends(q, victim, kings, lands, behind)


@kernel_inline
def _next_jump(q, sh, player, jumpable, empty, kings, fb, fi, level):
    """Advance frame ``level`` to its next jump; False when none is left. On success the
    frame holds the victim, its landing squares and those where the capture may end.

    The diagonals first, in a loop of constant bound that the compiler unrolls (10% of the
    diagonal games' perft time), then the orthogonal lines where the game has them.
    """
    cur = fb[level, FB_CUR]
    king = fi[level, FI_KING] == 1
    flying = king and q[Q_FLYING] == 1
    directions = q[Q_KING_CAPTURE + player] if king else q[Q_MAN_CAPTURE + player]
    jumpable &= ~fb[level, FB_TAKEN]
    if q[Q_IMMEDIATE] == 1:  # the pieces taken so far are gone: they block nothing
        empty |= fb[level, FB_TAKEN]
    if q[Q_NO_REVERSAL] == 1 and level > 0:
        came = fi[level - 1, FI_K] - 1  # the direction of the jump that led here
        directions &= ~(1 << (3 - came if came < 4 else came ^ 1))
    k = fi[level, FI_K]
    while k < 4:
        d = k
        k += 1
        if (directions >> d) & 1 == 0:
            continue
        # _jump_in written out for the diagonals (a second inlined call of it doubles the
        # compile time, and unrolled here each step is one shift).
        victim = step(cur, d, sh[0], sh[1])
        if flying:
            while victim & empty:
                victim = step(victim, d, sh[0], sh[1])
        if victim & jumpable == ZERO or (not king and q[Q_MEN_TAKE_KINGS] == 0 and victim & kings):
            continue
        behind = step(victim, d, sh[0], sh[1]) & empty
        if behind == ZERO:
            continue
        lands = behind
        if flying and q[Q_LAND_NEXT] == 0:
            land = step(behind, d, sh[0], sh[1])
            while land & empty:
                lands |= land
                land = step(land, d, sh[0], sh[1])
        _found(fb, fi, level, k, victim, lands, _ends(q, victim, kings, lands, behind))
        return True
    if directions >> 4:
        k, victim, lands, ends = _orthogonal_jump(
            q, sh, k, directions, cur, king, flying, jumpable, empty, kings
        )
        if lands != ZERO:
            _found(fb, fi, level, k, victim, lands, ends)
            return True
    fi[level, FI_K] = k
    return False


@kernel
def _orthogonal_jump(q, sh, k, directions, cur, king, flying, jumpable, empty, kings):
    """The next jump along an orthogonal line from direction ``k`` on: (next ``k``, victim,
    landing squares, those where the capture may end), zeros if none. A function of its own,
    called only by games with such captures: inlined where the diagonals are, it tripled the
    compile time."""
    while k < 8:
        d = k
        k += 1
        if (directions >> d) & 1:
            victim, lands, ends = _jump_in(q, sh, d, cur, king, flying, jumpable, empty, kings)
            if lands != ZERO:
                return k, victim, lands, ends
    return k, ZERO, ZERO, ZERO


@kernel_inline
def _ends(q, victim, kings, lands, behind):
    """The landing squares of a jump where the capture may end: all of them, but only the
    square right behind a king when the capture ends on one (Killer). Where it goes on,
    every landing square counts."""
    if q[Q_STOP_BEHIND_KING] == 1 and victim & kings != ZERO:
        return behind
    return lands


@kernel_inline
def _found(fb, fi, level, k, victim, lands, ends):
    """Frame ``level`` now tries the landing squares of this jump."""
    fi[level, FI_K] = k
    fi[level, FI_WENT_ON] = 0
    fb[level, FB_VICTIM] = victim
    fb[level, FB_PENDING] = lands
    fb[level, FB_ENDS] = ends
    fb[level, FB_FINISHED] = ZERO


@kernel_inline
def _captures_from(
    geo, q, sh, player, origin, king, jumpable, empty, kings, moves, ply, fb, fi, st, dedupe
):
    """Emit every finished capture of the piece on ``origin`` (``empty`` counts it gone).

    Depth-first on an explicit stack, the table kernel's search on words: frame ``n`` is
    the piece after ``n`` jumps. A capture must go on while it can; the landing squares of
    one jump where it ends count only if no landing square of that jump lets it go on.
    """
    crown = geo[G_CROWN + player]
    promotion = q[Q_PROMOTION]
    king_order = q[Q_KING_ORDER] == 1
    level = 0
    fb[0, FB_CUR] = origin
    fb[0, FB_TAKEN] = ZERO
    fb[0, FB_KINGS_MET] = ZERO
    fi[0, FI_ORDER] = 0
    fi[0, FI_KING] = king
    fi[0, FI_K] = 0
    fi[0, FI_JUMPED] = 0
    seeking = True  # False while trying the landing squares of the current jump
    while True:
        if seeking:
            if not _next_jump(q, sh, player, jumpable, empty, kings, fb, fi, level):
                if level == 0:
                    return
                # Every jump from here tried: the parent's landing square let the capture
                # go on, or the capture ends there.
                jumped = fi[level, FI_JUMPED]
                level -= 1
                if jumped == 1:
                    fi[level, FI_WENT_ON] = 1
                else:
                    fb[level, FB_FINISHED] |= fb[level, FB_LAND]
            else:
                fi[level, FI_JUMPED] = 1
                # What the capture has taken once this jump is made, written where the
                # next frame (and the emission of this jump's ends) reads it.
                victim = fb[level, FB_VICTIM]
                kings_met = fb[level, FB_KINGS_MET]
                order = fi[level, FI_ORDER]
                if victim & kings:
                    if level < 24:
                        order |= 1 << (23 - level)
                    if king_order:
                        if kings_met >> np.uint64(6 * (MAX_KINGS_MET - 1)) != ZERO:
                            st[S_OVERFLOW] = 2
                            return
                        kings_met = (kings_met << np.uint64(6)) | np.uint64(bit_index(victim) + 1)
                fb[level + 1, FB_TAKEN] = fb[level, FB_TAKEN] | victim
                fb[level + 1, FB_KINGS_MET] = kings_met
                fi[level + 1, FI_ORDER] = order
            seeking = False
            continue
        pending = fb[level, FB_PENDING]
        if pending != ZERO:
            land = pending & ~(pending - ONE)  # lowest pending landing square
            fb[level, FB_PENDING] = pending ^ land
            fb[level, FB_LAND] = land
            as_king = fi[level, FI_KING]
            if as_king == 0 and land & crown:
                if promotion == PROMOTE_CONTINUE:
                    as_king = 1
                elif promotion == PROMOTE_ENDS_MOVE:
                    fb[level, FB_FINISHED] |= land
                    continue
            next_level = level + 1
            fb[next_level, FB_CUR] = land
            fi[next_level, FI_KING] = as_king
            fi[next_level, FI_K] = 0
            fi[next_level, FI_JUMPED] = 0
            level = next_level
            seeking = True
            continue
        # All landing squares of this jump tried.
        if fi[level, FI_WENT_ON] == 0:
            finished = fb[level, FB_FINISHED] & fb[level, FB_ENDS]
            caps = fb[level + 1, FB_TAKEN]
            kings_met = fb[level + 1, FB_KINGS_MET]
            order = fi[level + 1, FI_ORDER]
            value = _choice_value(q, king, level + 1, popcount(caps & kings), order)
            as_king = fi[level, FI_KING] == 1
            while finished != ZERO:
                land = finished & ~(finished - ONE)
                finished ^= land
                ends_king = as_king or land & crown != ZERO
                _emit(moves, ply, st, dedupe, origin, land, caps, kings_met, ends_king, value)
        seeking = True


@kernel_inline
def _jumpers(q, sh, men, opp, kings, player, empty):
    """The ``men`` of ``player`` with a first jump, all at once: a victim one step away and
    an empty square behind it."""
    victims = opp if q[Q_MEN_TAKE_KINGS] == 1 else opp & ~kings
    directions = q[Q_MAN_CAPTURE + player]
    jumpers = ZERO
    for d in range(4):
        if (directions >> d) & 1:
            jumpers |= step(step(empty, 3 - d, sh[0], sh[1]) & victims, 3 - d, sh[0], sh[1])
    if directions >> 4:  # orthogonal captures (Frisian): the opposite of d is d ^ 1
        for d in range(4, 8):
            if (directions >> d) & 1:
                jumpers |= jump_step(jump_step(empty, d ^ 1, sh) & victims, d ^ 1, sh)
    return jumpers & men


@kernel_inline
def threatens(geo, q, me, opp, kings, player):
    """Whether ``player`` (pieces ``me``) might capture: a man of his has a first jump, or
    he has a king (not looked at further). Cheaper than listing the captures."""
    if me & kings != ZERO:
        return True
    sa = np.uint64(q[Q_SHIFT_A])
    sb = np.uint64(q[Q_SHIFT_B])
    sh = (sa, sb, np.uint64(q[Q_SHIFT_V]), geo[G_NOT_LEFT], geo[G_NOT_RIGHT])
    return _jumpers(q, sh, me, opp, kings, player, geo[G_BOARD] & ~(me | opp)) != ZERO


@kernel_inline
def list_captures(geo, q, me, opp, kings, player, moves, ply, fb, fi, st, dedupe):
    """Emit the captures of the side to move under the choice rule: how many were kept."""
    sa = np.uint64(q[Q_SHIFT_A])
    sb = np.uint64(q[Q_SHIFT_B])
    empty = geo[G_BOARD] & ~(me | opp)
    st[S_COUNT] = 0
    st[S_BEST] = -1
    st[S_OVERFLOW] = 0
    sh = (sa, sb, np.uint64(q[Q_SHIFT_V]), geo[G_NOT_LEFT], geo[G_NOT_RIGHT])
    searched = _jumpers(q, sh, me & ~kings, opp, kings, player, empty) | (me & kings)
    while searched != ZERO:
        origin = searched & ~(searched - ONE)
        searched ^= origin
        king = 1 if origin & kings else 0
        _captures_from(
            geo,
            q,
            sh,
            player,
            origin,
            king,
            opp,
            empty | origin,
            kings,
            moves,
            ply,
            fb,
            fi,
            st,
            dedupe,
        )
    if st[S_OVERFLOW] == 1:
        return -1
    if st[S_OVERFLOW] == 2:
        return TOO_MANY_KINGS
    return st[S_COUNT]


@kernel_inline
def count_quiet(geo, q, me, opp, kings, player):
    """Number of non-capturing moves, counted without listing them (perft's last ply)."""
    sa = np.uint64(q[Q_SHIFT_A])
    sb = np.uint64(q[Q_SHIFT_B])
    empty = geo[G_BOARD] & ~(me | opp)
    men = me & ~kings
    directions = q[Q_MAN_STEP + player]
    king_directions = q[Q_KING_STEP]
    own_kings = me & kings
    if (directions | king_directions) & ORTHOGONAL_DIRECTIONS:
        sh = (sa, sb, np.uint64(q[Q_SHIFT_V]), geo[G_NOT_LEFT], geo[G_NOT_RIGHT])
        n = _count_orthogonal_quiet(q, sh, men, own_kings, empty, directions)
    else:
        n = 0
    for d in range(4):
        if (directions >> d) & 1:
            n += popcount(step(men, d, sa, sb) & empty)
    if own_kings != ZERO:
        # All kings slide together: the squares k steps away form one set per direction
        # (a king's ray stops at the first piece, so two kings' rays never overlap).
        for d in range(4):
            if (king_directions >> d) & 1 == 0:
                continue
            reach = step(own_kings, d, sa, sb) & empty
            while reach != ZERO:
                n += popcount(reach)
                if q[Q_FLYING] == 0:
                    break
                reach = step(reach, d, sa, sb) & empty
    return n


@kernel_inline
def has_quiet(geo, q, me, opp, kings, player):
    """Whether the side to move has a non-capturing move: what the search asks at nearly
    every leaf (no move loses; the rule of quiet moves ends only a game with moves left).
    On the diagonals, one free square beside a man ahead or beside a king answers it (a
    flying king's every move starts with that step); along the lines, the count does."""
    directions = q[Q_MAN_STEP + player]
    king_directions = q[Q_KING_STEP]
    if (directions | king_directions) & ORTHOGONAL_DIRECTIONS:
        return count_quiet(geo, q, me, opp, kings, player) > 0
    sa = np.uint64(q[Q_SHIFT_A])
    sb = np.uint64(q[Q_SHIFT_B])
    empty = geo[G_BOARD] & ~(me | opp)
    men = me & ~kings
    own_kings = me & kings
    for d in range(4):
        if (directions >> d) & 1 and step(men, d, sa, sb) & empty != ZERO:
            return True
        if (king_directions >> d) & 1 and step(own_kings, d, sa, sb) & empty != ZERO:
            return True
    return False


@kernel
def _count_orthogonal_quiet(q, sh, men, own_kings, empty, directions):
    """:func:`count_quiet`'s steps along the files and ranks (a function of its own, as
    :func:`_orthogonal_jump`, so that the diagonal games compile as before)."""
    n = 0
    for d in range(4, 8):
        if (directions >> d) & 1:
            n += popcount(jump_step(men, d, sh) & empty)
    if own_kings != ZERO:
        for d in range(4, 8):
            if (q[Q_KING_STEP] >> d) & 1 == 0:
                continue
            reach = jump_step(own_kings, d, sh) & empty
            while reach != ZERO:
                n += popcount(reach)
                if q[Q_FLYING] == 0:
                    break
                reach = jump_step(reach, d, sh) & empty
    return n


@kernel_inline
def _put_quiet(moves, ply, count, origin, to, ends_king):
    """Write quiet move ``count`` of ``moves[ply]``; False when the buffer is full."""
    if count >= moves.shape[1]:
        return False
    moves[ply, count, M_FROM] = origin
    moves[ply, count, M_TO] = to
    moves[ply, count, M_CAPS] = ZERO
    moves[ply, count, M_KING] = ONE if ends_king != ZERO else ZERO
    return True


@kernel
def _list_orthogonal_quiet(q, sh, men, own_kings, empty, crown, directions, moves, ply):
    """:func:`list_quiet`'s steps along the files and ranks, written from ``moves[ply, 0]``
    on: their number, or -1 when the buffer is too small."""
    count = 0
    for d in range(4, 8):
        if (directions >> d) & 1 == 0:
            continue
        targets = jump_step(men, d, sh) & empty
        while targets != ZERO:
            to = targets & ~(targets - ONE)
            targets ^= to
            if not _put_quiet(moves, ply, count, jump_step(to, d ^ 1, sh), to, to & crown):
                return -1
            count += 1
    while own_kings != ZERO:
        origin = own_kings & ~(own_kings - ONE)
        own_kings ^= origin
        for d in range(4, 8):
            if (q[Q_KING_STEP] >> d) & 1 == 0:
                continue
            to = jump_step(origin, d, sh) & empty
            while to != ZERO:
                if not _put_quiet(moves, ply, count, origin, to, ONE):
                    return -1
                count += 1
                if q[Q_FLYING] == 0:
                    break
                to = jump_step(to, d, sh) & empty
    return count


@kernel_inline
def list_quiet(geo, q, me, opp, kings, player, moves, ply, st):
    """Write the non-capturing moves into ``moves[ply]``; their number or -1 (overflow)."""
    sa = np.uint64(q[Q_SHIFT_A])
    sb = np.uint64(q[Q_SHIFT_B])
    empty = geo[G_BOARD] & ~(me | opp)
    crown = geo[G_CROWN + player]
    men = me & ~kings
    directions = q[Q_MAN_STEP + player]
    king_directions = q[Q_KING_STEP]
    if (directions | king_directions) & ORTHOGONAL_DIRECTIONS:
        sh = (sa, sb, np.uint64(q[Q_SHIFT_V]), geo[G_NOT_LEFT], geo[G_NOT_RIGHT])
        own = me & kings
        count = _list_orthogonal_quiet(q, sh, men, own, empty, crown, directions, moves, ply)
        if count < 0:
            return -1
    else:
        count = 0
    for d in range(4):
        if (directions >> d) & 1 == 0:
            continue
        targets = step(men, d, sa, sb) & empty
        while targets != ZERO:
            to = targets & ~(targets - ONE)
            targets ^= to
            if not _put_quiet(moves, ply, count, step(to, 3 - d, sa, sb), to, to & crown):
                return -1
            count += 1
    own_kings = me & kings
    while own_kings != ZERO:
        origin = own_kings & ~(own_kings - ONE)
        own_kings ^= origin
        for d in range(4):
            if (king_directions >> d) & 1 == 0:
                continue
            to = step(origin, d, sa, sb) & empty
            while to != ZERO:
                if not _put_quiet(moves, ply, count, origin, to, ONE):
                    return -1
                count += 1
                if q[Q_FLYING] == 0:
                    break
                to = step(to, d, sa, sb) & empty
    return count


@kernel
def bitboard_perft(geo, q, me, opp, kings, player, depth, moves, pos, stack, fb, fi, st, dedupe):
    """Leaves ``depth`` plies below the position (``me`` to move); -1 if ``moves`` was too
    small.

    Iterative on an explicit stack (Numba cannot cache recursive functions), copy-make:
    ``pos[d]`` holds the position ``d`` plies above the leaves as (side to move, other side,
    kings) and ``moves[d]`` its moves, so a move is never taken back. The root is the child
    of a null move at ``depth + 1``, so that each generator has one call site (each call
    site is one more compiled copy of it). Nodes one ply above the leaves are counted
    without playing their moves (bulk counting), their captures written to ``moves[0]``.
    All arrays have ``depth + 2`` rows.
    """
    if depth == 0:
        return 1
    count = stack[0]
    index = stack[1]
    to_move = stack[2]
    top = depth + 1
    pos[top, 0] = opp
    pos[top, 1] = me
    pos[top, 2] = kings
    to_move[top] = 1 - player
    moves[top, 0, M_FROM] = ZERO
    moves[top, 0, M_TO] = ZERO
    moves[top, 0, M_CAPS] = ZERO
    moves[top, 0, M_KING] = ZERO
    count[top] = 1
    index[top] = 0
    d = top
    total = 0
    while True:
        i = index[d]
        if i < count[d]:
            index[d] = i + 1
            # Play move i of node d: the mover loses its origin and gains its destination,
            # the other side loses the captured set, and the two swap roles in the child.
            origin = moves[d, i, M_FROM]
            to = moves[d, i, M_TO]
            caps = moves[d, i, M_CAPS]
            child_kings = pos[d, 2] & ~origin & ~caps
            if moves[d, i, M_KING] != ZERO:
                child_kings |= to
            child_me = pos[d, 1] & ~caps
            child_opp = (pos[d, 0] & ~origin) | to
            child_player = 1 - to_move[d]
            c = d - 1
            ply = 0 if c == 1 else c
            n = list_captures(
                geo,
                q,
                child_me,
                child_opp,
                child_kings,
                child_player,
                moves,
                ply,
                fb,
                fi,
                st,
                dedupe,
            )
            if n < 0:
                return n
            if c == 1:
                # One ply above the leaves: its captures, or else its quiet moves counted.
                if n == 0:
                    n = count_quiet(geo, q, child_me, child_opp, child_kings, child_player)
                total += n
                continue
            if n == 0:
                n = list_quiet(geo, q, child_me, child_opp, child_kings, child_player, moves, c, st)
                if n < 0:
                    return -1
            pos[c, 0] = child_me
            pos[c, 1] = child_opp
            pos[c, 2] = child_kings
            to_move[c] = child_player
            count[c] = n
            index[c] = 0
            d = c
        elif d == top:
            return total
        else:
            d += 1


# -- Python side ------------------------------------------------------------------------


class Spec(NamedTuple):
    """A covered variant compiled for the bitboard code."""

    geo: U64
    """Board and crowning-row masks (``G_*``)."""
    q: I64
    """Rule switches (``Q_*``)."""
    bits: U64
    """``bits[cell]``: the word of the kernel's cell ``cell``."""


# The directions of each direction class, for White (player 0); Black's are mirrored.
_CLASS_DIRECTIONS = {
    Direction.FORWARD_DIAGONAL: (0, 1),
    Direction.BACKWARD_DIAGONAL: (2, 3),
    Direction.FORWARD: (4,),
    Direction.BACKWARD: (5,),
    Direction.SIDEWAYS: (6, 7),
}
_MIRROR = (2, 3, 0, 1, 5, 4, 6, 7)
_CHOICES = {
    Choice.MOST_PIECES: CHOICE_MOST_PIECES,
    Choice.WITH_KING: CHOICE_WITH_KING,
    Choice.MOST_KINGS: CHOICE_MOST_KINGS,
    Choice.EARLIEST_KING: CHOICE_EARLIEST_KING,
    Choice.MOST_VALUE: CHOICE_MOST_VALUE,
}
_PROMOTIONS = {
    Promotion.AT_END: PROMOTE_AT_END,
    Promotion.CONTINUE_AS_KING: PROMOTE_CONTINUE,
    Promotion.ENDS_MOVE: PROMOTE_ENDS_MOVE,
}


def covers(variant: Variant) -> bool:
    """Whether the bitboard code plays ``variant`` (its rules are among the switches)."""
    return _spec(variant) is not None


def bitboard_spec(variant: Variant) -> Spec | None:
    """``variant`` compiled for the bitboard code (the engine's search uses it too), or None
    when it is not covered."""
    return _spec(variant)


def _rules_fit(variant: Variant) -> bool:
    """Whether the rules are among the switches. (Frisian's limit on king moves in a row is
    not one of them, but perft does not see it: the board applies it from its history.)"""
    dark = (
        variant.board in (BoardKind.DARK, BoardKind.MIRRORED)
        and variant.width % 2 == 0
        and variant.man_moves == frozenset({Direction.FORWARD_DIAGONAL})
        and variant.king_moves == DIAGONAL
    )
    # A board of all squares has no diagonal step in its layout: its pieces keep to the
    # files and ranks.
    every_square = (
        variant.board is BoardKind.ALL
        and variant.width * variant.height <= 64
        and variant.king_moves == ORTHOGONAL
        and variant.man_moves <= ORTHOGONAL
        and variant.man_captures <= ORTHOGONAL
        and variant.king_captures <= ORTHOGONAL
    )
    return (
        variant.players == 2
        and variant.topology is Topology.SQUARE
        and variant.corner == 0
        and (dark or every_square)
        and not variant.line_moves
        and not variant.crowning_wins
        and len(variant.choice) <= 4
        and all(criterion in _CHOICES for criterion in variant.choice)
    )


def _direction_mask(classes: frozenset[Direction], player: int) -> int:
    mask = 0
    for direction_class in classes:
        for d in _CLASS_DIRECTIONS[direction_class]:
            mask |= 1 << (d if player == 0 else _MIRROR[d])
    return mask


@cache
def _spec(variant: Variant) -> Spec | None:
    if not _rules_fit(variant):
        return None
    width, height = variant.width, variant.height
    every_square = variant.board is BoardKind.ALL
    dark_parity = (height - 1) % 2 if variant.board is BoardKind.DARK else height % 2
    coordinates = [
        (row, column)
        for row in range(height)
        for column in range(width)
        if every_square or (row + column) % 2 == dark_parity
    ]
    if tuple(coordinates) != tuple(geometry_of(variant).coordinates):
        return None  # the kernel's cells are not these squares in this order
    if every_square:
        indices = [row * width + column for row, column in coordinates]
    else:
        indices = [(row * (width + 1) + column) // 2 for row, column in coordinates]
    if max(indices) >= 64:
        return None
    bits = np.array([1 << i for i in indices], dtype=np.uint64)
    geo = np.zeros(G_SIZE, dtype=np.uint64)
    geo[G_BOARD] = np.bitwise_or.reduce(bits)
    for player, crown_row in ((0, 0), (1, height - 1)):
        row_bits = [b for b, (row, _) in zip(bits, coordinates, strict=True) if row == crown_row]
        geo[G_CROWN + player] = np.bitwise_or.reduce(np.array(row_bits, dtype=np.uint64))
    columns = np.array([column for _, column in coordinates])
    geo[G_NOT_LEFT] = np.bitwise_or.reduce(bits[columns != 0])
    geo[G_NOT_RIGHT] = np.bitwise_or.reduce(bits[columns != width - 1])
    q = np.zeros(Q_SIZE, dtype=np.int64)
    q[Q_SHIFT_A] = width // 2  # (no diagonal step on a board of all squares)
    q[Q_SHIFT_B] = width // 2 + 1
    q[Q_SHIFT_V] = width if every_square else width + 1
    q[Q_KING_STEP] = _direction_mask(variant.king_moves, 0)
    q[Q_IMMEDIATE] = variant.removal is Removal.IMMEDIATE
    q[Q_NO_REVERSAL] = variant.no_reversal
    for player in (0, 1):
        q[Q_MAN_STEP + player] = _direction_mask(variant.man_moves, player)
        q[Q_MAN_CAPTURE + player] = _direction_mask(variant.man_captures, player)
        q[Q_KING_CAPTURE + player] = _direction_mask(variant.king_captures, player)
    q[Q_KING_VALUE] = variant.king_value
    q[Q_FLYING] = variant.king_range is Range.FLYING
    q[Q_LAND_NEXT] = variant.king_landing is Landing.NEXT
    q[Q_STOP_BEHIND_KING] = variant.king_stops_behind_king
    q[Q_MEN_TAKE_KINGS] = variant.men_capture_kings
    q[Q_PROMOTION] = _PROMOTIONS[variant.promotion]
    q[Q_CHOICE_COUNT] = len(variant.choice)
    for i, criterion in enumerate(variant.choice):
        q[Q_CHOICE + i] = _CHOICES[criterion]
    q[Q_KING_ORDER] = variant.king_order_matters
    return Spec(geo=geo, q=q, bits=bits)


@kernel
def cell_words(bits, cells):
    """(White's pieces, Black's pieces, kings) of a kernel cell array as words, ``bits``
    being :attr:`Spec.bits` (compiled: the search calls it at every root move; Python gets
    the words back as ints, to make ``np.uint64`` again)."""
    white = ZERO
    black = ZERO
    kings = ZERO
    for cell in range(cells.shape[0]):
        code = cells[cell]
        if code <= 0:
            continue
        if code <= 2:
            white |= bits[cell]
        else:
            black |= bits[cell]
        if code % 2 == 0:
            kings |= bits[cell]
    return white, black, kings


def fast_perft(
    variant: Variant, cells: npt.NDArray[np.int8], turn: int, depth: int, duplicates: str = "drop"
) -> int | None:
    """Perft by bitboards: the leaves ``depth`` plies below the position, counted as
    :func:`damier.kernel.perft.perft` counts them; None when ``variant`` is not covered
    (or, where the order of captured kings makes moves distinct, when one capture in the
    tree takes more than ``MAX_KINGS_MET`` kings: call the table kernel then).

    ``cells`` is the kernel's cell array, ``turn`` the player to move (0 or 1),
    ``duplicates`` ``"drop"`` (captures of the same set between the same squares are one
    move) or ``"keep"`` (every path counts).
    """
    spec = _spec(variant)
    if spec is None:
        return None
    if duplicates not in ("drop", "keep"):
        raise ValueError("duplicates must be 'drop' or 'keep'")
    if depth < 0:
        raise ValueError("depth must be at least 0")
    white, black, kings = (np.uint64(w) for w in cell_words(spec.bits, np.asarray(cells)))
    me, opp = (white, black) if turn == 0 else (black, white)
    capacity = FIRST_CAPACITY
    while True:
        moves = np.zeros((depth + 2, capacity, M_WIDTH), dtype=np.uint64)
        count = bitboard_perft(
            spec.geo,
            spec.q,
            me,
            opp,
            kings,
            turn,
            depth,
            moves,
            np.zeros((depth + 2, 3), dtype=np.uint64),
            np.zeros((3, depth + 2), dtype=np.int64),
            np.zeros((MAX_LEVELS, FB_WIDTH), dtype=np.uint64),
            np.zeros((MAX_LEVELS, FI_WIDTH), dtype=np.int64),
            np.zeros(3, dtype=np.int64),
            duplicates == "drop",
        )
        if count >= 0:
            return int(count)
        if count == TOO_MANY_KINGS:
            return None
        capacity *= 4
