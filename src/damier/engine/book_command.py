"""The ``damier book`` command: build a variant's opening book, or look a position up."""

from __future__ import annotations

import argparse
import datetime
import sys
import time
from importlib import resources
from pathlib import Path
from typing import Any

from damier.board import Board
from damier.cli import counted
from damier.engine.book import (
    Book,
    BookMove,
    BuildSettings,
    build,
    game_positions,
    load_book,
    seed_positions,
    shipped_book,
)
from damier.notation.pdn import PdnGame, decode_pdn, read_pdn
from damier.rules import get_variant

SAVE_EVERY = 25
"""Positions between two saves of a book being built: a build stopped halfway keeps its
work, and the next run goes on from it."""


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def shipped_book_path(variant: str) -> Path:
    """Where the book shipped for ``variant`` lives in the package."""
    return Path(str(resources.files("damier"))) / "data" / "books" / f"{variant}.txt"


def _build(args: argparse.Namespace) -> int:
    variant = get_variant(args.variant).name
    output = Path(args.output) if args.output else shipped_book_path(variant)
    settings = BuildSettings(args.plies, args.width, args.margin, args.seconds, args.depth)
    before = load_book(output) if output.is_file() and not args.fresh else None
    games: list[PdnGame] = []
    for name in args.games:
        try:
            games.extend(read_pdn(decode_pdn(Path(name).read_bytes())))
        except OSError as error:
            _say(f"cannot read {name}: {error.strerror or error}")
            return 2
    lines = list(game_positions(variant, games, args.game_plies))
    if args.games:
        _say(f"{len(lines)} positions from the first {args.game_plies} plies of {len(games)} games")
    command = (
        f"damier book build --variant {variant} --plies {settings.plies} --width "
        f"{settings.width} --margin {settings.margin} --seconds {settings.seconds} "
        f"--depth {settings.depth}"
    )
    if args.games:
        command += f" --game-plies {args.game_plies} " + " ".join(
            f"--games {Path(name).name}" for name in args.games
        )
    header = [
        f"Opening book of {get_variant(variant).title}, built by Damier's engine.",
        f"Made on {datetime.date.today().isoformat()}: {command}",
    ]
    started = time.perf_counter()
    searched = 0

    def progress(fen: str, moves: tuple[BookMove, ...], book: Book) -> None:
        nonlocal searched
        searched += 1
        elapsed = time.perf_counter() - started
        _say(f"[{elapsed:7.1f}s] {len(book):5d} {fen} = {', '.join(map(str, moves))}")
        if searched % SAVE_EVERY == 0:
            output.write_text(book.text(header), encoding="utf-8")

    output.parent.mkdir(parents=True, exist_ok=True)
    book = build(variant, seed_positions(variant), settings, progress, before, args.threads, lines)
    output.write_text(book.text(header), encoding="utf-8")
    elapsed = time.perf_counter() - started
    _say(f"{len(book)} positions ({searched} searched now) in {elapsed:.0f} s: {output}")
    return 0


def _show(args: argparse.Namespace) -> int:
    variant = get_variant(args.variant).name
    book = load_book(Path(args.book)) if args.book else shipped_book(variant)
    if book is None:
        _say(f"no opening book for {variant} (damier book build --variant {variant})")
        return 1
    board = Board(variant, args.fen) if args.fen else Board(variant)
    for text in args.moves.split():
        board.push(text)
    found = book.moves(board)
    if not found:
        print(f"{board.fen}: not in the book ({len(book)} positions)")
        return 0
    for _, entry in found:
        print(f"{entry.move} {entry.score / 100:+.2f} (depth {entry.depth})")
    return 0


def add_commands(commands: Any) -> None:
    """Add ``damier book build`` and ``damier book show`` to the command line."""
    book = commands.add_parser("book", help="the engine's opening book")
    actions = book.add_subparsers(dest="book_command", required=True)
    make = actions.add_parser("build", help="grow a variant's book by deep searches")
    make.add_argument("--variant", default="international")
    make.add_argument("--plies", type=int, default=BuildSettings.plies, help="depth in moves")
    make.add_argument("--width", type=int, default=BuildSettings.width, help="lines a position")
    make.add_argument(
        "--margin", type=int, default=BuildSettings.margin, help="hundredths below the best"
    )
    make.add_argument("--seconds", type=float, default=BuildSettings.seconds, help="a position")
    make.add_argument(
        "--depth", type=int, default=BuildSettings.depth, help="least depth of a kept search"
    )
    make.add_argument(
        "--games",
        action="append",
        default=[],
        metavar="PDN",
        help="also search the positions these games reach (repeatable)",
    )
    make.add_argument(
        "--game-plies", type=counted("plies", 400), default=20, help="how far into each game"
    )
    make.add_argument("--threads", type=int, default=1, help="search threads (with --width 1)")
    make.add_argument("--output", default=None, help="book file (default: the shipped one)")
    make.add_argument("--fresh", action="store_true", help="start anew, not from the file")
    make.set_defaults(run=_build)
    show = actions.add_parser("show", help="the book's moves for a position")
    show.add_argument("--variant", default="international")
    show.add_argument("--fen", default=None, help="position (default: the start)")
    show.add_argument("--moves", default="", help="moves played from it, space-separated")
    show.add_argument("--book", default=None, help="book file (default: the shipped one)")
    show.set_defaults(run=_show)
