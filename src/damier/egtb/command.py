"""The ``damier egtb`` command: build, list, verify, count and probe endgame databases."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from damier.board import Board
from damier.egtb.auto import building
from damier.egtb.probe import (
    UNREADABLE,
    Tablebase,
    build,
    database_spec,
    default_dir,
    describe_counts,
    file_problem,
    verify,
)
from damier.rules import get_variant


def _directory(args: argparse.Namespace) -> Path:
    return Path(args.dir) if args.dir else default_dir()


def _load(args: argparse.Namespace) -> Tablebase:
    database_spec(get_variant(args.variant))  # a variant that has none: say why, not "build"
    try:
        base = Tablebase.load(args.variant, _directory(args))
    except UNREADABLE as error:  # its fingerprint read, the rest damaged
        raise ValueError(f"a {args.variant} database in {_directory(args)}: {error}") from None
    if base is None:
        raise ValueError(
            f"no {args.variant} database in {_directory(args)}: "
            f"run damier egtb build --variant {args.variant} --pieces 4 "
            f"(damier egtb list shows the files there)"
        )
    return base


def _list(args: argparse.Namespace) -> int:
    """Every database file of the directory: its variant, pieces and size, and whether the
    engine reads it (the largest that fits its rules; a file built for other rules, older
    ones say, is passed over)."""
    directory = _directory(args)
    found = sorted(
        directory.glob("*-[2-5].npz") if directory.is_dir() else [],
        key=lambda path: (path.stem.rpartition("-")[0], -int(path.stem[-1])),
    )
    if not found:
        print(f"no endgame database in {directory}")
    read: set[str] = set()
    for path in found:  # a variant's largest first
        name, _, pieces = path.stem.rpartition("-")
        try:
            variant = get_variant(name)
        except ValueError:
            print(f"{path.name}: no variant {name!r}: passed over")
            continue
        problem = file_problem(variant, path)
        if problem is not None:
            state = f"{problem}: passed over"
        elif variant.name in read:
            state = "fits (a larger one is read)"
        else:
            state = "read by the engine"
            read.add(variant.name)
        if directory == default_dir() and building(variant):  # its lock is there
            state += "; a build is under way"
        size = path.stat().st_size
        print(f"{path.name}: {variant.title}, {pieces} pieces, {size:,} bytes, {state}")
    return 0


def _build(args: argparse.Namespace) -> int:
    def progress(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    report = build(args.variant, args.pieces, _directory(args), progress)
    base = Tablebase.read(get_variant(args.variant), report.path)
    for line in describe_counts(base):
        print(line)
    print(
        f"built and verified {report.path}: {report.positions:,} positions, "
        f"{report.seconds:.1f} s, {report.size:,} bytes"
    )
    return 0


def _verify(args: argparse.Namespace) -> int:
    base = _load(args)
    wrong = verify(base)
    if wrong:
        print(f"{wrong} positions disagree with their successors")
        return 1
    print(f"{args.variant} up to {base.pieces} pieces: every value agrees with its successors")
    return 0


def _counts(args: argparse.Namespace) -> int:
    for line in describe_counts(_load(args)):
        print(line)
    return 0


def _probe(args: argparse.Namespace) -> int:
    base = _load(args)
    print(base.value(Board(base.variant, args.fen)))
    return 0


def add_commands(commands: Any) -> None:
    """Add ``egtb`` and its subcommands to the command line's subparsers."""
    egtb = commands.add_parser("egtb", help="endgame databases: build, verify, probe")
    sub = egtb.add_subparsers(dest="egtb_command", required=True)

    def common(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--variant", default="international", help="variant name")
        parser.add_argument("--dir", default=None, help=f"databases directory ({default_dir()})")

    listing = sub.add_parser("list", help="the database files and whether the engine reads them")
    listing.add_argument("--dir", default=None, help=f"databases directory ({default_dir()})")
    listing.set_defaults(run=_list)
    build_parser = sub.add_parser("build", help="build and verify a database")
    common(build_parser)
    build_parser.add_argument("--pieces", type=int, default=4, help="up to this many pieces")
    build_parser.set_defaults(run=_build)
    verify_parser = sub.add_parser("verify", help="check every value against its successors")
    common(verify_parser)
    verify_parser.set_defaults(run=_verify)
    counts = sub.add_parser("counts", help="won, drawn and lost positions per material")
    common(counts)
    counts.set_defaults(run=_counts)
    probe = sub.add_parser("probe", help="win, draw or loss for the side to move")
    common(probe)
    probe.add_argument("--fen", required=True, help="the position")
    probe.set_defaults(run=_probe)
