"""Draw rules as data: each variant lists the rules its federation plays (RULES.md).

Every rule is a small frozen value; :mod:`damier.game` keeps the counters they describe and
asks them, after each move, whether the game is drawn. Moves are counted in plies (one move
of one player); "25 moves each" is 50 plies.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Material:
    """What a draw rule needs to know of a position, for one player and his opponent."""

    kings: int
    men: int
    opponent_kings: int
    opponent_men: int
    kings_on_main_diagonal: int
    """This player's kings on the long diagonal."""
    opponent_kings_on_main_diagonal: int

    @property
    def pieces(self) -> int:
        return self.kings + self.men

    @property
    def total(self) -> int:
        """Pieces on the board."""
        return self.kings + self.men + self.opponent_kings + self.opponent_men


@dataclass(frozen=True)
class Repetition:
    """The same position, with the same player to move, for the ``times``-th time."""

    times: int = 3
    reason: str = "threefold repetition"


@dataclass(frozen=True)
class QuietMoves:
    """``plies`` consecutive moves with no capture and no man move (only kings moving)."""

    plies: int
    reason: str


@dataclass(frozen=True)
class Endgame:
    """A stronger side against a lone king must win within a number of moves.

    The rule applies while the stronger side's ``(kings, men)`` is in ``strong`` and the
    other side has exactly one king and nothing else; ``min_strong_kings`` instead accepts
    any material with at least that many kings. The count starts with the move that
    creates the balance; it restarts when a capture changes the material if ``restarts``
    (a crowning inside the balance does not restart it, RULES.md section 1).
    """

    reason: str
    limit: int
    """Moves allowed: plies if ``strong_moves_only`` is False, else the stronger side's moves."""
    strong: frozenset[tuple[int, int]] = frozenset()
    min_strong_kings: int = 0
    strong_moves_only: bool = False
    restarts: bool = True
    lone_king_on_main_diagonal: bool = False
    """The rule applies only while the lone king stands on the long diagonal."""
    strong_king_on_main_diagonal: bool = False
    """The rule applies only while a king of the stronger side stands on the long diagonal."""

    def applies(self, material: Material) -> bool:
        """Whether ``material`` (seen from the stronger side) is this rule's balance."""
        if (material.opponent_kings, material.opponent_men) != (1, 0):
            return False
        if self.min_strong_kings:
            fits = material.kings >= self.min_strong_kings
        else:
            fits = (material.kings, material.men) in self.strong
        if not fits:
            return False
        if self.lone_king_on_main_diagonal and material.opponent_kings_on_main_diagonal == 0:
            return False
        return not (self.strong_king_on_main_diagonal and material.kings_on_main_diagonal == 0)


@dataclass(frozen=True)
class StableMaterial:
    """Both sides have kings and no capture or crowning happens for ``plies`` moves;
    ``plies`` depends on the number of pieces (FMJD-64 article 7.2.6)."""

    reason: str
    plies_by_pieces: tuple[tuple[int, int, int], ...]
    """``(fewest pieces, most pieces, plies)`` ranges."""

    def limit(self, material: Material) -> int | None:
        if material.kings == 0 or material.opponent_kings == 0:
            return None
        for low, high, plies in self.plies_by_pieces:
            if low <= material.total <= high:
                return plies
        return None


@dataclass(frozen=True)
class BareMaterial:
    """An immediate draw when both sides are down to one piece each (Turkish)."""

    reason: str = "one piece each"
    king_beats_man: bool = False
    """If set, a king against a lone man is not a draw."""

    def applies(self, material: Material) -> bool:
        if material.pieces != 1 or material.opponent_kings + material.opponent_men != 1:
            return False
        if not self.king_beats_man:
            return True
        return material.kings == material.opponent_kings


@dataclass(frozen=True)
class QuietRounds:
    """Multi-player games: ``rounds`` full rounds (every active player moved ``rounds``
    times) with no capture and no man move (RULES.md 12.2)."""

    rounds: int
    reason: str


DrawRule = Repetition | QuietMoves | Endgame | StableMaterial | BareMaterial | QuietRounds

_THREE_PIECES_ONE_KING = frozenset({(3, 0), (2, 1), (1, 2)})
_AT_MOST_TWO_ONE_KING = frozenset({(2, 0), (1, 1), (1, 0)})

FMJD = (
    Repetition(),
    QuietMoves(plies=50, reason="25-move rule"),
    Endgame(reason="16-move rule", limit=32, strong=_THREE_PIECES_ONE_KING),
    Endgame(reason="5-move rule", limit=10, strong=_AT_MOST_TWO_ONE_KING, restarts=False),
)
"""International draughts (FMJD; lidraughts counts 50, 32 and 10 plies)."""

FMJD64 = (
    Repetition(),
    Endgame(
        reason="15-move rule (three kings against one)",
        limit=15,
        min_strong_kings=3,
        strong_moves_only=True,
    ),
    QuietMoves(plies=30, reason="15-move rule (only kings moved)"),
    StableMaterial(reason="unchanged material", plies_by_pieces=((4, 5, 60), (6, 7, 120))),
    Endgame(
        reason="5-move rule (lone king on the main road)",
        limit=5,
        strong=_THREE_PIECES_ONE_KING,
        strong_moves_only=True,
        lone_king_on_main_diagonal=True,
    ),
    Endgame(reason="5-move rule", limit=10, strong=_AT_MOST_TWO_ONE_KING, restarts=False),
)
"""Russian and Brazilian draughts (FMJD-64 article 7.2); the 7.2.8 count, like lidraughts',
never restarts once started."""

WCDF = (Repetition(), QuietMoves(plies=80, reason="40-move rule"))
"""English draughts: threefold repetition and the 40-move rule."""

APCA = (
    Repetition(),
    Endgame(
        reason="three kings v one", limit=13, strong=frozenset({(3, 0)}), strong_moves_only=True
    ),
)
"""American pool checkers: three kings must beat one within 13 moves."""

SPANISH_DRAWS = (
    Repetition(),
    QuietMoves(plies=40, reason="40-move rule"),
    Endgame(
        reason="three kings v one",
        limit=13,
        strong=frozenset({(3, 0)}),
        strong_moves_only=True,
        strong_king_on_main_diagonal=True,
    ),
)
"""Spanish draughts (RULES.md decision 4)."""

REPETITION_ONLY = (Repetition(),)
"""Italian, Croda, Dameo, and every giveaway form (RULES.md decision 2)."""

MULTIPLAYER = (
    Repetition(),
    QuietRounds(rounds=25, reason="25 rounds without a capture or a man move"),
)
"""Every multi-player board (RULES.md 12.2): a position repeated three times with the same
player to move and the same active players, or 25 quiet rounds, ends the game."""

TURKISH_DRAWS = (Repetition(), BareMaterial())
"""Turkish draughts: one piece each is a draw (RULES.md decision 3)."""
