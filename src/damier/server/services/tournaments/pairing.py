"""Pairing a tournament's round: round robin by Berger tables, Swiss by score groups.

Pure functions of plain data (player ids, scores, colour histories), free of HTTP and of
the database, so that the server's service and the tests share them.

>>> [[(p.white, p.black) for p in r] for r in berger_rounds(["a", "b", "c", "d"])]
[[('a', 'd'), ('b', 'c')], [('d', 'c'), ('a', 'b')], [('b', 'd'), ('c', 'a')]]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, field

import networkx as nx  # type: ignore[import-untyped]


@dataclass(frozen=True)
class Pairing:
    """One board of a round."""

    white: str
    """The player with White (with the bye when ``black`` is None)."""
    black: str | None
    """The player with Black; None for the bye."""

    @property
    def is_bye(self) -> bool:
        return self.black is None


# -- round robin ---------------------------------------------------------------------


def berger_rounds(players: Sequence[str], cycles: int = 1) -> list[list[Pairing]]:
    """Every round of a round robin by the Berger tables (FIDE Handbook C.05, annex 1):
    ``players`` in seed order are numbers 1..n; an odd field gets a bye where the missing
    last number would sit. A second cycle repeats the first with the colours reversed.

    Player n stays at board 1 (White in the even rounds); the others move on n/2 places
    (modulo n-1) each round, which gives the published tables."""
    if len(set(players)) != len(players):
        raise ValueError("a player appears twice")
    if len(players) < 2:
        raise ValueError("a round robin needs two players")
    if cycles not in (1, 2):
        raise ValueError("a round robin has one or two cycles")
    seats: list[str | None] = list(players)
    if len(seats) % 2:
        seats.append(None)
    n = len(seats)
    rest, shift = n - 1, n // 2
    first: list[list[Pairing]] = []
    for k in range(n - 1):

        def moved(number: int, k: int = k) -> str | None:
            return seats[(number - 1 + k * shift) % rest]

        boards = []
        mover, fixed = moved(1), seats[n - 1]
        boards.append((mover, fixed) if k % 2 == 0 else (fixed, mover))
        for table in range(1, n // 2):
            boards.append((moved(1 + table), moved(n - table)))
        first.append([_board(white, black) for white, black in boards])
    if cycles == 1:
        return first
    second = [[_reversed(p) for p in round_] for round_ in first]
    return first + second


def _board(white: str | None, black: str | None) -> Pairing:
    if white is None:
        assert black is not None
        return Pairing(black, None)
    return Pairing(white, black)


def _reversed(pairing: Pairing) -> Pairing:
    return pairing if pairing.black is None else Pairing(pairing.black, pairing.white)


# -- Swiss ---------------------------------------------------------------------------


@dataclass
class SwissPlayer:
    """What the Swiss pairing needs to know of a player."""

    id: str
    score: float
    """Points so far (a bye counted)."""
    opponents: Set[str] = field(default_factory=frozenset)
    """Everyone he has played (or been paired with)."""
    colours: Sequence[int] = ()
    """His colours so far, in order: 0 White, 1 Black (a bye adds none)."""
    had_bye: bool = False

    @property
    def balance(self) -> int:
        """Whites minus Blacks."""
        return sum(1 if colour == 0 else -1 for colour in self.colours)

    def due(self) -> tuple[int | None, int]:
        """The colour he should have next and how strongly: 2 absolute (his balance is
        two away, or his last two games had the same colour), 1 strong (balance one away),
        0 mild (alternate), or None and 0 when he has not played."""
        if not self.colours:
            return None, 0
        balance = self.balance
        last_two = tuple(self.colours[-2:])
        if balance >= 2 or last_two == (0, 0):
            return 1, 2
        if balance <= -2 or last_two == (1, 1):
            return 0, 2
        if balance:
            return (1 if balance > 0 else 0), 1
        return 1 - self.colours[-1], 0


# The weights, one order of magnitude apart per rule (rules listed by priority): the
# matching maximises the sum, so breaking a rule above costs more than any number of
# breaks below it in a field of up to a few dozen players.
_ABSOLUTE_COLOUR = 10**9
_SCORE = 10**5
_STRONG_COLOUR = 10**3
_ORDER = 1


def swiss_round(players: Sequence[SwissPlayer]) -> list[Pairing]:
    """Pair one Swiss round. ``players`` are those present, by rank at the start of the
    tournament (rating or order of entry); the result lists the boards from the top scores
    down, the bye (if any) last.

    The rules, by priority: nobody meets the same opponent twice and nobody gets a second
    bye (both broken only when no pairing keeps them, in a very small field with many
    rounds); the bye goes to the lowest scorer who has not had one (the lowest ranked among
    equals); no player's colour balance goes past two nor three same colours in a row;
    players meet others of their score group (the fewest and smallest score differences);
    each gets his due colour where possible; within a score group, the top half meets the
    bottom half in order (the Dutch system)."""
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids):
        raise ValueError("a player appears twice")
    if len(players) < 2:
        return [Pairing(p.id, None) for p in players]
    rank = {p.id: index for index, p in enumerate(players)}
    by_id = {p.id: p for p in players}
    for strict in (True, False):
        bye = None
        field_ = list(players)
        if len(players) % 2:
            bye = _bye(players, rank, strict)
            if bye is None:
                continue
            field_ = [p for p in players if p.id != bye.id]
        pairs = _match(field_, rank, strict)
        if pairs is None:
            continue
        boards = [_colours(by_id[a], by_id[b], rank) for a, b in pairs]
        boards.sort(key=lambda p: _board_order(p, by_id, rank))
        for number, board in enumerate(boards):  # newcomers: White alternates by board
            assert board.black is not None
            if not by_id[board.white].colours and not by_id[board.black].colours:
                higher, lower = sorted((board.white, board.black), key=rank.__getitem__)
                boards[number] = (
                    Pairing(higher, lower) if number % 2 == 0 else Pairing(lower, higher)
                )
        if bye is not None:
            boards.append(Pairing(bye.id, None))
        return boards
    raise AssertionError("a round can always be paired once rematches are allowed")


def _board_order(
    pairing: Pairing, by_id: Mapping[str, SwissPlayer], rank: Mapping[str, int]
) -> tuple[float, int]:
    assert pairing.black is not None
    white, black = by_id[pairing.white], by_id[pairing.black]
    return (-max(white.score, black.score), min(rank[white.id], rank[black.id]))


def _bye(
    players: Sequence[SwissPlayer], rank: Mapping[str, int], strict: bool
) -> SwissPlayer | None:
    """The player to get the bye: the lowest score, then the lowest rank, among those who
    have not had one and whose absence leaves a field that pairs without a rematch."""
    order = sorted(players, key=lambda p: (p.score, -rank[p.id]))
    for candidate in order:
        if strict and candidate.had_bye:
            continue
        rest = [p for p in players if p.id != candidate.id]
        if not strict or _perfect(rest):
            return candidate
    return None


def _perfect(players: Sequence[SwissPlayer]) -> bool:
    graph = nx.Graph()
    graph.add_nodes_from(p.id for p in players)
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            if b.id not in a.opponents:
                graph.add_edge(a.id, b.id)
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(players)


def _match(
    players: Sequence[SwissPlayer], rank: Mapping[str, int], strict: bool
) -> list[tuple[str, str]] | None:
    """The pairs of an even field that maximise the rules' weights; None when ``strict``
    and no pairing avoids a rematch."""
    groups: dict[float, list[SwissPlayer]] = {}
    for player in sorted(players, key=lambda p: (-p.score, rank[p.id])):
        groups.setdefault(player.score, []).append(player)
    place = {}  # a player's index in his score group, and the group's size
    for group in groups.values():
        for index, player in enumerate(group):
            place[player.id] = (index, len(group))
    graph = nx.Graph()
    graph.add_nodes_from(p.id for p in players)
    top = 0
    edges = []
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            rematch = b.id in a.opponents
            if rematch and strict:
                continue
            cost = _cost(a, b, place) + (10**12 if rematch else 0)
            edges.append((a.id, b.id, cost))
            top = max(top, cost)
    graph.add_weighted_edges_from((a, b, top + 1 - cost) for a, b, cost in edges)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != len(players):
        return None
    return [(a, b) if rank[a] < rank[b] else (b, a) for a, b in matching]


def _cost(a: SwissPlayer, b: SwissPlayer, place: Mapping[str, tuple[int, int]]) -> int:
    cost = 0
    (colour_a, strength_a), (colour_b, strength_b) = a.due(), b.due()
    if colour_a is not None and colour_a == colour_b:
        if strength_a == 2 and strength_b == 2:
            cost += _ABSOLUTE_COLOUR
        elif min(strength_a, strength_b) >= 1:
            cost += _STRONG_COLOUR
        else:
            cost += _STRONG_COLOUR // 10
    difference = round(2 * abs(a.score - b.score))
    cost += _SCORE * difference * difference
    if a.score == b.score:  # the Dutch system: 1 meets half+1, 2 meets half+2, ...
        (index_a, size), (index_b, _) = place[a.id], place[b.id]
        cost += _ORDER * abs(abs(index_a - index_b) - size // 2)
    return cost


def _colours(a: SwissPlayer, b: SwissPlayer, rank: Mapping[str, int]) -> Pairing:
    """Who of a pair has White: the one whose due colour it is; when both are due the same,
    the stronger claim, then the higher ranked, gets it (two newcomers: see the caller)."""
    (colour_a, strength_a), (colour_b, strength_b) = a.due(), b.due()
    if colour_a is None and colour_b is None:
        return Pairing(a.id, b.id) if rank[a.id] < rank[b.id] else Pairing(b.id, a.id)
    if colour_a != colour_b:
        if colour_a == 0 or colour_b == 1:
            return Pairing(a.id, b.id)
        return Pairing(b.id, a.id)
    # Both want the same colour: the stronger claim, then the higher rank, gets it.
    a_first = (strength_a, -rank[a.id]) > (strength_b, -rank[b.id])
    winner, other = (a, b) if a_first else (b, a)
    return Pairing(winner.id, other.id) if colour_a == 0 else Pairing(other.id, winner.id)


# -- arena ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ArenaPlayer:
    """A player of an arena waiting for a game."""

    id: str
    score: float
    last_opponent: str | None = None
    balance: int = 0
    """Whites minus Blacks so far."""


def arena_pairs(waiting: Sequence[ArenaPlayer]) -> list[Pairing]:
    """Pair the players waiting in an arena at once: as many as can be (one may be left to
    wait for the next), each with a score as close as possible to his own, never against
    his last opponent when someone else is there; the one with fewer Whites has White.

    >>> [(p.white, p.black) for p in arena_pairs([ArenaPlayer("a", 8), ArenaPlayer("b", 0),
    ...     ArenaPlayer("c", 7, balance=1), ArenaPlayer("d", 1)])]
    [('a', 'c'), ('d', 'b')]
    """
    if len({p.id for p in waiting}) != len(waiting):
        raise ValueError("a player appears twice")
    graph = nx.Graph()
    edges = []
    for i, a in enumerate(waiting):
        for b in waiting[i + 1 :]:
            difference = round(2 * abs(a.score - b.score))
            again = a.last_opponent == b.id or b.last_opponent == a.id
            edges.append((a.id, b.id, difference * difference + (10**6 if again else 0)))
    top = max((cost for _, _, cost in edges), default=0)
    graph.add_weighted_edges_from((a, b, top + 1 - cost) for a, b, cost in edges)
    by_id = {p.id: p for p in waiting}
    pairs = []
    for a, b in nx.max_weight_matching(graph, maxcardinality=True):
        first, second = sorted((by_id[a], by_id[b]), key=lambda p: (p.balance, -p.score, p.id))
        pairs.append(Pairing(first.id, second.id))
    pairs.sort(key=lambda p: -max(by_id[p.white].score, by_id[p.black or ""].score))
    return pairs
