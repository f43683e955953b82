"""PDN 3.0 games: read files of many games, replay them, write them back.

Reading never stops at a broken game: each game keeps the errors found in it, with line
and column, and the next game is read as usual.

>>> games = read_pdn('[GameType "25"]\\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 *')
>>> games[0].variant().name, [node.text for node in games[0].moves]
('russian', ['c3-d4', 'f6-e5', 'd4xf6', 'g7xe5'])
>>> game = games[0].replay()
>>> write_pdn(game).splitlines()[-1]
'1. 22-18 11-15 2. 18x11 8x15 *'

Multi-player games (RULES.md 12.2) are written the same way, with a name tag per player
(``White``, ``Black``, ``Red``, ...), a ``Variant`` tag, and each move numbered on its own
(turns skip the players who are out). A player who resigns or loses on time between two
moves is written ``R:resigns`` or ``R:time`` (his letter). PDN results are for two
players: the movetext ends with ``*`` and the ``Ranking`` tag holds the places, first to
last, players sharing a place joined by ``=``: ``[Ranking "R, W=B"]``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from damier.board import PLAYER_NAMES, Board, Move
from damier.errors import FenError, IllegalMoveError
from damier.game import Forfeit, Game, Ranking
from damier.rules import Variant, all_variants, get_variant
from damier.rules.description import PLAYER_LETTERS
from damier.rules.variants import UnknownVariantError

RESULTS = {"2-0": 0, "1-0": 0, "0-2": 1, "0-1": 1, "1-1": None, "1/2-1/2": None, "0-0": None}
"""PDN result tokens and the winner they name (None: a draw); ``*`` is an unfinished game."""

PLAYER_TAGS = tuple(name.capitalize() for name in PLAYER_NAMES)
"""The tag naming each player: ``White``, ``Black``, then ``Red``, ``Green``... on
multi-player boards."""

_FORFEIT_WORDS = {"resignation": "resigns", "time forfeit": "time"}
"""How a forfeit's reason is written after the player's letter (any other: ``forfeits``)."""
_FORFEIT = re.compile(r"^([A-Z]):(resigns|time|forfeits)$")


def forfeit_text(forfeit: Forfeit) -> str:
    """The movetext word of a forfeit: ``R:resigns``, ``B:time``."""
    word = _FORFEIT_WORDS.get(forfeit.reason, "forfeits")
    return f"{PLAYER_LETTERS[forfeit.player]}:{word}"


def parse_forfeit(text: str) -> Forfeit | None:
    """The forfeit a movetext word names, or None if it is not one."""
    match = _FORFEIT.match(text)
    if match is None:
        return None
    reasons = {word: reason for reason, word in _FORFEIT_WORDS.items()}
    player = PLAYER_LETTERS.index(match.group(1))
    return Forfeit(player, reasons.get(match.group(2), "forfeit"))


def parse_ranking(text: str, players: int) -> Ranking:
    """The places a ``Ranking`` tag names (``"R, W=B"``); ValueError if it does not name
    every player once."""
    letters = list(PLAYER_LETTERS[:players])
    places = [[letter.strip() for letter in place.split("=")] for place in text.split(",")]
    named = sorted(letter for place in places for letter in place)
    if named != sorted(letters):
        raise ValueError(f"Ranking {text!r} must name each of {', '.join(letters)} once")
    return tuple(tuple(letters.index(letter) for letter in place) for place in places)


class PdnError(ValueError):
    """Something wrong in a PDN file, at a line and column (both from 1)."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(f"line {line}, column {column}: {message}")
        self.message = message
        self.line = line
        self.column = column


@dataclass
class Node:
    """One move of the movetext, with what is written around it."""

    text: str
    line: int
    column: int
    comments: list[str] = field(default_factory=list)
    """Comments written after the move."""
    nags: list[str] = field(default_factory=list)
    """Annotation glyphs (``$1``, ``!``, ``?!``)."""
    variations: list[list[Node]] = field(default_factory=list)
    """Alternatives to this move, each a line of moves."""


@dataclass
class PdnGame:
    """One game as read: tags, the main line, the result, and any errors found."""

    tags: dict[str, str] = field(default_factory=dict)
    moves: list[Node] = field(default_factory=list)
    result: str = "*"
    comment: str = ""
    """A comment written before the first move."""
    line: int = 1
    errors: list[PdnError] = field(default_factory=list)

    def variant(self, default: str | Variant = "international") -> Variant:
        """The variant named by the ``GameType`` or ``Variant`` tag, else ``default``."""
        game_type = self.tags.get("GameType", "").split(",")[0].strip()
        if game_type:
            for variant in all_variants():
                if str(variant.pdn_game_type) == game_type:
                    return variant
        name = self.tags.get("Variant")
        if name:
            return get_variant(name)
        if game_type:
            raise UnknownVariantError(f"GameType {game_type} is not a variant Damier plays")
        return get_variant(default)

    def replay(self, default: str | Variant = "international") -> Game:
        """The game played out on a board; raises :class:`PdnError` at the first bad move."""
        try:
            variant = self.variant(default)
            fen = self.tags.get("FEN")
            game = Game(variant, fen)
        except (FenError, UnknownVariantError) as error:
            raise PdnError(str(error), self.line, 1) from None
        for node in self.moves:
            try:
                forfeit = parse_forfeit(node.text)
                if forfeit is None:
                    game.push(node.text)
                else:
                    game.forfeit(forfeit.player, forfeit.reason)
            except (IllegalMoveError, ValueError) as error:
                raise PdnError(str(error), node.line, node.column) from None
        if game.result is None and variant.players > 2 and "Ranking" in self.tags:
            try:
                ranking = parse_ranking(self.tags["Ranking"], variant.players)
            except ValueError as error:
                raise PdnError(str(error), self.line, 1) from None
            game.adjudicate(None, self.tags.get("Termination", "recorded result"), ranking)
        elif game.result is None and self.result in RESULTS:
            winner = RESULTS[self.result]
            game.adjudicate(winner, "recorded result")
        return game


_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\\n]|\\.)*)"\s*\]')
_WORD = re.compile(r"[^\s\[\]{}();]+")
_SPACE = re.compile(r"\s+")
_BRACE = re.compile(r"[{}]")
_NAG = re.compile(r"\$\d+")
_MOVE_NUMBER = re.compile(r"^(\d+)\.+")
# A square: a number, a letter and a rank (d4), or on radial boards the area's letter too (Rd4);
# between squares one kind of separator. Russian files write a capture with ``:``.
_MOVE = re.compile(r"^[a-z]{0,2}\d+([-x:])[a-z]{0,2}\d+(\1[a-z]{0,2}\d+)*$", re.IGNORECASE)
_GLYPH = re.compile(r"[!?]+$")

MAX_DEPTH = 64
"""How deep variations may nest (a variation of the main line is 1 deep): a deeper one is
an error of its game, and is skipped."""

MAX_TAG_NAME = 40
"""The longest tag name read or written."""
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def tag_name_problem(name: str) -> str | None:
    """What is wrong with a tag name, or None for a good one: letters, digits and
    underscores, starting with a letter, at most :data:`MAX_TAG_NAME` characters.

    >>> tag_name_problem("GameType") is None
    True
    >>> tag_name_problem("1st")
    "tag name '1st' must be letters, digits and underscores, starting with a letter"
    """
    if len(name) > MAX_TAG_NAME:
        return f"tag name {name[:MAX_TAG_NAME]!r}... is longer than {MAX_TAG_NAME} characters"
    if not _TAG_NAME.fullmatch(name):
        return f"tag name {name!r} must be letters, digits and underscores, starting with a letter"
    return None


def _closing_braces(text: str) -> dict[int, int]:
    """For each ``{`` of ``text``, the index of the brace closing it (braces nest); an
    unterminated one is left out. Every brace is looked at once."""
    closing: dict[int, int] = {}
    opened: list[int] = []
    for brace in _BRACE.finditer(text):
        if brace.group() == "{":
            opened.append(brace.start())
        elif opened:
            closing[opened.pop()] = brace.start()
    return closing


def _tokens(text: str) -> Iterator[tuple[str, str, int, int]]:
    """``(kind, text, line, column)`` for each token; kind ``error`` carries a message, and
    the scan goes on after it (at the next tag for an unterminated comment)."""
    closing = _closing_braces(text) if "{" in text else {}
    position, length = 0, len(text)
    line, line_start, counted = 1, 0, 0  # lines are counted up to ``counted``
    while True:
        space = _SPACE.match(text, position)
        if space is not None:
            position = space.end()
        if position >= length:
            return
        newlines = text.count("\n", counted, position)
        if newlines:
            line += newlines
            line_start = text.rfind("\n", counted, position) + 1
        counted = position
        column = position - line_start + 1
        char = text[position]
        if char == "{":
            end = closing.get(position, -1)
            if end < 0:
                yield "error", "unterminated comment", line, column
                next_tag = text.find("\n[", position)
                position = length if next_tag < 0 else next_tag + 1
                continue
            yield "comment", text[position + 1 : end], line, column
            position = end + 1
        elif char == "[":
            match = _TAG.match(text, position)
            if match is None:
                yield "error", "malformed tag", line, column
                end_of_line = text.find("\n", position)
                position = length if end_of_line < 0 else end_of_line
                continue
            problem = tag_name_problem(match.group(1))
            if problem is None:
                yield "tag", match.group(0), line, column
            else:
                yield "error", problem, line, column
            position = match.end()
        elif char == ";":
            end_of_line = text.find("\n", position)
            position = length if end_of_line < 0 else end_of_line
        elif char in "()":
            yield ("open" if char == "(" else "close"), char, line, column
            position += 1
        elif char == "]" or char == "}":
            yield "error", f"stray {char!r}", line, column
            position += 1
        else:
            word = _WORD.match(text, position)
            assert word is not None  # any other character starts a word
            kind = "nag" if _NAG.fullmatch(word.group(0)) else "word"
            yield kind, word.group(0), line, column
            position = word.end()


def decode_pdn(data: bytes) -> str:
    """The text of a PDN file: UTF-8 (a byte-order mark dropped), else Windows-1252, the
    encoding of the files of the Windows draughts programs and their databases (their
    players' accented names are not UTF-8); a byte that has no character there reads as
    its Latin-1 one, so that a file always opens and its moves are never lost."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1").translate(_WINDOWS_1252)


_WINDOWS_1252 = {
    byte: bytes([byte]).decode("cp1252")
    for byte in range(0x80, 0xA0)
    if byte not in (0x81, 0x8D, 0x8F, 0x90, 0x9D)  # (no character in Windows-1252)
}
"""Where Windows-1252 differs from Latin-1 (from 0xA0 on they agree)."""


def read_pdn(text: str, max_depth: int = MAX_DEPTH) -> list[PdnGame]:
    """Every game of a PDN text. Syntax errors are kept in each game's ``errors``; a
    variation nested deeper than ``max_depth`` is one, and is skipped."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    games: list[PdnGame] = []
    game = PdnGame()
    stack: list[list[Node]] = [game.moves]
    in_movetext = False
    skipped = 0  # how deep inside a skipped (too deep) variation the reader is

    def finish(result: str) -> None:
        nonlocal game, stack, in_movetext, skipped
        if len(stack) > 1:
            last = stack[-1][-1] if stack[-1] else None
            where = (last.line, last.column) if last else (game.line, 1)
            game.errors.append(PdnError("unclosed variation", *where))
        game.result = result
        games.append(game)
        game = PdnGame()
        stack = [game.moves]
        in_movetext = False
        skipped = 0

    for kind, chunk, line, column in _tokens(text):
        if kind == "error":
            game.errors.append(PdnError(chunk, line, column))
            continue
        if kind == "tag":
            if in_movetext:
                finish(_tag_result(game))  # a new game begins: the last one had no result
            if not game.tags and not game.moves:
                game.line = line
            tag = _TAG.match(chunk)
            assert tag is not None
            game.tags[tag.group(1)] = re.sub(r'\\([\\"])', r"\1", tag.group(2))
            continue
        if not in_movetext and not game.tags:
            game.line = line
        in_movetext = True
        if skipped and kind in ("open", "close"):
            skipped += 1 if kind == "open" else -1
            continue
        if skipped and not (kind == "word" and (chunk in RESULTS or chunk == "*")):
            continue  # only a result ends a skipped variation early (its game ends)
        current = stack[-1]
        if kind == "comment":
            body = chunk.strip()
            if current:
                current[-1].comments.append(body)
            elif len(stack) == 1:
                game.comment = body
            continue
        if kind == "nag":
            if current:
                current[-1].nags.append(chunk)
            continue
        if kind == "open":
            if len(stack) > max_depth:
                game.errors.append(
                    PdnError(f"variations nest at most {max_depth} deep", line, column)
                )
                skipped = 1
                continue
            if not current:
                game.errors.append(PdnError("a variation before any move", line, column))
                stack.append([])
                continue
            variation: list[Node] = []
            current[-1].variations.append(variation)
            stack.append(variation)
            continue
        if kind == "close":
            if len(stack) == 1:
                game.errors.append(PdnError("')' closes no variation", line, column))
            else:
                stack.pop()
            continue
        word = chunk
        if word in RESULTS or word == "*":
            finish(word)
            continue
        number = _MOVE_NUMBER.match(word)
        if number:
            word = word[number.end() :]
            column += number.end()
            if not word:
                continue
        glyph = _GLYPH.search(word)
        if glyph:
            word = word[: glyph.start()]
        if _MOVE.match(word):
            word = word.replace(":", "x")
        elif parse_forfeit(word) is None:
            game.errors.append(PdnError(f"{chunk!r} is not a move", line, column))
            continue
        node = Node(word, line, column)
        if glyph:
            node.nags.append(glyph.group(0))
        current.append(node)
    if in_movetext or game.tags:
        finish(_tag_result(game))
    return games


def _tag_result(game: PdnGame) -> str:
    """The result of a game whose movetext ends without one: its Result tag, else ``*``."""
    tag = game.tags.get("Result", "*")
    return tag if tag in RESULTS else "*"


_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]")


def _escape(value: str) -> str:
    """A tag value as written between its quotes: backslashes and quotes escaped, line
    breaks and other control characters (which PDN cannot escape) written as spaces."""
    return _CONTROL.sub(" ", value).replace("\\", "\\\\").replace('"', '\\"')


def _comment(text: str) -> str:
    """A comment as written, in braces: a brace that would end it early, or one that
    is never closed, is left out (PDN cannot escape braces; nested pairs are kept)."""
    unmatched: list[int] = []
    opened: list[int] = []
    for index, char in enumerate(text):
        if char == "{":
            opened.append(index)
        elif char == "}":
            if opened:
                opened.pop()
            else:
                unmatched.append(index)
    unmatched += opened
    if unmatched:
        drop = set(unmatched)
        text = "".join(char for index, char in enumerate(text) if index not in drop)
    return "{" + text + "}"


def _movetext(nodes: list[Node], first_ply: int, each: bool = False) -> list[str]:
    """``first_ply`` counts half moves from the first move of move pair 1 (the move of
    the variant's first player); with ``each`` (multi-player games) it counts moves, and
    every move has its number. Forfeits are not moves: they have no number."""
    words: list[str] = []
    ply = first_ply
    for index, node in enumerate(nodes):
        if parse_forfeit(node.text) is not None:
            words.append(node.text)
            words.extend(_comment(comment) for comment in node.comments)
            continue
        number = ply // 2 + 1
        if each:
            words.append(f"{ply + 1}.")
        elif ply % 2 == 0:
            words.append(f"{number}.")
        elif index == 0 or nodes[index - 1].comments or nodes[index - 1].variations:
            words.append(f"{number}...")
        words.append(node.text + "".join(n for n in node.nags if not n.startswith("$")))
        words.extend(n for n in node.nags if n.startswith("$"))
        words.extend(_comment(comment) for comment in node.comments)
        for variation in node.variations:
            inner = _movetext(variation, ply, each)
            words.append("(" + " ".join(inner) + ")")
        ply += 1
    return words


def _wrap(words: list[str], width: int = 79) -> str:
    lines, line = [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return "\n".join(lines)


def _players(game: PdnGame) -> int:
    """How many players the game's variant has (2 if its tags name no known variant)."""
    try:
        return game.variant().players
    except ValueError:
        return 2


def _second_half(game: PdnGame) -> bool:
    """Whether the game's first move is the second half of move pair 1: the side to move
    (FEN tag, else the variant's start) is not the variant's first player."""
    try:
        variant = game.variant()
    except ValueError:
        variant = None
    fen = game.tags.get("FEN") or (variant.start_fen if variant else "W")
    first = "B" if variant is not None and variant.first_player == 1 else "W"
    return not fen.strip().upper().startswith(first)


SEVEN_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
_FIRST_TAGS = (*SEVEN_TAGS[:4], *PLAYER_TAGS, "Result", "Ranking")
"""Tags written first, in this order: the seven of PDN, every player's name after Black."""


def dump_pdn(game: PdnGame) -> str:
    """A parsed game written back: tags, comments, variations and result kept.

    Raises ValueError for a tag name PDN cannot hold (see :func:`tag_name_problem`), or a
    result that is not one (:data:`RESULTS`, ``*``): either would change what the text says.
    """
    for name in game.tags:
        problem = tag_name_problem(name)
        if problem is not None:
            raise ValueError(problem)
    if game.result not in RESULTS and game.result != "*":
        raise ValueError(f"result {game.result[:16]!r} is not a PDN result")
    tags = dict(game.tags)
    tags["Result"] = game.result
    ordered = [t for t in _FIRST_TAGS if t in tags] + [t for t in tags if t not in _FIRST_TAGS]
    head = "\n".join(f'[{name} "{_escape(tags[name])}"]' for name in ordered)
    words = [_comment(game.comment)] if game.comment else []
    if _players(game) > 2:
        words += _movetext(game.moves, 0, each=True)
    else:
        words += _movetext(game.moves, 1 if _second_half(game) else 0)
    words.append(game.result)
    return f"{head}\n\n{_wrap(words)}\n"


def normalised(record: PdnGame, default: str | Variant = "international") -> PdnGame:
    """The game with every move, variations included, in the variant's own notation.

    Raises :class:`PdnError` for a broken game or an illegal move of the main line; a
    variation keeps its original text from its first illegal move on.
    """
    if record.errors:
        raise record.errors[0]
    game = record.replay(default)
    start = Board(game.variant, record.tags.get("FEN"))
    return PdnGame(
        tags=dict(record.tags),
        moves=_normalised_line(record.moves, start),
        result=record.result,
        comment=record.comment,
        line=record.line,
    )


def _normalised_line(nodes: list[Node], board: Board) -> list[Node]:
    board = board.copy()
    line, legal = [], True
    for node in nodes:
        copy = Node(node.text, node.line, node.column, list(node.comments), list(node.nags))
        copy.variations = [_normalised_line(variation, board) for variation in node.variations]
        forfeit = parse_forfeit(node.text)
        if legal:
            try:
                if forfeit is None:
                    copy.text = board.push(node.text).notation
                else:
                    board.eliminate(forfeit.player)
            except ValueError:
                legal = False
        line.append(copy)
    return line


def game_record(game: Game, tags: dict[str, str] | None = None) -> PdnGame:
    """The PDN record of a played game, in the variant's own notation."""
    variant = game.variant
    record = PdnGame(tags=dict(tags or {}))
    if variant.pdn_game_type is not None:
        record.tags.setdefault("GameType", str(variant.pdn_game_type))
    else:
        record.tags.setdefault("Variant", variant.name)
    if game.start_fen != Board(variant).fen:
        record.tags["FEN"] = game.start_fen
    record.moves = [
        Node(event.notation if isinstance(event, Move) else forfeit_text(event), 0, 0)
        for event in game.events
    ]
    record.result = game.result.pdn if game.result is not None else "*"
    if game.result is not None:
        record.tags.setdefault("Termination", game.result.reason)
        if variant.players > 2:
            record.tags["Ranking"] = game.result.ranking_text
    return record


def write_pdn(game: Game, tags: dict[str, str] | None = None) -> str:
    """A played game as PDN text."""
    return dump_pdn(game_record(game, tags))


__all__ = [
    "MAX_DEPTH",
    "MAX_TAG_NAME",
    "PLAYER_TAGS",
    "RESULTS",
    "Node",
    "PdnError",
    "PdnGame",
    "decode_pdn",
    "dump_pdn",
    "forfeit_text",
    "game_record",
    "normalised",
    "parse_forfeit",
    "parse_ranking",
    "read_pdn",
    "tag_name_problem",
    "write_pdn",
]
