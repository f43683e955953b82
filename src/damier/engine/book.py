"""The opening book: positions Damier searched deeply once, so that it need not search them
again in a few tenths of a second.

A book is built by the engine itself (:func:`build`, ``damier book build``): from the start
and from each opening of the variant's decks, every position a few moves deep is searched
for some seconds, and at least to a depth, with several lines; the moves within a margin of
the best are kept, and the positions they lead to are searched in turn. The full engine
(level 10) plays a book move when the position is in the book and the search is bounded
by time only (a search to a given depth or node count is an exact request, and an analysis
without an end wants a search: both are searched); ``Engine(book=False)``, the Hub and DXP
``book`` parameters and ``damier analyse --no-book`` turn it off.

A book is a text file, one position a line, readable and diffable::

    W:W31-50:B1-20 = 32-28 +2 d16, 33-28 +1 d16

the position (FEN), then each kept move with its value for the side to move (hundredths of a
man) and the depth of its search, best first. Shipped books are ``data/books/VARIANT.txt``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from damier.board import Board, Move
from damier.errors import IllegalMoveError
from damier.match import OpeningDeck
from damier.notation.pdn import PdnGame
from damier.rules import get_variant

if TYPE_CHECKING:
    from damier.engine import Engine


@dataclass(frozen=True)
class BookMove:
    """One move the book keeps for a position."""

    move: str
    """Its notation."""
    score: int
    """Its value for the side to move, in hundredths of a man."""
    depth: int
    """The depth of the search that valued it."""

    def __str__(self) -> str:
        return f"{self.move} {self.score:+d} d{self.depth}"


class BookError(ValueError):
    """A book file that cannot be read."""


class Book:
    """A variant's opening book: positions (by FEN) and their kept moves, best first."""

    def __init__(self, variant: str, positions: dict[str, tuple[BookMove, ...]]) -> None:
        self.variant = get_variant(variant).name
        self.positions = positions

    def __len__(self) -> int:
        return len(self.positions)

    def __repr__(self) -> str:
        return f"<Book {self.variant}: {len(self)} positions>"

    def moves(self, board: Board) -> list[tuple[Move, BookMove]]:
        """The book's moves for ``board`` that are legal there, best first (none when the
        position is not in the book)."""
        if board.variant.name != self.variant:
            return []
        found = []
        for entry in self.positions.get(board.fen, ()):
            try:
                found.append((board.parse_move(entry.move), entry))
            except IllegalMoveError:  # a book made for other rules: ignore the entry
                continue
        return found

    @classmethod
    def parse(cls, text: str, source: str = "book") -> Book:
        """A book from its text (see the module's documentation); ``#`` starts a comment,
        ``# variant: NAME`` names the variant."""
        variant = ""
        positions: dict[str, tuple[BookMove, ...]] = {}
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if line.startswith("# variant:"):
                variant = line.partition(":")[2].strip()
            if not line or line.startswith("#"):
                continue
            fen, equals, rest = line.partition(" = ")
            try:
                if not equals:
                    raise ValueError("expected 'FEN = move score depth, ...'")
                positions[fen.strip()] = tuple(_book_move(part) for part in rest.split(","))
            except ValueError as error:
                raise BookError(f"{source}, line {number}: {error}") from None
        if not variant:
            raise BookError(f"{source}: no '# variant: NAME' line")
        return cls(variant, positions)

    def text(self, header: Iterable[str] = ()) -> str:
        """The book's file: ``header`` lines as comments, the variant, then one position
        a line (sorted, so that two builds compare line by line)."""
        lines = [f"# {line}" for line in header]
        lines.append(f"# variant: {self.variant}")
        for fen in sorted(self.positions):
            lines.append(f"{fen} = {', '.join(str(entry) for entry in self.positions[fen])}")
        return "\n".join(lines) + "\n"


def _book_move(text: str) -> BookMove:
    move, score, depth = text.split()
    if not depth.startswith("d"):
        raise ValueError(f"expected a depth like 'd16', not {depth!r}")
    return BookMove(move, int(score), int(depth[1:]))


@cache
def shipped_book(variant: str) -> Book | None:
    """The book shipped with Damier for ``variant`` (``data/books/VARIANT.txt``), or None."""
    path = resources.files("damier") / "data" / "books" / f"{get_variant(variant).name}.txt"
    if not path.is_file():
        return None
    return Book.parse(path.read_text(encoding="utf-8"), str(path))


def load_book(path: Path) -> Book:
    """A book from a file."""
    return Book.parse(path.read_text(encoding="utf-8"), str(path))


# -- building --------------------------------------------------------------------------


def seed_positions(variant: str) -> Iterator[Board]:
    """Where a book starts: the start position and the end of every opening of the
    variant's decks."""
    yield Board(variant)
    for name in OpeningDeck.builtin_names():
        deck = OpeningDeck.builtin(name)
        if get_variant(deck.variant).name != get_variant(variant).name:
            continue
        for opening in deck.openings:
            board = Board(variant)
            for move in opening:
                board.push(move)
            yield board


def game_positions(variant: str, games: Iterable[PdnGame], plies: int) -> Iterator[Board]:
    """The positions of the ``games`` of ``variant`` within their first ``plies`` plies,
    each once, where the side to move has a choice: the lines games really reach, which
    a book grown from the decks alone leaves after a few moves. Games of other variants
    are passed over; a game stops at its first move that does not replay."""
    name = get_variant(variant).name
    seen: set[str] = set()
    for game in games:
        try:
            if game.variant(name).name != name:
                continue
            board = Board(name, game.tags["FEN"]) if "FEN" in game.tags else Board(name)
        except ValueError:  # an unknown variant or a broken FEN: not this book's game
            continue
        for node in game.moves[:plies]:
            if len(board.legal_moves) > 1 and board.fen not in seen:
                seen.add(board.fen)
                yield board.copy()
            try:
                board.push(node.text)
            except ValueError:  # an illegal move or a forfeit: the game stops here
                break


@dataclass(frozen=True)
class BuildSettings:
    """How deep and how wide a book grows."""

    plies: int = 4
    """Moves searched from each seed position (an only legal move is not counted)."""
    width: int = 2
    """Lines searched at each position (multi-PV)."""
    margin: int = 12
    """Keep a line when its value is at most this far below the best (hundredths)."""
    seconds: float = 1.0
    """Search time per position."""
    depth: int = 14
    """The shallowest search the book keeps: a position whose timed search ends shallower
    (a slow machine, a busy one) is searched on to this depth, so that a book move never
    stands on a shallower search than the one it replaces in a game (at 0.1 s a move the
    full engine reaches depth 12-15 in International and the 8x8 games)."""

    def __post_init__(self) -> None:
        if (
            self.plies < 1
            or self.width < 1
            or self.margin < 0
            or not 0 < self.seconds <= 600
            or not 1 <= self.depth <= 40
        ):
            raise ValueError(
                "a book grows at least 1 ply, 1 line wide, a margin of 0 or more, "
                "0-600 seconds a position and a depth of 1-40"
            )


def build(
    variant: str,
    seeds: Iterable[Board],
    settings: BuildSettings,
    on_position: Callable[[str, tuple[BookMove, ...], Book], None] | None = None,
    book: Book | None = None,
    threads: int = 1,
    lines: Iterable[Board] = (),
) -> Book:
    """A book of ``variant`` grown from ``seeds`` by the full engine (without a book, on
    ``threads`` threads), breadth first, then the positions of ``lines`` (of games:
    :func:`game_positions`), each searched but not grown from, since its game goes on
    in the positions after it; the positions already in ``book`` are kept and not
    searched again unless their search was shallower than ``settings.depth``.
    ``on_position`` hears of each position searched, with the book so far."""
    from damier.engine import Engine

    engine = Engine(variant, book=False, threads=threads, table_megabytes=64)
    engine.search(Board(variant), depth=1, multipv=settings.width)  # its tables, untimed
    positions = {
        fen: entries
        for fen, entries in (book.positions.items() if book is not None else ())
        if min(entry.depth for entry in entries) >= settings.depth
    }
    queue: deque[tuple[Board, int]] = deque((seed, 0) for seed in seeds)
    queue.extend((board, settings.plies - 1) for board in lines)  # searched, not grown
    while queue:
        board, ply = queue.popleft()
        while len(board.legal_moves) == 1:  # an only move needs no book
            board = board.copy()
            board.push(board.legal_moves[0])
        if not board.legal_moves or board.is_game_over():
            continue
        fen = board.fen
        if fen not in positions:
            found = _search(engine, board, settings)
            if not found:  # no iteration finished in the time: nothing worth keeping
                continue
            positions[fen] = found
            if on_position is not None:
                on_position(fen, found, Book(variant, positions))
        if ply + 1 >= settings.plies:
            continue
        for entry in positions[fen]:
            child = board.copy()
            child.push(entry.move)
            queue.append((child, ply + 1))
    return Book(variant, positions)


def _search(engine: Engine, board: Board, settings: BuildSettings) -> tuple[BookMove, ...]:
    info = engine.search(board, time=settings.seconds, multipv=settings.width)
    if info.depth < settings.depth and info.mate is None:
        info = engine.search(board, depth=settings.depth, multipv=settings.width)
    lines = info.lines or (info,)
    return tuple(
        BookMove(line.pv[0].notation, line.score, line.depth)
        for line in lines
        if line.pv and line.depth > 0 and line.score >= info.score - settings.margin
    )
