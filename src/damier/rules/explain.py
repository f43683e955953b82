"""The rules of a variant in plain words, written from its description (for rules pages).

>>> print(explain("russian")[6])
A player who cannot move on his turn (no pieces left, or all blocked) loses.

Multi-player boards (RULES.md 12) get two more paragraphs, the players and their turns
after the board, and the teams (or every player for himself) before the draws:

>>> import textwrap
>>> print(textwrap.fill(explain("tripad")[1], 88))
Three players, White, Black and Red, sit round the board in that order and play in turn,
clockwise; a player who is out of the game is skipped. White moves first. Each player
starts with 12 men in his own area, on the dark cells of its three ranks nearest his
edge.
"""

from __future__ import annotations

from damier.geometry import HexGeometry, RadialGeometry, SquareGeometry, geometry_of
from damier.notation.fen import parse_fen
from damier.rules.description import (
    DIAGONAL,
    Blocked,
    BoardKind,
    Choice,
    CountedKingMoves,
    Direction,
    Landing,
    Leftovers,
    Promotion,
    Range,
    Removal,
    Topology,
    Variant,
)
from damier.rules.draws import (
    BareMaterial,
    Endgame,
    QuietMoves,
    QuietRounds,
    Repetition,
    StableMaterial,
)
from damier.rules.variants import get_variant

_NAMES = ("White", "Black", "Red", "Green", "Yellow", "Purple", "Orange", "Cyan")
"""The players in turn order (their FEN letters are ``PLAYER_LETTERS``)."""
_NUMBERS = ("", "one", "two", "three", "four", "five", "six", "seven", "eight")
_POLYGONS = {2: "square", 3: "hexagon", 4: "octagon", 5: "decagon", 6: "dodecagon"}

_DIRECTION_WORDS = {
    Direction.FORWARD_DIAGONAL: "diagonally forward",
    Direction.BACKWARD_DIAGONAL: "diagonally backward",
    Direction.FORWARD: "straight forward",
    Direction.SIDEWAYS: "sideways",
    Direction.BACKWARD: "straight backward",
}
_ORDER = list(_DIRECTION_WORDS)


def _either(words: list[str], word: str = "or") -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {word} {words[-1]}"


def _names(players: tuple[int, ...] | range) -> str:
    """``(0, 2)`` -> ``"White and Red"``."""
    return _either([_NAMES[p] for p in players], "and")


def _multiplayer(variant: Variant) -> bool:
    """Elimination, ranking and turn order round the board: three players or more."""
    return variant.players > 2


def _unit(variant: Variant) -> str:
    return "square" if variant.topology is Topology.SQUARE else "cell"


_HEX_WORDS = {
    Direction.FORWARD: "ahead",
    Direction.SIDEWAYS: "beside them on their row",
    Direction.BACKWARD: "behind them",
}


def _a(words: str) -> str:
    """``"octagon"`` -> ``"an octagon"``, ``"8x8 centre"`` -> ``"an 8x8 centre"``."""
    return (
        f"{'an' if words.startswith(('a', 'e', 'i', 'o', 'u', '8', '11', '18')) else 'a'} {words}"
    )


def directions(allowed: frozenset[Direction], variant: Variant | None = None) -> str:
    """``{forward-diagonal, backward-diagonal}`` -> ``"diagonally forward or backward"``.

    On the hexagon (``variant`` given), whose six lines are two forward, two sideways and
    two backward, and which has no diagonals: ``"in any of the six directions"``, ``"ahead"``.
    """
    if variant is not None and variant.topology is Topology.HEX:
        lines = [d for d in _HEX_WORDS if d in allowed]
        if len(lines) == len(_HEX_WORDS):
            return "in any of the six directions"
        return _either([_HEX_WORDS[d] for d in lines]) if lines else "nowhere"
    if len(allowed) == len(_ORDER):
        return "in all eight directions"
    if allowed == {Direction.FORWARD_DIAGONAL, Direction.BACKWARD_DIAGONAL}:
        return "diagonally, forward or backward"
    if allowed == {Direction.FORWARD, Direction.SIDEWAYS, Direction.BACKWARD}:
        return "along ranks and files, forward, sideways or backward"
    return _either([_DIRECTION_WORDS[d] for d in _ORDER if d in allowed])


_CHOICE_WORDS = {
    Choice.MOST_PIECES: "the capture that takes the most pieces (kings and men count the same)",
    Choice.WITH_KING: "a capture with a king rather than with a man",
    Choice.MOST_KINGS: "the capture that takes the most kings",
    Choice.EARLIEST_KING: "the capture that meets a king first",
}


def _choice(variant: Variant) -> str:
    if not variant.choice:
        return "When several captures are possible, the player may choose any of them."
    words = []
    for criterion in variant.choice:
        if criterion is Choice.MOST_VALUE:
            king = variant.king_value / 100
            words.append(f"the capture of most value (a man counts 1, a king {king:g})")
        elif criterion is Choice.MOST_PIECES and _multiplayer(variant):
            words.append(
                "the capture that takes the most pieces, those of all opponents counted "
                "together (kings and men count the same)"
            )
        else:
            words.append(_CHOICE_WORDS[criterion])
    return f"The player must take {'; then '.join(words)}. Otherwise the choice is free."


def _square_board(variant: Variant) -> str:
    cells = geometry_of(variant).cell_count
    board = _a(f"{variant.width}x{variant.height} board")
    if variant.corner:
        corner, across = variant.corner, variant.width - 2 * variant.corner
        whole = variant.width * variant.height - 4 * corner * corner
        centre = _a(f"{across}x{variant.height - 2 * corner} centre")
        cross = (
            f"({board} without a {corner}x{corner} block at each corner: {centre} and four "
            f"{across}x{corner} arms, one per player)"
        )
        if variant.board is BoardKind.ALL:
            return f"all {cells} squares of a cross {cross}"
        return f"the {cells} dark squares of a cross of {whole} squares {cross}"
    if variant.board is BoardKind.ALL:
        return f"all {cells} squares of {board}"
    side = "left" if variant.board is BoardKind.DARK else "right"
    return f"the {cells} dark squares of {board} (a dark one at each player's near {side})"


def _radial_board(variant: Variant) -> str:
    n = variant.players
    cells = geometry_of(variant).cell_count
    squares = f"all {cells} cells" if variant.board is BoardKind.ALL else f"the {cells} dark cells"
    shape = _POLYGONS.get(n, f"{2 * n}-sided polygon")
    if n == 2:
        made = "two areas of 4x8 cells, one per player, which together make the 8x8 board"
    else:
        made = (
            f"{_a(shape)} of {_NUMBERS[n]} areas of 4x8 cells, one per player, round a centre point"
        )
        if variant.board is not BoardKind.ALL:
            made += f" ({32 * n} cells in all)"
    text = (
        f"Played on {squares} of a radial board for {_NUMBERS[n]}: {made}. A cell is named by "
        f"its area and its square as the area's owner sees it: Wa1 is White's near-left "
        "corner, Bd4 touches the centre in Black's area. Where two areas meet, rank 4 of one "
        "runs along rank 4 of the next (files a-d against h-e), so lines go on from area to "
        "area."
    )
    if n > 2 and variant.board is not BoardKind.ALL:
        where = (
            "into the opposite area only"
            if variant.hub_opposite
            else "into any other area, as the mover chooses"
        )
        text += (
            " The d4 cells of all areas touch the centre point and are diagonal neighbours of "
            f"one another: a diagonal that reaches the centre goes on {where}, along that "
            "area's long diagonal (d4, c3, b2, a1), for steps and captures alike."
        )
    return text


def _hex_board(variant: Variant) -> str:
    cells = geometry_of(variant).cell_count
    return (
        f"Played on all {cells} cells of a hexagon of hexagonal cells, five on each side and "
        "nine rows. A cell touches up to six others; for a player, the two towards the far "
        "side of the board are ahead of him, the two along his rows beside him, the other "
        "two behind him. Cells are named by row and place from White's side: a1 to e1 along "
        "White's edge, e5 in the centre."
    )


def _board(variant: Variant) -> str:
    if variant.topology is Topology.RADIAL:
        text = _radial_board(variant)
    elif variant.topology is Topology.HEX:
        text = _hex_board(variant)
    else:
        text = f"Played on {_square_board(variant)}."
    if _multiplayer(variant):
        return text
    first = _NAMES[variant.first_player]
    men = variant.pieces_per_player[0]
    return f"{text} Each player starts with {men} men; {first} moves first."


def _home(variant: Variant, player: int) -> frozenset[int]:
    """The cells where RULES.md 12.2 sets up ``player``'s men on this board."""
    geometry = geometry_of(variant)
    if isinstance(geometry, RadialGeometry):
        ranks = (2, 3) if variant.board is BoardKind.ALL else (1, 2, 3)
        return frozenset(
            cell
            for cell, (area, rank, _) in enumerate(geometry.coordinates)
            if area == player and rank in ranks
        )
    if isinstance(geometry, HexGeometry):
        return geometry.home_rows(player, 2)
    if isinstance(geometry, SquareGeometry) and variant.corner:
        depth, width, height = variant.corner, variant.width, variant.height
        return frozenset(
            cell
            for cell, (row, column) in enumerate(geometry.coordinates)
            # Arms clockwise from White's: bottom, left, top, right.
            if (row >= height - depth, column < depth, row < depth, column >= width - depth)[player]
        )
    return frozenset()


def _start(variant: Variant) -> str:
    """Where each player's men stand at the start, in words (empty for a start position
    that is not the board's usual one)."""
    try:
        cells, _ = parse_fen(variant, variant.start_fen)
    except ValueError:  # pragma: no cover - a registered variant's FEN always reads
        return ""
    codes = cells.tolist()
    for player in range(variant.players):
        men = frozenset(c for c, code in enumerate(codes) if code == 2 * player + 1)
        home = _home(variant, player)
        if not men or not men <= home or (variant.topology is not Topology.SQUARE and men != home):
            return ""
    if variant.topology is Topology.RADIAL:
        if variant.board is BoardKind.ALL:
            return " in his own area, filling its second and third ranks"
        return " in his own area, on the dark cells of its three ranks nearest his edge"
    if variant.topology is Topology.HEX:
        return " on the two rows along his own edge; the edges between the players stay empty"
    return " on his own arm"


def _players(variant: Variant) -> str:
    """Multi-player boards: who plays, in which order, with what."""
    n = variant.players
    counts = variant.pieces_per_player
    if len(set(counts)) == 1:
        men = f"Each player starts with {counts[0]} men{_start(variant)}."
    else:
        first = f"{_NAMES[0]} starts with {counts[0]} {'man' if counts[0] == 1 else 'men'}"
        others = [f"{_NAMES[p]} with {count}" for p, count in enumerate(counts) if p > 0]
        men = f"{_either([first, *others], 'and')}{_start(variant)}."
    return (
        f"{_NUMBERS[n].capitalize()} players, {_names(range(n))}, sit round the board in that "
        "order and play in turn, clockwise; a player who is out of the game is skipped. "
        f"{_NAMES[variant.first_player]} moves first. {men}"
    )


def _forward(variant: Variant) -> str:
    """What forward means on a multi-player board (empty on the two-player square board)."""
    if variant.topology is Topology.RADIAL:
        text = (
            " Forward is towards the centre in a man's own area, and, once it has crossed into "
            "another area, towards that area's back row"
        )
        if Direction.SIDEWAYS in variant.man_moves | variant.man_captures:
            text += "; sideways is along the rank it stands on"
        return text + "."
    if variant.topology is Topology.SQUARE and variant.players > 2:
        return " Forward is towards the arm across the board."
    return ""


def _prey(variant: Variant, pieces: str) -> str:
    if not _multiplayer(variant):
        return f"an enemy {pieces}"
    partners = " (never a partner's)" if variant.teams else ""
    return f"a {pieces} of any opponent{partners}"


def _men(variant: Variant) -> str:
    unit = _unit(variant)
    if variant.topology is Topology.HEX:
        text = f"Men step to an empty neighbouring cell {directions(variant.man_moves, variant)}"
    else:
        text = f"Men step one {unit} {directions(variant.man_moves)} to an empty {unit}"
    if variant.line_moves:
        text += (
            ", or move as a line: an unbroken line of their own men in one of those "
            "directions advances one square"
        )
    prey = (
        _prey(variant, "piece")
        if variant.men_capture_kings
        else _prey(variant, "man") + " (never a king)"
    )
    return (
        f"{text}. They capture by jumping {prey} next to them, "
        f"{directions(variant.man_captures, variant)}, onto the empty {unit} just behind it."
        + _forward(variant)
    )


def _kings(variant: Variant) -> str:
    unit = _unit(variant)
    moves = directions(variant.king_moves, variant)
    captures = directions(variant.king_captures, variant)
    if variant.king_range is Range.SHORT:
        return (
            f"Kings step one {unit} {moves}, and capture an adjacent piece {captures}, landing "
            "just behind it."
        )
    landing = (
        f"only on the {unit} directly behind it"
        if variant.king_landing is Landing.NEXT
        else f"on any empty {unit} behind it"
    )
    text = (
        f"Kings fly: they move any number of empty {unit}s {moves}, and capture a piece at any "
        f"distance, {captures}, with only empty {unit}s between, landing {landing}"
    )
    if variant.king_stops_behind_king:
        text += ", except that a king whose last capture is a king must stop directly behind it"
    if (
        variant.topology is Topology.RADIAL
        and variant.players > 2
        and variant.board is not BoardKind.ALL
        and variant.king_moves & DIAGONAL
    ):
        text += "; through the centre they go on into another area as above"
    return text + "."


def _capture(variant: Variant) -> str:
    return f"Capturing is compulsory, and a capture must go on while it can. {_choice(variant)}"


def _removal(variant: Variant) -> str:
    if variant.removal is Removal.IMMEDIATE:
        text = (
            f"Each captured piece leaves the board at once, so its {_unit(variant)} may be "
            "crossed again."
        )
    else:
        text = (
            "Captured pieces leave the board only when the capture is over: until then they "
            "block the way, and none may be jumped twice."
        )
    if variant.no_reversal:
        text += " A capture may not turn back 180 degrees between two jumps."
    return text


def _crowning_row(variant: Variant) -> str:
    if variant.topology is Topology.RADIAL:
        return "the back row of any other player's area"
    if variant.topology is Topology.HEX:
        return "the empty edge opposite its own"
    if variant.players > 2:
        return "the outer row of any other player's arm"
    return "the far row"


def _crowning(variant: Variant) -> str:
    if variant.promotion is Promotion.CONTINUE_AS_KING:
        way = "at once, even in the middle of a capture, which it then continues as a king"
    elif variant.promotion is Promotion.ENDS_MOVE:
        way = "and its move ends there"
    else:
        row = "that edge" if variant.topology is Topology.HEX else "that row"
        way = f"if its move ends there; passing {row} during a capture, it goes on as a man"
    text = f"A man reaching {_crowning_row(variant)} becomes a king {way}."
    limit = variant.max_consecutive_king_moves
    if limit:
        which = (
            "the same king" if variant.counted_king_moves is CountedKingMoves.SAME_KING else "kings"
        )
        text += (
            f" While a player still has men, {which} may make at most {limit} moves in a row "
            "without capturing."
        )
    return text


def _goal(variant: Variant) -> str:
    if _multiplayer(variant):
        return _elimination(variant)
    if variant.crowning_wins:
        return "The first player to crown a king wins."
    if variant.giveaway:
        return (
            "Giveaway: a player who cannot move on his turn (no pieces left, or all blocked) wins."
        )
    return "A player who cannot move on his turn (no pieces left, or all blocked) loses."


_LEFTOVERS = {
    Leftovers.REMOVED: "His pieces leave the board",
    Leftovers.DEAD: (
        "His pieces stay on the board as dead pieces: they belong to nobody, block the way, "
        "and anyone may capture them (they count in the majority rule)"
    ),
    Leftovers.TO_ELIMINATOR: (
        "His pieces change hands: they go to the player whose move put him out"
    ),
}


def _elimination(variant: Variant) -> str:
    """RULES.md 12.2: elimination, its options, and the ranking."""
    if variant.when_blocked is Blocked.PASS:
        out = (
            "A player with no legal move on his turn passes, as long as he has pieces; a player "
            "left without pieces is out of the game at once."
        )
    else:
        out = (
            "A player who cannot move on his turn (no pieces left, or all blocked) is out of "
            "the game, and so is a player as soon as his last piece is taken."
        )
    out += f" Resigning or losing on time also puts a player out. {_LEFTOVERS[variant.leftovers]}"
    if variant.topology is Topology.RADIAL:
        out += "; his area stays on the board, and men are still crowned on its back row"
    out += "."
    last = "team" if variant.teams else "player"
    if variant.crowning_wins:
        return f"{out} The first player to crown a king wins, as does the last {last} left."
    if variant.giveaway:
        return (
            f"{out} Giveaway: the first player to be out of the game wins, and the game ends "
            "there; the others share the next place."
        )
    return (
        f"{out} The last {last} left wins; the others are ranked in the reverse order in which "
        "they went out (players put out by the same move share a place)."
    )


def _teams(variant: Variant) -> str:
    """Multi-player boards: the partnerships, if any."""
    if not variant.teams:
        return "Every player plays for himself, against all the others."
    teams = [_names(team) for team in variant.teams]
    sides = (
        " against ".join(teams)
        if len(teams) == 2
        else f"{_NUMBERS[len(teams)]} teams, {'; '.join(teams)}"
    )
    return (
        f"Team play: {sides}. A partner's pieces are treated like one's own: they cannot be "
        "captured and they block the way. A team is out of the game when all its players are."
    )


def _draws(variant: Variant) -> str:
    multi = _multiplayer(variant)
    rules = []
    for rule in variant.draw_rules:
        if isinstance(rule, Repetition):
            same = " and the same players in the game" if multi else ""
            rules.append(f"the same position {rule.times} times with the same player to move{same}")
        elif isinstance(rule, QuietMoves):
            rules.append(
                f"{rule.plies // 2} moves each with no capture and no man move ({rule.reason})"
            )
        elif isinstance(rule, QuietRounds):
            still = " still in the game" if multi else ""
            rules.append(
                f"{rule.rounds} full rounds (every player{still} moved {rule.rounds} times) "
                "with no capture and no man move"
            )
        elif isinstance(rule, Endgame):
            counted = "of the stronger side" if rule.strong_moves_only else "each"
            moves = rule.limit if rule.strong_moves_only else rule.limit // 2
            rules.append(f"{rule.reason}: a lone king not beaten within {moves} moves {counted}")
        elif isinstance(rule, StableMaterial):
            rules.append(f"{rule.reason}: no capture or crowning for long in king endings")
        elif isinstance(rule, BareMaterial):
            rules.append(rule.reason)
    shared = " A drawn game ends with the players still in it sharing first place." if multi else ""
    if not rules:
        return f"There is no automatic draw; players may agree to one.{shared}"
    agreement = "agreement of all the players still in" if multi else "agreement"
    return f"Draws: by {agreement}, or by {'; '.join(rules)}.{shared}"


def explain(variant: Variant | str) -> list[str]:
    """Paragraphs that state the variant's rules, from its description alone: eight, and
    ten on multi-player boards (their players and turns, and their teams)."""
    variant = get_variant(variant)
    paragraphs = [
        _board(variant),
        _men(variant),
        _kings(variant),
        _capture(variant),
        _removal(variant),
        _crowning(variant),
        _goal(variant),
        _draws(variant),
    ]
    if _multiplayer(variant):
        paragraphs.insert(1, _players(variant))
        paragraphs.insert(-1, _teams(variant))
    return paragraphs
