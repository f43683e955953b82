"""The rules of a variant in plain words, written from its description (for rules pages).

>>> print(explain("russian")[6])
A player who cannot move on his turn (no pieces left, or all blocked) loses.
"""

from __future__ import annotations

from damier.rules.description import (
    BoardKind,
    Choice,
    CountedKingMoves,
    Direction,
    Landing,
    Promotion,
    Range,
    Removal,
    Variant,
)
from damier.rules.draws import BareMaterial, Endgame, QuietMoves, Repetition, StableMaterial
from damier.rules.variants import get_variant

_DIRECTION_WORDS = {
    Direction.FORWARD_DIAGONAL: "diagonally forward",
    Direction.BACKWARD_DIAGONAL: "diagonally backward",
    Direction.FORWARD: "straight forward",
    Direction.SIDEWAYS: "sideways",
    Direction.BACKWARD: "straight backward",
}
_ORDER = list(_DIRECTION_WORDS)


def _either(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def directions(allowed: frozenset[Direction]) -> str:
    """``{forward-diagonal, backward-diagonal}`` -> ``"diagonally forward or backward"``."""
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
        else:
            words.append(_CHOICE_WORDS[criterion])
    return f"The player must take {'; then '.join(words)}. Otherwise the choice is free."


def _board(variant: Variant) -> str:
    size = f"{variant.width}x{variant.height} board"
    board = f"{'an' if size.startswith(('8', '11', '18')) else 'a'} {size}"
    if variant.board is BoardKind.ALL:
        squares = f"all {variant.width * variant.height} squares of {board}"
    else:
        side = "left" if variant.board is BoardKind.DARK else "right"
        count = variant.width * variant.height // 2
        squares = f"the {count} dark squares of {board} (a dark one at each player's near {side})"
    first = "Black" if variant.first_player else "White"
    men = variant.pieces_per_player[0]
    return f"Played on {squares}. Each player starts with {men} men; {first} moves first."


def _men(variant: Variant) -> str:
    text = f"Men step one square {directions(variant.man_moves)} to an empty square"
    if variant.line_moves:
        text += (
            ", or move as a line: an unbroken line of their own men in one of those "
            "directions advances one square"
        )
    prey = "an enemy piece" if variant.men_capture_kings else "an enemy man (never a king)"
    return (
        f"{text}. They capture by jumping {prey} next to them, {directions(variant.man_captures)},"
        " onto the empty square just behind it."
    )


def _kings(variant: Variant) -> str:
    if variant.king_range is Range.SHORT:
        return (
            f"Kings step one square {directions(variant.king_moves)}, and capture an adjacent "
            f"piece {directions(variant.king_captures)}, landing just behind it."
        )
    landing = (
        "only on the square directly behind it"
        if variant.king_landing is Landing.NEXT
        else "on any empty square behind it"
    )
    text = (
        f"Kings fly: they move any number of empty squares {directions(variant.king_moves)}, "
        f"and capture a piece at any distance, {directions(variant.king_captures)}, with only "
        f"empty squares between, landing {landing}"
    )
    if variant.king_stops_behind_king:
        text += ", except that a king taking a king must stop directly behind it"
    return text + "."


def _capture(variant: Variant) -> str:
    return f"Capturing is compulsory, and a capture must go on while it can. {_choice(variant)}"


def _removal(variant: Variant) -> str:
    if variant.removal is Removal.IMMEDIATE:
        text = "Each captured piece leaves the board at once, so its square may be crossed again."
    else:
        text = (
            "Captured pieces leave the board only when the capture is over: until then they "
            "block the way, and none may be jumped twice."
        )
    if variant.no_reversal:
        text += " A capture may not turn back 180 degrees between two jumps."
    return text


def _crowning(variant: Variant) -> str:
    if variant.promotion is Promotion.CONTINUE_AS_KING:
        way = "at once, even in the middle of a capture, which it then continues as a king"
    elif variant.promotion is Promotion.ENDS_MOVE:
        way = "and its move ends there"
    else:
        way = "if its move ends there; passing that row during a capture, it goes on as a man"
    text = f"A man reaching the far row becomes a king {way}."
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
    if variant.crowning_wins:
        return "The first player to crown a king wins."
    if variant.giveaway:
        return (
            "Giveaway: a player who cannot move on his turn (no pieces left, or all blocked) wins."
        )
    return "A player who cannot move on his turn (no pieces left, or all blocked) loses."


def _draws(variant: Variant) -> str:
    rules = []
    for rule in variant.draw_rules:
        if isinstance(rule, Repetition):
            rules.append(f"the same position {rule.times} times with the same player to move")
        elif isinstance(rule, QuietMoves):
            rules.append(
                f"{rule.plies // 2} moves each with no capture and no man move ({rule.reason})"
            )
        elif isinstance(rule, Endgame):
            counted = "of the stronger side" if rule.strong_moves_only else "each"
            moves = rule.limit if rule.strong_moves_only else rule.limit // 2
            rules.append(f"{rule.reason}: a lone king not beaten within {moves} moves {counted}")
        elif isinstance(rule, StableMaterial):
            rules.append(f"{rule.reason}: no capture or crowning for long in king endings")
        elif isinstance(rule, BareMaterial):
            rules.append(rule.reason)
    if not rules:
        return "There is no automatic draw; players may agree to one."
    return f"Draws: by agreement, or by {'; '.join(rules)}."


def explain(variant: Variant | str) -> list[str]:
    """Paragraphs that state the variant's rules, from its description alone."""
    variant = get_variant(variant)
    return [
        _board(variant),
        _men(variant),
        _kings(variant),
        _capture(variant),
        _removal(variant),
        _crowning(variant),
        _goal(variant),
        _draws(variant),
    ]
