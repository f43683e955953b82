"""The opening book: its file, when the engine plays from it and when it searches, how a
book grows, and the shipped books checked entry by entry."""

from __future__ import annotations

import argparse
import re
from dataclasses import replace
from pathlib import Path

import pytest

from damier import Board
from damier.engine import Engine
from damier.engine.book import (
    Book,
    BookError,
    BookMove,
    BuildSettings,
    build,
    game_positions,
    load_book,
    shipped_book,
)
from damier.engine.book_command import add_commands, shipped_book_path
from damier.match import VARIANT_DECKS
from damier.notation.pdn import read_pdn
from damier.protocols.hub import HubEngine

START = "W:W31-50:B1-20"
TEXT = f"""# a hand-made book
# variant: international
{START} = 34-29 +5 d16, 32-28 +3 d16
W:W31-50:B1-19,24 = 99-98 +0 d3
"""


def test_a_book_reads_and_writes_its_file() -> None:
    book = Book.parse(TEXT)
    assert len(book) == 2
    assert book.positions[START] == (BookMove("34-29", 5, 16), BookMove("32-28", 3, 16))
    again = Book.parse(book.text(["made by hand"]))
    assert again.positions == book.positions
    assert "# made by hand" in book.text(["made by hand"])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (f"# variant: international\n{START} 34-29 +5 d16\n", "line 2: expected 'FEN ="),
        (f"# variant: international\n{START} = 34-29 +5 16\n", "line 2: expected a depth"),
        (f"# variant: international\n{START} = 34-29 five d16\n", "line 2"),
        (f"{START} = 34-29 +5 d16\n", "no '# variant: NAME' line"),
    ],
)
def test_a_broken_book_says_where(text: str, message: str) -> None:
    with pytest.raises(BookError, match=message):
        Book.parse(text, "my.txt")


def test_the_book_offers_only_legal_moves() -> None:
    book = Book.parse(TEXT)
    board = Board("international")
    assert [entry.move for _, entry in book.moves(board)] == ["34-29", "32-28"]
    board.push("31-27")  # not in the book
    assert book.moves(board) == []
    assert book.moves(Board("international", "W:W31-50:B1-19,24")) == []  # 99-98: illegal
    assert book.moves(Board("brazilian")) == []  # another variant


def test_the_full_engine_plays_from_the_book_when_timed() -> None:
    book = Book.parse(TEXT)
    board = Board("international")
    engine = Engine("international", table_megabytes=4, book=book)
    played = engine.search(board, time=5)
    assert played.book and played.best_move is not None
    assert (played.best_move.notation, played.score, played.depth) == ("34-29", 5, 16)
    lines = engine.search(board, time=5, multipv=3).lines
    assert [line.pv[0].notation for line in lines] == ["34-29", "32-28"]
    assert all(line.book for line in lines)
    # A search to a depth or a node count is an exact request: searched.
    assert not engine.search(board, depth=3).book
    assert not engine.search(board, nodes=5_000).book


def test_the_book_can_be_turned_off_and_weak_levels_have_none() -> None:
    board = Board("international")
    assert not Engine("international", table_megabytes=4, book=False).search(board, time=0.2).book
    weak = Engine("international", level=6, table_megabytes=4, book=Book.parse(TEXT))
    assert weak.book is None and not weak.search(board).book


def test_a_book_grows_from_its_seeds() -> None:
    seeds = [Board("international", "W:W31-50:B1-19,24")]
    settings = BuildSettings(plies=2, width=2, margin=1000, seconds=0.05, depth=4)
    heard: list[str] = []
    book = build("international", seeds, settings, lambda fen, moves, so_far: heard.append(fen))
    assert heard == list(book.positions)
    first = book.positions["W:W31-50:B1-19,24"]
    assert 1 <= len(first) <= 2 and first[0].score >= first[-1].score
    for fen, entries in book.positions.items():
        board = Board("international", fen)
        for entry in entries:
            board.parse_move(entry.move)  # legal, or this raises
    # Each kept move of the seed leads to a position of the book (its only move played).
    for entry in first:
        child = Board("international", "W:W31-50:B1-19,24")
        child.push(entry.move)
        while len(child.legal_moves) == 1:
            child.push(child.legal_moves[0])
        assert child.fen in book.positions
    # A book given to grow keeps what it had and searches only the new positions.
    more: list[str] = []
    build("international", seeds, settings, lambda fen, m, b: more.append(fen), book)
    assert more == []


def test_a_book_keeps_no_search_shallower_than_its_depth() -> None:
    seed = Board("international", "W:W31-50:B1-19,24")
    # A few milliseconds a position end shallow: each is searched on to the depth.
    settings = BuildSettings(plies=2, width=2, margin=1000, seconds=0.001, depth=5)
    book = build("international", [seed], settings)
    depths = {entry.depth for entries in book.positions.values() for entry in entries}
    assert depths and min(depths) >= 5
    # A book grown further to a greater depth searches again what it knew too shallowly.
    shallow = Book("international", {seed.fen: (BookMove("31-27", 0, 2),)})
    again: list[str] = []
    deeper = replace(settings, plies=1)
    grown = build("international", [seed], deeper, lambda fen, m, b: again.append(fen), shallow)
    assert again == [seed.fen] and min(e.depth for e in grown.positions[seed.fen]) >= 5


@pytest.mark.parametrize("variant", sorted(VARIANT_DECKS))  # every variant with a deck has one
def test_the_shipped_book_is_legal_and_best_first(variant: str) -> None:
    book = shipped_book(variant)
    assert book is not None and len(book) > 200
    # Built with a depth floor (its command is in the header) that every search met.
    text = shipped_book_path(variant).read_text(encoding="utf-8")
    floor = re.search(r"--depth (\d+)", text.split("# variant:")[0])
    assert floor is not None, "the book's header names no --depth"
    assert min(e.depth for es in book.positions.values() for e in es) >= int(floor[1])
    for fen, entries in book.positions.items():
        board = Board(variant, fen)
        assert board.legal_moves, fen
        for entry in entries:
            board.parse_move(entry.move)
        scores = [entry.score for entry in entries]
        assert scores == sorted(scores, reverse=True), fen


def test_the_hub_book_parameter() -> None:
    replies: list[str] = []
    hub = HubEngine(replies.append)
    hub.handle("hub")
    assert "param name=book value=true type=bool" in replies
    hub.handle("set-param name=book value=maybe")
    assert replies[-1].startswith("error") and "book" in replies[-1]
    hub.handle("set-param name=book value=false")
    hub.handle("init")
    assert hub.engine is not None and hub.engine.book is None


def test_the_book_command(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    add_commands(parser.add_subparsers())
    path = tmp_path / "book.txt"
    path.write_text(TEXT)
    args = parser.parse_args(["book", "show", "--book", str(path)])
    assert args.run(args) == 0
    assert capsys.readouterr().out.splitlines() == [
        "34-29 +0.05 (depth 16)",
        "32-28 +0.03 (depth 16)",
    ]
    args = parser.parse_args(["book", "show", "--book", str(path), "--moves", "31-27"])
    assert args.run(args) == 0
    assert "not in the book" in capsys.readouterr().out


@pytest.mark.parametrize(
    "settings",
    [{"plies": 0}, {"width": 0}, {"margin": -1}, {"seconds": 0}, {"seconds": 1e9}, {"depth": 0}],
)
def test_book_settings_out_of_range_are_refused(settings: dict[str, float]) -> None:
    with pytest.raises(ValueError, match="a book grows"):
        BuildSettings(**settings)  # type: ignore[arg-type]


GAMES = """[GameType "20"]

1. 32-28 19-23 2. 28x19 14x23 3. 37-32 *

[GameType "20"]

1. 32-28 17-21 2. 99-98 31-27 *

[GameType "25"]

1. 22-18 11-15 *
"""


def test_the_positions_games_reach() -> None:
    games = read_pdn(GAMES)

    def after(*moves: str) -> str:
        board = Board("international")
        for move in moves:
            board.push(move)
        return board.fen

    # Each position once, where the side to move has a choice (after 19-23 only 28x19
    # is legal); the second game stops at 99-98, the Russian game is not read.
    assert [board.fen for board in game_positions("international", games, plies=4)] == [
        after(),
        after("32-28"),
        after("32-28", "19-23", "28x19"),
        after("32-28", "17-21"),
    ]
    assert len(list(game_positions("international", games, plies=1))) == 1


def test_a_book_searches_the_positions_of_games_without_growing_from_them() -> None:
    line = list(game_positions("international", read_pdn(GAMES), plies=3))
    settings = BuildSettings(plies=2, width=2, margin=1000, seconds=0.01, depth=3)
    book = build("international", [], settings, lines=line)
    assert sorted(book.positions) == sorted(board.fen for board in line)


def test_the_book_command_reads_games(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    add_commands(parser.add_subparsers())
    games, output = tmp_path / "games.pdn", tmp_path / "book.txt"
    games.write_text(GAMES)
    words = "book build --variant russian --plies 1 --seconds 0.01 --depth 2 --game-plies 2"
    args = parser.parse_args([*words.split(), "--games", str(games), "--output", str(output)])
    args.run(args)  # the start, the 150 openings of the deck, and the game's position
    book = load_book(output)
    after = Board("russian")
    after.push("22-18")
    assert after.fen in book.positions
    assert "--game-plies 2 --games games.pdn" in output.read_text()
    assert "2 positions from the first 2 plies of 3 games" in capsys.readouterr().err
    missing = parser.parse_args(["book", "build", "--games", str(tmp_path / "none.pdn")])
    assert missing.run(missing) == 2
    assert "cannot read" in capsys.readouterr().err
