"""Static evaluation: material, advancement, centre, back-rank guard, mobility and balance, with
weights per family of variants read from ``data/weights.json``, and for the variants that
have them the learned weights of the men's configurations (:mod:`damier.engine.patterns`).

The weights become per-variant piece-square tables once; the kernel function sums them.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

import numpy as np
import numpy.typing as npt

from damier.engine.network import counted, network_extra, network_value, stored_network
from damier.engine.patterns import (
    REGIONS,
    enabled,
    network_enabled,
    pattern_extra,
    pattern_value,
    pattern_weights,
)
from damier.geometry import SquareGeometry, geometry_of
from damier.kernel import layout as L
from damier.kernel.jit import kernel, kernel_inline
from damier.rules import BoardKind, Range, Variant

MOBILITY = 0  # indices of the weights in the ``extra`` vector
BALANCE = 1
TRADE = 2
DRAWN_KINGS = 3
NETWORK = 4
"""Index in ``extra`` of where the network's part starts (0: no network,
:mod:`damier.engine.network`)."""


def family_of(variant: Variant) -> str:
    """The weight family of a variant."""
    if variant.giveaway:
        return "giveaway"
    if variant.board is BoardKind.ALL:
        return "orthogonal"
    return "flying" if variant.king_range is Range.FLYING else "short"


@cache
def _weights() -> dict[str, dict[str, float]]:
    text = (resources.files("damier") / "data" / "weights.json").read_text(encoding="utf-8")
    families: dict[str, dict[str, float]] = json.loads(text)["families"]
    return families


def evaluation_tables(
    variant: Variant, learned: bool | None = None, network: bool | None = None
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """``(pst, extra)``: ``pst[piece code, cell]`` is the value of that piece there (for its
    owner); ``extra`` holds the weights that are not per cell, the learned pattern weights
    and network among them when ``learned`` (None: :func:`damier.engine.patterns.enabled`)
    and ``network`` (None: unless ``DAMIER_EVAL=patterns``) and the variant has some."""
    learned = enabled() if learned is None else learned
    network = network_enabled() if network is None else network
    return _evaluation_tables(variant, learned, learned and network)


@cache
def _evaluation_tables(
    variant: Variant, learned: bool, with_network: bool
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    network = stored_network(variant) if with_network else None
    # A network fitted over the hand-set evaluation alone replaces the patterns.
    over_patterns = network is None or bool(network["patterns"][0])
    patterns = pattern_weights(variant) if learned and over_patterns else None
    return tables_from_weights(variant, _weights()[family_of(variant)], patterns, network)


def family_weights(variant: Variant) -> dict[str, float]:
    """A copy of the weights of ``variant``'s family (for tuning scripts)."""
    return dict(_weights()[family_of(variant)])


def tables_from_weights(
    variant: Variant,
    weights: dict[str, float],
    patterns: npt.NDArray[np.int32] | None = None,
    network: dict[str, npt.NDArray[np.int32]] | None = None,
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """:func:`evaluation_tables` for any set of weights (and pattern weights
    ``[region, configuration]`` and a network's layers, or none), so that a tuner can try
    others."""
    geometry = geometry_of(variant)
    assert isinstance(geometry, SquareGeometry)  # two players: multi-player boards have their own
    height, width = geometry.height, geometry.width
    pst = np.zeros((5, geometry.cell_count), dtype=np.int32)
    middle_row, middle_column = (height - 1) / 2, (width - 1) / 2
    for cell, (row, column) in enumerate(geometry.coordinates):
        # Row 0 (no piece) holds the cell's wing for the balance term: -1 left, +1 right.
        pst[0, cell] = int(np.sign(column - middle_column))
        # 1 at the centre, 0 at the edge
        centrality = 1 - max(
            abs(row - middle_row) / middle_row, abs(column - middle_column) / middle_column
        )
        for player in (0, 1):
            distance = (height - 1 - row) if player == 0 else row  # from his back rank
            progress = distance / (height - 1)
            man = weights["man"] + weights["advance"] * progress * progress
            man += weights["centre"] * centrality
            if distance == 0:
                man += weights["back_rank"]
            king = weights["king"] + weights["king_centre"] * centrality
            pst[2 * player + 1, cell] = round(man)
            pst[2 * player + 2, cell] = round(king)
    # Flying kings: a lone king holds a draw against this many pieces or fewer (three kings
    # cannot catch it on the long diagonal of a 10x10 board, two on 8x8).
    drawn = (3 if height >= 10 else 2) if weights.get("drawn_kings", 0) else 0
    extra = np.array(
        [
            round(weights["mobility"]),
            round(weights.get("balance", 0)),
            round(weights.get("trade", 0)),
            drawn,
            0,  # NETWORK, set below when there is one
        ],
        dtype=np.int32,
    )
    parts = [extra, pattern_extra(variant, patterns)]
    if network is not None:
        extra[NETWORK] = len(extra) + len(parts[1])
        parts.append(network_extra(variant, network))
    return pst, np.concatenate(parts)


@kernel
def evaluate(t, sq, player, pst, extra):
    """The position's value for ``player`` (two players): his material and placement minus
    his opponent's, plus mobility (free forward steps of men), less the balance penalty
    (how many more men one wing holds than the other: a lopsided army is easier to attack
    and cannot hold the centre), plus the learned patterns' and network's values where
    ``extra`` has them (the cells are then the bits of the men's words)."""
    score = 0
    white_men = np.uint64(0)
    black_men = np.uint64(0)
    mobility = 0
    mine = 0
    theirs = 0
    my_pieces = 0
    their_pieces = 0
    my_kings = 0
    their_kings = 0
    for cell in range(sq.shape[0]):
        code = sq[cell]
        if code == 0:
            continue
        owner = (code - 1) >> 1
        value = pst[code, cell]
        free = 0
        if code % 2 == 1:
            for k in range(t.counts[L.MAN_STEP, owner, cell]):
                to = t.rays[cell, t.dirs[L.MAN_STEP, owner, cell, k], 0]
                if to >= 0 and sq[to] == 0:
                    free += 1
            if owner == player:
                mine += pst[0, cell]
            else:
                theirs += pst[0, cell]
            if extra[REGIONS] > 0:
                if owner == 0:
                    white_men |= np.uint64(1) << np.uint64(cell)
                else:
                    black_men |= np.uint64(1) << np.uint64(cell)
        king = code % 2 == 0
        if owner == player:
            score += value
            mobility += free
            my_pieces += 1
            my_kings += king
        else:
            score -= value
            mobility -= free
            their_pieces += 1
            their_kings += king
    learned = 0
    if extra[REGIONS] > 0:
        learned = pattern_value(white_men, black_men, extra)
        if player == 1:
            learned = -learned
    network = extra[NETWORK]
    if network > 0 and counted(extra, network, my_pieces + their_pieces):
        learned += network_value(sq, player, extra, network)
    return combine(
        score + learned,
        mobility,
        mine,
        theirs,
        my_pieces,
        their_pieces,
        my_kings,
        their_kings,
        extra,
    )


@kernel_inline
def combine(score, mobility, mine, theirs, my_pieces, their_pieces, my_kings, their_kings, extra):
    """The value from its parts (the table and the bitboard evaluations share it): material
    and placement ``score``, the men's free steps ``mobility``, each side's wing sum of men
    ``mine`` and ``theirs``, and the counts of pieces and kings."""
    score += extra[MOBILITY] * mobility - extra[BALANCE] * (abs(mine) - abs(theirs))
    # Trade when ahead: a lead of one piece counts for more the fewer pieces are left.
    lead = my_pieces - their_pieces
    if lead != 0:  # (rounded toward zero, so that both sides see the same value)
        bonus = extra[TRADE] * abs(lead) // (my_pieces + their_pieces)
        score += bonus if lead > 0 else -bonus
    # A king against few pieces draws (flying kings): the lead is worth far less.
    if extra[DRAWN_KINGS] > 0:
        if score > 0 and their_kings > 0 and my_pieces <= extra[DRAWN_KINGS]:
            score //= 16
        elif score < 0 and my_kings > 0 and their_pieces <= extra[DRAWN_KINGS]:
            score = -(-score // 16)
    return score
