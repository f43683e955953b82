"""Hand-made positions on the multi-player boards, each with its exact move list, worked out
from RULES.md 12.2 and decision 6.

Radial cells are written area letter + local square (``Wc3``: c3 of White's area; rank 1 is
the area's back row, rank 4 touches the neighbours and the centre). Areas go clockwise
W, B, R, G (4 players) or W, B, R (tripad): White's files a-d meet Black's files h-e.
"""

from __future__ import annotations

import pytest

from damier import Board

CASES = [
    # Seam: from rank 4 of his own area a man steps forward into the neighbour's rank 4,
    # whose frame is turned round (b4 -> f4 and h4 of Black's area).
    ("radial4", "W:WWb4:BBh2", {"Wb4-Bf4", "Wb4-Bh4"}),
    # In a foreign area "forward" is towards that area's back row.
    ("radial4", "W:WBf4:BBh2", {"Bf4-Be3", "Bf4-Bg3"}),
    # A man on the long diagonal steps to d4 once, not once per hub branch.
    ("radial4", "W:WWa3:BBh2", {"Wa3-Wb4"}),
    # The hub: a flying king on c3 runs through d4 and the centre into the long diagonal of
    # every other area (B, R, G), and crosses the seam from b4 to Black's h4.
    (
        "radial4",
        "W:WKWc3:BBh2",
        {"Wc3-Wd4", "Wc3-Wb2", "Wc3-Wa1", "Wc3-Wd2", "Wc3-We1", "Wc3-Wb4", "Wc3-Bh4"}
        | {f"Wc3-{area}{square}" for area in "BRG" for square in ("d4", "c3", "b2", "a1")},
    ),
    # Option hub-opposite: the centre leads only into the opposite area (R).
    (
        "radial4+hub-opposite",
        "W:WKWc3:BBh2",
        {"Wc3-Wd4", "Wc3-Wb2", "Wc3-Wa1", "Wc3-Wd2", "Wc3-We1", "Wc3-Wb4", "Wc3-Bh4"}
        | {f"Wc3-R{square}" for square in ("d4", "c3", "b2", "a1")},
    ),
    # A king capturing through the hub chooses its way: any landing square on d4 or beyond,
    # in any area.
    (
        "radial4",
        "W:WKWa1:BWc3",
        {"Wa1xWd4"}
        | {f"Wa1x{area}{square}" for area in "BRG" for square in ("d4", "c3", "b2", "a1")},
    ),
    # A man jumps the piece on d4 into any other area's d4 ...
    ("radial4", "W:WWc3:BWd4", {"Wc3xBd4", "Wc3xRd4", "Wc3xGd4"}),
    # ... and from d4 jumps a hub neighbour into its area.
    ("radial4", "W:WWd4:BBd4", {"Wd4xBc3"}),
    # One capture takes pieces of two different opponents (Black's on b2, Red's on d4),
    # ending in Black's or Red's area.
    ("tripad", "W:WWa1:BWb2:RWd4", {"Wa1xBd4", "Wa1xRd4"}),
    # Team mode: a partner's piece (Red, opposite White) blocks and cannot be captured ...
    ("radial4+teams", "W:WWc3:BBh2:RWd4", {"Wc3-Wb4"}),
    # ... while without teams it must be.
    ("radial4", "W:WWc3:BBh2:RWd4", {"Wc3xBd4", "Wc3xRd4", "Wc3xGd4"}),
    # Crowning on the back row of any other area.
    ("tripad", "W:WBb2:BBh2:RRh2", {"Bb2-Ba1", "Bb2-Bc1"}),
    # Orthogonal setup: forward across the seam (c4 -> Black's f4), sideways along rank 4.
    ("radial4-orthogonal", "W:WWc4:BBh1", {"Wc4-Bf4", "Wc4-Wb4", "Wc4-Wd4"}),
    ("radial4-orthogonal", "W:WWc4:BBf4", {"Wc4xBf3"}),
    # No 180-degree turn, seen across the seam: after taking f4 the king heads down Black's
    # file f; going back up it (to take c2 behind its start) is a reversal, and so is the
    # other order. One piece only, four ways.
    (
        "radial4-orthogonal",
        "W:WKWc3:BBf4,Wc2",
        {"Wc3xBf3", "Wc3xBf2", "Wc3xBf1", "Wc3xWc1"},
    ),
    # The hexagon: a man steps to its two forward neighbours; Black's forward is towards the
    # lower right edge.
    ("hex3", "W:We5:Ba5", {"e5-d6", "e5-e6"}),
    ("hex3", "B:Wa1:Be5", {"e5-e4", "e5-f5"}),
    ("hex3", "W:We5:Bd6,e6:Ri5", {"e5xc7", "e5xe7"}),
    # The cross: White's man on Black's arm crowns on its outer file; on the top arm's outer
    # row too.
    ("cross4", "W:Wb4:Bb8", {"b4-a5", "b4-c5"}),
    ("cross4", "W:Wg13:Bb8", {"g13-f14", "g13-h14"}),
]


@pytest.mark.parametrize(("variant", "fen", "expected"), CASES, ids=[c[1] for c in CASES])
def test_exact_moves(variant: str, fen: str, expected: set[str]) -> None:
    board = Board(variant, fen)
    assert {m.notation for m in board.legal_moves} == expected
    assert board.perft(1, "keep") == len(expected)  # no move found twice by two branches


def test_crowning_marks() -> None:
    crowned = {m.notation for m in Board("cross4", "W:Wb4:Bb8").legal_moves if m.crowns}
    assert crowned == {"b4-a5"}


def test_capturing_the_last_piece_eliminates_at_once() -> None:
    # Black's only piece is taken: he is out with that move, Red moves next; taking it back
    # brings him back.
    board = Board("tripad", "W:WWc3:BWd4:RRh2")
    board.push("Wc3xRd4")
    assert board.active_players == (0, 2)
    assert board.turn == 2
    assert board.ranking() == [(0, 2), (1,)]
    board.pop()
    assert board.active_players == (0, 1, 2)
    assert board.turn == 0


BLOCKED = "W:WWh4,Bb2,Bc3:BBa1:RRh2"
"""Black's one man on a1 of his area is walled in by White's men on b2 and c3."""


def test_a_blocked_player_is_out_when_his_turn_comes() -> None:
    # White moves elsewhere; Black cannot move, is eliminated (his man leaves the board)
    # and Red moves.
    assert not Board("tripad", BLOCKED.replace("W:", "B:", 1)).legal_moves
    board = Board("tripad", BLOCKED)
    board.push("Wh4-Rb4")
    assert board.turn == 2 and board.active_players == (0, 2)
    assert board.piece_at("Ba1") is None
    assert board.ranking() == [(0, 2), (1,)]


def test_pass_when_blocked_keeps_the_player() -> None:
    board = Board("tripad+pass-when-blocked", BLOCKED)
    board.push("Wh4-Rb4")
    assert board.turn == 2 and board.active_players == (0, 1, 2)


@pytest.mark.parametrize(
    ("option", "piece"),
    [
        ("dead-pieces", (3, False)),  # "player" 3 of a 3-player game: nobody's, dead
        ("pieces-to-eliminator", (0, True)),  # White's now, on his crowning row: crowned
    ],
)
def test_leftovers_of_a_blocked_player(option: str, piece: tuple[int, bool]) -> None:
    board = Board(f"tripad+{option}", BLOCKED)
    board.push("Wh4-Rb4")
    assert board.active_players == (0, 2)
    assert board.piece_at("Ba1") == piece
    board.pop()
    assert board.piece_at("Ba1") == (1, False)


def test_dead_pieces_can_be_captured_by_anyone() -> None:
    board = Board("tripad+dead-pieces", "R:WWh4:RRh2:XRg3")
    assert {m.notation for m in board.legal_moves} == {"Rh2xRf4"}
    assert "X" in board.fen


def test_team_mode_ends_when_one_team_is_left() -> None:
    # White and Red are partners: Black's last piece taken, Green already out: White and
    # Red share the win.
    board = Board("radial4+teams", "W:WWc3:BWd4:RRh2")
    board.push("Wc3xRd4")
    assert board.is_game_over()
    assert board.ranking()[0] == (0, 2)


def test_resigned_pieces_leave_even_when_they_would_go_to_the_eliminator() -> None:
    # Nobody's move put Black out, so nobody inherits his pieces.
    board = Board("tripad+pieces-to-eliminator", BLOCKED.replace("W:", "B:", 1))
    board.eliminate(1)
    assert board.piece_at("Ba1") is None and board.turn == 2


def test_options_combine() -> None:
    board = Board("radial4+teams+dead-pieces")
    assert board.variant.teams == ((0, 2), (1, 3))
    assert board.variant.leftovers.value == "dead"


def test_resignation_eliminates_and_is_taken_back() -> None:
    board = Board("tripad")
    board.eliminate(0)
    assert board.turn == 1 and board.active_players == (1, 2)
    assert not any((c - 1) // 2 == 0 for c in board.cells if c)
    board.pop()
    assert board.fen == Board("tripad").fen and board.active_players == (0, 1, 2)
