"""The multi-player variants of RULES.md 12.2 and decision 6, each as plain data.

Every board comes with two setups: *standard* (diagonal, International rules: flying kings,
men capture backwards, majority capture counting every opponent's pieces) and *orthogonal*
(Turkish rules: men step forward or sideways, rook-like flying kings, captured pieces leave at
once, no 180-degree turn). Turn order, elimination, ranking, draws and team mode are the
same on every board; their options are switches of the description.
"""

from __future__ import annotations

from damier.rules import draws
from damier.rules.description import (
    DIAGONAL,
    ORTHOGONAL,
    PLAYER_LETTERS,
    Blocked,
    BoardKind,
    Choice,
    Direction,
    Leftovers,
    Numbering,
    Promotion,
    Range,
    Removal,
    Topology,
    Variant,
)

RANKS, FILES = 4, 8  # an area of a radial board
_FORWARD_DIAGONAL = frozenset({Direction.FORWARD_DIAGONAL})
_FORWARD_OR_SIDEWAYS = frozenset({Direction.FORWARD, Direction.SIDEWAYS})

Options = tuple[tuple[str, tuple[tuple[str, object], ...]], ...]
"""Named options of a variant: ``(name, ((field, value), ...))``."""

# Options every multi-player board offers (RULES.md 12.2).
_GAME_OPTIONS: Options = (
    ("pass-when-blocked", (("when_blocked", Blocked.PASS),)),
    ("dead-pieces", (("leftovers", Leftovers.DEAD),)),
    ("pieces-to-eliminator", (("leftovers", Leftovers.TO_ELIMINATOR),)),
)
# English-style base rules (short kings, men capture forwards, free choice). There is no
# Russian-style option: with free choice a flying king must pick a landing square from
# which the capture goes on, and at the hub those squares lie on several branch labels,
# which the kernel judges one label at a time; majority capture makes that moot.
_STANDARD_OPTIONS: Options = (
    (
        "english-rules",
        (
            ("choice", ()),
            ("king_range", Range.SHORT),
            ("man_captures", _FORWARD_DIAGONAL),
            ("promotion", Promotion.ENDS_MOVE),
        ),
    ),
)
_ORTHOGONAL_OPTIONS: Options = (("end-of-move-removal", (("removal", Removal.AT_END),)),)


def _team_options(players: int) -> Options:
    """Opposite players as partners, and for 6 or 8 players two teams of alternate areas."""
    if players % 2 or players < 4:
        return ()  # two players as one team would have nobody to play against
    half = players // 2
    opposite = tuple((p, p + half) for p in range(half))
    options: list[tuple[str, tuple[tuple[str, object], ...]]] = [
        ("teams", (("teams", opposite),)),
    ]
    if players > 4:
        alternate = (tuple(range(0, players, 2)), tuple(range(1, players, 2)))
        options.append(("teams-alternate", (("teams", alternate),)))
    return tuple(options)


def _fen(fields: list[list[str]]) -> str:
    return "W:" + ":".join(PLAYER_LETTERS[p] + ",".join(names) for p, names in enumerate(fields))


def _radial_start(players: int, orthogonal: bool) -> str:
    """Standard: the dark cells of ranks 1-3 of the own area (12 men). Orthogonal: all of
    ranks 2 and 3 (16 men)."""
    ranks = (2, 3) if orthogonal else (1, 2, 3)
    return _fen(
        [
            [
                f"{PLAYER_LETTERS[p]}{chr(ord('a') + f - 1)}{r}"
                for r in ranks
                for f in range(1, FILES + 1)
                if orthogonal or (r + f) % 2 == 0
            ]
            for p in range(players)
        ]
    )


def _cross_start(orthogonal: bool) -> str:
    """Each arm is 8 squares wide and 3 deep: standard, its 12 dark squares; orthogonal,
    its two inner rows (16 men). Arms clockwise from the bottom: bottom, left, top, right."""
    size, corner = 14, 3
    depths = (1, 2) if orthogonal else (0, 1, 2)  # 0 = the arm's outer row
    fields: list[list[str]] = []
    for player in range(4):
        names = []
        for depth in depths:
            for along in range(corner, size - corner):
                column, row = [
                    (along, depth),
                    (depth, along),
                    (along, size - 1 - depth),
                    (size - 1 - depth, along),
                ][player]  # row counted from the bottom (rank 1)
                if orthogonal or (row + column) % 2 == 0:
                    names.append(f"{chr(ord('a') + column)}{row + 1}")
        fields.append(names)
    return _fen(fields)


def _hex_start() -> str:
    """Eleven men each: the edge row (5 cells) and the row inside it (6) along the player's
    own edge (names as in :mod:`damier.geometry.hexagon`)."""
    return (
        "W:Wa1,b1,c1,d1,e1,a2,b2,c2,d2,e2,f2"
        ":Ba5,a6,a7,a8,a9,a4,b5,b6,b7,b8,b9"
        ":Re9,f8,g7,h6,i5,d9,e8,f7,g6,h5,h4"
    )


def _multiplayer(
    name: str,
    title: str,
    players: int,
    topology: Topology,
    orthogonal: bool,
    start_fen: str,
    summary: str,
    corner: int = 0,
    width: int = 8,
    height: int = 8,
) -> Variant:
    """A multi-player variant with the standard or orthogonal rules of RULES.md 12.2."""
    rules: dict[str, object]
    extra: Options
    if orthogonal:
        rules = {
            "man_moves": _FORWARD_OR_SIDEWAYS,
            "man_captures": _FORWARD_OR_SIDEWAYS,
            "king_moves": ORTHOGONAL,
            "king_captures": ORTHOGONAL,
            "promotion": Promotion.CONTINUE_AS_KING,
            "removal": Removal.IMMEDIATE,
            "no_reversal": True,
        }
        extra = _ORTHOGONAL_OPTIONS
    else:
        diagonal = topology is not Topology.HEX
        rules = {
            "man_moves": _FORWARD_DIAGONAL if diagonal else frozenset({Direction.FORWARD}),
            "man_captures": DIAGONAL if diagonal else ORTHOGONAL,
            "king_moves": DIAGONAL if diagonal else ORTHOGONAL,
            "king_captures": DIAGONAL if diagonal else ORTHOGONAL,
        }
        extra = _STANDARD_OPTIONS
        if topology is Topology.RADIAL:
            extra += (("hub-opposite", (("hub_opposite", True),)),)
    return Variant(
        name=name,
        title=title,
        width=width,
        height=height,
        board=BoardKind.ALL if orthogonal or topology is Topology.HEX else BoardKind.DARK,
        numbering=Numbering.ALGEBRAIC,
        start_fen=start_fen,
        players=players,
        topology=topology,
        corner=corner,
        choice=(Choice.MOST_PIECES,),
        draw_rules=draws.MULTIPLAYER,
        summary=summary,
        options=extra + _GAME_OPTIONS + _team_options(players),
        **rules,  # type: ignore[arg-type]
    )


def _radial_pair(name: str, players: int, shape: str) -> tuple[Variant, Variant]:
    standard = _multiplayer(
        name,
        f"Radial draughts for {players} ({shape}, {32 * players} cells)",
        players,
        Topology.RADIAL,
        False,
        _radial_start(players, False),
        f"{players} players, 12 men each, International rules, diagonals branch at the centre",
        height=RANKS,
    )
    orthogonal = _multiplayer(
        f"{name}-orthogonal",
        f"Radial draughts for {players}, orthogonal ({shape})",
        players,
        Topology.RADIAL,
        True,
        _radial_start(players, True),
        f"{players} players, 16 men each, Turkish rules",
        height=RANKS,
    )
    return standard, orthogonal


RADIAL2, RADIAL2_ORTHOGONAL = _radial_pair("radial2", 2, "the 8x8 board")
TRIPAD, TRIPAD_ORTHOGONAL = _radial_pair("tripad", 3, "hexagon of three 4x8 pads")
RADIAL4, RADIAL4_ORTHOGONAL = _radial_pair("radial4", 4, "octagon")
RADIAL6, RADIAL6_ORTHOGONAL = _radial_pair("radial6", 6, "12-gon")
RADIAL8, RADIAL8_ORTHOGONAL = _radial_pair("radial8", 8, "16-gon")

CROSS4 = _multiplayer(
    "cross4",
    "Four-player cross draughts (8x8 centre, four 8x3 arms)",
    4,
    Topology.SQUARE,
    False,
    _cross_start(False),
    "4 players on a cross of 160 squares, 12 men each, International rules",
    corner=3,
    width=14,
    height=14,
)
CROSS4_ORTHOGONAL = _multiplayer(
    "cross4-orthogonal",
    "Four-player cross draughts, orthogonal",
    4,
    Topology.SQUARE,
    True,
    _cross_start(True),
    "4 players on a cross of 160 squares, 16 men each, Turkish rules",
    corner=3,
    width=14,
    height=14,
)
HEX3 = _multiplayer(
    "hex3",
    "Three-player hexagonal draughts (61 cells)",
    3,
    Topology.HEX,
    False,
    _hex_start(),
    "3 players on a hexagon, 11 men each, men step to two forward cells, capture in six",
    width=9,
    height=9,
)
HEX3_ORTHOGONAL = _multiplayer(
    "hex3-orthogonal",
    "Three-player hexagonal draughts, orthogonal",
    3,
    Topology.HEX,
    True,
    _hex_start(),
    "3 players on a hexagon, men step and capture forward or sideways, Turkish rules",
    width=9,
    height=9,
)

MULTIPLAYER = (
    TRIPAD,
    TRIPAD_ORTHOGONAL,
    RADIAL4,
    RADIAL4_ORTHOGONAL,
    RADIAL6,
    RADIAL6_ORTHOGONAL,
    RADIAL8,
    RADIAL8_ORTHOGONAL,
    CROSS4,
    CROSS4_ORTHOGONAL,
    HEX3,
    HEX3_ORTHOGONAL,
    RADIAL2,
    RADIAL2_ORTHOGONAL,
)
"""The multi-player boards, in the order ``damier variants`` lists them (R_2, the 8x8
board built as a radial board, last: it proves the radial geometry)."""
