"""The ``damier`` command line. Its output formats are stable: other tools read them."""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from damier import __version__
from damier.board import PLAYER_NAMES, Board
from damier.errors import FenError
from damier.geometry import HexGeometry, RadialGeometry, geometry_of
from damier.kernel.jit import watch_compilation
from damier.notation.pdn import (
    PLAYER_TAGS,
    PdnError,
    decode_pdn,
    dump_pdn,
    normalised,
    read_pdn,
)
from damier.rules import Variant, all_variants, get_variant
from damier.rules.multiplayer import MULTIPLAYER
from damier.rules.variants import UnknownVariantError

if TYPE_CHECKING:
    from damier.engine import Info


def _variant(args: argparse.Namespace) -> Variant:
    """The variant of a command: --variant-file wins over --variant."""
    if getattr(args, "variant_file", None):
        from damier.rules.variant_file import load_variant_file  # pydantic: only when needed

        return load_variant_file(args.variant_file)
    return get_variant(args.variant)


def _board(args: argparse.Namespace) -> Board:
    """The position of ``--fen`` (or the start), after the moves of ``--line``."""
    board = Board(_variant(args), fen=args.fen)
    for number, text in enumerate((getattr(args, "line", None) or "").split(), start=1):
        try:
            board.push(text)
        except ValueError as error:
            raise ValueError(f"--line: move {number} ({text}): {error}") from None
    return board


def _say(text: str) -> None:
    print(f"damier: {text}", file=sys.stderr, flush=True)


def _perft(args: argparse.Namespace) -> int:
    if args.depth < 1:
        raise ValueError(f"--depth must be at least 1, not {args.depth}")
    board = _board(args)
    # The counting code is compiled (or read from the cache) at its first call: do that
    # first, and report it as what it is, so that no depth's time includes it.
    began = time.perf_counter()
    with watch_compilation(lambda: _say("compiling the perft code (once: it is cached)")) as done:
        board.perft(1, args.duplicates)
        if args.divide:
            board.perft_divide(1, args.duplicates)
    ready = time.perf_counter() - began
    if done.count:
        print(f"compiled in {ready:.3f} s", file=sys.stderr)
    else:
        print(f"compiled code loaded in {ready:.3f} s", file=sys.stderr)
    started = time.perf_counter()
    for depth in range(1, args.depth + 1):
        began = time.perf_counter()
        if args.divide and depth == args.depth:
            rows = board.perft_divide(depth, args.duplicates)
            for move, count in rows:
                print(f"{move.notation} {count}")
            nodes = sum(count for _, count in rows)
        else:
            nodes = board.perft(depth, args.duplicates)
        elapsed = time.perf_counter() - began
        print(f"depth {depth} nodes {nodes}", flush=True)
        rate = nodes / elapsed if elapsed > 0 else float("inf")
        print(f"depth {depth}: {elapsed:.3f} s, {rate:,.0f} nodes/s", file=sys.stderr)
    print(f"total {time.perf_counter() - started:.3f} s", file=sys.stderr)
    return 0


def _moves(args: argparse.Namespace) -> int:
    board = _board(args)
    moves = board.legal_moves
    if not moves:
        # Silence would read as a list of moves: say why there is none, and fail.
        if args.json:
            print("[]")
        print(f"damier: no legal move: {_no_move_reason(board)}", file=sys.stderr)
        return 1
    if args.json:
        print(
            json.dumps(
                [
                    {"notation": m.notation, "path": list(m.path), "captured": list(m.captured)}
                    for m in moves
                ]
            )
        )
    else:
        for move in moves:
            print(move.notation)
    return 0


def _no_move_reason(board: Board) -> str:
    """Why the side to move has no move: nobody has a piece, he has none, or he is blocked."""
    cells = board.cells
    if not cells.any():
        return "the board is empty, nobody can move"
    mover = PLAYER_NAMES[board.turn]
    owned = (cells == 2 * board.turn + 1) | (cells == 2 * board.turn + 2)
    if not owned.any():
        return f"{mover} is to move and has no pieces"
    return f"{mover} is to move and every piece is blocked"


def _show(args: argparse.Namespace) -> int:
    board = _board(args)
    if args.svg or args.output:
        from damier.render.svg import svg

        picture = svg(board, size=args.size, flipped=args.flipped)
        if args.output:
            _write_text(args.output, picture)
        else:
            sys.stdout.write(picture)
        return 0
    print(board)
    print(f"    {board.fen}")
    return 0


def _describe(variant: Variant) -> tuple[str, ...]:
    board = f"{variant.width}x{variant.height} {variant.board.value}"
    first = "black" if variant.first_player else "white"
    kings = variant.king_range.value
    choice = ", ".join(c.value for c in variant.choice) or "free"
    return (variant.name, board, first, kings, choice, variant.promotion.value, variant.summary)


def _rules(args: argparse.Namespace) -> int:
    from damier.rules.explain import explain

    variant = _variant(args)
    print(variant.title)
    for paragraph in explain(variant):
        print()
        print(textwrap.fill(paragraph, width=88))
    return 0


def _variants_check(args: argparse.Namespace) -> int:
    """Every file is checked, the broken ones named on standard error (status 2 if any)."""
    from damier.rules.variant_file import load_variant_file

    broken = 0
    for path in args.files:
        try:
            variant = load_variant_file(path)
            board = Board(variant)
        except ValueError as error:
            broken += 1
            print(f"damier: error: {error}", file=sys.stderr)
            continue
        print(f"{path}: ok, variant {variant.name!r}: {variant.title}")
        print(
            f"    board {variant.width}x{variant.height} {variant.board.value}, "
            f"{sum(variant.pieces_per_player)} pieces, {len(board.legal_moves)} opening moves"
        )
    return 2 if broken else 0


def _describe_multiplayer(variant: Variant) -> tuple[str, ...]:
    geometry = geometry_of(variant)
    if isinstance(geometry, RadialGeometry):
        shape = f"radial: {variant.players} areas of 4x8, {32 * variant.players} cells"
    elif isinstance(geometry, HexGeometry):
        shape = f"hexagon of side 5, {geometry.cell_count} cells"
    else:
        cells = variant.width * variant.height - 4 * variant.corner**2
        shape = f"cross: {variant.width}x{variant.height} less corners, {cells} cells"
    return (
        variant.name,
        str(variant.players),
        shape,
        str(geometry.cell_count),
        str(variant.pieces_per_player[0]),
        variant.summary,
    )


TABLE_WIDTH = 100
"""Columns of the ``damier variants`` tables."""


def _wrap(cell: str, width: int) -> list[str]:
    return textwrap.wrap(cell, width, break_long_words=False, break_on_hyphens=False) or [""]


def _table(rows: list[tuple[str, ...]], width: int = TABLE_WIDTH) -> None:
    """Print ``rows`` (the first one names the columns) in at most ``width`` columns: the
    widest column is narrowed, one character at a time, until the table fits; a cell too
    long for its column goes on below, in the same column."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    floors = [max(len(word) for row in rows for word in row[i].split()) for i in range(len(widths))]
    while sum(widths) + 2 * (len(widths) - 1) > width:
        widest = max(range(len(widths)), key=lambda i: widths[i] - floors[i])
        if widths[widest] == floors[widest]:
            break  # no column can wrap further
        widths[widest] -= 1
    for row in rows:
        cells = [_wrap(cell, w) for cell, w in zip(row, widths, strict=True)]
        for line in itertools.zip_longest(*cells, fillvalue=""):
            print("  ".join(part.ljust(w) for part, w in zip(line, widths, strict=True)).rstrip())


def _variants(args: argparse.Namespace) -> int:
    if getattr(args, "variants_command", None) == "check":
        return _variants_check(args)
    multiplayer = {variant.name for variant in MULTIPLAYER}
    header = ("variant", "board", "first", "kings", "capture choice", "crowning", "summary")
    _table([header, *(_describe(v) for v in all_variants() if v.name not in multiplayer)])
    print("\nEvery variant also has a giveaway form: add -giveaway to its name.")
    print("\nMulti-player boards (turns go clockwise; the last player or team left wins):\n")
    columns = ("variant", "players", "board", "playable", "men each", "summary")
    _table([columns, *(_describe_multiplayer(v) for v in MULTIPLAYER)])
    print(
        "\nAdd one option to a multi-player board's name: +teams (opposite players are"
        " partners),\n+teams-alternate (6 or 8 players: two teams of alternate areas),"
        " +pass-when-blocked,\n+dead-pieces, +pieces-to-eliminator, +hub-opposite (radial),"
        " +english-rules (diagonal),\n+end-of-move-removal (orthogonal)."
    )
    return 0


def _read_file(path: str) -> str:
    """A PDN file's text (:func:`decode_pdn`: UTF-8, or the Windows programs' encoding)."""
    try:
        with open(path, "rb") as handle:
            return decode_pdn(handle.read())
    except OSError as error:
        raise ValueError(f"cannot read {path}: {error.strerror}") from None


def _pdn_check(args: argparse.Namespace) -> int:
    games = read_pdn(_read_file(args.file))
    broken = 0
    for number, record in enumerate(games, start=1):
        problems = [str(e) for e in record.errors]
        if not problems:
            try:
                game = record.replay(args.variant)
            except PdnError as error:
                problems.append(str(error))
            else:
                seats = PLAYER_TAGS[: game.variant.players]
                label = " - ".join(record.tags.get(tag, "?") for tag in seats)
                result = record.result
                if len(seats) > 2 and game.result is not None:
                    result = game.result.ranking_text
                print(
                    f"game {number} (line {record.line}): ok, {game.variant.name}, "
                    f"{game.ply} moves, {result}, {label}"
                )
        if problems:
            broken += 1
            for problem in problems:
                print(f"game {number} (line {record.line}): error: {problem}")
    print(f"{len(games)} games, {len(games) - broken} valid, {broken} with errors")
    return 1 if broken else 0


def _pdn_convert(args: argparse.Namespace) -> int:
    out = []
    failures = 0
    for record in read_pdn(_read_file(args.file)):
        try:
            out.append(dump_pdn(normalised(record, args.variant)))
        except PdnError as error:
            failures += 1
            print(f"skipped the game at line {record.line}: {error}", file=sys.stderr)
    text = "\n".join(out)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        sys.stdout.write(text)
    return 1 if failures else 0


def _pdn_annotate(args: argparse.Namespace) -> int:
    """Every game of a file with the engine's review (:func:`damier.review.annotate`)."""
    from damier.compiled import load_engine
    from damier.engine import Engine
    from damier.review import annotate

    def say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    records = read_pdn(_read_file(args.file))
    if args.output:  # a file that cannot be written is said before the searches, not after
        _write_text(args.output, "")
    engines: dict[str, Engine] = {}

    def search(board: Board) -> Info:
        name = board.variant.name
        if name not in engines:
            load_engine(name, say)
            engines[name] = Engine(board.variant, level=10)
        return engines[name].search(board, time=args.seconds, depth=args.depth)

    out, failures = [], 0
    for number, record in enumerate(records, start=1):
        where = f"game {number} (line {record.line})"
        started = time.perf_counter()
        try:
            if record.errors:
                raise record.errors[0]
            if record.variant(args.variant).players > 2:
                raise ValueError("a review is for two players' games")
            game = annotate(record, search, args.variant)
        except (PdnError, UnknownVariantError, ValueError) as error:
            failures += 1
            say(f"{where}: skipped: {error}")
            continue
        game.tags["Annotator"] = f"Damier {__version__}, {args.seconds:g} s a position"
        glyphs = [glyph for node in game.moves for glyph in node.nags]
        counts = ", ".join(
            f"{glyphs.count(glyph)} {name if glyphs.count(glyph) == 1 else plural}"
            for glyph, name, plural in (
                ("??", "blunder", "blunders"),
                ("?", "mistake", "mistakes"),
                ("?!", "inaccuracy", "inaccuracies"),
            )
        )
        say(f"{where}: {len(game.moves)} moves in {time.perf_counter() - started:.1f} s: {counts}")
        out.append(dump_pdn(game))
    if args.output:
        _write_text(args.output, "\n".join(out))
    else:
        sys.stdout.write("\n".join(out))
    return 1 if failures else 0


def _score_text(score: int, mate: int | None) -> str:
    from damier.engine.bitsearch import TABLEBASE_WIN

    if mate is not None:
        return f"win in {mate}" if mate > 0 else f"loss in {-mate}"
    if abs(score) > TABLEBASE_WIN // 2:  # an endgame database's verdict, not an evaluation
        return "database win" if score > 0 else "database loss"
    return f"{score / 100:+.2f}"


def _analyse(args: argparse.Namespace) -> int:
    from damier.engine import Engine

    board = _board(args)
    if not board.legal_moves:
        print("no legal move: the game is over")
        return 0
    engine = Engine(board.variant, level=args.level, book=args.book)
    time_limit = args.time if args.time is not None else (None if args.depth else 10.0)
    if args.multipv < 1:
        print("--multipv must be at least 1", file=sys.stderr)
        return 2
    for info in engine.analyse(board, time=time_limit, depth=args.depth, multipv=args.multipv):
        for number, line in enumerate(info.lines or (info,), 1):
            pv = " ".join(m.notation for m in line.pv)
            tag = f"multipv {number} " if args.multipv > 1 else ""
            tag += "book " if line.book else ""
            print(
                f"depth {line.depth} {tag}score {_score_text(line.score, line.mate)} "
                f"nodes {line.nodes} nps {line.nps} time {line.seconds:.2f} pv {pv}",
                flush=True,
            )
    return 0


def _hub(args: argparse.Namespace) -> int:
    from damier.protocols.hub import HUB_VARIANTS, run_hub

    variant = HUB_VARIANTS.get(args.variant, args.variant)
    return run_hub(variant, args.level, threads=args.threads, book=args.book)


def _bot(args: argparse.Namespace) -> int:
    """An engine on a Damier platform (:mod:`damier.protocols.bot`)."""
    import os

    try:
        import httpx
    except ImportError:
        raise ValueError("damier bot needs httpx: pip install 'damier[bot]'") from None
    from damier.play import parse_clock
    from damier.protocols.bot import Bot, BotError, Seek
    from damier.protocols.engine_match import make_player
    from damier.protocols.hub_client import EngineError

    variant = _variant(args)
    if variant.players != 2:
        raise ValueError(f"the bot plays games of two players, not {variant.name}'s")
    if parse_clock(args.clock) is None:  # (a clock the platform would refuse: said here, first)
        raise ValueError("the bot's games need a clock (5+3, 10, 30/move): none would wait")
    url = args.url.rstrip("/")
    if not url.startswith(("http://", "https://")):
        raise ValueError(f"{args.url!r}: give the platform's address, as http://127.0.0.1:8000")
    password = os.environ.get("DAMIER_BOT_PASSWORD")
    try:
        player = make_player(args.engine, variant, log=lambda line: print(line, file=sys.stderr))
    except EngineError as error:
        raise ValueError(str(error)) from None
    played = 0
    with httpx.Client(base_url=url, timeout=30.0) as client:
        bot = Bot(client, player, Seek(variant.name, args.clock), think=args.think)
        try:
            bot.sign_in(args.name, password, register=args.register)
            print(f"signed in to {url} as {args.name}", flush=True)
            while args.games == 0 or played < args.games:
                bot.play_game()
                played += 1
        except (BotError, EngineError) as error:
            raise ValueError(str(error)) from None
        except KeyboardInterrupt:
            if bot.game_id is not None:
                with contextlib.suppress(BotError):
                    bot.leave(bot.state())
            return 130
        finally:
            player.close()
    return 0


def _write_text(path: str, text: str, mode: str = "w") -> None:
    try:
        with open(path, mode, encoding="utf-8") as handle:
            handle.write(text)
    except OSError as error:
        raise ValueError(f"cannot write {path}: {error.strerror}") from None


def _dxp(args: argparse.Namespace) -> int:
    from damier.compiled import load_engine
    from damier.protocols import dxp

    def log(line: str) -> None:
        print(line, flush=True)

    def session_on(channel: dxp.Channel) -> dxp.DxpSession:
        return dxp.DxpSession(
            channel,
            level=args.level,
            seconds=args.time,
            book=args.book,
            threads=args.threads,
            log=log,
            peer_timeout=args.peer_timeout,
        )

    if args.fen is not None:  # a bad position is said before any connection is made
        Board(dxp.VARIANT, args.fen)
    if args.connect is not None:
        host, _, port = args.connect.rpartition(":")
        if not host or not port.isdigit() or not 1 <= int(port) <= 65535:
            raise ValueError(f"--connect wants HOST:PORT (a port of 1-65535), not {args.connect!r}")
    # The engine's compiled code, before any peer waits for a move (on a new machine it is
    # compiled: a minute or so).
    load_engine(dxp.VARIANT, log)
    played: list[dxp.DxpGame] = []
    try:
        if args.listen is not None:
            try:
                server = dxp.listen(args.host, args.listen)
            except OSError as error:  # an address of no interface here, a port taken
                raise ValueError(
                    f"cannot listen on {args.host}:{args.listen}: {error.strerror or error}"
                ) from None
            where = f"{args.host}:{server.getsockname()[1]}"
            print(f"waiting for a DXP Initiator on {where}", flush=True)
            try:
                sock, peer = server.accept()
            finally:
                server.close()
            print(f"connected: {peer[0]}:{peer[1]}", flush=True)
            session = session_on(dxp.Channel(sock))
            played.extend(session.serve_games())
        else:
            session = session_on(dxp.connect(host, int(port)))
            colour = 0 if args.colour == "white" else 1
            for number in range(args.games):
                last = number == args.games - 1
                try:
                    played.append(
                        session.request_game(colour, args.minutes, args.moves, args.fen, int(last))
                    )
                except ConnectionRefusedError as error:
                    print(f"game refused: {error}")
                    break
                if played[-1].peer_stops or session.channel.closed:
                    break
                colour = 1 - colour
        session.close()
    except dxp.ConnectionLostError as error:
        print(f"damier: error: {error}", file=sys.stderr)
        return 1
    finally:
        if args.pdn and played:
            _write_text(args.pdn, "\n".join(game.pdn() for game in played))
    for number, game in enumerate(played, start=1):
        result = game.result.pdn if game.result is not None else "*"
        tags = game.tags()
        print(f"game {number}: {tags['White']} - {tags['Black']} {result} ({game.reason})")
    return 0


def _match(args: argparse.Namespace) -> int:
    from damier.protocols.engine_match import (
        GameRecord,
        Limits,
        MatchReport,
        load_deck,
        progress_printer,
        run_match,
        summary,
    )
    from damier.protocols.match_statistics import Sprt

    if len(args.engine) != 2:
        raise ValueError("give exactly two --engine options")
    deck = load_deck(args.openings) if args.openings else None
    limits = Limits(time=args.time, depth=args.depth)
    if args.time is None and args.depth is None:
        limits = Limits(time=1.0)
    sprt = Sprt(*args.sprt) if args.sprt is not None else None
    show, close = progress_printer(args.games)
    if args.pdn:
        _write_text(args.pdn, "")  # a file that cannot be written is said before any game

    def on_game(record: GameRecord, report: MatchReport) -> None:
        show(record, report)
        if args.pdn:  # each game as it ends: an interrupted match keeps those played
            _write_text(args.pdn, record.pdn() + "\n", "a")

    try:
        report = run_match(
            _variant(args),
            args.engine,
            args.games,
            limits,
            deck,
            seed=args.seed,
            max_plies=args.max_plies,
            on_game=on_game,
            log=lambda line: print(line, file=sys.stderr, flush=True),
            concurrency=args.concurrency,
            sprt=sprt,
        )
    finally:
        close()
    for line in summary(report, sprt):
        print(line)
    if args.pdn:  # in the schedule's order
        _write_text(args.pdn, report.pdn())
    return 0


def _play(args: argparse.Namespace) -> int:
    from damier.play import parse_seats, play_in_terminal

    variant = _variant(args)
    computer = parse_seats(args.computer, variant.players) if args.computer else frozenset()
    return play_in_terminal(
        variant,
        args.fen,
        args.clock,
        args.pdn,
        computer=computer,
        level=args.level,
        think=args.think,
    )


def _compile(args: argparse.Namespace) -> int:
    from damier.compiled import build_cache

    began = time.perf_counter()
    done = build_cache(_say)
    seconds = time.perf_counter() - began
    if done.count:
        print(f"compiled in {seconds:.1f} s ({done.count} compilations), cached for every run")
    else:
        print(f"the cache was complete: loaded in {seconds:.1f} s")
    return 0


def _serve(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    try:
        from damier.server.serving import serve
    except ImportError as error:  # Damier installed without its server's packages
        raise ValueError(
            f"damier serve needs the server's packages ({error.name} is missing): "
            "pip install 'damier[server]'"
        ) from None
    from damier.server.settings import Settings, SettingsError

    try:
        settings = Settings()
    except ValidationError as error:  # a DAMIER_* variable of the wrong kind: name it
        reasons = (
            f"DAMIER_{'_'.join(map(str, problem['loc'])).upper()}={problem['input']!r}: "
            f"{problem['msg'].lower()}"
            for problem in error.errors()
        )
        raise ValueError("; ".join(reasons)) from None
    if args.database:
        settings = settings.model_copy(update={"database_url": args.database})
    if args.variants_dir:
        settings = settings.model_copy(update={"variants_dir": Path(args.variants_dir)})
    try:
        return serve(
            settings,
            workers=args.workers,
            host=args.host,
            port=args.port,
            log_level=args.log_level,
        )
    except SettingsError as error:
        raise ValueError(str(error)) from None


def counted(what: str, most: int, least: int = 1) -> Callable[[str], int]:
    """argparse's type for a number of ``what``, ``least`` to ``most``."""

    def count(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number of {what}: {text!r}") from None
        if not least <= number <= most:
            raise argparse.ArgumentTypeError(f"{number} is out of range: give {least}-{most}")
        return number

    return count


_workers = counted("processes", 64)
_plies = counted("plies", 100)
"""A search depth (the engine searches 120 plies at the most)."""
_level = counted("level", 10)


def _threads(text: str) -> int:
    """A number of search threads (argparse's type for ``--threads``)."""
    from damier.engine.levels import MAX_THREADS  # the engine: only for its commands

    return counted("threads", MAX_THREADS)(text)


def _port(text: str) -> int:
    """A TCP port number, 1-65535 (argparse's type for ``--port``)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port {port} is out of range: give 1-65535")
    return port


_WEEK = 7 * 24 * 3600


def _positive_seconds(text: str) -> float:
    """A number of seconds above nothing, a week at most (argparse's type for a search's
    time and ``--peer-timeout``: a NaN or a negative time would leave a search unbounded or
    unsearched, and a timer's or a socket's wait cannot be much longer)."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < seconds <= _WEEK:
        raise argparse.ArgumentTypeError(
            f"{text} s: give a number of seconds above 0, a week ({_WEEK}) at most"
        )
    return seconds


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``damier`` command."""
    parser = argparse.ArgumentParser(prog="damier", description="Draughts in every variant.")
    parser.add_argument("--version", action="version", version=f"damier {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    def position(sub: argparse.ArgumentParser, line: bool = True) -> None:
        sub.add_argument("--variant", default="international", help="variant name")
        sub.add_argument("--variant-file", default=None, help="a variant defined in TOML")
        sub.add_argument("--fen", default=None, help="position (default: the start)")
        if line:
            sub.add_argument("--line", default=None, help='moves played from it: "32-28 18-23"')

    perft = commands.add_parser("perft", help="count the legal-move tree")
    position(perft)
    perft.add_argument("--depth", type=int, required=True)
    perft.add_argument("--duplicates", choices=("drop", "keep"), default="drop")
    perft.add_argument("--divide", action="store_true", help="leaves per root move")
    perft.set_defaults(run=_perft)

    moves = commands.add_parser("moves", help="list the legal moves")
    position(moves)
    moves.add_argument("--json", action="store_true")
    moves.set_defaults(run=_moves)

    show = commands.add_parser("show", help="draw the board (as text, or an SVG picture)")
    position(show)
    show.add_argument("--svg", action="store_true", help="an SVG picture on standard output")
    show.add_argument("-o", "--output", help="write the SVG picture to this file")
    show.add_argument(
        "--size", type=counted("pixels", 10_000, 16), default=400, help="SVG width (400)"
    )
    show.add_argument("--flipped", action="store_true", help="SVG: Black at the bottom")
    show.set_defaults(run=_show)

    variants = commands.add_parser("variants", help="the variants and their main rules")
    variants.set_defaults(run=_variants)
    variants_commands = variants.add_subparsers(dest="variants_command")
    variants_check = variants_commands.add_parser("check", help="validate variant files")
    variants_check.add_argument("files", nargs="+", metavar="FILE")

    rules = commands.add_parser("rules", help="a variant's rules in plain words")
    rules.add_argument("--variant", default="international", help="variant name")
    rules.add_argument("--variant-file", default=None, help="a variant defined in TOML")
    rules.set_defaults(run=_rules)

    analyse = commands.add_parser("analyse", aliases=["analyze"], help="engine analysis")
    position(analyse)
    analyse.add_argument("--time", type=_positive_seconds, default=None, help="seconds")
    analyse.add_argument("--depth", type=_plies, default=None, help="plies")
    analyse.add_argument("--level", type=_level, default=10, help="1-10")
    analyse.add_argument("--multipv", type=int, default=1, help="best lines to show")
    analyse.add_argument(
        "--no-book", dest="book", action="store_false", help="search even a book position"
    )
    analyse.set_defaults(run=_analyse)

    hub = commands.add_parser("hub", help="speak the Hub engine protocol on stdin/stdout")
    hub.add_argument("--variant", default="international")
    hub.add_argument("--level", type=_level, default=10)
    hub.add_argument("--threads", type=_threads, default=1, help="search threads (Lazy SMP)")
    hub.add_argument("--no-book", dest="book", action="store_false", help="no opening book")
    hub.set_defaults(run=_hub)

    dxp = commands.add_parser("dxp", help="play international draughts over DXP (TCP)")
    role = dxp.add_mutually_exclusive_group(required=True)
    role.add_argument(
        "--listen", type=counted("port", 65535, 0), metavar="PORT", help="wait for an Initiator"
    )
    role.add_argument("--connect", metavar="HOST:PORT", help="ask a Follower for games")
    dxp.add_argument("--host", default="127.0.0.1", help="address to listen on")
    dxp.add_argument("--level", type=_level, default=10, help="1-10")
    dxp.add_argument("--time", type=_positive_seconds, default=None, help="seconds per move")
    dxp.add_argument("--threads", type=_threads, default=1, help="search threads (Lazy SMP)")
    dxp.add_argument("--no-book", dest="book", action="store_false", help="no opening book")
    dxp.add_argument(
        "--games", type=counted("games", 10**6), default=1, help="games to ask for (--connect)"
    )
    dxp.add_argument(
        "--minutes", type=counted("minutes", 999, 0), default=10, help="game time to ask for"
    )
    dxp.add_argument(
        "--moves", type=counted("moves", 999, 0), default=0, help="moves in that time (0: all)"
    )
    dxp.add_argument("--colour", choices=("white", "black"), default="white")
    dxp.add_argument("--fen", default=None, help="start position to ask for")
    dxp.add_argument("--pdn", default=None, help="write the games to this PDN file")
    dxp.add_argument(
        "--peer-timeout",
        type=_positive_seconds,
        default=600.0,
        help="seconds the peer may take for a move in a game without time (then it loses)",
    )
    dxp.set_defaults(run=_dxp)

    match = commands.add_parser("match", help="engine-versus-engine match")
    match.add_argument("--variant", default="international", help="variant name")
    match.add_argument("--variant-file", default=None, help="a variant defined in TOML")
    match.add_argument(
        "--engine",
        action="append",
        required=True,
        help="damier:LEVEL or a Hub engine command (give two)",
    )
    match.add_argument("--games", type=int, default=2)
    match.add_argument("--openings", default=None, help="opening deck: built-in name or file")
    limit = match.add_mutually_exclusive_group()
    limit.add_argument("--time", type=_positive_seconds, default=None, help="seconds per move")
    limit.add_argument("--depth", type=_plies, default=None, help="plies per move")
    match.add_argument(
        "--max-plies", type=counted("plies", 10**6), default=400, help="then adjudicate a draw"
    )
    match.add_argument("--seed", type=int, default=None, help="seed for the opening draw")
    match.add_argument("--pdn", default=None, help="write the games to this PDN file")
    match.add_argument(
        "--concurrency",
        type=counted("games", 64),
        default=1,
        help="games played at once, each by engines of its own",
    )
    match.add_argument(
        "--sprt",
        nargs=2,
        type=float,
        metavar=("ELO0", "ELO1"),
        default=None,
        help="stop once a sequential test (alpha = beta = 0.05) tells ELO0 from ELO1; "
        "--games is then the most to play",
    )
    match.set_defaults(run=_match)

    pdn = commands.add_parser("pdn", help="check or convert PDN files")
    pdn_commands = pdn.add_subparsers(dest="pdn_command", required=True)
    check = pdn_commands.add_parser("check", help="validate every game of a file")
    check.add_argument("file")
    check.add_argument("--variant", default="international", help="when no tag names it")
    check.set_defaults(run=_pdn_check)
    convert = pdn_commands.add_parser("convert", help="rewrite moves in standard notation")
    convert.add_argument("file")
    convert.add_argument("--variant", default="international", help="when no tag names it")
    convert.add_argument("-o", "--output", help="write here instead of standard output")
    convert.set_defaults(run=_pdn_convert)
    annotate = pdn_commands.add_parser(
        "annotate", help="the engine's review of every game: values, glyphs and better lines"
    )
    annotate.add_argument("file")
    annotate.add_argument("--variant", default="international", help="when no tag names it")
    annotate.add_argument("-o", "--output", help="write here instead of standard output")
    annotate.add_argument(
        "--seconds", type=_positive_seconds, default=0.5, help="search time a position (0.5)"
    )
    annotate.add_argument("--depth", type=_plies, default=30, help="deepest search a position")
    annotate.set_defaults(run=_pdn_annotate)

    from damier.play import THINK

    play = commands.add_parser(
        "play", help="play at the terminal: two players at one keyboard, or against the computer"
    )
    position(play, line=False)
    play.add_argument(
        "--computer",
        default=None,
        metavar="PLAYERS",
        help="the players the computer plays: black, white, white,black or all (on a "
        "multi-player board, its colours)",
    )
    play.add_argument("--level", type=_level, default=10, help="the computer's level, 1-10")
    play.add_argument(
        "--think",
        type=_positive_seconds,
        default=THINK,
        help=f"the most the computer thinks on a move, in seconds (default {THINK:g}; less "
        "when its clock runs short)",
    )
    play.add_argument(
        "--clock",
        default=None,
        help="5+3 (minutes + increment seconds), 10 (minutes), 30/move, 30/move+600 (elastic)",
    )
    play.add_argument("--pdn", default=None, help="save the game to this PDN file")
    play.set_defaults(run=_play)

    bot = commands.add_parser(
        "bot", help="an engine plays people on a Damier platform (damier serve), as a player"
    )
    bot.add_argument("url", help="the platform's address: http://127.0.0.1:8000")
    bot.add_argument(
        "--engine",
        default="damier:10",
        help="damier:LEVEL, or a Hub engine's command (default damier:10)",
    )
    bot.add_argument("--variant", default="international", help="variant name")
    bot.add_argument("--variant-file", default=None, help="a variant defined in TOML")
    bot.add_argument("--clock", default="5+3", help="the games' clock (default 5+3)")
    bot.add_argument("--name", default="Damier bot", help="the bot's player name")
    bot.add_argument(
        "--register",
        action="store_true",
        help="make the account if it is not there (the password: DAMIER_BOT_PASSWORD; "
        "without it the bot plays as a guest)",
    )
    bot.add_argument(
        "--games", type=counted("games", 100_000, 0), default=0, help="games (0: no end)"
    )
    bot.add_argument(
        "--think", type=_positive_seconds, default=10.0, help="the most seconds a move (10)"
    )
    bot.set_defaults(run=_bot)

    compile_ = commands.add_parser(
        "compile", help="build the compiled code's cache now (else: at the first use)"
    )
    compile_.set_defaults(run=_compile)

    serve = commands.add_parser("serve", help="run the web platform (API, WebSocket, UI)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=_port, default=8000)
    serve.add_argument("--database", default=None, help="SQLAlchemy URL (default: SQLite)")
    serve.add_argument("--variants-dir", default=None, help="a directory of variant files")
    serve.add_argument(
        "--workers",
        type=_workers,
        default=None,
        help="server processes on the port, sharing the games through DAMIER_REDIS_URL or a "
        "private Redis server (default: 1; one per core with DAMIER_REDIS_URL)",
    )
    serve.add_argument(
        "--log-level", default="info", choices=("critical", "error", "warning", "info", "debug")
    )
    serve.set_defaults(run=_serve)

    from damier.egtb.command import add_commands

    add_commands(commands)

    from damier.engine.book_command import add_commands as add_book_commands

    add_book_commands(commands)

    from damier.puzzles.command import add_commands as add_puzzle_commands

    add_puzzle_commands(commands)

    from damier.tournament_cli import add_commands as add_tournament_commands

    add_tournament_commands(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
    except (FenError, UnknownVariantError, ValueError) as error:
        print(f"damier: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except OSError as error:  # a file that is not there or may not be read, a port taken
        where = f": {error.filename}" if error.filename else ""
        print(f"damier: error: {error.strerror or error}{where}", file=sys.stderr)
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
