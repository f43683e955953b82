"""Engine-versus-engine matches: Damier's engine at any level, or any engine that speaks Hub
(Scan's protocol) as a subprocess, with :mod:`damier.match` for the schedule (colours
alternate; with an opening deck each opening is played once with each colour) and
:class:`damier.game.Game` as referee.

An engine is named ``damier:LEVEL`` (the built-in engine) or by a command line, run as a
Hub engine (``python -m damier.cli hub``, ``dame hub``, ``scan hub``). An engine that
crashes, stalls or answers with an illegal move or garbage loses that game, with the
reason in the PDN ``Termination`` tag; a crashed Hub engine is started again for the next
game.

Games can be played several at a time (``concurrency``: each game its own pair of engines)
and a match can stop once a sequential test has decided (:mod:`.match_statistics`).
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date
from random import Random
from typing import Any

from damier.board import Move
from damier.game import Game, Result
from damier.match import GameSetup, Match, MatchFormat, OpeningDeck
from damier.notation.pdn import write_pdn
from damier.protocols.hub_client import EngineError, HubEngine, ProcessTransport
from damier.protocols.match_statistics import EloEstimate, Sprt, elo_estimate, pair_scores
from damier.rules import Variant, get_variant


@dataclass(frozen=True)
class Limits:
    """What an engine may spend on a move."""

    time: float | None = None
    """Seconds per move."""
    depth: int | None = None
    """Plies per move."""


class Player:
    """An engine in a match."""

    name: str

    def new_game(self, game: Game) -> None:
        """Get ready for a new game (``game`` holds its start and opening)."""

    def choose(self, game: Game, limits: Limits) -> Move:
        """The move to play in ``game``'s position; :class:`EngineError` if none comes."""
        raise NotImplementedError

    def close(self) -> None:
        """Free the engine."""


class DamierPlayer(Player):
    """Damier's engine at a level (1-10)."""

    def __init__(self, variant: Variant, level: int, name: str | None = None) -> None:
        from damier.engine import Engine

        self.name = name or f"damier:{level}"
        self.engine = Engine(variant, level=level)

    def new_game(self, game: Game) -> None:
        self.engine.new_game()

    def choose(self, game: Game, limits: Limits) -> Move:
        info = self.engine.search(game.board, time=limits.time, depth=limits.depth)
        if info.best_move is None:
            raise EngineError("found no move")
        return info.best_move


class HubPlayer(Player):
    """An engine run as a subprocess speaking Hub (:class:`HubEngine`), started again for
    the next game if it died in the last one."""

    def __init__(
        self,
        command: str,
        variant: Variant,
        name: str | None = None,
        start_timeout: float = 60.0,
        move_timeout: float | None = None,
        log: Callable[[str], None] | None = None,
    ) -> None:
        self.command = command
        self.variant = variant
        self.name = name or command
        self.start_timeout = start_timeout
        self.move_timeout = move_timeout
        self.log = log or (lambda line: None)
        self.engine = self._start()

    def _start(self) -> HubEngine:
        return HubEngine.popen(
            self.command,
            self.variant,
            self.start_timeout,
            lambda line: self.log(f"{self.name}: {line}"),
        )

    @property
    def alive(self) -> bool:
        return self.engine.transport.alive

    def new_game(self, game: Game) -> None:
        if not self.alive:
            self.log(f"{self.name}: starting it again")
            self.engine = self._start()
        self.engine.new_game()

    def choose(self, game: Game, limits: Limits) -> Move:
        if not self.alive:
            raise EngineError(self.engine.transport.death())
        try:
            info = self.engine.search(
                game.board, time=limits.time, depth=limits.depth, timeout=self.move_timeout
            )
        except EngineError:
            self._kill()
            raise
        assert info.best_move is not None
        return info.best_move

    def _kill(self) -> None:
        transport = self.engine.transport
        if isinstance(transport, ProcessTransport):
            transport.kill()

    def close(self) -> None:
        self.engine.quit()


def make_player(
    spec: str,
    variant: Variant,
    name: str | None = None,
    log: Callable[[str], None] | None = None,
) -> Player:
    """The engine a command-line spec names: ``damier:LEVEL`` or a Hub command."""
    if spec.startswith("damier:"):
        level = spec.partition(":")[2]
        if not level.isdigit() or not 1 <= int(level) <= 10:
            raise ValueError(f"engine {spec!r}: the level must be 1-10")
        return DamierPlayer(variant, int(level), name)
    if not spec.strip():
        raise ValueError("an engine command is empty")
    return HubPlayer(spec, variant, name, log=log)


# -- the match ---------------------------------------------------------------------


@dataclass
class GameRecord:
    """One finished game of a match."""

    number: int
    white: str
    black: str
    game: Game
    opening: tuple[str, ...]

    @property
    def result(self) -> Result:
        assert self.game.result is not None
        return self.game.result

    def pdn(self, event: str = "Damier engine match") -> str:
        tags = {
            "Event": event,
            "Date": date.today().strftime("%Y.%m.%d"),
            "Round": str(self.number + 1),
            "White": self.white,
            "Black": self.black,
        }
        if self.opening:
            tags["Opening"] = " ".join(self.opening)
        return write_pdn(self.game, tags)


@dataclass
class MatchReport:
    """A played match: its games (in the order of the schedule) and the score of the first
    engine."""

    players: tuple[str, str]
    games: list[GameRecord] = field(default_factory=list)
    paired: bool = False
    """Whether the games were played in pairs (one opening, each engine once with each
    colour): then the Elo interval and the SPRT go by pairs."""

    def add(self, record: GameRecord) -> None:
        """Take a finished game in its place (games played at once end in any order)."""
        self.games.append(record)
        self.games.sort(key=lambda game: game.number)

    def points(self, player: str) -> list[float]:
        """``player``'s points, game by game."""
        out = []
        for record in self.games:
            white, black = record.result.scores
            out.append(white if record.white == player else black)
        return out

    @property
    def scores(self) -> tuple[float, float]:
        return (sum(self.points(self.players[0])), sum(self.points(self.players[1])))

    def tally(self, player: str) -> tuple[int, int, int]:
        """Wins, draws, losses of ``player``."""
        points = self.points(player)
        return (points.count(1.0), points.count(0.5), points.count(0.0))

    def units(self) -> list[float]:
        """What the statistics count for the first engine: its points game by game, or,
        with pairs, the mean points of each pair both of whose games are over."""
        points = self.points(self.players[0])
        if not self.paired or not self.games:
            return points
        by_number: list[float | None] = [None] * (max(g.number for g in self.games) + 1)
        for record, point in zip(self.games, points, strict=True):
            by_number[record.number] = point
        return pair_scores(by_number)

    @property
    def elo(self) -> EloEstimate:
        """The first engine's Elo difference over the second."""
        points = self.points(self.players[0])
        return elo_estimate(points, self.units() if self.paired else None)

    def pdn(self) -> str:
        return "\n".join(record.pdn() for record in self.games)


def play_game(
    game: Game,
    white: Player,
    black: Player,
    limits: Limits,
    max_plies: int = 400,
) -> Game:
    """Play ``game`` to its end; an engine that fails loses."""
    players = (white, black)
    for side, player in enumerate(players):
        try:
            player.new_game(game)
        except EngineError as error:
            game.adjudicate(1 - side, f"{player.name} failed to start: {error}")
            return game
    while game.result is None:
        if game.ply >= max_plies:
            game.adjudicate(None, f"adjudicated a draw after {max_plies} plies")
            break
        side = game.turn
        player = players[side]
        try:
            move = player.choose(game, limits)
        except EngineError as error:
            game.adjudicate(1 - side, f"{player.name} {error}")
            break
        game.push(move)
    return game


def load_deck(name: str) -> OpeningDeck:
    """A deck by built-in name (``english-2move``) or from a file."""
    from pathlib import Path

    path = Path(name)
    if path.is_file():
        return OpeningDeck.parse(path.stem, path.read_text(encoding="utf-8"))
    return OpeningDeck.builtin(name)


def run_match(
    variant: str | Variant,
    engines: Sequence[str | Player],
    games: int,
    limits: Limits,
    deck: OpeningDeck | None = None,
    seed: int | None = None,
    max_plies: int = 400,
    on_game: Callable[[GameRecord, MatchReport], None] | None = None,
    log: Callable[[str], None] | None = None,
    concurrency: int = 1,
    sprt: Sprt | None = None,
) -> MatchReport:
    """Play ``games`` games between two engines (specs or players) and report.

    ``concurrency``: games played at once, each by a pair of engines of its own (engines
    given as specs). ``sprt``: stop once the test has decided (the games under way are
    played out and counted); ``games`` is then the most to play. The schedule (colours,
    openings) is the same whatever the concurrency."""
    rules = get_variant(variant)
    if len(engines) != 2:
        raise ValueError(f"a match needs two engines, not {len(engines)}")
    if games < 1:
        raise ValueError("a match needs at least one game")
    if concurrency < 1:
        raise ValueError("a match plays at least one game at a time")
    if concurrency > 1 and not all(isinstance(engine, str) for engine in engines):
        raise ValueError("games played at once need engines given as specs")
    if deck is not None and not deck.serves(rules):
        raise ValueError(f"the opening deck {deck.name!r} is for {deck.variant}, not {rules.name}")
    names: list[str] = []
    for engine in engines:
        name = engine if isinstance(engine, str) else engine.name
        names.append(name if name not in names else f"{name} #2")
    schedule = MatchFormat(
        games=games,
        opening_games=tuple(range(games)) if deck is not None else (),
        stop_when_decided=False,
    )
    setups = Match(rules, (names[0], names[1]), schedule, deck, Random(seed)).schedule()
    report = MatchReport((names[0], names[1]), paired=deck is not None)
    tables: list[dict[str, Player]] = []  # each concurrent game's two engines, by name
    try:
        for _ in range(min(concurrency, games)):
            table: dict[str, Player] = {}
            tables.append(table)
            for name, engine in zip(names, engines, strict=True):
                if isinstance(engine, str):
                    try:
                        table[name] = make_player(engine, rules, name, log=log)
                    except EngineError as error:
                        raise ValueError(f"engine {engine!r} does not start: {error}") from None
                else:
                    table[name] = engine
        _play_schedule(rules, setups, tables, limits, max_plies, report, on_game, sprt)
        return report
    finally:
        for table in tables:
            for player in table.values():
                if any(player is e for e in engines):
                    continue  # the caller's own players stay open
                player.close()


def _play_schedule(
    rules: Variant,
    setups: Sequence[GameSetup],
    tables: Sequence[dict[str, Player]],
    limits: Limits,
    max_plies: int,
    report: MatchReport,
    on_game: Callable[[GameRecord, MatchReport], None] | None,
    sprt: Sprt | None,
) -> None:
    """Play ``setups`` in order, one game at each table at a time, into ``report``. Once
    the test has decided, or a table failed, or the caller was interrupted, no new game
    starts (the games under way are played out)."""
    lock = threading.Lock()
    waiting = iter(setups)
    stop = threading.Event()

    def play_at(table: dict[str, Player]) -> None:
        while True:
            with lock:
                setup = None if stop.is_set() else next(waiting, None)
            if setup is None:
                return
            game = setup.start(rules)
            try:
                play_game(game, table[setup.white], table[setup.black], limits, max_plies)
            except BaseException:
                stop.set()
                raise
            record = GameRecord(setup.number, setup.white, setup.black, game, setup.opening)
            with lock:
                report.add(record)
                if on_game is not None:
                    on_game(record, report)
                if sprt is not None and sprt.verdict(report.units()) is not None:
                    stop.set()

    if len(tables) == 1:
        play_at(tables[0])
        return
    with ThreadPoolExecutor(len(tables), thread_name_prefix="damier-match") as pool:
        try:
            for done in [pool.submit(play_at, table) for table in tables]:
                done.result()
        except BaseException:
            stop.set()
            raise


# -- the command line ----------------------------------------------------------------


def progress_printer(
    total: int,
) -> tuple[Callable[[GameRecord, MatchReport], None], Callable[[], None]]:
    """A per-game progress callback (rich's bar when rich is installed, else a text bar)
    and the function that closes it."""
    try:
        rich_progress: Any = importlib.import_module("rich.progress")
    except ImportError:
        rich_progress = None

    def line(record: GameRecord, report: MatchReport) -> str:
        a, b = report.scores
        result = record.result
        return (
            f"game {record.number + 1}: {record.white} - {record.black} {result.pdn} "
            f"({result.reason}, {record.game.ply} plies)  score {a:g}-{b:g}"
        )

    if rich_progress is not None:
        bar = rich_progress.Progress()
        task = bar.add_task("match", total=total)
        bar.start()

        def on_rich(record: GameRecord, report: MatchReport) -> None:
            bar.console.print(line(record, report))
            bar.advance(task)

        return on_rich, bar.stop

    def on_text(record: GameRecord, report: MatchReport) -> None:
        done = len(report.games)
        filled = round(20 * done / total)
        print(
            f"[{'#' * filled}{'.' * (20 - filled)}] {done}/{total} {line(record, report)}",
            flush=True,
        )

    return on_text, lambda: None


def summary(report: MatchReport, sprt: Sprt | None = None) -> list[str]:
    """The closing lines: score, win/draw/loss, Elo estimate, and the test's verdict."""
    first, second = report.players
    a, b = report.scores
    wins, draws, losses = report.tally(first)
    lines = [
        f"score {first} - {second}: {a:g} - {b:g} (+{wins} ={draws} -{losses})",
        f"Elo difference {first} vs {second}: {report.elo}",
    ]
    if sprt is not None:
        lines.append(sprt.describe(report.units()))
    return lines
