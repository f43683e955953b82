"""Standings of a tournament: scores and the tie-breaks that order players on the same score.

The tie-breaks, as the FIDE handbook names them (C.02, 13):

* ``buchholz`` (Solkoff): the sum of the scores of the player's opponents;
* ``median-buchholz`` (truncated Buchholz): the same without the best and the worst of
  those scores (when there are more than two);
* ``sonneborn-berger``: the sum of the scores of the opponents, each weighted by the points
  the player took from that opponent;
* ``direct``: the points the player took from the others on his score.

Only games played over the board count in the tie-breaks: a bye or a win by an opponent's
absence adds its points to the score, not an opponent (the handbook's virtual opponent is
left out, for a rule a player can check by hand).

>>> results = [Result(1, "a", "b", 1.0, 0.0), Result(1, "c", None, 1.0, 0.0, played=False)]
>>> [(s.player, s.score, s.rank) for s in standings(["a", "b", "c"], results, SWISS_TIES)]
[('a', 1.0, 1), ('c', 1.0, 1), ('b', 0.0, 3)]
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

TieBreak = Literal["direct", "buchholz", "median-buchholz", "sonneborn-berger"]

TIE_BREAK_NAMES: dict[TieBreak, str] = {
    "direct": "Result between the tied players",
    "buchholz": "Buchholz (Solkoff)",
    "median-buchholz": "Median Buchholz (truncated)",
    "sonneborn-berger": "Sonneborn-Berger",
}
ROUND_ROBIN_TIES: tuple[TieBreak, ...] = ("direct", "sonneborn-berger", "buchholz")
"""A round robin: everyone met everyone, so who beat whom first, then whom one beat."""
SWISS_TIES: tuple[TieBreak, ...] = ("buchholz", "median-buchholz", "sonneborn-berger", "direct")
"""A Swiss: the strength of the opponents first."""


@dataclass(frozen=True)
class Result:
    """One game (or bye) scored."""

    round: int
    white: str
    black: str | None
    """None: ``white`` had a bye."""
    white_points: float
    black_points: float
    played: bool = True
    """False for a bye or a win by the opponent's absence (no game played)."""


@dataclass
class Standing:
    """One player's line."""

    player: str
    score: float = 0.0
    games: int = 0
    """Games played over the board."""
    wins: int = 0
    draws: int = 0
    losses: int = 0
    ties: dict[str, float] = field(default_factory=dict)
    """Each tie-break's value, by name."""
    rank: int = 0
    """From 1; players the score and every tie-break cannot part share a rank."""


def standings(
    players: Sequence[str], results: Sequence[Result], order: Sequence[TieBreak]
) -> list[Standing]:
    """The standings of ``players`` (in seed order, which parts players equal in all) after
    ``results``, ranked by score then by the tie-breaks of ``order``."""
    lines = {player: Standing(player) for player in players}
    met: dict[str, list[tuple[str, float]]] = defaultdict(list)  # opponent, points taken
    for result in results:
        sides = [(result.white, result.black, result.white_points)]
        if result.black is not None:
            sides.append((result.black, result.white, result.black_points))
        for player, opponent, points in sides:
            line = lines.setdefault(player, Standing(player))
            line.score += points
            if result.played and opponent is not None:
                line.games += 1
                met[player].append((opponent, points))
                other = result.black_points if player == result.white else result.white_points
                if points > other:
                    line.wins += 1
                elif points < other:
                    line.losses += 1
                else:
                    line.draws += 1
    scores = {player: line.score for player, line in lines.items()}
    for player, line in lines.items():
        opponents = sorted(scores[o] for o, _ in met[player])
        line.ties["buchholz"] = sum(opponents)
        line.ties["median-buchholz"] = sum(opponents[1:-1] if len(opponents) > 2 else opponents)
        line.ties["sonneborn-berger"] = sum(points * scores[o] for o, points in met[player])
        line.ties["direct"] = sum(
            points for o, points in met[player] if scores[o] == line.score and o != player
        )
    seed = {player: index for index, player in enumerate(lines)}

    def key(line: Standing) -> tuple[float, ...]:
        return (line.score, *(line.ties[name] for name in order))

    ranked = sorted(
        lines.values(), key=lambda line: (tuple(-v for v in key(line)), seed[line.player])
    )
    for index, line in enumerate(ranked):
        before = ranked[index - 1] if index else None
        line.rank = before.rank if before is not None and key(before) == key(line) else index + 1
    return ranked


def crosstable(results: Sequence[Result]) -> dict[str, dict[str, list[float]]]:
    """For each player, the points he took from each opponent, game by game in order."""
    table: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for result in sorted(results, key=lambda r: r.round):
        if result.black is None:
            continue
        table[result.white][result.black].append(result.white_points)
        table[result.black][result.white].append(result.black_points)
    return {player: dict(row) for player, row in table.items()}


ARENA_TIES: tuple[TieBreak, ...] = ()
"""An arena: players on the same points share the place."""


def arena_points(results: Sequence[float]) -> tuple[list[int], bool]:
    """An arena player's points for each of his games (``results``: 1, ½ or 0, in the
    order played) and whether he is on fire after them: 2 for a win, 1 for a draw; after
    two wins in a row every game counts double until one is not won.

    >>> arena_points([1, 1, 1, 0.5, 1, 0])
    ([2, 2, 4, 2, 2, 0], False)
    >>> arena_points([0.5, 1, 1])
    ([1, 2, 2], True)
    """
    points, streak = [], 0
    for result in results:
        base = 2 if result == 1 else 1 if result == 0.5 else 0
        points.append(base * 2 if streak >= 2 else base)
        streak = streak + 1 if result == 1 else 0
    return points, streak >= 2
