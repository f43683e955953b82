"""The ``damier puzzles`` command: build a puzzle file, verify one, or count them."""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from damier.engine.levels import LEVELS as ENGINE_LEVELS
from damier.puzzles.build import LEVELS, build
from damier.puzzles.finding import Criteria
from damier.puzzles.shipped import VARIANTS, read_puzzles, shipped, shipped_path
from damier.puzzles.verifying import verify_many
from damier.rules import get_variant


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def server_games(url: str, variant: str) -> list[tuple[str | None, list[str]]]:
    """The finished games of ``variant`` in the server's database at ``url``: (start FEN,
    moves) each."""
    import asyncio

    from sqlalchemy import select

    from damier.server.store.db import Database
    from damier.server.store.models import GameRow, MoveRow

    async def read() -> list[tuple[str | None, list[str]]]:
        database = Database(url)
        try:
            async with database.session() as session:
                rows = (
                    await session.execute(
                        select(GameRow.id, GameRow.start_fen).where(
                            GameRow.status == "finished",
                            GameRow.variant == variant,
                            GameRow.players == 2,
                        )
                    )
                ).all()
                games = []
                for game_id, start_fen in rows:
                    moves = await session.scalars(
                        select(MoveRow.notation)
                        .where(MoveRow.game_id == game_id)
                        .order_by(MoveRow.ply)
                    )
                    games.append((start_fen or None, list(moves.all())))
                return games
        finally:
            await database.engine.dispose()

    return asyncio.run(read())


def _levels(text: str) -> tuple[int, ...]:
    """``--levels 2,3,4``: engine levels that exist."""
    try:
        levels = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of levels: {text!r}") from None
    if not levels or any(level not in ENGINE_LEVELS for level in levels):
        raise argparse.ArgumentTypeError(f"levels are {min(ENGINE_LEVELS)}-{max(ENGINE_LEVELS)}")
    return levels


def _build(args: argparse.Namespace) -> int:
    variant = get_variant(args.variant).name
    if args.games is not None and args.games < 1:
        raise ValueError(f"--games {args.games}: give at least 1 game")
    if args.minutes is not None and not 0 < args.minutes <= 7 * 24 * 60:
        raise ValueError(f"--minutes {args.minutes}: give above 0, a week at most")
    recorded = server_games(args.database, variant) if args.database else None
    output = Path(args.output) if args.output else Path(f"{variant}.jsonl")
    criteria = Criteria(depth=args.depth)
    report = build(
        variant,
        output,
        games=args.games,
        minutes=args.minutes,
        pdn=args.pdn,
        recorded=recorded,
        seed=args.seed,
        levels=args.levels,
        criteria=criteria,
        report=_say,
    )
    themes = Counter(theme for puzzle in report.found for theme in puzzle.themes)
    print(
        f"{len(report.found)} new puzzles in {output} from {report.positions} positions "
        f"of {report.games} games ({report.candidates} examined) in {report.seconds:.0f} s"
    )
    for theme, count in sorted(themes.items()):
        print(f"  {theme}: {count}")
    return 0


def _verify(args: argparse.Namespace) -> int:
    variant = get_variant(args.variant).name
    path = Path(args.file) if args.file else shipped_path(variant)
    puzzles = [p for p in read_puzzles(path) if p.variant == variant]
    if args.sample is not None and args.sample < len(puzzles):
        puzzles = random.Random(args.seed).sample(puzzles, args.sample)
    wrong = 0
    verdicts = verify_many(puzzles, every_move=args.every_move, workers=args.workers)
    for puzzle, problems in verdicts:
        if problems:
            wrong += 1
            print(f"{puzzle.id}: {'; '.join(problems)}")
    print(f"{len(puzzles) - wrong} of {len(puzzles)} puzzles verified")
    return 1 if wrong else 0


def count_table(variants: tuple[str, ...] = VARIANTS) -> str:
    """A Markdown table of the shipped puzzles: how many each variant has, in all and by
    theme (a puzzle counts once under each of its themes).

    >>> count_table(("international",)).splitlines()[0].startswith("| variant | puzzles |")
    True
    """
    counts = {
        variant: Counter(t for p in shipped(variant) for t in p.themes) for variant in variants
    }
    themes = sorted(set().union(*counts.values()))
    lines = [
        "| variant | puzzles | " + " | ".join(themes) + " |",
        "|---|---:|" + "---:|" * len(themes),
    ]
    total = Counter[str]()
    for variant in variants:
        total.update(counts[variant])
        lines.append(
            f"| {get_variant(variant).title} | {len(shipped(variant))} | "
            + " | ".join(str(counts[variant][theme]) for theme in themes)
            + " |"
        )
    everything = sum(len(shipped(variant)) for variant in variants)
    lines.append(
        f"| all | {everything} | " + " | ".join(str(total[theme]) for theme in themes) + " |"
    )
    return "\n".join(lines)


def _count(_args: argparse.Namespace) -> int:
    print(count_table())
    return 0


def add_commands(commands: Any) -> None:
    """Add ``puzzles`` and its subcommands to the command line's subparsers."""
    puzzles = commands.add_parser("puzzles", help="find and check puzzles")
    sub = puzzles.add_subparsers(dest="puzzles_command", required=True)
    build_parser = sub.add_parser(
        "build", help="find puzzles in self-play games (or a PDN file) and append them to a file"
    )
    build_parser.add_argument("--variant", default="international")
    build_parser.add_argument("--games", type=int, default=None, help="self-play games, at most")
    build_parser.add_argument("--minutes", type=float, default=None, help="stop after this long")
    build_parser.add_argument("--pdn", default=None, help="read the games of this PDN file")
    build_parser.add_argument(
        "--database", default=None, help="read the finished games of a server's database (URL)"
    )
    build_parser.add_argument("--seed", type=int, default=None)
    build_parser.add_argument(
        "--levels",
        type=_levels,
        default=LEVELS,
        help="the self-play levels, comma-separated (default: 2,3,4,5,6)",
    )
    build_parser.add_argument(
        "--depth", type=int, default=Criteria.depth, help="plies of the deciding search"
    )
    build_parser.add_argument(
        "-o", "--output", default=None, help="the JSON-lines file (default: <variant>.jsonl)"
    )
    build_parser.set_defaults(run=_build)
    verify_parser = sub.add_parser("verify", help="check a puzzle file again")
    verify_parser.add_argument("--variant", default="international")
    verify_parser.add_argument("--file", default=None, help="default: the shipped file")
    verify_parser.add_argument("--sample", type=int, default=None, help="check this many")
    verify_parser.add_argument("--seed", type=int, default=None)
    verify_parser.add_argument(
        "--every-move", action="store_true", help="check each move of the solver too"
    )
    verify_parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="processes that share the work (default: one a core)",
    )
    verify_parser.set_defaults(run=_verify)
    count_parser = sub.add_parser(
        "count", help="the shipped puzzles by variant and theme (a Markdown table)"
    )
    count_parser.set_defaults(run=_count)
