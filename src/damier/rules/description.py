"""The variant description: every rule of a draughts game as plain, frozen data.

A variant is an instance of :class:`Variant`; nothing about a variant lives anywhere else.
The kernel reads these fields once, when it compiles its tables; it never asks which
variant it plays.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any

from damier.rules.draws import REPETITION_ONLY, DrawRule

PLAYER_LETTERS = "WBRGYPOC"
"""Each player's letter in FEN, in turn order: White, Black, then (multi-player boards) Red,
Green, Yellow, Purple, Orange, Cyan."""
PLAYER_NAMES = ("white", "black", "red", "green", "yellow", "purple", "orange", "cyan")
"""Each player's name, in turn order (multi-player boards use more than two)."""


class Direction(StrEnum):
    """A direction relative to the player who moves (his *forward* is towards the opponent)."""

    FORWARD = "forward"
    """Straight ahead (orthogonal)."""
    SIDEWAYS = "sideways"
    """Left or right along the rank (orthogonal)."""
    BACKWARD = "backward"
    """Straight back (orthogonal)."""
    FORWARD_DIAGONAL = "forward-diagonal"
    """Either forward diagonal."""
    BACKWARD_DIAGONAL = "backward-diagonal"
    """Either backward diagonal."""


DIAGONAL = frozenset({Direction.FORWARD_DIAGONAL, Direction.BACKWARD_DIAGONAL})
ORTHOGONAL = frozenset({Direction.FORWARD, Direction.SIDEWAYS, Direction.BACKWARD})
ALL_DIRECTIONS = DIAGONAL | ORTHOGONAL


class BoardKind(StrEnum):
    """Which squares of a rectangular board are played on."""

    DARK = "dark"
    """Dark squares, a dark square at each player's near left (International, Russian, ...)."""
    MIRRORED = "mirrored"
    """Dark squares, a dark square at each player's near right (Italian, Spanish)."""
    ALL = "all"
    """All squares (Turkish, Croda, Dameo)."""


class Topology(StrEnum):
    """The shape of the board: what the geometry layer builds."""

    SQUARE = "square"
    """A rectangle of squares (with ``corner`` > 0, the four-player cross)."""
    RADIAL = "radial"
    """RULES.md 12.2's radial board R_n: one 4x8 area per player round a centre hub."""
    HEX = "hex"
    """The three-player hexagon of 61 hexagonal cells."""


class Blocked(StrEnum):
    """What happens to a player of a multi-player game who has no legal move on his turn."""

    ELIMINATED = "eliminated"
    """He is out of the game (RULES.md 12.2's default)."""
    PASS = "pass"
    """He passes while he still has pieces (option ``SKIP_WHEN_BLOCKED``)."""


class Leftovers(StrEnum):
    """What becomes of an eliminated player's pieces (multi-player games)."""

    REMOVED = "removed"
    """They leave the board (default)."""
    DEAD = "dead"
    """They stay as neutral pieces that block, and that anyone may capture."""
    TO_ELIMINATOR = "to-eliminator"
    """They change hands to the player whose move eliminated him."""


class Numbering(StrEnum):
    """How squares are named in FEN, PDN and moves."""

    ROW_BY_ROW = "row-by-row"
    """1..N row by row from the row farthest from White, left to right as White sees it."""
    SPANISH = "spanish"
    """1..N from White's near-right square, right to left, bottom to top."""
    ALGEBRAIC = "algebraic"
    """a1..h8, a1 being White's near-left corner."""


class Promotion(StrEnum):
    """What happens when a man reaches its crowning row *during* a capture."""

    AT_END = "at-end"
    """It stays a man and goes on capturing; it is crowned only if the move ends there."""
    CONTINUE_AS_KING = "continue-as-king"
    """It is crowned at once and goes on capturing as a king (Russian)."""
    ENDS_MOVE = "ends-move"
    """It is crowned and the move ends there, even if it could capture on (English, Italian)."""


class Removal(StrEnum):
    """When the pieces captured in a multiple capture leave the board."""

    AT_END = "at-end"
    """After the whole move; until then they block and cannot be jumped twice (Turkish strike)."""
    IMMEDIATE = "immediate"
    """As soon as each is jumped, so its square may be crossed again (Turkish)."""


class Choice(StrEnum):
    """One criterion of the capture-choice rule; a variant lists them in order of priority."""

    MOST_PIECES = "most-pieces"
    """Capture the greatest number of pieces (kings and men count one each)."""
    WITH_KING = "with-king"
    """Capture with a king rather than with a man."""
    MOST_KINGS = "most-kings"
    """Capture the greatest number of kings."""
    EARLIEST_KING = "earliest-king"
    """Capture the sequence in which a king is met first."""
    MOST_VALUE = "most-value"
    """Capture the greatest value, a man counting 100 and a king ``king_value`` (Frisian)."""


class Range(StrEnum):
    """How far a piece reaches along a line."""

    SHORT = "short"
    """One square (a capture jumps an adjacent piece and lands just behind it)."""
    FLYING = "flying"
    """Any distance over empty squares."""


class Landing(StrEnum):
    """Where a flying king may land after jumping a piece."""

    ANY = "any"
    """Any empty square behind the captured piece (FMJD 4.3)."""
    NEXT = "next"
    """Only the square directly behind it (Thai)."""


class CountedKingMoves(StrEnum):
    """Which moves the limit on consecutive king moves (``max_consecutive_king_moves``) counts."""

    SAME_KING = "same-king"
    """The non-capturing moves of one king in a row; a move of another king, a man's move or
    any capture frees it (Frisian, FRBD)."""
    ANY_KING = "any-king"
    """The player's non-capturing king moves in a row, whichever king makes them; only a
    man's move or a capture frees the kings."""


@dataclass(frozen=True)
class Variant:
    """A complete, immutable description of a draughts variant.

    Every field is a rule; a new variant is a new instance (see ``damier.rules.variants``),
    and an option is a named set of field changes (:meth:`with_option`).
    """

    name: str
    """Registry key, e.g. ``"international"``."""
    title: str
    """Human name, e.g. ``"International draughts (FMJD)"``."""
    width: int
    """Files of the board."""
    height: int
    """Ranks of the board."""
    board: BoardKind
    """Which squares are played on."""
    numbering: Numbering
    """Square names used by FEN, PDN and move notation."""
    start_fen: str
    """The initial position, side to move included, in PDN FEN with this variant's names."""
    man_moves: frozenset[Direction]
    """Directions in which a man steps to an empty square."""
    man_captures: frozenset[Direction]
    """Directions in which a man jumps an adjacent enemy piece."""
    king_moves: frozenset[Direction] = DIAGONAL
    """Directions in which a king moves."""
    king_captures: frozenset[Direction] = DIAGONAL
    """Directions in which a king captures."""
    king_range: Range = Range.FLYING
    """How far a king moves and captures."""
    king_landing: Landing = Landing.ANY
    """Where a flying king lands behind a captured piece."""
    king_stops_behind_king: bool = False
    """A king whose capture ends by jumping a king must land directly behind that king
    (Killer); a king jumped earlier in the capture leaves the landing free."""
    max_consecutive_king_moves: int = 0
    """Non-capturing moves a king may make in a row while its owner still has men; 0 means
    no limit (Frisian: 3). The board counts them in its own move history (a board set up
    from a FEN starts at 0); the kernel and perft do not see this rule."""
    counted_king_moves: CountedKingMoves = CountedKingMoves.SAME_KING
    """Which king moves that limit counts: one king's, or any king's."""
    men_capture_kings: bool = True
    """Whether a man may jump a king (not in Italian)."""
    choice: tuple[Choice, ...] = ()
    """Capture-choice criteria in order of priority; empty means free choice."""
    king_value: int = 100
    """What a captured king counts for the ``most-value`` criterion (a man counts 100)."""
    promotion: Promotion = Promotion.AT_END
    """What crowning in the middle of a capture does."""
    removal: Removal = Removal.AT_END
    """When captured pieces leave the board."""
    no_reversal: bool = False
    """No 180-degree turn between two jumps of one capture (Turkish)."""
    line_moves: bool = False
    """Dameo's linear move: a line of own men advances one square along a forward line."""
    king_order_matters: bool = False
    """Two captures of the same pieces are different moves if they meet the kings in another
    order (Italian, RULES.md decision 5)."""
    giveaway: bool = False
    """The goal is inverted: a player with no legal move on his turn wins."""
    crowning_wins: bool = False
    """The first player to crown a king wins (Breakthrough)."""
    players: int = 2
    """Players round the board, numbered 0..n-1 in turn order (clockwise)."""
    topology: Topology = Topology.SQUARE
    """The board's shape; ``width``, ``height`` and ``board`` describe square boards."""
    corner: int = 0
    """Squares cut from each corner of a square board (3: the four-player cross)."""
    hub_opposite: bool = False
    """Radial boards: a diagonal through the centre goes on only into the opposite area
    (option ``hub-opposite``), not into any other area of the mover's choice."""
    teams: tuple[tuple[int, ...], ...] = ()
    """Multi-player team mode: the partnerships; partners' pieces count as one's own."""
    when_blocked: Blocked = Blocked.ELIMINATED
    """Multi-player: a player with no legal move is eliminated, or only passes."""
    leftovers: Leftovers = Leftovers.REMOVED
    """Multi-player: what becomes of an eliminated player's pieces."""
    draw_rules: tuple[DrawRule, ...] = REPETITION_ONLY
    """The draw rules of the variant's federation, checked after every move."""
    pdn_game_type: int | None = None
    """PDN ``GameType`` number, or None when the ``Variant`` tag carries the name."""
    aliases: tuple[str, ...] = ()
    """Other names the registry accepts."""
    summary: str = ""
    """One line on what sets this variant apart, for ``damier variants``."""
    options: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = field(default=(), repr=False)
    """Named options: ``(option name, ((field, value), ...))``."""

    @property
    def first_player(self) -> int:
        """The player who moves first (0 = White, 1 = Black, ...), read from the start FEN."""
        return PLAYER_LETTERS.index(self.start_fen.lstrip()[0].upper())

    @property
    def team_of(self) -> tuple[int, ...]:
        """Each player's team (his own number when there are no teams)."""
        teams = list(range(self.players))
        for index, members in enumerate(self.teams):
            for player in members:
                teams[player] = self.players + index
        return tuple(teams)

    def __hash__(self) -> int:
        return self._hash

    @cached_property
    def _hash(self) -> int:
        """Hashing every field on each cache lookup is slow; a variant never changes."""
        return hash(tuple(getattr(self, f.name) for f in dataclasses.fields(self)))

    @cached_property
    def pieces_per_player(self) -> tuple[int, ...]:
        """Pieces each player has in the start position: the most a position may hold."""
        counts = [0] * self.players
        for field_text in self.start_fen.split(":")[1:]:
            player = PLAYER_LETTERS.index(field_text[0].upper())
            for token in field_text[1:].split(","):
                low, _, high = token.strip().lstrip("Kk").partition("-")
                if high and low.isdigit() and high.isdigit():
                    counts[player] += int(high) - int(low) + 1
                elif low:
                    counts[player] += 1
        return tuple(counts)

    @property
    def option_names(self) -> tuple[str, ...]:
        """Names accepted by :meth:`with_option`."""
        return tuple(name for name, _ in self.options)

    def with_option(self, option: str) -> Variant:
        """This variant with one named option switched on (its name gets ``+option``)."""
        for name, changes in self.options:
            if name == option:
                # The other options stay available, so they combine: "radial4+teams+dead-pieces".
                return dataclasses.replace(
                    self, name=f"{self.name}+{option}", aliases=(), **dict(changes)
                )
        known = ", ".join(self.option_names) or "none"
        raise ValueError(f"variant {self.name!r} has no option {option!r} (options: {known})")

    def as_giveaway(self) -> Variant:
        """The losing form of this variant: same moves, no legal move on your turn wins."""
        if self.giveaway:
            return self
        return dataclasses.replace(
            self,
            name=f"{self.name}-giveaway",
            title=f"{self.title}, giveaway",
            giveaway=True,
            draw_rules=REPETITION_ONLY,
            aliases=tuple(f"{alias}-giveaway" for alias in self.aliases),
            pdn_game_type=None,
        )
