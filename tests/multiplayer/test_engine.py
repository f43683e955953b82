"""The engine on multi-player boards: legal moves everywhere, the search's own turn logic
agreeing with :class:`Board`, tactics in small hand-made positions, and whole games."""

from __future__ import annotations

import random

import numpy as np
import pytest

from damier import Board
from damier.engine import Engine, Info, multiplayer
from damier.engine.levels import LEVELS, Level
from damier.engine.multiplayer import (
    ALGORITHMS,
    CAPACITY,
    DECIDED,
    DRAWN,
    MAXN,
    PARANOID,
    PLAYING,
    MultiplayerSearch,
    advance,
    rule_params,
)
from damier.engine.search import game_keys
from damier.kernel import layout as L
from damier.kernel.movegen import Scratch, make_move
from damier.kernel.tables import compile_tables
from damier.notation.fen import write_fen
from damier.rules import Variant, get_variant
from damier.rules.description import Leftovers
from damier.rules.multiplayer import MULTIPLAYER

BOARDS = [variant.name for variant in MULTIPLAYER]
OPTIONS = ("pass-when-blocked", "dead-pieces", "pieces-to-eliminator", "teams")
PASSED = -1
"""Marks, among the outcomes :func:`_check_turns` saw, a blocked player passing."""
TACTICS = Level(depth=6, nodes=300_000, seconds=10.0, noise=0)
"""Deep enough for the hand-made positions, bounded for a loaded machine."""


def _variants_with_options() -> list[str]:
    names = list(BOARDS)
    for variant in MULTIPLAYER:
        names += [
            f"{variant.name}+{option}"
            for option in OPTIONS
            if option in variant.option_names and (option != "teams" or variant.players > 2)
        ]
    return [*names, "tripad-giveaway", "radial6+teams-alternate", "radial4+teams+dead-pieces"]


def _mask(players: tuple[int, ...]) -> int:
    return sum(1 << p for p in players)


def _random_board(
    variant: Variant,
    rng: random.Random,
    sizes: tuple[int, ...] = (0, 1, 1, 2, 3),
    kings: float = 0.3,
) -> Board:
    """A sparse random position: a few men and kings per player (some players none), so
    that eliminations, blocked players and passes are frequent."""
    tables = compile_tables(variant)
    cells = len(tables.rays)
    players = variant.players
    while True:
        sq = np.zeros(cells, dtype=np.int8)
        free = list(range(cells))
        rng.shuffle(free)
        for player in range(players):
            for _ in range(rng.choice(sizes)):
                cell = free.pop()
                king = rng.random() < kings
                if not king and tables.counts[L.CROWN, player, cell]:
                    continue
                sq[cell] = 2 * player + (2 if king else 1)
        if variant.leftovers is Leftovers.DEAD and rng.random() < 0.5:
            sq[free.pop()] = 2 * players + 1
        owners = sorted({(int(c) - 1) // 2 for c in sq if c and (c - 1) // 2 < players})
        if len(owners) < 2:
            continue
        board = Board(variant, write_fen(variant, sq, rng.choice(owners)))
        if board.legal_moves:
            return board


def _check_turns(board: Board) -> set[int]:
    """Play every legal move on the board and with :func:`advance` on the raw arrays; they
    must agree on cells, players in, next player, his moves and the end of the game."""
    variant = board.variant
    tables = compile_tables(variant)
    maxc = int(tables.rules[L.R_MAXC])
    scratch = Scratch(len(tables.rays), maxc)
    buffer = np.zeros((CAPACITY, L.row_width(maxc)), dtype=np.int32)
    backup = np.zeros(len(tables.rays), dtype=np.int8)
    rows, legal = board._generate()
    seen = set()
    for index, move in enumerate(legal):
        sq = board.cells
        make_move(tables, sq, rows, index)
        played = sq.copy()
        player, left, count, modified, status = advance(
            tables,
            sq,
            board.turn,
            _mask(board.active_players),
            rule_params(variant),
            buffer,
            scratch.work,
            scratch.frames,
            backup,
        )
        after = board.copy()
        after.push(move)
        seen.add(status)
        if variant.players == 2:
            # A two-player board keeps the loser on the board with no move; the search
            # takes him out. The same game either way.
            assert (status == PLAYING) == (not after.is_game_over()), (board.fen, move)
            if status == PLAYING:
                assert player == after.turn and np.array_equal(sq, after.cells)
            else:
                assert after.winner() == (1 - board.turn if variant.giveaway else board.turn)
            continue
        assert np.array_equal(sq, after.cells), (board.fen, move)
        assert left == _mask(after.active_players), (board.fen, move)
        if modified:
            assert np.array_equal(backup, played)
        else:
            assert np.array_equal(sq, played)
        if status == PLAYING:
            assert player == after.turn, (board.fen, move)
            order = after.active_players
            following = [p for p in order if p > board.turn] or list(order)
            if player != following[0]:
                seen.add(PASSED)
            assert count == len(after.legal_moves) or (count < 0 and len(after.legal_moves) > 0)
        elif status == DECIDED:
            assert after.is_game_over() and after.winner() is not None, (board.fen, move)
        else:
            assert status == DRAWN
            assert after.is_game_over() and after.winner() is None, (board.fen, move)
            assert player == after.turn
    return seen


@pytest.mark.parametrize("name", _variants_with_options())
def test_turns_agree_with_the_board(name: str) -> None:
    variant = get_variant(name)
    rng = random.Random(name)
    seen: set[int] = set()
    for _ in range(25):
        seen |= _check_turns(_random_board(variant, rng))
    # And along a game from the start, where positions are crowded.
    board = Board(variant)
    for _ in range(40):
        if board.is_game_over():
            break
        seen |= _check_turns(board)
        board.push(rng.choice(list(board.legal_moves)))
    assert PLAYING in seen


def test_turns_cover_passes_and_eliminations() -> None:
    """Over many random positions the comparison meets eliminations, not only quiet turns
    (blocked players, passes and ``DRAWN`` are rare in random positions: not required)."""
    seen: set[int] = set()
    rng = random.Random(7)
    for name in (
        "tripad+pass-when-blocked",
        "radial4+teams+pieces-to-eliminator",
        "hex3+pieces-to-eliminator",
    ):
        variant = get_variant(name)
        for _ in range(150):
            seen |= _check_turns(_random_board(variant, rng))
    assert {PLAYING, DECIDED} <= seen


BLOCKED_WHITE = "R:WBa2:BBa1,Bb2,Bc2,Ba3:RRd3"
"""Orthogonal tripad, Red to move: White's only man is walled in by Black's men. After
Red's move White passes, or goes out and his man leaves, dies or becomes Red's."""


@pytest.mark.parametrize(
    "option", ["", "+pass-when-blocked", "+dead-pieces", "+pieces-to-eliminator"]
)
def test_blocked_player(option: str) -> None:
    board = Board(f"tripad-orthogonal{option}", BLOCKED_WHITE)
    seen = _check_turns(board)
    assert seen == ({PLAYING, PASSED} if option == "+pass-when-blocked" else {PLAYING})
    board.push("Rd3-Rd4")
    assert board.turn == 1
    assert board.active_players == ((0, 1, 2) if option == "+pass-when-blocked" else (1, 2))


def test_pieces_handed_over_are_crowned_where_the_heir_crowns() -> None:
    """Black, walled in on his back row, goes out after White's move; his man becomes
    White's, on a row where White crowns: a king, in the search as on the board."""
    board = Board("tripad-orthogonal+pieces-to-eliminator", "W:WBa2,Ba3,KBb1,KBc1,Wc2:BBa1:RRd3")
    assert _check_turns(board) == {PLAYING}
    board.push("Wc2-Wc3")
    assert board.active_players == (0, 2) and board.piece_at("Ba1") == (0, True)


@pytest.fixture(scope="module")
def searchers() -> dict[tuple[str, str], MultiplayerSearch]:
    return {}


def _searcher(
    cache: dict[tuple[str, str], MultiplayerSearch], name: str, algorithm: str
) -> MultiplayerSearch:
    if (name, algorithm) not in cache:
        variant = get_variant(name)
        cache[(name, algorithm)] = MultiplayerSearch(
            variant, TACTICS, random.Random(1), 1, algorithm=algorithm
        )
    return cache[(name, algorithm)]


def _best(searcher: MultiplayerSearch, board: Board, depth: int) -> str:
    last = None
    for info in searcher.iterate(board, 10.0, depth, 10_000_000):
        last = info
    assert last is not None and last.best_move is not None
    return last.best_move.notation


@pytest.mark.parametrize("name", BOARDS)
def test_engine_plays_legal_moves_on_every_board(name: str) -> None:
    engine = Engine(name, level=1, seed=3)
    rng = random.Random(name)
    board = Board(name)
    for ply in range(12):
        if board.is_game_over():
            break
        result = engine.search(board)
        assert result.best_move in board.legal_moves
        # Alternate engine and random moves, to reach positions the engine would not.
        board.push(result.best_move if ply % 2 == 0 else rng.choice(list(board.legal_moves)))


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_legal_moves_in_random_positions(
    searchers: dict[tuple[str, str], MultiplayerSearch], algorithm: str
) -> None:
    rng = random.Random(algorithm)
    for name in ("tripad", "radial4+teams", "hex3-orthogonal+dead-pieces", "cross4"):
        searcher = _searcher(searchers, name, algorithm)
        for _ in range(10):
            board = _random_board(searcher.variant, rng)
            assert board.parse_move(_best(searcher, board, 3)) in board.legal_moves


# Small tripad positions, checked by a brute-force paranoid search on plain material.
AVOID_HANGING = "W:WWe3,Bc3,Rb4:BWb4,Ba3,Rf4:RBh4"
"""White's We3-Wd4 hangs two men; Bc3-Bd2 is the one move that keeps the material."""
AVOID_LOSS = "W:WWe3,Rb2:B:RRa1"
"""Black is out; White's We3-Wf4 walks into Red's capture of his last man."""


def _material(board: Board, player: int) -> int:
    cells = board.cells
    return int(np.sum(cells == 2 * player + 1) + 3 * np.sum(cells == 2 * player + 2))


def _brute_force(board: Board, depth: int, root: int) -> int:
    """Paranoid minimax on material by pushing and popping moves on the board."""
    if root not in board.active_players:
        return -100
    if board.is_game_over() and board.winner() == root:
        return 100
    if depth == 0 or board.is_game_over():
        others = sum(_material(board, q) for q in board.active_players if q != root)
        return _material(board, root) - others
    values = []
    for move in list(board.legal_moves):
        board.push(move)
        values.append(_brute_force(board, depth - 1, root))
        board.pop()
    return max(values) if board.turn == root else min(values)


@pytest.mark.parametrize(("fen", "bad"), [(AVOID_HANGING, "We3-Wd4"), (AVOID_LOSS, "We3-Wf4")])
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_hand_made_positions(
    searchers: dict[tuple[str, str], MultiplayerSearch],
    algorithm: str,
    fen: str,
    bad: str,
) -> None:
    board = Board("tripad", fen)
    scores = {}
    for move in list(board.legal_moves):
        board.push(move)
        scores[move.notation] = _brute_force(board, 3, 0)
        board.pop()
    best = max(scores.values())
    assert scores[bad] < best
    chosen = _best(_searcher(searchers, "tripad", algorithm), board, 4)
    assert chosen != bad
    assert scores[chosen] == best


FORCED_WINS = [
    ("W:WWg3,Bd4,Rd2:BRh4:RRg3", "Rd2-Re1"),
    ("W:WBh2,Ba3:BWb4:RBf4", "Bh2-Bg1"),
    ("W:WWh2,Rb2,Rf4,Rh4:BRa3:RBa3", "Rb2-Ra1"),
]
"""White wins (both opponents out) within four plies with this move only (by brute force)."""


@pytest.mark.parametrize(("fen", "winning"), FORCED_WINS)
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_finds_forced_win(
    searchers: dict[tuple[str, str], MultiplayerSearch], algorithm: str, fen: str, winning: str
) -> None:
    board = Board("tripad", fen)
    scores = {}
    for move in list(board.legal_moves):
        board.push(move)
        scores[move.notation] = _brute_force(board, 3, 0)
        board.pop()
    assert [m for m, s in scores.items() if s == 100] == [winning]
    searcher = _searcher(searchers, "tripad", algorithm)
    info = list(searcher.iterate(board, 10.0, 5, 10_000_000))[-1]
    assert info.best_move is not None and info.best_move.notation == winning
    if algorithm == PARANOID:
        assert info.mate is not None and info.mate > 0


def test_engine_level_bounds_and_stop() -> None:
    """Level 10 with a time limit returns within it; analyse yields deepening infos."""
    engine = Engine("radial4", level=10)
    infos = list(engine.analyse(Board("radial4"), time=0.3))
    assert infos and infos[-1].best_move in Board("radial4").legal_moves
    assert [i.depth for i in infos] == sorted(i.depth for i in infos)
    assert infos[-1].seconds < 2.0


def _play(name: str, algorithms: tuple[str, ...], seed: int, max_plies: int) -> Board:
    """One game between searchers at a fast level (one per seat, algorithms in turn)."""
    variant = get_variant(name)
    rng = random.Random(seed)
    seats = [
        MultiplayerSearch(variant, LEVELS[1], rng, 1, algorithm=algorithms[p % len(algorithms)])
        for p in range(variant.players)
    ]
    board = Board(variant)
    for _ in range(max_plies):
        if board.is_game_over():
            break
        info = list(seats[board.turn].iterate(board, 1.0, 2, 400))[-1]
        assert info.best_move in board.legal_moves
        board.push(info.best_move)
    return board


@pytest.mark.parametrize("name", ["tripad", "radial4+teams", "hex3-orthogonal"])
def test_engine_games_run(name: str) -> None:
    board = _play(name, ALGORITHMS, 1, 80)
    assert board.active_players


@pytest.mark.slow
@pytest.mark.parametrize("name", _variants_with_options())
def test_many_engine_games(name: str) -> None:
    """Engine against engine on every board and option, to the end (or a ply limit): every
    move legal (checked in ``_play``), and a game that ends has a winner or every player
    left blocked."""
    for seed in range(8):
        board = _play(name, (PARANOID, MAXN) if seed % 2 else (MAXN, PARANOID), seed, 600)
        if not board.is_game_over() or board.variant.players == 2:
            continue
        teams_left = {board.variant.team_of[p] for p in board.active_players}
        if board.winner() is not None:
            assert len(teams_left) == 1 or board.variant.giveaway
        else:
            assert len(teams_left) > 1 and not board.legal_moves


def test_quiet_rounds_are_counted_from_the_game() -> None:
    """The search starts from the game's quiet moves since its last capture or man move."""
    board = Board("tripad", "W:WKWg3,Wg1:BKBa1:RKWc1")
    assert game_keys(board)[1] == 0
    for _ in range(2):
        board.push(next(m for m in board.legal_moves if board.piece_at(m.from_square)[1]))
    assert game_keys(board)[1] == 2


def test_leader_avoids_the_quiet_rounds_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    """RULES.md 12.2: 25 rounds without a capture or a man's move draw. White, a king and a
    man against two kings, moves its king by choice; when the next quiet move would be the
    75th of three players, it moves its man instead and keeps its lead (a score above the
    draw's 0)."""
    board = Board("tripad", "W:WKWg3,Wg1:BKBa1:RKWc1")

    def search(quiet: int) -> Info:
        monkeypatch.setattr(multiplayer, "game_keys", lambda b: (game_keys(b)[0], quiet))
        return Engine("tripad", seed=1).search(board, depth=4)

    free, bound = search(0), search(74)
    assert free.best_move is not None and bound.best_move is not None
    assert board.piece_at(free.best_move.from_square) == (0, True)
    assert board.piece_at(bound.best_move.from_square) == (0, False)
    assert bound.score > 0
