"""The ``damier egtb`` command: build, verify, count and probe endgame databases."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from damier.board import Board
from damier.egtb.probe import Tablebase, build, default_dir, describe_counts, verify
from damier.rules import get_variant


def _directory(args: argparse.Namespace) -> Path:
    return Path(args.dir) if args.dir else default_dir()


def _load(args: argparse.Namespace) -> Tablebase:
    base = Tablebase.load(args.variant, _directory(args))
    if base is None:
        raise ValueError(
            f"no {args.variant} database in {_directory(args)}: "
            f"run damier egtb build --variant {args.variant} --pieces 4"
        )
    return base


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
