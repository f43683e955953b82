"""The public position API: :class:`Board` and :class:`Move`, over the kernel's arrays.

>>> board = Board("international")
>>> len(board.legal_moves)
9
>>> board.push("32-28")
Move('32-28')
>>> board.fen
'B:W28,31,33-50:B1-20'
"""

from __future__ import annotations

import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from threading import get_ident
from typing import Any, overload

import numpy as np
import numpy.typing as npt

from damier.errors import AmbiguousMoveError, FenError, IllegalMoveError
from damier.geometry import Geometry, geometry_of
from damier.kernel import layout as L
from damier.kernel.bitboard import fast_perft
from damier.kernel.movegen import (
    Scratch,
    generate_packed,
    make_move,
    make_move_packed,
    position_hash_packed,
    unmake_move,
    unmake_move_packed,
)
from damier.kernel.perft import move_buffers, perft, perft_stack
from damier.kernel.tables import Tables, compile_tables, packed_tables
from damier.notation.fen import parse_fen, write_fen
from damier.notation.moves import public_names, split_move, square_name
from damier.render.text import render_board
from damier.rules import CountedKingMoves, Variant, get_variant
from damier.rules.description import PLAYER_NAMES as PLAYER_NAMES  # public here too
from damier.rules.description import Blocked, Leftovers

WHITE = 0
"""Player 0: moves up the board, named W in FEN."""
BLACK = 1
"""Player 1: moves down the board, named B in FEN."""

Square = int | str
"""A square as users name it: a number on numbered boards, ``"d4"`` on algebraic ones."""


@dataclass(frozen=True, slots=True)
class Move:
    """One legal move: where the piece goes, what it takes, and how it is written.

    Two moves are equal when they take the same path and capture the same pieces.
    """

    path: tuple[Square, ...]
    """Origin, every landing square of a capture, destination."""
    captured: tuple[Square, ...] = ()
    """Captured squares, in the order they were jumped."""
    crowns: bool = False
    """Whether the moving man becomes a king."""
    notation: str = field(default="", compare=False)
    """The shortest PDN text that names this move and no other legal one."""

    @property
    def from_square(self) -> Square:
        """The square the piece leaves."""
        return self.path[0]

    @property
    def to_square(self) -> Square:
        """The square the piece ends on."""
        return self.path[-1]

    @property
    def is_capture(self) -> bool:
        """Whether the move captures."""
        return bool(self.captured)

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        return f"Move({self.notation!r})"


_SET_MOVE_FIELDS = tuple(
    vars(Move)[name].__set__ for name in ("path", "captured", "crowns", "notation")
)


def _new_move(
    path: tuple[Square, ...], captured: tuple[Square, ...], crowns: bool, notation: str
) -> Move:
    """``Move(path, captured, crowns, notation)``, twice as fast: the fields are set through
    their slots, not through the frozen dataclass's ``__init__``."""
    move = object.__new__(Move)
    set_path, set_captured, set_crowns, set_notation = _SET_MOVE_FIELDS
    set_path(move, path)
    set_captured(move, captured)
    set_crowns(move, crowns)
    set_notation(move, notation)
    return move


class LegalMoves(Sequence[Move]):
    """The legal moves of a position, in generation order: a read-only sequence.

    It is lazy: ``len()`` and ``bool()`` read the kernel's count, and :class:`Move` objects
    are built only when a move is looked at.
    """

    __slots__ = ("_build", "_count", "_moves")

    def __init__(self, count: int, build: Callable[[], list[Move]]) -> None:
        self._count = count
        self._build = build
        self._moves: list[Move] | None = None

    def _list(self) -> list[Move]:
        if self._moves is None:
            self._moves = self._build()
        return self._moves

    @overload
    def __getitem__(self, index: int) -> Move: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Move]: ...
    def __getitem__(self, index: int | slice) -> Move | Sequence[Move]:
        return self._list()[index]

    def __len__(self) -> int:
        return self._count

    def __bool__(self) -> bool:
        return bool(self._count)  # (a NumPy integer without the compiler)

    def count(self, value: object = None) -> int:
        """The number of legal moves (or, given a move, 1 if it is legal)."""
        return self._count if value is None else int(value in self)

    def __iter__(self) -> Iterator[Move]:
        return iter(self._list())

    def __contains__(self, move: object) -> bool:
        return move in self._list()

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(m.notation for m in self._list())})>"


class _BoardMoves(LegalMoves):
    """A board's legal moves, whose rows may still lie in the thread's shared move buffer.

    ``len()`` needs no rows, so they are copied out of the buffer only when something asks
    for them (:meth:`rows`). The buffer's ``serial`` tells whether they are still there; if
    another generation has reused it since, they are generated again: the position is the
    same while the board keeps these moves, and before it drops them for a new position
    (``Board._forget_moves``) it gives them their rows if anyone else holds them.
    """

    __slots__ = ("_board", "_rows", "_serial", "_space")

    def __init__(
        self,
        board: Board,
        count: int,
        rows: npt.NDArray[np.int32] | None,
        space: _Workspace | None = None,
    ) -> None:
        self._count = count
        self._moves = None
        self._board = board
        self._rows = rows
        self._space = space
        self._serial = -1 if space is None else space.serial

    def rows(self, copy: bool = True) -> npt.NDArray[np.int32]:
        """The kernel's rows of these moves; without ``copy`` maybe a view of the shared
        buffer, valid until the thread's next generation."""
        rows = self._rows
        if rows is None:
            board, space = self._board, self._space
            if space is not None and space.serial == self._serial and space.thread == get_ident():
                rows = space.buffer[: self._count]
                if not copy:
                    return rows
                rows = rows.copy()
            else:
                rows = board._rows(dedupe=True)
            self._rows = rows
        return rows

    def _list(self) -> list[Move]:
        moves = self._moves
        if moves is None:
            moves = self._moves = self._board._describe(self.rows(copy=False))
        return moves


def _unheld_references() -> int:
    """What ``sys.getrefcount`` says of a local variable nobody else holds (as in
    ``Board._forget_moves``); -1 (so that every dropped list of moves is given its rows)
    unless an object held once more reads one more."""
    probe = object()
    alone = sys.getrefcount(probe)
    holder = [probe]
    held = sys.getrefcount(probe)
    del holder
    return alone if held == alone + 1 else -1


_UNHELD = _unheld_references()


_ELIMINATION = Move(path=(), notation="(eliminated)")
"""The history's place-holder for an elimination that no move made (resignation)."""


class _Workspace:
    """The kernel's work arrays for one board shape, shared by the boards of a thread."""

    serial = 0
    """Bumped by each generation into ``buffer``: the rows a board left there are still
    there while the serial is the one it saw."""

    def __init__(self, cells: int, max_captures: int) -> None:
        self.thread = get_ident()
        """The thread whose workspace this is."""
        self.scratch = Scratch(cells, max_captures)
        self.work, self.frames = self.scratch.work, self.scratch.frames
        self.buffer = np.zeros((128, L.row_width(max_captures)), dtype=np.int32)

    def grow(self) -> None:
        """Make the move buffer four times larger (a position with very many moves)."""
        self.buffer = np.zeros((4 * len(self.buffer), self.buffer.shape[1]), dtype=np.int32)


class _Workspaces(threading.local):
    spaces: dict[tuple[int, int], _Workspace]

    def __init__(self) -> None:
        self.spaces = {}


_WORKSPACES = _Workspaces()


def _workspace(cells: int, max_captures: int) -> _Workspace:
    """This thread's workspace for boards of this shape (generation is not re-entrant)."""
    spaces = _WORKSPACES.spaces
    key = (cells, max_captures)
    space = spaces.get(key)
    if space is None:
        space = spaces[key] = _Workspace(cells, max_captures)
    return space


class _Direct:
    """A kernel function called straight into its compiled code, past Numba's dispatcher.

    On every call the dispatcher works out the type of each argument to pick the compiled
    version that fits: ~0.5 us for the seven arguments of a move generation, as long as the
    generation itself. The Board always passes the same types (arrays it made itself, with
    fixed dtypes), so the version picked on the first call is kept and called directly
    (``overloads[types].entry_point``). That also skips the type check, so only pass
    arguments of the first call's types. Under ``NUMBA_DISABLE_JIT=1`` the function is plain
    Python and is called as it is.
    """

    __slots__ = ("call", "function")

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function
        self.call: Callable[..., Any] = self._first

    def _first(self, *args: object) -> Any:
        result = self.function(*args)
        overloads = getattr(self.function, "overloads", None)
        if overloads is not None:
            types = tuple(self.function.typeof_pyval(arg) for arg in args)  # type: ignore[attr-defined]
            self.call = overloads[types].entry_point
        return result


_GENERATE = _Direct(generate_packed)
_MAKE = _Direct(make_move_packed)
_UNMAKE = _Direct(unmake_move_packed)
_HASH = _Direct(position_hash_packed)


@dataclass(frozen=True, slots=True)
class _Undo:
    """What a multi-player ply changed besides the move: the position before it, and who
    was still playing."""

    cells: npt.NDArray[np.int8]
    turn: int
    active: tuple[int, ...]
    eliminated: tuple[int, ...]
    """Players this ply put out of the game (together: they share a place)."""


@cache
def _quiet_moves(geometry: Geometry) -> dict[int, Move]:
    """The quiet moves of a board geometry met so far, by the key the kernel writes in their
    rows (``layout.QUIET_KEY``; filled by ``Board._quiet_move``)."""
    return {}


def _check_perft(depth: int, duplicates: str) -> None:
    if duplicates not in ("drop", "keep"):
        raise ValueError("duplicates must be 'drop' or 'keep'")
    if depth < 0:
        raise ValueError("depth must be at least 0")


class Board:
    """A position of any variant, with the moves that led to it.

    ``Board(variant, fen=None)``: ``variant`` is a name (``"russian"``,
    ``"italian+dark-first"``, ``"spanish-giveaway"``) or a :class:`~damier.rules.Variant`;
    ``fen`` defaults to the variant's start position.
    """

    def __init__(self, variant: str | Variant = "international", fen: str | None = None) -> None:
        self.variant: Variant = get_variant(variant)
        """The rules this board plays by."""
        self.geometry: Geometry = geometry_of(self.variant)
        """Cells, names and lines of the board."""
        self._tables: Tables = compile_tables(self.variant)
        self._packed = packed_tables(self.variant)
        self._maxc = int(self._tables.rules[L.R_MAXC])
        self._shape = (self.geometry.cell_count, self._maxc)
        """The key of this board's workspace (see :func:`_workspace`)."""
        self._space: _Workspace | None = None
        """The workspace of the thread that generated last (kept to save the look-up)."""
        self._players = self.variant.players
        self._rows_wait = self._players == 2 and not self.variant.max_consecutive_king_moves
        """Whether the rows of the legal moves may wait in the shared buffer (no rule needs
        them at once: on multi-player boards the game may be decided, and Frisian's
        tired kings are taken out of them)."""
        self._history: list[tuple[npt.NDArray[np.int32], Move]] = []
        self._undo: list[_Undo | None] = []
        """Per history entry, what a multi-player ply needs to be taken back (else None)."""
        self._cache: _BoardMoves | None = None
        self._names = public_names(self.geometry)
        self._quiet = _quiet_moves(self.geometry)
        self._cells, self._turn = parse_fen(self.variant, fen or self.variant.start_fen)
        self._active = self._players_in(self._cells)

    # -- position ---------------------------------------------------------------------

    @property
    def turn(self) -> int:
        """The player to move: ``WHITE`` (0) or ``BLACK`` (1), or 2.. on multi-player boards."""
        return self._turn

    @property
    def active_players(self) -> tuple[int, ...]:
        """The players still in the game, in turn order (always both in a two-player game)."""
        return self._active

    def _players_in(self, cells: npt.NDArray[np.int8]) -> tuple[int, ...]:
        """The players in the game: both, in a two-player game; on multi-player boards,
        those with pieces (a player is out as soon as his last piece is taken)."""
        if self._players == 2:
            return (0, 1)
        owners = {(int(code) - 1) // 2 for code in cells if code}
        if self._turn not in owners:
            raise FenError(f"{PLAYER_NAMES[self._turn]} is to move but has no pieces")
        return tuple(p for p in range(self._players) if p in owners)

    @property
    def fen(self) -> str:
        """The position in PDN FEN, e.g. ``W:W31-50:B1-20``."""
        return write_fen(self.variant, self._cells, self._turn)

    def set_fen(self, fen: str) -> None:
        """Set up the position described by ``fen`` and forget the move history."""
        cells, turn = parse_fen(self.variant, fen)
        self._forget_moves()
        self._cells, self._turn = cells, turn
        self._active = self._players_in(self._cells)
        self._history.clear()
        self._undo.clear()

    @property
    def cells(self) -> npt.NDArray[np.int8]:
        """A copy of the kernel's cell array (piece codes, see :mod:`damier.kernel.layout`)."""
        return self._cells.copy()

    def piece_at(self, square: Square) -> tuple[int, bool] | None:
        """``(player, is_king)`` of the piece on ``square``, or None if it is empty."""
        code = int(self._cells[self.geometry.parse_square(str(square))])
        return None if code == 0 else ((code - 1) // 2, code % 2 == 0)

    def zobrist_hash(self) -> int:
        """A 64-bit hash of the pieces, the player to move and (multi-player boards) the
        players still in the game."""
        key = int(_HASH.call(self._packed, self._cells, self._turn))
        out_key = self._tables.zobrist[self.geometry.cell_count]
        for player in range(self._players):
            if player not in self._active:
                key ^= int(out_key[self._players + 1 + player])
        return key

    def copy(self) -> Board:
        """An independent board with the same position and history."""
        other = Board.__new__(Board)
        other.__dict__.update(self.__dict__)
        other._cells = self._cells.copy()
        other._history = list(self._history)
        other._undo = list(self._undo)
        other._cache = None  # cached moves know their board
        return other

    # -- moves ------------------------------------------------------------------------

    def _generate(self) -> tuple[npt.NDArray[np.int32], LegalMoves]:
        """The position's move rows and legal moves (cached until the position changes)."""
        legal = self._cache
        if legal is None:
            legal = self._new_moves()
        return legal.rows(), legal

    def _new_moves(self) -> _BoardMoves:
        """Generate the position's legal moves, and cache them."""
        if not self._rows_wait:
            rows = self._rows(dedupe=True)
            if self._players > 2 and self._decided():
                rows = rows[:0]
            legal = self._cache = _BoardMoves(self, len(rows), rows)
            return legal
        # The common case: the rows stay in the shared buffer until they are asked for.
        space = self._space
        if space is None or space.thread != get_ident():
            space = self._space = _workspace(*self._shape)
        space.serial += 1
        count: int = _GENERATE.call(
            self._packed, self._cells, self._turn, space.buffer, space.work, space.frames, True
        )
        if count < 0:
            count = self._fill(space, self._turn, True)
        legal = self._cache = _BoardMoves(self, count, None, space)
        return legal

    def _forget_moves(self) -> None:
        """Drop the cached moves: the position is about to change. (Moves whose rows still
        wait in the shared buffer could not be generated again once it has; if anyone
        else holds them they get their rows now.)"""
        legal = self._cache
        if legal is not None:
            self._cache = None
            if legal._rows is None and sys.getrefcount(legal) > _UNHELD:
                legal.rows()

    def _fill(self, space: _Workspace, player: int, dedupe: bool) -> int:
        """Generate the moves of ``player`` into ``space.buffer`` (grown as needed); return
        their number."""
        while True:
            space.serial += 1
            count: int = _GENERATE.call(
                self._packed, self._cells, player, space.buffer, space.work, space.frames, dedupe
            )
            if count >= 0:
                return count
            space.grow()

    def _rows(
        self, dedupe: bool, history_rules: bool = True, player: int | None = None
    ) -> npt.NDArray[np.int32]:
        """The kernel's move rows for the position (growing the buffer as needed), less the
        moves a rule on the move history forbids, unless ``history_rules`` is False (perft
        counts the position's own tree, which knows no history). ``player`` defaults to the
        player to move."""
        space = _WORKSPACES.spaces.get(self._shape) or _workspace(*self._shape)
        count = self._fill(space, self._turn if player is None else player, dedupe)
        rows = space.buffer[:count].copy()
        if history_rules and self.variant.max_consecutive_king_moves:
            rows = self._rest_tired_kings(rows)
        return rows

    def _rest_tired_kings(self, rows: npt.NDArray[np.int32]) -> npt.NDArray[np.int32]:
        """``rows`` without the quiet moves of a king that has made
        ``max_consecutive_king_moves`` of them in a row (Frisian). Captures stay legal.

        The count is read from this board's history: a board set up from a FEN (or
        ``set_fen``) starts at 0 for both players.
        """
        quiet_kings: npt.NDArray[np.bool_] = (rows[:, L.NCAP] == 0) & (rows[:, L.PIECE] % 2 == 0)
        if not quiet_kings.any():
            return rows
        tired = self._tired_king()
        if tired is None:
            return rows
        if self.variant.counted_king_moves is CountedKingMoves.SAME_KING:
            quiet_kings &= rows[:, L.FROM] == tired
        kept: npt.NDArray[np.int32] = rows[~quiet_kings]
        return kept

    def _tired_king(self) -> int | None:
        """The cell of the player's king that may not make another quiet move, or None.
        The limit lapses once the player has no men left."""
        players = int(self._tables.rules[L.R_PLAYERS])
        count, tired = self._king_run(players)
        if count < self.variant.max_consecutive_king_moves or not np.any(
            self._cells == 2 * self._turn + 1
        ):
            return None
        return tired

    def _king_run(self, back: int) -> tuple[int, int]:
        """(quiet king moves in a row, up to the limit; the cell of the last one's king) of
        the player who moved ``back`` plies ago (the search goes on from it).

        Walks back over that player's moves, newest first: each must be a quiet king move
        (a capture or a man's move frees the kings) and, when the same king is counted, end
        where the next one started.
        """
        limit = self.variant.max_consecutive_king_moves
        same_king = self.variant.counted_king_moves is CountedKingMoves.SAME_KING
        players = int(self._tables.rules[L.R_PLAYERS])
        count, tired, start = 0, -1, -1
        for index in range(len(self._history) - back, -1, -players):
            row = self._history[index][0][0]
            if row[L.NCAP] or row[L.PIECE] % 2:
                break
            if count == 0:
                tired = int(row[L.TO])
            elif same_king and row[L.TO] != start:
                break
            start = int(row[L.FROM])
            count += 1
            if count == limit:
                break
        return count, tired

    def _describe(self, rows: npt.NDArray[np.int32]) -> list[Move]:
        """Moves as users see them; the short notation unless it would fit two moves."""
        if len(rows) and rows[0, L.NCAP] == 0:
            # The kernel lists quiet moves only when there is no capture, so every move is
            # quiet: two squares and whether it crowns, its notation the two squares. Those
            # moves are built once per board geometry and shared (a Move is immutable),
            # found by the key the kernel writes in the row.
            get = self._quiet.get
            return [get(key) or self._quiet_move(key) for key in rows[:, L.QUIET_KEY].tolist()]
        data = rows.tolist()
        name, text = self._names.__getitem__, self.geometry.names.__getitem__
        shared: set[tuple[int, int]] = set()  # ends of more than one capture
        if len(data) > 1:
            ends = [(row[L.FROM], row[L.TO]) for row in data]
            if len(set(ends)) < len(ends):
                shared = {end for end, count in Counter(ends).items() if count > 1}
        first_landing = L.CAPS + 2 * self._maxc
        moves = []
        for row in data:
            ncap = row[L.NCAP]
            path = (row[L.FROM], *row[first_landing : first_landing + row[L.NPATH]])
            end = (row[L.FROM], row[L.TO])
            shown = path if end in shared else end  # the full path, or the two ends
            moves.append(
                _new_move(
                    tuple(map(name, path)),
                    tuple(map(name, row[L.CAPS : L.CAPS + ncap])),
                    row[L.NEW_PIECE] != row[L.PIECE],
                    ("x" if ncap else "-").join(map(text, shown)),
                )
            )
        return moves

    def _quiet_move(self, key: int) -> Move:
        """The quiet move of a row's ``QUIET_KEY``, built and kept for the geometry."""
        origin, to = divmod(key >> 1, self._shape[0])
        names, text = self._names, self.geometry.names
        move = _new_move(
            (names[origin], names[to]), (), bool(key & 1), f"{text[origin]}-{text[to]}"
        )
        self._quiet[key] = move
        return move

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves; a capture is compulsory and the variant's choice rule applied.

        In a variant with ``max_consecutive_king_moves`` (Frisian) a king that has made that
        many quiet moves in a row, counted in this board's history, may only capture.
        """
        legal = self._cache
        return self._new_moves() if legal is None else legal

    def parse_move(self, text: str) -> Move:
        """The legal move ``text`` names: ``"32-28"``, ``"28x19"`` or a full path.

        Raises :class:`IllegalMoveError` (or :class:`AmbiguousMoveError`) listing the
        candidates when ``text`` names no legal move, or more than one.
        """
        try:
            cells, _ = split_move(self.geometry, text)
        except ValueError as error:
            raise IllegalMoveError(str(error)) from None
        moves = self.legal_moves
        named = tuple(square_name(self.geometry, c) for c in cells)
        matches = [m for m in moves if m.path == named]
        if not matches and len(named) == 2:
            matches = [m for m in moves if (m.from_square, m.to_square) == named]
        if len(matches) == 1:
            return matches[0]
        if matches:
            options = ", ".join(m.notation for m in matches)
            raise AmbiguousMoveError(f"{text!r} fits several moves: {options}")
        legal = ", ".join(m.notation for m in moves) or "none"
        raise IllegalMoveError(f"{text!r} is not legal here; legal moves: {legal}")

    def push(self, move: Move | str) -> Move:
        """Play ``move`` (a :class:`Move` or its notation) and return it."""
        rows, legal = self._generate()
        moves = list(legal)
        chosen = self.parse_move(move) if isinstance(move, str) else move
        try:
            index = moves.index(chosen)
        except ValueError:
            raise IllegalMoveError(f"{chosen!r} is not legal in {self.fen}") from None
        row = rows[index : index + 1].copy()
        before = self._cells.copy() if self._players > 2 else None
        _MAKE.call(self._packed, self._cells, row, 0)
        self._history.append((row, moves[index]))
        if before is None:
            self._turn = 1 - self._turn
            self._undo.append(None)
        else:
            turn, active = self._turn, self._active
            eliminated = self._pass_turn(self._turn)
            self._undo.append(_Undo(before, turn, active, eliminated))
        self._cache = None  # (its rows were read above)
        return moves[index]

    def pop(self) -> Move:
        """Take back the last move and return it."""
        if not self._history:
            raise IndexError("pop from a board with no moves played")
        self._forget_moves()
        row, move = self._history.pop()
        undo = self._undo.pop()
        if undo is None:
            _UNMAKE.call(self._packed, self._cells, row, 0)
            self._turn = 1 - self._turn
        else:
            self._cells, self._turn, self._active = undo.cells, undo.turn, undo.active
        return move

    @property
    def move_stack(self) -> list[Move]:
        """The moves played on this board, oldest first (eliminations are not moves)."""
        return [move for _, move in self._history if move is not _ELIMINATION]

    # -- multi-player turns -----------------------------------------------------------

    def _teams_left(self) -> set[int]:
        team_of = self.variant.team_of
        return {team_of[p] for p in self._active}

    def _decided(self) -> bool:
        """A multi-player game is decided when one player (or one team) is left; in its
        giveaway form, as soon as a player is out: he has won."""
        if self.variant.giveaway and len(self._active) < self._players:
            return True
        return len(self._teams_left()) <= 1

    def has_pieces(self, player: int) -> bool:
        """Whether ``player`` has a piece on the board."""
        return bool(np.any((self._cells != 0) & ((self._cells - 1) // 2 == player)))

    def _pass_turn(self, mover: int) -> tuple[int, ...]:
        """Give the turn to the next player still in the game (clockwise), eliminating on
        the way every player who cannot move (or letting him pass, if the variant says
        so and he has pieces). A player left without pieces is out at once. Returns the
        players eliminated."""
        # A player whose last piece was just taken is out at once, with this move.
        eliminated = [p for p in self._active if not self.has_pieces(p)]
        for player in eliminated:
            self._drop_player(player, mover)
        player, passes = mover, 0
        while not self._decided():
            order = self._active
            later = [p for p in order if p > player]
            player = later[0] if later else order[0]
            if len(self._rows(dedupe=False, history_rules=False, player=player)):
                break
            if self.variant.when_blocked is Blocked.PASS and self.has_pieces(player):
                passes += 1
                if passes >= len(order):
                    break  # nobody can move: the game is over, see is_game_over
                continue
            self._drop_player(player, mover)
            eliminated.append(player)
        self._turn = player
        return tuple(eliminated)

    def _drop_player(self, player: int, eliminator: int | None) -> None:
        """Take ``player`` out of the game; his pieces leave, die or change hands.

        Pieces handed to the eliminator (who is None after a resignation or a time-out:
        nobody's move caused it, so they leave) are his own from then on: a man standing
        where he crowns is crowned.
        """
        self._active = tuple(p for p in self._active if p != player)
        own = (self._cells != 0) & ((self._cells - 1) // 2 == player)
        kings = own & (self._cells % 2 == 0)
        leftovers = self.variant.leftovers
        if leftovers is Leftovers.REMOVED or (
            leftovers is Leftovers.TO_ELIMINATOR and eliminator is None
        ):
            self._cells[own] = 0
            return
        heir = self._players if leftovers is Leftovers.DEAD else eliminator
        assert heir is not None
        self._cells[own] = 2 * heir + 1
        if heir < self._players:
            crowning = self._tables.counts[L.CROWN, heir].astype(bool)
            kings |= own & crowning
        self._cells[kings] = 2 * heir + 2

    def eliminate(self, player: int) -> None:
        """Take ``player`` out of a multi-player game (resignation, time-out): his pieces
        leave, or die with ``dead-pieces``; if it was his turn, the next player moves.
        :meth:`pop` takes it back like a move."""
        if self._players == 2:
            raise ValueError("a two-player game ends with a result, not an elimination")
        if player not in self._active:
            raise ValueError(f"{PLAYER_NAMES[player]} is not in the game")
        before = _Undo(self._cells.copy(), self._turn, self._active, (player,))
        to_move = self._turn
        self._drop_player(player, None)
        eliminated: tuple[int, ...] = (player,)
        if to_move == player:
            eliminated += self._pass_turn(player)
        self._history.append((np.zeros((0, 0), dtype=np.int32), _ELIMINATION))
        self._undo.append(_Undo(before.cells, before.turn, before.active, eliminated))
        self._cache = None

    def eliminations(self) -> list[tuple[int, ...]]:
        """The players put out of the game, oldest first; those of one ply together."""
        return [undo.eliminated for undo in self._undo if undo is not None and undo.eliminated]

    def ranking(self) -> list[tuple[int, ...]]:
        """Places, first to last: the players still in the game (sharing first place),
        then the eliminated in reverse order of elimination (those of one ply sharing).
        In the giveaway form the order is reversed: the first out has won."""
        places = [self._active, *reversed(self.eliminations())]
        return places[::-1] if self.variant.giveaway else places

    # -- end of game ------------------------------------------------------------------

    def crowned_player(self) -> int | None:
        """In a variant where crowning wins (Breakthrough), the player who has a king."""
        if not self.variant.crowning_wins:
            return None
        kings = [int(c) for c in self._cells if c != 0 and c % 2 == 0]
        return (kings[0] - 1) // 2 if kings else None

    def is_game_over(self) -> bool:
        """Whether the game has ended on the board: the player to move has no legal move,
        or (Breakthrough) a king was crowned; on multi-player boards, one player or team is
        left (or nobody can move). Draw rules belong to the game."""
        return self.crowned_player() is not None or len(self.legal_moves) == 0

    def winner(self) -> int | None:
        """The winner when the game has ended on the board, else None.

        Having no move loses, except in giveaway variants where it wins. On multi-player
        boards the last player standing wins (in team mode: the first of the last team;
        see :meth:`ranking`); None when several are left.
        """
        crowned = self.crowned_player()
        if crowned is not None:
            return crowned
        if not self.is_game_over():
            return None
        if self._players > 2:
            return self.ranking()[0][0] if self._decided() else None
        if self.variant.giveaway:
            return self._turn
        return 1 - self._turn

    # -- counting ---------------------------------------------------------------------

    def perft(self, depth: int, duplicates: str = "drop", *, fast: bool = True) -> int:
        """Leaves of the legal-move tree ``depth`` plies deep.

        ``duplicates="drop"`` counts captures of the same pieces between the same squares
        once (RULES.md decision 5); ``"keep"`` counts every path. Two-player games on dark
        squares are counted by the bitboard fast path (:mod:`damier.kernel.bitboard`) unless
        ``fast`` is False; every other game, and ``fast=False``, by the table kernel, the
        one the fast path is tested against.
        """
        _check_perft(depth, duplicates)
        if fast:
            counted = fast_perft(self.variant, self._cells, self._turn, depth, duplicates)
            if counted is not None:
                return counted
        width = L.row_width(self._maxc)
        space = _workspace(self.geometry.cell_count, self._maxc)
        capacity = len(space.buffer)
        while True:
            buffers = move_buffers(depth, capacity, width)
            s = space.scratch
            count = perft(
                self._tables,
                self._cells,
                self._turn,
                depth,
                buffers,
                perft_stack(depth),
                s.work,
                s.frames,
                duplicates == "drop",
            )
            if count >= 0:
                return int(count)
            capacity *= 4

    def perft_divide(
        self, depth: int, duplicates: str = "drop", *, fast: bool = True
    ) -> list[tuple[Move, int]]:
        """Each legal move with the leaves below it, ``depth`` plies deep in all."""
        _check_perft(depth, duplicates)
        if depth == 0:
            return []
        self._forget_moves()
        rows = self._rows(dedupe=duplicates == "drop", history_rules=False)
        result = []
        players = int(self._tables.rules[L.R_PLAYERS])
        for index, move in enumerate(self._describe(rows)):
            make_move(self._tables, self._cells, rows, index)
            self._turn = (self._turn + 1) % players
            self._cache = None
            try:
                result.append((move, self.perft(depth - 1, duplicates, fast=fast)))
            finally:
                unmake_move(self._tables, self._cells, rows, index)
                self._turn = (self._turn - 1) % players
                self._cache = None
        return result

    # -- display ----------------------------------------------------------------------

    def __str__(self) -> str:
        return render_board(self)

    def __repr__(self) -> str:
        return f"Board({self.variant.name!r}, fen={self.fen!r})\n{self}"

    def _repr_svg_(self) -> str:
        """The board as a picture in Jupyter, its last move highlighted
        (:func:`damier.render.svg.svg` draws it with more choices)."""
        from damier.render.svg import svg

        moves = self.move_stack
        return svg(self, lastmove=moves[-1] if moves else None)
