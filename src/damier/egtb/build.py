"""Building endgame databases by retrograde analysis, and checking them.

Classes are solved in :func:`damier.egtb.index.materials` order. A quiet move keeps the
material but hands the move over, so a class (a, b, c, d) is solved together with its
mirror (c, d, a, b); a capture leads to fewer pieces and a crowning to fewer men, both
solved before. For each position of the pair:

1. Its moves are generated forwards. A capture decides it at once (its children are all
   known); so does having no move (a loss, or a win in the giveaway forms) and a crowning
   into a lost position. Otherwise it keeps a count of the moves not yet known to lose.
2. Every decided position then tells its predecessors inside the pair (found by moving a
   piece of the side that just moved back, keeping only those where that side had no
   capture, since captures are compulsory): a lost one makes them won; a won one takes one
   from their count, and a count at zero makes them lost.

What is never decided is a draw: neither side can force a win, so play goes on forever.
Positions are told in the order they were decided, so a position's distance (plies to the
next capture or crowning) is one more than that of the position that decided it: the
nearest lost successor of a won position, the farthest won successor of a lost one.
:func:`check` verifies that every stored value and distance agrees with its successors'.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from damier.egtb.index import (
    BINOM,
    DRAW,
    H_CELLS,
    H_ROW,
    INVALID,
    LOSS,
    WIN,
    Layout,
    group_words,
    index_of,
    layout,
    rotate,
)
from damier.kernel.bitboard import (
    FB_WIDTH,
    FI_WIDTH,
    G_BOARD,
    M_CAPS,
    M_FROM,
    M_KING,
    M_TO,
    M_WIDTH,
    MAX_LEVELS,
    ONE,
    Q_FLYING,
    Q_MAN_STEP,
    Q_SHIFT_A,
    Q_SHIFT_B,
    ZERO,
    Spec,
    list_captures,
    list_quiet,
    step,
)
from damier.kernel.jit import kernel, kernel_inline

U8 = npt.NDArray[np.uint8]

CAPACITY = 256  # moves a position may have (a few pieces: far fewer)


@kernel
def _captures(geo, q, me, opp, kings, moves, ply, fb, fi, st):
    """The captures of ``me`` (White) into ``moves[ply]``: how many."""
    return list_captures(geo, q, me, opp, kings, 0, moves, ply, fb, fi, st, True)


@kernel
def _quiet(geo, q, me, opp, kings, moves, ply, st):
    """The quiet moves of ``me`` (White) into ``moves[ply]``: how many."""
    return list_quiet(geo, q, me, opp, kings, 0, moves, ply, st)


@kernel_inline
def _decode(ix, words, word_start, j, a, b, c, d):
    """(my men, my kings, their men, their kings) of index ``j`` of class (a, b, c, d)."""
    cells = ix[H_CELLS]
    men_squares = cells - ix[H_ROW]
    kd = ix[BINOM + cells * 6 + d]
    kc = ix[BINOM + men_squares * 6 + c]
    kb = ix[BINOM + cells * 6 + b]
    rd = j % kd
    j //= kd
    rc = j % kc
    j //= kc
    rb = j % kb
    ra = j // kb
    return (
        words[word_start[0 * 6 + a] + ra],
        words[word_start[2 * 6 + b] + rb],
        words[word_start[1 * 6 + c] + rc],
        words[word_start[2 * 6 + d] + rd],
    )


@kernel_inline
def _child_index(ix, moves, ply, i, me, opp, kings):
    """The index of the position after move ``i``, or -1 when the other side has nothing
    left."""
    origin = moves[ply, i, M_FROM]
    to = moves[ply, i, M_TO]
    caps = moves[ply, i, M_CAPS]
    child_kings = kings & ~origin & ~caps
    if moves[ply, i, M_KING] != ZERO:
        child_kings |= to
    mover = (me & ~origin) | to
    other = opp & ~caps
    if other == ZERO:
        return -1
    return index_of(ix, rotate(ix, other), rotate(ix, mover), rotate(ix, child_kings))


@kernel_inline
def _child_value(ix, values, moves, ply, i, me, opp, kings, no_move):
    """The value, for the side that plays it, of move ``i``."""
    index = _child_index(ix, moves, ply, i, me, opp, kings)
    value = no_move if index < 0 else values[index]
    if value == WIN:
        return LOSS
    if value == LOSS:
        return WIN
    return DRAW


@kernel_inline
def _better(best, value):
    if best == WIN or value == WIN:
        return WIN
    if best == DRAW or value == DRAW:
        return DRAW
    return LOSS


@kernel
def solve_pair(
    geo,
    q,
    ix,
    words,
    word_start,
    pair,
    values,
    distances,
    counts,
    queue,
    moves,
    fb,
    fi,
    st,
    no_move,
):
    """Solve the classes of ``pair`` (rows: start, size, a, b, c, d; a class and its
    mirror, side by side), whose values are DRAW (undecided) and distances 0 on entry;
    ``values`` holds every class solved before, ``no_move`` the value of having no move
    (LOSS, or WIN in the giveaway forms). Returns how many positions were won or lost, or
    -1 when a distance does not fit a byte."""
    board = geo[G_BOARD]
    tail = 0
    # 1. Forwards: what each position's own moves decide.
    for r in range(pair.shape[0]):
        start, size, a, b, c, d = (
            pair[r, 0],
            pair[r, 1],
            pair[r, 2],
            pair[r, 3],
            pair[r, 4],
            pair[r, 5],
        )
        for j in range(size):
            g = start + j
            my_men, my_kings, their_men, their_kings = _decode(ix, words, word_start, j, a, b, c, d)
            mine = my_men | my_kings
            theirs = their_men | their_kings
            if (my_men & my_kings) | (their_men & their_kings) | (mine & theirs) != ZERO:
                values[g] = INVALID
                continue
            kings = my_kings | their_kings
            n = _captures(geo, q, mine, theirs, kings, moves, 0, fb, fi, st)
            if n > 0:
                best = LOSS
                for i in range(n):
                    best = _better(
                        best, _child_value(ix, values, moves, 0, i, mine, theirs, kings, no_move)
                    )
                values[g] = best
                if best != DRAW:
                    queue[tail] = g
                    tail += 1
                continue
            n = _quiet(geo, q, mine, theirs, kings, moves, 0, st)
            open_moves = 0
            won = False
            for i in range(n):
                if moves[0, i, M_KING] != ZERO and moves[0, i, M_FROM] & kings == ZERO:
                    value = _child_value(ix, values, moves, 0, i, mine, theirs, kings, no_move)
                    if value == WIN:
                        won = True
                    elif value == DRAW:
                        open_moves += 1  # never taken back: this position cannot be lost
                else:
                    open_moves += 1  # inside the pair: told when its value is known
            if won:
                values[g] = WIN
            elif n == 0:
                values[g] = no_move
            elif open_moves == 0:
                values[g] = LOSS
            else:
                counts[g - pair[0, 0]] = open_moves
                continue
            queue[tail] = g
            tail += 1
    # 2. Backwards: each decided position tells its predecessors in the pair.
    sa = np.uint64(q[Q_SHIFT_A])
    sb = np.uint64(q[Q_SHIFT_B])
    flying = q[Q_FLYING] == 1
    man_steps = q[Q_MAN_STEP]
    head = 0
    while head < tail:
        g = queue[head]
        head += 1
        r = 0 if g < pair[0, 0] + pair[0, 1] else 1
        my_men, my_kings, their_men, their_kings = _decode(
            ix, words, word_start, g - pair[r, 0], pair[r, 2], pair[r, 3], pair[r, 4], pair[r, 5]
        )
        told = LOSS if values[g] == WIN else WIN  # the predecessor's value if it moves here
        if distances[g] == 255:
            return -1
        distance = distances[g] + 1  # what a predecessor decided by this position gets
        # The predecessor, turned round: the side that moved here plays White.
        mover = rotate(ix, their_men | their_kings)
        other = rotate(ix, my_men | my_kings)
        kings = rotate(ix, my_kings | their_kings)
        empty = board & ~(mover | other)
        pieces = mover
        while pieces != ZERO:
            piece = pieces & ~(pieces - ONE)
            pieces ^= piece
            is_king = piece & kings != ZERO
            for d in range(4):
                if is_king:
                    origin = step(piece, d, sa, sb) & empty
                elif (man_steps >> (3 - d)) & 1:
                    origin = step(piece, d, sa, sb) & empty  # a man steps back
                else:
                    continue
                while origin != ZERO:
                    before = (mover ^ piece) | origin
                    before_kings = (kings ^ piece) | origin if is_king else kings
                    if _captures(geo, q, before, other, before_kings, moves, 1, fb, fi, st) == 0:
                        p = index_of(ix, before, other, before_kings)
                        if values[p] == DRAW:
                            if told == WIN:
                                values[p] = WIN
                                distances[p] = distance
                                queue[tail] = p
                                tail += 1
                            else:
                                k = p - pair[0, 0]
                                counts[k] -= 1
                                if counts[k] == 0:
                                    values[p] = LOSS
                                    distances[p] = distance
                                    queue[tail] = p
                                    tail += 1
                    if not (is_king and flying):
                        break
                    origin = step(origin, d, sa, sb) & empty
    return tail


@kernel
def check_values(
    ix, words, word_start, classes, values, distances, moves, fb, fi, st, geo, q, no_move
):
    """How many positions have a value or a distance that disagrees with their successors'
    (or an index that does not lead back to them); ``classes`` rows as ``solve_pair``'s
    ``pair``. A won position is as far from its next conversion (a capture or a crowning)
    as its nearest lost successor plus one, a lost one as its farthest successor plus one;
    a move that converts counts 0."""
    wrong = 0
    for r in range(classes.shape[0]):
        start, size, a, b, c, d = (
            classes[r, 0],
            classes[r, 1],
            classes[r, 2],
            classes[r, 3],
            classes[r, 4],
            classes[r, 5],
        )
        for j in range(size):
            g = start + j
            my_men, my_kings, their_men, their_kings = _decode(ix, words, word_start, j, a, b, c, d)
            mine = my_men | my_kings
            theirs = their_men | their_kings
            if (my_men & my_kings) | (their_men & their_kings) | (mine & theirs) != ZERO:
                if values[g] != INVALID:
                    wrong += 1
                continue
            kings = my_kings | their_kings
            if index_of(ix, mine, theirs, kings) != g:
                wrong += 1
                continue
            n = _captures(geo, q, mine, theirs, kings, moves, 0, fb, fi, st)
            captures = n > 0
            if not captures:
                n = _quiet(geo, q, mine, theirs, kings, moves, 0, st)
            expected = no_move if n == 0 else LOSS
            nearest = 255
            farthest = 0
            for i in range(n):
                value = _child_value(ix, values, moves, 0, i, mine, theirs, kings, no_move)
                expected = _better(expected, value)
                far = 0
                if not captures and (
                    moves[0, i, M_KING] == ZERO or moves[0, i, M_FROM] & kings != ZERO
                ):  # a move inside the class pair
                    far = distances[_child_index(ix, moves, 0, i, mine, theirs, kings)] + 1
                if value == WIN:
                    nearest = min(nearest, far)
                farthest = max(farthest, far)
            distance = 0
            if not captures and n > 0:
                if expected == WIN:
                    distance = nearest
                elif expected == LOSS:
                    distance = farthest
            if values[g] != expected or distances[g] != distance:
                wrong += 1
    return wrong


# -- Python side ------------------------------------------------------------------------


class Work:
    """The generator's buffers and the tables of one database."""

    def __init__(self, spec: Spec, pieces: int, giveaway: bool) -> None:
        self.spec = spec
        self.layout: Layout = layout(spec, pieces)
        self.words, self.word_start = group_words(spec, pieces)
        self.moves = np.zeros((2, CAPACITY, M_WIDTH), dtype=np.uint64)
        self.fb = np.zeros((MAX_LEVELS, FB_WIDTH), dtype=np.uint64)
        self.fi = np.zeros((MAX_LEVELS, FI_WIDTH), dtype=np.int64)
        self.st = np.zeros(3, dtype=np.int64)
        self.no_move = WIN if giveaway else LOSS
        """The value of having no move (giveaway forms: a win)."""

    def rows(self, indices: list[int]) -> npt.NDArray[np.int64]:
        """Rows (start, size, a, b, c, d) of these classes."""
        lay = self.layout
        return np.array(
            [(lay.starts[i], lay.sizes[i], *lay.classes[i]) for i in indices], dtype=np.int64
        )


def solve(work: Work, report: Callable[[str], None] | None = None) -> tuple[U8, U8]:
    """Every value of the database (one byte each: ``DRAW``, ``WIN``, ``LOSS``,
    ``INVALID``) and every distance (plies to the next capture or crowning, with the
    winner hurrying and the loser holding out; 0 for draws)."""
    lay = work.layout
    values = np.zeros(lay.total, dtype=np.uint8)
    distances = np.zeros(lay.total, dtype=np.uint8)
    position = {material: i for i, material in enumerate(lay.classes)}
    done: set[int] = set()
    for i, (a, b, c, d) in enumerate(lay.classes):
        if i in done:
            continue
        mirror = position[(c, d, a, b)]
        members = [i] if mirror == i else [i, mirror]
        done.update(members)
        # The pair's classes must be contiguous for the counters: solve them in one block.
        pair = work.rows(members)
        size = int(pair[:, 1].sum())
        began = time.perf_counter()
        if len(members) == 2 and pair[1, 0] != pair[0, 0] + pair[0, 1]:
            raise AssertionError("a class and its mirror must be stored side by side")
        decided = solve_pair(
            work.spec.geo,
            work.spec.q,
            lay.ix,
            work.words,
            work.word_start,
            pair,
            values,
            distances,
            np.zeros(size, dtype=np.uint8),
            np.zeros(size, dtype=np.int64),
            work.moves,
            work.fb,
            work.fi,
            work.st,
            work.no_move,
        )
        if decided < 0:
            raise RuntimeError("a distance to conversion above 255 plies: not stored")
        if report is not None:
            names = " and ".join(material_name(lay.classes[m]) for m in members)
            report(f"{names}: {size:,} positions, {time.perf_counter() - began:.1f} s")
    return values, distances


def check(work: Work, values: U8, distances: U8) -> int:
    """Positions whose value or distance disagrees with their successors' (0 for a sound
    database)."""
    classes = work.rows(list(range(len(work.layout.classes))))
    return int(
        check_values(
            work.layout.ix,
            work.words,
            work.word_start,
            classes,
            values,
            distances,
            work.moves,
            work.fb,
            work.fi,
            work.st,
            work.spec.geo,
            work.spec.q,
            work.no_move,
        )
    )


def material_name(material: tuple[int, int, int, int]) -> str:
    """``"2K v 1K1M"``-style name of a class (the side to move first)."""
    a, b, c, d = material

    def side(men: int, kings: int) -> str:
        return (f"{kings}K" if kings else "") + (f"{men}M" if men else "")

    return f"{side(a, b)} v {side(c, d)}"
