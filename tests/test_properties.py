"""Hypothesis properties that hold in every variant: make/unmake is exact, every move's
notation reads back and nothing but well-formed move text is read, FEN round-trips."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from damier import Board
from damier.errors import AmbiguousMoveError, IllegalMoveError
from damier.geometry import geometry_of
from damier.notation.fen import letters
from damier.rules import all_variants, get_variant

VARIANTS = [v.name for v in all_variants()] + [
    "international-giveaway",
    "russian-giveaway",
    "turkish-giveaway",
    "croda-giveaway",
    "dameo-giveaway",
    "turkish+promotion-ends-move",
]


@st.composite
def random_positions(draw: st.DrawFn, variant_name: str) -> str:
    """A legal-looking FEN: pieces scattered anywhere, men off their crowning row."""
    variant = get_variant(variant_name)
    geometry = geometry_of(variant)
    cells = list(range(geometry.cell_count))
    players = letters(variant)
    most = min(16, len(players) * min(variant.pieces_per_player))
    chosen = draw(
        st.lists(st.sampled_from(cells), unique=True, min_size=len(players), max_size=most)
    )
    fields: list[list[str]] = [[] for _ in players]
    for index, cell in enumerate(chosen):
        player = index % len(players)
        king = draw(st.booleans()) or geometry.crowns(player, cell)
        fields[player].append(("K" if king else "") + geometry.names[cell])
    turn = draw(st.sampled_from(players))
    return f"{turn}:" + ":".join(f"{p}{','.join(f)}" for p, f in zip(players, fields, strict=True))


@st.composite
def played_boards(draw: st.DrawFn) -> Board:
    """A board of any variant after a random number of random moves."""
    name = draw(st.sampled_from(VARIANTS))
    board = Board(name, draw(random_positions(name))) if draw(st.booleans()) else Board(name)
    for _ in range(draw(st.integers(0, 30))):
        moves = board.legal_moves
        if not moves:
            break
        board.push(moves[draw(st.integers(0, len(moves) - 1))])
    return board


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(played_boards())
def test_push_then_pop_restores_position_and_hash(board: Board) -> None:
    fen, key, cells = board.fen, board.zobrist_hash(), board.cells
    for move in board.legal_moves:
        board.push(move)
        assert board.zobrist_hash() == Board(board.variant, board.fen).zobrist_hash()
        board.pop()
        assert board.fen == fen
        assert board.zobrist_hash() == key
        assert (board.cells == cells).all()


@SETTINGS
@given(played_boards())
def test_every_move_notation_parses_back(board: Board) -> None:
    for move in board.legal_moves:
        assert board.parse_move(move.notation) == move
        assert board.parse_move("x".join(str(s) for s in move.path)) == move


# Characters that are neither part of a square's name nor a separator.
STRAY = st.characters(
    blacklist_categories=("Lu", "Ll", "Lt", "Lm", "Lo", "Nd", "Cs"), blacklist_characters="-"
)


@st.composite
def malformed_texts(draw: st.DrawFn) -> tuple[Board, str, str]:
    """A board, the notation of one of its legal moves spoiled in one way, and the words
    the refusal must contain. The squares stay those of a legal move: only the form is
    wrong."""
    board = draw(played_boards())
    moves = board.legal_moves
    assume(len(moves) > 0)
    move = moves[draw(st.integers(0, len(moves) - 1))]
    squares = [str(square) for square in move.path]
    if draw(st.booleans()):
        squares = [squares[0], squares[-1]]
    sep = draw(st.sampled_from("-x"))
    text = sep.join(squares)
    other = "x" if sep == "-" else "-"
    fault = draw(st.sampled_from(["empty", "trailing", "leading", "doubled", "mixed", "stray"]))
    if fault == "empty":
        return board, "", "empty"
    if fault == "trailing":
        return board, text + draw(st.sampled_from("-x")), "ends with a separator"
    if fault == "leading":
        return board, draw(st.sampled_from("-x")) + text, "starts with a separator"
    gap = draw(st.integers(0, len(squares) - 2))  # which separator is spoiled
    head, tail = sep.join(squares[: gap + 1]), sep.join(squares[gap + 1 :])
    if fault == "doubled":
        pair = draw(st.sampled_from([sep + sep, sep + other, other + sep]))
        return board, head + pair + tail, "two separators in a row"
    if fault == "mixed":
        assume(len(squares) > 2)
        return board, head + other + tail, "mixes the separators"
    stray = draw(STRAY)
    at = draw(st.integers(0, len(text)))
    return board, text[:at] + stray + text[at:], repr(stray)


@SETTINGS
@given(malformed_texts())
@example(  # two faults: the doubled separator, the nearer, is named (the mixing was)
    (Board("international", "B:WK3,K7,17:B2,4,6"), "2-11x-22", "two separators in a row")
)
def test_malformed_move_text_is_refused(case: tuple[Board, str, str]) -> None:
    board, text, words = case
    fen = board.fen
    with pytest.raises(IllegalMoveError) as refused:
        board.push(text)
    assert not isinstance(refused.value, AmbiguousMoveError)
    assert words in str(refused.value)
    assert board.fen == fen


GLUE = st.text(alphabet="-xX :!.", max_size=3)


@SETTINGS
@given(played_boards(), st.data())
def test_a_legal_move_s_squares_are_read_only_when_well_joined(
    board: Board, data: st.DataObject
) -> None:
    """A legal move's squares with anything around and between them: read as that move
    exactly when they are joined by one kind of separator and nothing else."""
    moves = board.legal_moves
    assume(len(moves) > 0)
    move = moves[data.draw(st.integers(0, len(moves) - 1))]
    squares = [str(square) for square in move.path]
    if data.draw(st.booleans()):
        squares = [squares[0], squares[-1]]
    glue = [data.draw(GLUE) for _ in range(len(squares) + 1)]
    text = glue[0] + "".join(s + g for s, g in zip(squares, glue[1:], strict=True))
    kinds = {g.lower() for g in glue[1:-1]}
    if glue[0] == glue[-1] == "" and (kinds == {"-"} or kinds == {"x"}):
        try:
            read = board.parse_move(text)
        except AmbiguousMoveError:
            return  # the short form of two captures: refused for its meaning, not its form
        assert (read.from_square, read.to_square) == (move.from_square, move.to_square)
    else:
        with pytest.raises(IllegalMoveError) as refused:
            board.parse_move(text)
        assert "not legal here" not in str(refused.value)


@SETTINGS
@given(played_boards())
def test_fen_round_trip(board: Board) -> None:
    again = Board(board.variant, board.fen)
    assert again.fen == board.fen
    assert (again.cells == board.cells).all()
    assert again.turn == board.turn
    assert list(again.legal_moves) == list(board.legal_moves)


@SETTINGS
@given(played_boards())
def test_captures_follow_the_moves_they_describe(board: Board) -> None:
    """Each move changes exactly its own squares: origin emptied, captured removed."""
    for move in board.legal_moves:
        before = board.copy()
        board.push(move)
        for square in move.captured:
            if square != move.to_square:  # with immediate removal it may land there
                assert board.piece_at(square) is None
        if move.from_square != move.to_square:
            assert board.piece_at(move.from_square) is None
        player, king = board.piece_at(move.to_square) or (-1, False)
        assert player == before.turn
        was_king = (before.piece_at(move.from_square) or (0, False))[1]
        assert king == (was_king or move.crowns)
        board.pop()
        assert board.fen == before.fen
