"""Matches: a single game, N games with alternating colours and balanced random openings,
the Spanish four-game match, and the losing (giveaway) mode of any of them.

>>> import random
>>> deck = OpeningDeck.builtin("spanish-2move")
>>> match = Match("spanish", ("Ana", "Ben"), SPANISH_MATCH, deck, random.Random(1))
>>> first = match.next_game()
>>> first.white, first.black, first.opening
('Ana', 'Ben', ())
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources

from damier.game import Game, Result
from damier.rules import Variant, get_variant

VARIANT_DECKS = {
    "international": "international-2move",
    "english": "english-3move",
    "russian": "russian-3move",
    "brazilian": "brazilian-3move",
    "spanish": "spanish-2move",
    "italian": "italian-3move",
    "turkish": "turkish-2move",
    "frisian": "frisian-2move",
    "killer": "killer-2move",
    "portuguese": "portuguese-2move",
}
"""The balanced deck of each variant that has one: a match's pairs of games start from its
openings, and the trainer's self-play games too."""


@dataclass(frozen=True)
class OpeningDeck:
    """A list of openings (each a sequence of moves from the start) to draw from."""

    name: str
    variant: str
    openings: tuple[tuple[str, ...], ...]
    complete: bool = True
    """False while the deck is a stand-in (its file says why)."""
    note: str = ""
    labels: tuple[str, ...] = ()
    """Each opening's name in its source (``ACF 5 Dreaded Edinburgh``), or ``""``; empty
    when no opening of the deck has one."""

    def serves(self, variant: Variant) -> bool:
        """Whether the deck's openings start games of ``variant``: its own variant, or that
        variant's giveaway form (the same board and moves), as in a match's losing mode."""
        own = get_variant(self.variant)
        return variant in (own, own.as_giveaway())

    @classmethod
    def parse(cls, name: str, text: str) -> OpeningDeck:
        """A deck from its text: ``# variant: NAME``, ``# status: incomplete``, one opening a
        line, moves separated by spaces, optionally `` = `` and the opening's name,
        ``#`` comments."""
        variant, complete, notes = "", True, []
        openings: list[tuple[str, ...]] = []
        labels: list[str] = []
        for raw in text.splitlines():
            line = raw.strip()
            if line.startswith("#"):
                body = line.lstrip("#").strip()
                if body.startswith("variant:"):
                    variant = body.split(":", 1)[1].strip()
                elif body == "status: incomplete":
                    complete = False
                else:
                    notes.append(body)
            elif line:
                moves, _, label = line.partition(" = ")
                openings.append(tuple(moves.split()))
                labels.append(label.strip())
        if not variant:
            raise ValueError(f"opening deck {name!r} does not name its variant")
        if not openings:
            raise ValueError(f"opening deck {name!r} has no openings")
        named = tuple(labels) if any(labels) else ()
        return cls(name, variant, tuple(openings), complete, " ".join(notes), named)

    def label(self, opening: tuple[str, ...]) -> str:
        """The opening's name in the deck's source, or its moves when it has none."""
        if self.labels and opening in self.openings:
            return self.labels[self.openings.index(opening)] or " ".join(opening)
        return " ".join(opening)

    @staticmethod
    def builtin_names() -> list[str]:
        """The decks shipped with Damier (``data/openings/NAME.txt``): ``english-2move``
        (the 43 two-move ballots), ``english-3move`` (the ACF's 156 three-move ballots, by
        ACF number), ``brazilian-3move``, ``frisian-2move``, ``international-2move``,
        ``italian-3move``, ``russian-3move``, ``spanish-2move``, ``turkish-2move``."""
        folder = resources.files("damier") / "data" / "openings"
        return sorted(
            p.name.removesuffix(".txt") for p in folder.iterdir() if p.name.endswith(".txt")
        )

    @classmethod
    def builtin(cls, name: str) -> OpeningDeck:
        """A deck shipped with Damier, by name (see :meth:`builtin_names`)."""
        path = resources.files("damier") / "data" / "openings" / f"{name}.txt"
        if not path.is_file():
            known = ", ".join(cls.builtin_names())
            raise ValueError(f"no opening deck {name!r} (decks: {known})")
        return cls.parse(name, path.read_text(encoding="utf-8"))

    def draw(self, rng: random.Random) -> tuple[str, ...]:
        """One opening at random."""
        return rng.choice(self.openings)


@dataclass(frozen=True)
class MatchFormat:
    """How many games, which of them start from a drawn opening, and when a match ends."""

    games: int
    opening_games: tuple[int, ...] = ()
    """Games (counted from 0) that start from an opening drawn from the deck; two such
    games in a row share one opening, played once with each colour."""
    stop_when_decided: bool = True
    """End early when the leader can no longer be caught."""
    losing: bool = False
    """Play the giveaway form of the variant."""


SINGLE_GAME = MatchFormat(games=1)
SPANISH_MATCH = MatchFormat(games=4, opening_games=(2, 3))
"""RULES.md decision 4: 4 games, colours alternate, games 3 and 4 from one random opening."""


def balanced_match(games: int, losing: bool = False) -> MatchFormat:
    """``games`` games, every pair from a new random opening with colours swapped."""
    return MatchFormat(games=games, opening_games=tuple(range(games)), losing=losing)


@dataclass(frozen=True)
class GameSetup:
    """The next game of a match: who plays which colour and from which opening."""

    number: int
    white: str
    black: str
    opening: tuple[str, ...]

    def start(self, variant: str | Variant) -> Game:
        """A game with the opening moves already played."""
        game = Game(variant)
        for move in self.opening:
            game.push(move)
        return game


@dataclass
class Match:
    """A running match between two players (names), scored 1 / 0.5 / 0 per game."""

    variant_name: str | Variant
    players: tuple[str, str]
    format: MatchFormat = SINGLE_GAME
    deck: OpeningDeck | None = None
    rng: random.Random = field(default_factory=random.Random)
    results: list[tuple[GameSetup, Result]] = field(default_factory=list)
    """The games played, in order: a match is restored from them (a server's stored match)."""

    def __post_init__(self) -> None:
        if self.format.opening_games and self.deck is None:
            raise ValueError("this match format starts games from openings: give it a deck")

    @property
    def variant(self) -> Variant:
        """The variant played (its giveaway form in the losing mode)."""
        variant = get_variant(self.variant_name)
        return variant.as_giveaway() if self.format.losing else variant

    @property
    def scores(self) -> dict[str, float]:
        """Points of each player so far."""
        totals = dict.fromkeys(self.players, 0.0)
        for setup, result in self.results:
            white, black = result.scores
            totals[setup.white] += white
            totals[setup.black] += black
        return totals

    @property
    def finished(self) -> bool:
        """Whether every game is played, or the result can no longer change."""
        played = len(self.results)
        if played >= self.format.games:
            return True
        if not self.format.stop_when_decided:
            return False
        first, second = (self.scores[p] for p in self.players)
        return abs(first - second) > self.format.games - played

    @property
    def winner(self) -> str | None:
        """The player with more points once the match is finished (None: tied or running)."""
        if not self.finished:
            return None
        first, second = (self.scores[p] for p in self.players)
        if first == second:
            return None
        return self.players[0] if first > second else self.players[1]

    def next_game(self) -> GameSetup | None:
        """The next game to play, or None when the match is over."""
        if self.finished:
            return None
        return self._setup(len(self.results), [setup for setup, _ in self.results])

    def schedule(self) -> list[GameSetup]:
        """Every game still to play, drawn now (the same games :meth:`next_game` would
        give one by one), so that they can be played at once; for a match played to its
        end, not one that stops once decided."""
        if self.format.stop_when_decided:
            raise ValueError("a match that stops once decided is played game by game")
        setups = [setup for setup, _ in self.results]
        while len(setups) < self.format.games:
            setups.append(self._setup(len(setups), setups))
        return setups[len(self.results) :]

    def _setup(self, number: int, earlier: Sequence[GameSetup]) -> GameSetup:
        """Game ``number``, after the games ``earlier`` (the pair's first opening)."""
        white, black = self.players if number % 2 == 0 else self.players[::-1]
        opening: tuple[str, ...] = ()
        if number in self.format.opening_games:
            assert self.deck is not None
            index = self.format.opening_games.index(number)
            if index % 2 == 0:
                opening = self.deck.draw(self.rng)
            else:  # the second game of a pair: the first one's opening, colours swapped
                opening = earlier[self.format.opening_games[index - 1]].opening
        return GameSetup(number, white, black, opening)

    def record(self, setup: GameSetup, result: Result) -> None:
        """Record the result of the game ``setup`` described."""
        if setup.number != len(self.results):
            raise ValueError(f"game {setup.number + 1} is not the next game of the match")
        self.results.append((setup, result))
