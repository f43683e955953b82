"""The network of the learned evaluation: the search's integers against NumPy's, the carried
accumulators against sums made afresh, and the trainer's fit."""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt
import pytest

from damier import Board
from damier.engine.bitsearch import bitboard_position
from damier.engine.evaluation import evaluate, family_weights, tables_from_weights
from damier.engine.network import PLANES, stored_network
from damier.engine.patterns import turned
from damier.engine.training import board_inputs, fit_network, quantized_value
from damier.kernel.tables import compile_tables
from damier.rules import get_variant

VARIANTS = ["international", "russian", "english", "turkish", "frisian"]
OPENING_LEFT_OUT = {"russian": 20, "brazilian": 20}


def random_network(
    variant: str, hidden: int = 16, seed: int = 0
) -> dict[str, npt.NDArray[np.int32]]:
    """Integer layers of a network for ``variant``'s board, of a size the search sees."""
    rng = np.random.default_rng(seed)
    inputs = PLANES * len(turned(get_variant(variant)))
    return {
        "w1": rng.integers(-40, 40, (inputs, hidden)).astype(np.int32),
        "b1": rng.integers(-40, 120, hidden).astype(np.int32),
        "w2": rng.integers(-3000, 3000, hidden).astype(np.int32),
        "b2": rng.integers(-50_000, 50_000, 1).astype(np.int32),
        "limit": np.array([60], dtype=np.int32),
        "patterns": np.ones(1, dtype=np.int32),
    }


def random_boards(variant: str, count: int, seed: int) -> list[Board]:
    rng = random.Random(seed)
    boards = []
    for _ in range(count):
        board = Board(variant)
        for _ in range(rng.randrange(0, 90)):
            if not board.legal_moves:
                break
            board.push(rng.choice(board.legal_moves))
        boards.append(board)
    return boards


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_searches_value_the_network_as_numpy_does(variant: str) -> None:
    """The table search's sum, the bitboard search's carried accumulators and NumPy's
    product of the inputs (:func:`board_inputs`) give the same network value, for either
    side to move (kings and men of both colours on the boards of random games)."""
    rules = get_variant(variant)
    t = compile_tables(rules)
    position = bitboard_position(rules, t)
    assert position is not None
    network = random_network(variant)
    hand = tables_from_weights(rules, family_weights(rules))
    pst, extra = tables_from_weights(rules, family_weights(rules), None, network)
    kings = 0
    for board in random_boards(variant, 30, seed=3):
        kings += int(np.count_nonzero(board.cells % 2 == 0) - np.count_nonzero(board.cells == 0))
        for player in (0, 1):
            inputs = board_inputs(rules, board.cells[None, :], np.array([player]))
            expected = int(quantized_value(network, inputs)[0])
            without = evaluate(t, board.cells, player, *hand)
            assert evaluate(t, board.cells, player, pst, extra) == without + expected
            assert position.evaluate(board.cells, player, pst, extra) == without + expected
    assert kings > 0, "some boards have kings"


@pytest.mark.parametrize("variant", ["russian", "english"])
def test_a_network_left_out_from_some_pieces_on_counts_below_them_only(variant: str) -> None:
    """A network whose ``pieces`` is 20 (Russian's, out of the opening) adds nothing with
    20 pieces or more on the board and its whole value with fewer, in both searches."""
    rules = get_variant(variant)
    t = compile_tables(rules)
    position = bitboard_position(rules, t)
    assert position is not None
    network = {**random_network(variant), "pieces": np.array([20], dtype=np.int32)}
    hand = tables_from_weights(rules, family_weights(rules))
    pst, extra = tables_from_weights(rules, family_weights(rules), None, network)
    fewer = set()
    # Random boards, and the bound itself: 20 pieces (left out) and 19 (counted).
    bound = [Board(variant, "W:W21-30:B1-10"), Board(variant, "W:W21-29:B1-10")]
    for board in [*random_boards(variant, 40, seed=5), *bound]:
        pieces = int(np.count_nonzero(board.cells))
        fewer.add(pieces < 20)
        for player in (0, 1):
            inputs = board_inputs(rules, board.cells[None, :], np.array([player]))
            expected = int(quantized_value(network, inputs)[0]) if pieces < 20 else 0
            without = evaluate(t, board.cells, player, *hand)
            assert evaluate(t, board.cells, player, pst, extra) == without + expected
            assert position.evaluate(board.cells, player, pst, extra) == without + expected
    assert fewer == {True, False}, "boards on both sides of the bound"


def test_the_inputs_are_the_side_to_move_s_view() -> None:
    """White to move and Black to move on the board turned with the colours swapped see
    the same inputs: his men first, then his kings, the other side's men and kings."""
    rules = get_variant("international")
    for board in random_boards("international", 10, seed=5):
        cells = board.cells
        swapped = np.array([0, 3, 4, 1, 2], dtype=np.int8)[cells[turned(rules)]]
        white = board_inputs(rules, cells[None, :], np.array([0]))
        black = board_inputs(rules, swapped[None, :], np.array([1]))
        assert np.array_equal(white, black)
        mine = white[0, :50]
        assert mine.sum() == np.count_nonzero(cells == 1)


def test_the_fit_learns_what_the_labels_say() -> None:
    """Labels that favour the side to move by its men on the first five cells: the fitted
    network moves the evaluation toward them, on positions it did not see."""
    rules = get_variant("international")
    rng = np.random.default_rng(7)
    cells = np.zeros((6000, 50), dtype=np.int8)
    for row in cells:
        row[rng.choice(50, 14, replace=False)] = rng.choice([1, 3], 14)
    turns = rng.integers(0, 2, 6000)
    inputs = board_inputs(rules, cells, turns)
    score = 60.0 * inputs[:, :5].sum(axis=1) - 60.0
    target = 1 / (1 + np.exp(-score / 200))
    network = fit_network(
        inputs[:5000], np.zeros(5000), target[:5000], 8, scale=200.0, limit=500, epochs=8, rate=0.01
    )
    found = network.value(inputs[5000:])
    assert np.corrcoef(found, score[5000:])[0, 1] > 0.9
    integers = quantized_value(network.quantized(), inputs[5000:])
    assert np.max(np.abs(integers - found)) < 5


@pytest.mark.parametrize(
    ("variant", "cells"),
    [
        ("international", 50),
        ("russian", 32),
        ("brazilian", 32),
        ("english", 32),
        ("italian", 32),
        ("spanish", 32),
    ],
)
def test_the_shipped_networks_fit_their_variants(variant: str, cells: int) -> None:
    """Each shipped network is read for its own board, and is not fitted over the patterns
    (which it replaces)."""
    network = stored_network(get_variant(variant))
    assert network is not None
    assert network["w1"].shape[0] == PLANES * cells
    assert int(network["patterns"][0]) == 0
    # Left out of the opening where that played better (:func:`counted`), else never.
    assert int(network["pieces"][0]) == OPENING_LEFT_OUT.get(variant, 0)


def test_a_variant_of_the_same_board_and_men_reads_the_network_it_shares() -> None:
    """Pool plays Russian's board, men and kings, Killer International's and Portuguese
    Spanish's: without weights of their own they read those variants' networks, as they
    read their pattern weights. Brazilian has a network of its own; Turkish and Frisian,
    whose boards no other variant shares, have none and keep their patterns."""
    for name, source in (
        ("pool", "russian"),
        ("killer", "international"),
        ("portuguese", "spanish"),
    ):
        shared = stored_network(get_variant(name))
        original = stored_network(get_variant(source))
        assert shared is not None and original is not None
        assert np.array_equal(shared["w1"], original["w1"])
    brazilian = stored_network(get_variant("brazilian"))
    russian = stored_network(get_variant("russian"))
    assert brazilian is not None and russian is not None
    assert not np.array_equal(brazilian["w1"], russian["w1"])
    assert stored_network(get_variant("turkish")) is None
    assert stored_network(get_variant("frisian")) is None


def test_a_network_whose_layers_do_not_fit_is_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled search indexes the layers without bounds checks: a data file whose
    hidden biases or output weights do not match the first layer, or whose first layer
    does not fit the board, is not read (the patterns stay on)."""
    from damier.engine import network as module

    good = random_network("international")
    broken = [
        {**good, "b1": good["b1"][:-1]},
        {**good, "w2": np.zeros(3, dtype=np.int32)},
        {**good, "w1": good["w1"][:-4]},
        {**good, "limit": np.zeros(2, dtype=np.int32)},
        {**good, "pieces": np.zeros(2, dtype=np.int32)},
    ]
    for layers in [good, *broken]:
        stored = {f"international/{part}": value for part, value in layers.items()}
        monkeypatch.setattr(module, "data_arrays", lambda _name, stored=stored: stored)
        found = stored_network(get_variant("international"))
        assert (found is not None) == (layers is good)
