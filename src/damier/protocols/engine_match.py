"""Engine-versus-engine matches: Damier's engine at any level, or any engine that speaks Hub
(Scan's protocol) as a subprocess, with :mod:`damier.match` for the schedule (colours
alternate; with an opening deck each opening is played once with each colour) and
:class:`damier.game.Game` as referee.

An engine is named ``damier:LEVEL`` (the built-in engine) or by a command line, run as a
Hub engine (``python -m damier.cli hub``, ``dame hub``, ``scan hub``). An engine that
crashes, stalls or answers with an illegal move or garbage loses that game, with the
reason in the PDN ``Termination`` tag; a crashed Hub engine is started again for the next
game.

>>> round(elo_difference(0.75))
191
>>> elo_difference(0.5)
0.0
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from random import Random
from typing import Any

from damier.board import Move
from damier.game import Game, Result
from damier.match import Match, MatchFormat, OpeningDeck
from damier.notation.pdn import write_pdn
from damier.protocols.hub_client import EngineError, HubEngine, ProcessTransport
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


# -- Elo ---------------------------------------------------------------------------


def elo_difference(score: float) -> float:
    """The Elo difference that predicts the score fraction ``score`` (logistic model)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score))


@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference and the half-width of its 95% confidence interval."""

    difference: float
    error: float
    games: int
    score: float

    def __str__(self) -> str:
        if not math.isfinite(self.difference):
            return f"{'+' if self.difference > 0 else '-'}inf (score {self.score:.1%})"
        error = f"{self.error:.0f}" if math.isfinite(self.error) else "inf"
        return f"{self.difference:+.0f} +/- {error} (95%, {self.games} games)"


def elo_estimate(points: Sequence[float]) -> EloEstimate:
    """The Elo difference from per-game points (1, 0.5, 0) and its 95% error, from the
    variance of the per-game score."""
    games = len(points)
    if games == 0:
        return EloEstimate(0.0, math.inf, 0, 0.5)
    mean = sum(points) / games
    variance = sum((p - mean) ** 2 for p in points) / games
    margin = 1.959964 * math.sqrt(variance / games)
    low, high = mean - margin, mean + margin
    if low <= 0.0 or high >= 1.0:
        error = math.inf
    else:
        error = (elo_difference(high) - elo_difference(low)) / 2
    return EloEstimate(elo_difference(mean), error, games, mean)


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
    """A played match: its games and the score of the first engine."""

    players: tuple[str, str]
    games: list[GameRecord] = field(default_factory=list)

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

    @property
    def elo(self) -> EloEstimate:
        """The first engine's Elo difference over the second."""
        return elo_estimate(self.points(self.players[0]))

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
) -> MatchReport:
    """Play ``games`` games between two engines (specs or players) and report."""
    rules = get_variant(variant)
    if len(engines) != 2:
        raise ValueError(f"a match needs two engines, not {len(engines)}")
    if games < 1:
        raise ValueError("a match needs at least one game")
    if deck is not None and not deck.serves(rules):
        raise ValueError(f"the opening deck {deck.name!r} is for {deck.variant}, not {rules.name}")
    names: list[str] = []
    for engine in engines:
        name = engine if isinstance(engine, str) else engine.name
        names.append(name if name not in names else f"{name} #2")
    players: dict[str, Player] = {}
    try:
        for name, engine in zip(names, engines, strict=True):
            if isinstance(engine, str):
                try:
                    players[name] = make_player(engine, rules, name, log=log)
                except EngineError as error:
                    raise ValueError(f"engine {engine!r} does not start: {error}") from None
            else:
                players[name] = engine
        schedule = MatchFormat(
            games=games,
            opening_games=tuple(range(games)) if deck is not None else (),
            stop_when_decided=False,
        )
        match = Match(rules, (names[0], names[1]), schedule, deck, Random(seed))
        report = MatchReport((names[0], names[1]))
        while (setup := match.next_game()) is not None:
            game = setup.start(rules)
            play_game(game, players[setup.white], players[setup.black], limits, max_plies)
            assert game.result is not None
            match.record(setup, game.result)
            record = GameRecord(setup.number, setup.white, setup.black, game, setup.opening)
            report.games.append(record)
            if on_game is not None:
                on_game(record, report)
        return report
    finally:
        for player in players.values():
            if any(player is e for e in engines):
                continue  # the caller's own players stay open
            player.close()


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


def summary(report: MatchReport) -> list[str]:
    """The closing lines: score, win/draw/loss, Elo estimate."""
    first, second = report.players
    a, b = report.scores
    wins, draws, losses = report.tally(first)
    return [
        f"score {first} - {second}: {a:g} - {b:g} (+{wins} ={draws} -{losses})",
        f"Elo difference {first} vs {second}: {report.elo}",
    ]
