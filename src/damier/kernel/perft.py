"""Perft: count the leaves of the legal-move tree, the standard proof of a move generator."""

from __future__ import annotations

import numpy as np

from damier.kernel.jit import kernel
from damier.kernel.layout import R_PLAYERS
from damier.kernel.movegen import generate, make_move, unmake_move


@kernel
def perft(t, sq, player, depth, buffers, stack, work, frames, dedupe):
    """Leaves at exactly ``depth`` plies below the position (-1 if a move buffer overflowed).

    An explicit stack (Numba cannot cache recursive functions): ``buffers[d]`` holds the
    moves of the node ``d`` plies above the leaves, ``stack`` (3 x depth+1 integers, see
    :func:`perft_stack`) their number, the one being played and the player to move. The
    last ply is counted without being played (bulk counting).
    """
    if depth == 0:
        return 1
    players = t.rules[R_PLAYERS]
    count = stack[0]
    index = stack[1]
    to_move = stack[2]
    index[:] = 0
    d = depth
    to_move[d] = player
    count[d] = generate(t, sq, player, buffers[d], work, frames, dedupe, depth > 1)
    if count[d] < 0 or depth == 1:
        return count[d]
    total = 0
    while True:
        if index[d] < count[d]:
            make_move(t, sq, buffers[d], index[d])
            child = d - 1
            to_move[child] = (to_move[d] + 1) % players
            n = generate(t, sq, to_move[child], buffers[child], work, frames, dedupe, child > 1)
            if n < 0:
                return -1
            if child == 1:
                total += n
                unmake_move(t, sq, buffers[d], index[d])
                index[d] += 1
            else:
                d = child
                count[d] = n
                index[d] = 0
        elif d == depth:
            return total
        else:
            d += 1
            unmake_move(t, sq, buffers[d], index[d])
            index[d] += 1


def perft_stack(depth: int) -> np.ndarray:
    """The integer stack :func:`perft` works on."""
    return np.zeros((3, depth + 1), dtype=np.int64)


def move_buffers(depth: int, capacity: int, width: int) -> np.ndarray:
    """One move buffer per ply for a perft of ``depth``."""
    return np.zeros((depth + 1, capacity, width), dtype=np.int32)
