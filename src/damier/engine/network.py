"""The learned evaluation's second part: a small neural network over the whole board, fitted on
self-play positions (``bench/train.py net``).

The patterns (:mod:`damier.engine.patterns`) value each small region on its own; the
network sees every piece at once. Its input is the position from the side to move: four
planes of the board's cells (his men, his kings, the other side's men and kings), the board
turned half a turn when Black is to move. One hidden layer of ``H`` units, clipped to
``[0, 1]``, and a linear output in hundredths of a man, held within a limit (a fraction
of a man), added to the hand-set evaluation and the patterns. The limit is what keeps it
sound: fitted on self-play positions, where a man less is most often a man given for a
shot, a network without one valued a man at about 70 on the positions of random games
(the hand-set evaluation: 124), the search it led gave men away, and it lost every one
of six games at depth 6 to the patterns alone. Material is the hand-set evaluation's;
the network says what the position adds.

A move changes few inputs, so the search keeps each unit's weighted sum (the *accumulator*)
of both sides' views from ply to ply and updates it by the squares a move empties, fills
and captures (:func:`add_piece`), as it does the patterns' configurations; a leaf then
costs ``H`` multiplications. The numbers are integers: the first layer's weights are
scaled by :data:`ACTIVATION` (a unit's full activation), the output's by :data:`OUTPUT`,
so that a sum carried along a line and one made afresh are equal to the last bit.

The network travels to the search inside the ``extra`` vector, from ``extra[NETWORK]``
(0: none): ``H``, the number of cells ``C``, the output's bias (scaled by ``ACTIVATION *
OUTPUT``), the output's limit, the fewest pieces on the board it is left out from (0:
never; see :func:`counted`), the cell of each cell on the board turned half a turn
(``C``), the hidden biases (``H``), the output weights (``H``), then the first layer's
weights, one row of ``H`` for each input ``plane * C + cell``. A piece of code ``k`` (1 a
White man, 2 a White king, 3 a Black man, 4 a Black king) on ``cell`` is input ``(k - 1) *
C + cell`` of White's view and ``((k + 1) % 4) * C + turned(cell)`` of Black's.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from damier.engine.patterns import SHARED, data_arrays, has_own_weights, turned
from damier.kernel.jit import kernel_inline
from damier.rules import Variant

DATA_FILE = "network.npz"
ACTIVATION = 64
"""A hidden unit's full activation, and the scale of the first layer's weights."""
OUTPUT = 64
"""The scale of the output weights."""
PLANES = 4
_HEAD = 5  # H, C, the output's bias, its limit, the pieces it is left out from


def stored_network(variant: Variant) -> dict[str, npt.NDArray[np.int32]] | None:
    """The quantized layers of ``variant``'s network (``w1 [input, H]``, ``b1``, ``w2``,
    ``b2``, the output's ``limit``; ``patterns``: 1 when it was fitted over the patterns,
    which stay on), if it has one that fits its board: its own, else, for a variant
    without pattern weights of its own, that of the variant whose weights it shares
    (:data:`damier.engine.patterns.SHARED`). Brazilian has its own: with Russian's it
    scored only 51.0% against its own patterns (200 games at 0.1 s, +30 =144 -26)."""
    stored = data_arrays(DATA_FILE)
    name = variant.name
    if f"{name}/w1" not in stored and name in SHARED and not has_own_weights(name):
        name = SHARED[name]  # the same board, men and kings: the network carries over
    parts = ("w1", "b1", "w2", "b2", "limit")
    layers = {part: stored.get(f"{name}/{part}") for part in parts}
    if any(value is None for value in layers.values()):
        return None
    network = {part: value for part, value in layers.items() if value is not None}
    network["patterns"] = stored.get(f"{name}/patterns", np.zeros(1, dtype=np.int32))
    network["pieces"] = stored.get(f"{name}/pieces", np.zeros(1, dtype=np.int32))
    w1 = network["w1"]
    # The compiled search indexes these without bounds checks: a file whose layers do not
    # fit each other or the board is not read at all.
    fits = w1.ndim == 2 and w1.shape[0] == PLANES * len(turned(variant)) and w1.shape[1] > 0
    if not fits or any(network[part].shape != (w1.shape[1],) for part in ("b1", "w2")):
        return None
    if any(network[part].shape != (1,) for part in ("b2", "limit", "pieces")):
        return None
    return network


def network_extra(
    variant: Variant, network: dict[str, npt.NDArray[np.int32]]
) -> npt.NDArray[np.int32]:
    """The network part of ``extra`` (see the module's description)."""
    w1 = network["w1"]
    hidden = w1.shape[1]
    half_turn = turned(variant)
    return np.concatenate(
        [
            np.array(
                [
                    hidden,
                    len(half_turn),
                    int(network["b2"][0]),
                    int(network["limit"][0]),
                    int(network["pieces"][0]) if "pieces" in network else 0,
                ]
            ),
            half_turn,
            network["b1"].ravel(),
            network["w2"].ravel(),
            w1.ravel(),
        ]
    ).astype(np.int32)


@kernel_inline
def _limited(value, limit):
    """``value`` within ``[-limit, limit]``."""
    return -limit if value < -limit else (limit if value > limit else value)


@kernel_inline
def counted(extra, start, pieces):
    """Whether the network counts with ``pieces`` pieces on the board. Russian's and
    Brazilian's are left out of the opening (20 pieces or more): their labels there are
    near even at every depth tried (a cross-entropy of 0.687 where knowing nothing scores
    0.693), and without them there the engine scored no less against the engine of issue
    35's day, a little more (Russian 58.9% of 400 games against 58.4%, Brazilian 57.5% of
    400 against 56.4%, on the same openings)."""
    bound = extra[start + 4]
    return bound == 0 or pieces < bound


@kernel_inline
def _activation(unit):
    """A hidden unit's activation: its sum clipped to ``[0, ACTIVATION]``. Written as
    comparisons, not ``min``/``max``: Numba calls its builtins out of line, a call per
    unit and per bound that kept the loop from running on whole vectors (the search
    then spent a tenth of its time in them, measured with perf)."""
    return 0 if unit < 0 else (ACTIVATION if unit > ACTIVATION else unit)


@kernel_inline
def _weights_row(code, cell, side, extra, start):
    """Where in ``extra`` the first layer's row of the piece ``code`` on ``cell`` starts,
    in White's view (``side`` 0) or Black's (1)."""
    hidden = extra[start]
    cells = extra[start + 1]
    weights = start + _HEAD + cells + 2 * hidden
    if side == 0:
        return weights + ((code - 1) * cells + cell) * hidden
    return weights + (((code + 1) % 4) * cells + extra[start + _HEAD + cell]) * hidden


@kernel_inline
def add_piece(carried, ply, slot, code, cell, sign, extra, start):
    """Put (``sign`` 1) or take away (-1) the piece ``code`` on ``cell`` in the
    accumulators of ``carried[ply]`` (White's view from ``slot``, Black's after it); the
    network's part of ``extra`` starts at ``start``."""
    hidden = extra[start]
    # Loops over slices, without a product: they run on whole vectors of integers (three
    # to four times as fast as indexing the arrays themselves, measured).
    for side in range(2):
        view = slot + side * hidden
        row = _weights_row(code, cell, side, extra, start)
        accumulator = carried[ply, view : view + hidden]
        weights_row = extra[row : row + hidden]
        if sign > 0:
            for k in range(hidden):
                accumulator[k] += weights_row[k]
        else:
            for k in range(hidden):
                accumulator[k] -= weights_row[k]


@kernel_inline
def move_piece(carried, ply, slot, code, cell, new_code, new_cell, extra, start):
    """``carried[ply + 1]``'s accumulators: ``carried[ply]``'s with the piece ``code`` on
    ``cell`` gone to ``new_cell`` as ``new_code`` (a move; what it captures is taken away
    after, by :func:`add_piece`). One pass over each view instead of a copy and two: the
    search does this for every node."""
    hidden = extra[start]
    for side in range(2):
        view = slot + side * hidden
        gone = _weights_row(code, cell, side, extra, start)
        come = _weights_row(new_code, new_cell, side, extra, start)
        before = carried[ply, view : view + hidden]
        after = carried[ply + 1, view : view + hidden]
        leaving = extra[gone : gone + hidden]
        arriving = extra[come : come + hidden]
        for k in range(hidden):
            after[k] = before[k] - leaving[k] + arriving[k]


@kernel_inline
def clear_accumulators(carried, ply, slot, extra, start):
    """Both views' accumulators of ``carried[ply]`` set to the hidden biases (no piece)."""
    hidden = extra[start]
    biases = start + _HEAD + extra[start + 1]
    for k in range(hidden):
        carried[ply, slot + k] = extra[biases + k]
        carried[ply, slot + hidden + k] = extra[biases + k]


@kernel_inline
def network_output(carried, ply, slot, player, extra, start):
    """The network's value for ``player`` (to move), from his view's accumulator in
    ``carried[ply]``."""
    hidden = extra[start]
    weights = start + _HEAD + extra[start + 1] + hidden
    view = slot + player * hidden
    accumulator = carried[ply, view : view + hidden]
    output = extra[weights : weights + hidden]
    total = 0
    for k in range(hidden):
        total += _activation(accumulator[k]) * output[k]
    return _limited((total + extra[start + 2]) // (ACTIVATION * OUTPUT), extra[start + 3])


@kernel_inline
def network_value(sq, player, extra, start):
    """:func:`network_output` of the kernel cell array ``sq`` for ``player``, summed afresh
    (the table search, which carries no accumulators)."""
    hidden = extra[start]
    cells = extra[start + 1]
    biases = start + _HEAD + cells
    weights = biases + 2 * hidden
    total = 0
    for k in range(hidden):
        unit = extra[biases + k]
        for cell in range(cells):
            code = sq[cell]
            if code == 0:
                continue
            if player == 0:
                row = (code - 1) * cells + cell
            else:
                row = ((code + 1) % 4) * cells + extra[start + _HEAD + cell]
            unit += extra[weights + row * hidden + k]
        total += _activation(unit) * extra[biases + hidden + k]
    return _limited((total + extra[start + 2]) // (ACTIVATION * OUTPUT), extra[start + 3])
