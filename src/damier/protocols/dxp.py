"""DXP, the Draughts eXchange Protocol (DamExchange, by Harm Jetten and Stef Keetman): two
international draughts programs play each other over TCP.

Every message is a line of 1 to 127 ASCII characters with fixed-width fields, sent with a
NUL byte after it; its first character is its type:

========  ====  ===================================================================
GAMEREQ   ``R`` version ``01``, Initiator name (32, blank padded), Follower colour
                (``W``/``Z``), thinking time in minutes (3), number of moves (3),
                ``A`` (start position) or ``B`` + colour to move + 50 squares
                (``e`` empty, ``w``/``z`` man, ``W``/``Z`` king)
GAMEACC   ``A`` Follower name (32), acceptance code (``0`` yes, ``1`` wrong version,
                ``2`` not this game, ``3`` no game at all)
MOVE      ``M`` seconds used (4), from (2), to (2), number captured (2), captured
                squares (2 each, any order)
GAMEEND   ``E`` reason (``0`` none, ``1`` I lose, ``2`` draw, ``3`` I win), stop code
                (``0`` another game is welcome, ``1`` no more games)
CHAT      ``C`` free text
BACKREQ   ``B`` move number (3), colour to move
BACKACC   ``K`` acceptance code (``0`` yes, ``1`` not supported, ``2`` play on)
========  ====  ===================================================================

The Initiator connects and sends GAMEREQ; the Follower (which listens, port 27531 by
custom) answers GAMEACC; MOVE messages alternate until the player to move sends GAMEEND
instead, which the other confirms with a GAMEEND of its own.

>>> Move(12, 32, 28).encode()
b'M0012322800\\x00'
>>> decode(b'M001205250422122320\\x00')
Move(seconds=12, from_square=5, to_square=25, captured=(22, 12, 23, 20))
>>> GameEnd(2, 0).encode()
b'E20\\x00'

:class:`DxpSession` plays games as either side with :class:`damier.engine.Engine`, with a
:class:`damier.game.Game` as referee: a malformed message is logged and skipped; an
illegal move, or no move within the peer's time (in a game without time, ``peer_timeout``:
ten minutes), loses the peer the game; a dropped connection ends the game unfinished.
"""

from __future__ import annotations

import contextlib
import math
import socket
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date
from typing import ClassVar

from damier import __version__
from damier.board import Board
from damier.board import Move as BoardMove
from damier.compiled import load_engine
from damier.engine import Engine, clock_times
from damier.game import Game, Result
from damier.notation.pdn import write_pdn

DXP_PORT = 27531
"""The customary DXP port."""
MAX_LENGTH = 127
"""The longest message, NUL excluded."""
NOISE_SHOWN = 100
"""Chat and ignored messages a session logs: a peer that sends more floods no one's log."""
VARIANT = "international"
"""DXP plays international draughts only."""
SQUARES = 50
WHITE, BLACK = 0, 1
COLOURS = "WZ"
"""DXP's colour letters: W (wit, white) and Z (zwart, black)."""
PIECE_LETTERS = {0: "e", 1: "w", 2: "W", 3: "z", 4: "Z"}
"""Damier's piece codes (kernel layout) and the letters of a DXP position."""
_PIECE_CODES = {letter: code for code, letter in PIECE_LETTERS.items()}


class DxpError(ValueError):
    """A malformed DXP message; the text names the message type and the field."""


class IllegalDxpMoveError(ValueError):
    """A well-formed MOVE that is not a legal move in the position."""


class ConnectionLostError(ConnectionError):
    """The peer closed the connection or it broke."""


# -- fields ----------------------------------------------------------------------------


def _number(text: str, start: int, width: int, what: str, low: int = 0, high: int = -1) -> int:
    """The ``width``-digit number at ``start``; ``what`` names the field in errors."""
    chunk = text[start : start + width]
    if len(chunk) != width or not (chunk.isascii() and chunk.isdigit()):
        raise DxpError(f"{what}: expected {width} digits, got {chunk!r}")
    value = int(chunk)
    if value < low or (high >= 0 and value > high):
        raise DxpError(f"{what}: {value} is out of range {low}-{high}")
    return value


def _digits(value: int, width: int, what: str, low: int = 0) -> str:
    if not low <= value < 10**width:
        raise DxpError(f"{what}: {value} does not fit {width} digits")
    return str(value).zfill(width)


def _colour(text: str, index: int, what: str) -> int:
    letter = text[index : index + 1]
    if letter not in ("W", "Z"):
        raise DxpError(f"{what}: expected W or Z, got {letter!r}")
    return COLOURS.index(letter)


def _name(name: str, what: str) -> str:
    """A program name as its 32-character field."""
    if len(name) > 32 or not _is_text(name):
        raise DxpError(f"{what}: {name!r} is not at most 32 ASCII characters")
    return name.ljust(32)


def _is_text(text: str) -> bool:
    return all(1 <= ord(c) <= 127 for c in text)


def _length(text: str, expected: int, what: str) -> None:
    if len(text) != expected:
        raise DxpError(f"{what}: expected {expected} characters, got {len(text)}")


# -- messages --------------------------------------------------------------------------


@dataclass(frozen=True)
class GameReq:
    """GAMEREQ (``R``): the Initiator asks for a game."""

    initiator: str
    follower_colour: int
    """The colour the Follower plays: WHITE (0) or BLACK (1)."""
    minutes: int = 0
    """Thinking time of each side for the whole game (0: none agreed)."""
    moves: int = 0
    """Moves for that time (0: the whole game)."""
    position: str | None = None
    """None for the start position, else the colour to move and 50 squares (51 letters)."""
    version: int = 1

    HEADER: ClassVar[str] = "R"

    def text(self) -> str:
        parts = [
            self.HEADER,
            _digits(self.version, 2, "GAMEREQ version"),
            _name(self.initiator, "GAMEREQ initiator name"),
            COLOURS[self.follower_colour],
            _digits(self.minutes, 3, "GAMEREQ thinking time"),
            _digits(self.moves, 3, "GAMEREQ number of moves"),
        ]
        if self.position is None:
            parts.append("A")
        else:
            _check_position(self.position, "GAMEREQ position")
            parts += ["B", self.position]
        return "".join(parts)

    def encode(self) -> bytes:
        return _frame(self.text())

    @classmethod
    def decode(cls, text: str) -> GameReq:
        if len(text) not in (43, 94):
            raise DxpError(f"GAMEREQ: expected 43 or 94 characters, got {len(text)}")
        version = _number(text, 1, 2, "GAMEREQ version")
        initiator = text[3:35].rstrip(" ")
        follower = _colour(text, 35, "GAMEREQ follower colour")
        minutes = _number(text, 36, 3, "GAMEREQ thinking time")
        moves = _number(text, 39, 3, "GAMEREQ number of moves")
        flag = text[42]
        if flag == "A":
            _length(text, 43, "GAMEREQ with start position A")
            return cls(initiator, follower, minutes, moves, None, version)
        if flag != "B":
            raise DxpError(f"GAMEREQ starting position: expected A or B, got {flag!r}")
        _length(text, 94, "GAMEREQ with position B")
        position = text[43:]
        _check_position(position, "GAMEREQ position")
        return cls(initiator, follower, minutes, moves, position, version)


@dataclass(frozen=True)
class GameAcc:
    """GAMEACC (``A``): the Follower accepts (code 0) or refuses a game."""

    follower: str
    code: int = 0
    """0 accepted, 1 unexpected protocol version, 2 not this game, 3 no game at all."""

    HEADER: ClassVar[str] = "A"
    REASONS: ClassVar[dict[int, str]] = {
        0: "accepted",
        1: "refused: unexpected protocol version",
        2: "refused: not this game, another one is welcome",
        3: "refused: no game at all",
    }

    def text(self) -> str:
        if self.code not in self.REASONS:
            raise DxpError(f"GAMEACC acceptance code: {self.code} is not 0-3")
        return f"{self.HEADER}{_name(self.follower, 'GAMEACC follower name')}{self.code}"

    def encode(self) -> bytes:
        return _frame(self.text())

    @classmethod
    def decode(cls, text: str) -> GameAcc:
        _length(text, 34, "GAMEACC")
        return cls(text[1:33].rstrip(" "), _number(text, 33, 1, "GAMEACC acceptance code", 0, 3))


@dataclass(frozen=True)
class Move:
    """MOVE (``M``): a move, with the seconds its sender spent on it."""

    seconds: int
    from_square: int
    to_square: int
    captured: tuple[int, ...] = ()

    HEADER: ClassVar[str] = "M"

    def text(self) -> str:
        squares = [
            _digits(self.from_square, 2, "MOVE from field", 1),
            _digits(self.to_square, 2, "MOVE to field", 1),
            _digits(len(self.captured), 2, "MOVE number captured"),
            *(_digits(s, 2, "MOVE captured piece", 1) for s in self.captured),
        ]
        if len(self.captured) > 20:
            raise DxpError(f"MOVE number captured: {len(self.captured)} is more than 20")
        if max(self.from_square, self.to_square, *self.captured) > SQUARES:
            raise DxpError(f"MOVE: squares are 1-{SQUARES}")
        seconds = _digits(min(max(self.seconds, 0), 9999), 4, "MOVE time")
        return self.HEADER + seconds + "".join(squares)

    def encode(self) -> bytes:
        return _frame(self.text())

    @classmethod
    def decode(cls, text: str) -> Move:
        if len(text) < 11:
            raise DxpError(f"MOVE: expected at least 11 characters, got {len(text)}")
        seconds = _number(text, 1, 4, "MOVE time")
        origin = _number(text, 5, 2, "MOVE from field", 1, SQUARES)
        target = _number(text, 7, 2, "MOVE to field", 1, SQUARES)
        count = _number(text, 9, 2, "MOVE number captured", 0, 20)
        _length(text, 11 + 2 * count, f"MOVE with {count} captured pieces")
        captured = tuple(
            _number(text, 11 + 2 * i, 2, f"MOVE captured piece {i + 1}", 1, SQUARES)
            for i in range(count)
        )
        return cls(seconds, origin, target, captured)


@dataclass(frozen=True)
class GameEnd:
    """GAMEEND (``E``): the end of the game, or the confirmation of it."""

    reason: int = 0
    """0 no reason given, 1 I lose, 2 draw, 3 I win."""
    stop: int = 0
    """0 another game is welcome, 1 no more games."""

    HEADER: ClassVar[str] = "E"
    REASONS: ClassVar[dict[int, str]] = {
        0: "no reason given",
        1: "resigns",
        2: "claims a draw",
        3: "claims a win",
    }

    def text(self) -> str:
        if self.reason not in self.REASONS:
            raise DxpError(f"GAMEEND reason: {self.reason} is not 0-3")
        if self.stop not in (0, 1):
            raise DxpError(f"GAMEEND stop code: {self.stop} is not 0 or 1")
        return f"{self.HEADER}{self.reason}{self.stop}"

    def encode(self) -> bytes:
        return _frame(self.text())

    @classmethod
    def decode(cls, text: str) -> GameEnd:
        _length(text, 3, "GAMEEND")
        return cls(
            _number(text, 1, 1, "GAMEEND reason", 0, 3),
            _number(text, 2, 1, "GAMEEND stop code", 0, 1),
        )


@dataclass(frozen=True)
class Chat:
    """CHAT (``C``): free text, at any moment."""

    message: str

    HEADER: ClassVar[str] = "C"

    def text(self) -> str:
        if len(self.message) > MAX_LENGTH - 1 or not _is_text(self.message):
            raise DxpError("CHAT text: at most 126 ASCII characters")
        return self.HEADER + self.message

    def encode(self) -> bytes:
        return _frame(self.text())

    @classmethod
    def decode(cls, text: str) -> Chat:
        return cls(text[1:])


@dataclass(frozen=True)
class BackReq:
    """BACKREQ (``B``): take moves back to ``move_number`` with ``colour`` to move."""

    move_number: int
    colour: int

    HEADER: ClassVar[str] = "B"

    def text(self) -> str:
        return (
            f"{self.HEADER}{_digits(self.move_number, 3, 'BACKREQ move number')}"
            + (COLOURS[self.colour])
        )

    def encode(self) -> bytes:
        return _frame(self.text())

    @classmethod
    def decode(cls, text: str) -> BackReq:
        _length(text, 5, "BACKREQ")
        return cls(
            _number(text, 1, 3, "BACKREQ move number"), _colour(text, 4, "BACKREQ colour to move")
        )


@dataclass(frozen=True)
class BackAcc:
    """BACKACC (``K``): the answer to BACKREQ."""

    code: int
    """0 accepted, 1 not supported, 2 play on."""

    HEADER: ClassVar[str] = "K"

    def text(self) -> str:
        if self.code not in (0, 1, 2):
            raise DxpError(f"BACKACC acceptance code: {self.code} is not 0-2")
        return f"{self.HEADER}{self.code}"

    def encode(self) -> bytes:
        return _frame(self.text())

    @classmethod
    def decode(cls, text: str) -> BackAcc:
        _length(text, 2, "BACKACC")
        return cls(_number(text, 1, 1, "BACKACC acceptance code", 0, 2))


Message = GameReq | GameAcc | Move | GameEnd | Chat | BackReq | BackAcc
_TYPES: dict[str, type[Message]] = {
    kind.HEADER: kind for kind in (GameReq, GameAcc, Move, GameEnd, Chat, BackReq, BackAcc)
}


def _frame(text: str) -> bytes:
    if len(text) > MAX_LENGTH:
        raise DxpError(f"message longer than {MAX_LENGTH} characters")
    return text.encode("ascii") + b"\0"


def decode(data: bytes | str) -> Message:
    """The message in ``data`` (with or without its NUL); :class:`DxpError` if malformed."""
    if isinstance(data, bytes):
        if data.endswith(b"\0"):
            data = data[:-1]
        try:
            text = data.decode("ascii")
        except UnicodeDecodeError:
            raise DxpError(f"message: not ASCII: {data[:40]!r}") from None
    else:
        text = data.removesuffix("\0")
    if not text:
        raise DxpError("message: empty")
    if len(text) > MAX_LENGTH:
        raise DxpError(f"message: {len(text)} characters, more than {MAX_LENGTH}")
    if not _is_text(text):
        raise DxpError("message: contains a NUL or a non-ASCII character")
    kind = _TYPES.get(text[0])
    if kind is None:
        raise DxpError(f"message type: unknown header {text[0]!r} in {text[:40]!r}")
    return kind.decode(text)


# -- positions and moves ---------------------------------------------------------------


def _check_position(position: str, what: str) -> None:
    _length(position, 1 + SQUARES, what)
    _colour(position, 0, f"{what} colour to move")
    for index, letter in enumerate(position[1:], start=1):
        if letter not in _PIECE_CODES:
            raise DxpError(f"{what}: square {index} has {letter!r}, not one of e w z W Z")


def position_of(board: Board) -> str:
    """The colour to move and the 50 squares of an international ``board``."""
    cells = board.cells
    letters = [COLOURS[board.turn]]
    for square in range(1, SQUARES + 1):
        letters.append(PIECE_LETTERS[int(cells[board.geometry.parse_square(str(square))])])
    return "".join(letters)


def board_from_position(position: str) -> Board:
    """An international board from a DXP position (colour to move and 50 squares)."""
    _check_position(position, "position")
    men: dict[int, list[str]] = {WHITE: [], BLACK: []}
    for square, letter in enumerate(position[1:], start=1):
        code = _PIECE_CODES[letter]
        if code:
            men[(code - 1) // 2].append(("K" if code % 2 == 0 else "") + str(square))
    side = "W" if position[0] == "W" else "B"
    return Board(VARIANT, f"{side}:W{','.join(men[WHITE])}:B{','.join(men[BLACK])}")


def move_message(move: BoardMove, seconds: float = 0.0) -> Move:
    """The MOVE message of a legal move."""
    return Move(
        int(seconds),
        int(move.from_square),
        int(move.to_square),
        tuple(int(s) for s in move.captured),
    )


def legal_move(board: Board, message: Move) -> BoardMove:
    """The legal move a MOVE names; captured squares may come in any order, and may be left
    out when origin and destination alone name one move."""
    fitting = [
        m
        for m in board.legal_moves
        if int(m.from_square) == message.from_square and int(m.to_square) == message.to_square
    ]
    wanted = sorted(message.captured)
    exact = [m for m in fitting if sorted(int(s) for s in m.captured) == wanted]
    if exact:
        return exact[0]
    text = f"{message.from_square}-{message.to_square}" + "".join(f"x{s}" for s in message.captured)
    if not message.captured and len(fitting) == 1:
        return fitting[0]
    if not fitting:
        raise IllegalDxpMoveError(f"{text} is not a legal move in {board.fen}")
    raise IllegalDxpMoveError(
        f"{text} does not capture what a legal move does in {board.fen} "
        f"(legal: {', '.join(m.notation for m in fitting)})"
    )


# -- the connection --------------------------------------------------------------------


class Channel:
    """A TCP connection carrying NUL-terminated DXP messages.

    Two messages sent in a row (GAMEACC then the first move, the last move then GAMEEND)
    leave ``gap`` seconds between them: some peers read one message a ``recv`` and drop what
    arrived behind it in the same read (pydraughts 0.6 does), and would wait for ever for
    the move they dropped. TCP keepalive probes a silent connection after a minute, so a
    peer whose machine or network went away without closing it is noticed within about
    two (the connection is lost), not waited for ever.
    """

    def __init__(self, sock: socket.socket, gap: float = 0.25) -> None:
        self.sock = sock
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
            for option, value in (("TCP_KEEPIDLE", 60), ("TCP_KEEPINTVL", 10), ("TCP_KEEPCNT", 6)):
                if hasattr(socket, option):  # Linux names; elsewhere the system's defaults
                    sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, option), value)
        self.gap = gap
        self._buffer = b""
        self._sent_last: float | None = None
        """When we sent a message with nothing received since; None after a receive."""
        self.closed = False

    def send(self, message: Message) -> None:
        if self._sent_last is not None:
            time.sleep(max(0.0, self._sent_last + self.gap - time.monotonic()))
        try:
            self.sock.settimeout(30.0)
            self.sock.sendall(message.encode())
        except OSError as error:
            self.closed = True
            raise ConnectionLostError(f"cannot send: {error}") from None
        self._sent_last = time.monotonic()

    def send_raw(self, data: bytes) -> None:
        """Bytes as they are (for tests of broken peers)."""
        self.sock.sendall(data)

    def receive(self, timeout: float | None = None) -> Message | None:
        """The next message; None when ``timeout`` seconds pass first. A malformed message
        raises :class:`DxpError` (the connection stays usable); a closed connection
        :class:`ConnectionLostError`."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\0" not in self._buffer:
            if len(self._buffer) > 4 * MAX_LENGTH:
                junk, self._buffer = self._buffer, b""
                raise DxpError(f"message: {len(junk)} bytes without a NUL: {junk[:40]!r}")
            if self.closed:
                raise ConnectionLostError("the connection is closed")
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return None
            try:
                self.sock.settimeout(left)
                chunk = self.sock.recv(4096)
            except TimeoutError:
                return None
            except OSError as error:
                self.closed = True
                raise ConnectionLostError(f"the connection broke: {error}") from None
            if not chunk:
                self.closed = True
                raise ConnectionLostError("the peer closed the connection")
            self._buffer += chunk
        data, _, self._buffer = self._buffer.partition(b"\0")
        self._sent_last = None
        return decode(data)

    def close(self) -> None:
        self.closed = True
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


# -- playing ---------------------------------------------------------------------------


@dataclass
class DxpGame:
    """One game played over DXP, refereed by :class:`damier.game.Game`."""

    game: Game
    colour: int
    """The colour Damier played."""
    opponent: str
    me: str = "Damier"
    reason: str = ""
    """Why the game ended (the result's reason, or why it stopped unfinished)."""
    peer_stops: bool = False
    """The peer wants no further game."""

    @property
    def result(self) -> Result | None:
        return self.game.result

    def tags(self) -> dict[str, str]:
        white, black = (
            (self.me, self.opponent) if self.colour == WHITE else (self.opponent, self.me)
        )
        tags = {
            "Event": "DXP game",
            "Date": date.today().strftime("%Y.%m.%d"),
            "White": white,
            "Black": black,
        }
        if self.game.result is None and self.reason:
            tags["Termination"] = self.reason
        return tags

    def pdn(self) -> str:
        return write_pdn(self.game, self.tags())


Log = Callable[[str], None]


def _quiet(line: str) -> None:
    pass


@dataclass
class DxpSession:
    """Damier's side of a DXP connection: plays games as Initiator or Follower.

    ``seconds`` is the time per move; without it the engine shares out the game time of
    GAMEREQ (one second a move when there is none). ``peer_timeout`` bounds the wait for
    one peer move when the game has no thinking time (a peer that answers nothing in it
    loses: nothing waits for ever); ``end_timeout`` the wait for the peer's GAMEEND once
    the referee has ended the game.
    """

    channel: Channel
    level: int = 10
    seconds: float | None = None
    book: bool = True
    """The full level plays from its opening book (:mod:`damier.engine.book`)."""
    threads: int = 1
    name: str = f"Damier {__version__}"
    log: Log = _quiet
    peer_timeout: float = 600.0
    end_timeout: float = 10.0
    grace: float = 30.0
    """Seconds a peer may run over its thinking time before it loses on time."""
    engine: Engine | None = None
    _pending: GameReq | None = field(default=None, repr=False)
    _noise: int = field(default=0, repr=False)
    """Chat and ignored messages received: the log shows the first :data:`NOISE_SHOWN`."""

    def close(self) -> None:
        self.channel.close()

    def _engine(self) -> Engine:
        """The engine, its compiled code made ready first (before any clock runs: compiling
        must not eat a move's time), saying so in the log if that means compiling."""
        if self.engine is None:
            load_engine(VARIANT, self.log)
            self.engine = Engine(VARIANT, level=self.level, book=self.book, threads=self.threads)
        return self.engine

    # -- receiving -------------------------------------------------------------------

    def _next(self, timeout: float | None) -> Message | None:
        """The next message that needs the caller: malformed messages are logged and
        skipped, CHAT is logged, BACKREQ is refused (not supported). They do not hold off
        ``timeout``: past it, the messages already read are looked at, and then None."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                message = self.channel.receive(left)
            except DxpError as error:
                self._noisy(f"ignored a malformed message: {error}")
                continue
            if isinstance(message, Chat):
                self._noisy(f"chat: {message.message}")
            elif isinstance(message, BackReq):
                self._noisy("the peer asked to take moves back: not supported")
                self.channel.send(BackAcc(1))
            elif isinstance(message, BackAcc):
                self._noisy(f"ignored an unexpected BACKACC {message.code}")
            else:
                return message

    def _noisy(self, line: str) -> None:
        """Log what the peer said beside the game, the first :data:`NOISE_SHOWN` times."""
        self._noise += 1
        if self._noise <= NOISE_SHOWN:
            self.log(line)
        elif self._noise == NOISE_SHOWN + 1:
            self.log("more chat and ignored messages from the peer: not shown")

    # -- the two roles ---------------------------------------------------------------

    def request_game(
        self,
        colour: int = WHITE,
        minutes: int = 0,
        moves: int = 0,
        fen: str | None = None,
        stop: int = 1,
    ) -> DxpGame:
        """As Initiator: ask for a game with Damier playing ``colour`` and play it.
        ``stop`` is the stop code of Damier's GAMEEND (1: no game after this one).
        :class:`ConnectionRefusedError` if the Follower declines."""
        game = Game(VARIANT, fen)
        start = fen is None or game.board.fen == Board(VARIANT).fen
        position = None if start else position_of(game.board)
        self.channel.send(GameReq(self.name[:32], 1 - colour, minutes, moves, position))
        while True:
            answer = self._next(self.end_timeout * 3)
            if answer is None:
                raise ConnectionLostError("the Follower did not answer the game request")
            if isinstance(answer, GameAcc):
                break
            self.log(f"ignored {type(answer).__name__} while waiting for GAMEACC")
        if answer.code != 0:
            raise ConnectionRefusedError(f"{answer.follower}: {GameAcc.REASONS[answer.code]}")
        self.log(f"game accepted by {answer.follower}")
        record = DxpGame(game, colour, answer.follower, self.name)
        return self._play(record, minutes, moves, stop)

    def serve(self, stop: int = 0) -> DxpGame | None:
        """As Follower: wait for a GAMEREQ and play that game; None when the connection
        closes, the peer ends the session or asks for no game within ``peer_timeout``."""
        try:
            while True:
                request = self._pending or self._next(self.peer_timeout)
                self._pending = None
                if request is None:
                    self.log(f"no game asked for in {self.peer_timeout:g} s: closing")
                    return None
                if isinstance(request, GameEnd):
                    self.log("GAMEEND outside a game: confirmed")
                    self.channel.send(GameEnd(0, stop))
                    if request.stop == 1:
                        return None
                    continue
                if not isinstance(request, GameReq):
                    self.log(f"ignored {type(request).__name__}: no game is running")
                    continue
                refusal = self._refusal(request)
                if refusal is not None:
                    self.log(f"refused the game of {request.initiator}: {GameAcc.REASONS[refusal]}")
                    self.channel.send(GameAcc(self.name[:32], refusal))
                    continue
                fen = (
                    None if request.position is None else board_from_position(request.position).fen
                )
                colour = request.follower_colour
                self.channel.send(GameAcc(self.name[:32], 0))
                self.log(
                    f"game with {request.initiator}: Damier plays "
                    f"{('white', 'black')[colour]}, {request.minutes} min, "
                    f"{request.moves or 'all'} moves"
                )
                record = DxpGame(Game(VARIANT, fen), colour, request.initiator, self.name)
                return self._play(record, request.minutes, request.moves, stop)
        except ConnectionLostError as error:
            self.log(f"connection closed: {error}")
            return None

    def serve_games(self, stop: int = 0) -> Iterator[DxpGame]:
        """As Follower: every game the Initiator asks for, until it stops or disconnects."""
        while True:
            played = self.serve(stop)
            if played is None:
                return
            yield played
            if played.peer_stops or self.channel.closed:
                return

    def _refusal(self, request: GameReq) -> int | None:
        if request.version != 1:
            return 1
        if request.position is not None:
            try:
                board = board_from_position(request.position)
            except ValueError:
                return 2
            if not board.legal_moves:
                return 2
        return None

    # -- the game --------------------------------------------------------------------

    def _play(self, record: DxpGame, minutes: int, moves: int, stop: int) -> DxpGame:
        game, us = record.game, record.colour
        engine = self._engine()
        engine.new_game()
        used = [0.0, 0.0]
        broken = False  # the peer lost by breaking a rule: no need to wait for its GAMEEND
        try:
            while game.result is None:
                if moves and game.ply >= 2 * moves and game.turn == us:
                    game.adjudicate(None, f"the {moves} moves of GAMEREQ are played")
                    break
                if game.turn == us:
                    target, seconds = self._think_time(game, used[us], minutes, moves)
                    began = time.monotonic()
                    info = engine.search(game.board, time=seconds, target=target)
                    spent = time.monotonic() - began
                    used[us] += spent
                    if info.best_move is None:  # the referee would have ended the game
                        break
                    self.channel.send(move_message(info.best_move, spent))
                    self._show(game, game.push(info.best_move), record.me)
                    continue
                began = time.monotonic()
                message = self._next(self._peer_limit(used[1 - us], minutes))
                used[1 - us] += time.monotonic() - began
                if message is None:
                    late = "lost on time" if minutes else f"made no move in {self.peer_timeout:g} s"
                    game.adjudicate(us, f"{record.opponent} {late}")
                    broken = True
                    break
                if isinstance(message, Move):
                    try:
                        move = legal_move(game.board, message)
                    except IllegalDxpMoveError as error:
                        game.adjudicate(us, f"illegal move from {record.opponent}: {error}")
                        self.log(f"illegal move from the peer: {error}")
                        broken = True
                        break
                    self._show(game, game.push(move), record.opponent)
                elif isinstance(message, GameEnd):
                    self._peer_ended(record, message, stop)
                    return record
                elif isinstance(message, GameReq):
                    self._pending = message
                    record.reason = "abandoned: the Initiator asked for a new game"
                    self.log(record.reason)
                    return record
                else:
                    self.log(f"ignored {type(message).__name__} during the game")
            self._we_end(record, stop, wait=not broken)
        except ConnectionLostError as error:
            if game.result is not None:  # the game was over: only the goodbye is missing
                self._finish(record)
            else:
                record.reason = record.reason or f"connection lost ({error})"
                self.log(f"result * ({record.reason})")
        return record

    def _think_time(
        self, game: Game, used: float, minutes: int, moves: int
    ) -> tuple[float | None, float]:
        """(the time to aim at on a game clock, or None; the most to spend) for our move."""
        remaining = minutes * 60 - used if minutes else math.inf
        target: float | None = None
        if self.seconds is not None:
            seconds = self.seconds
        elif minutes:
            to_go = max(1, moves - game.ply // 2) if moves else None
            target, seconds = clock_times(max(remaining, 0.05), 0.0, to_go)
        else:
            seconds = 1.0
        return target, max(0.01, min(seconds, remaining * 0.9))

    def _peer_limit(self, used: float, minutes: int) -> float:
        if minutes:
            return max(0.0, minutes * 60 - used) + self.grace
        return self.peer_timeout

    def _show(self, game: Game, move: BoardMove, who: str) -> None:
        number = (game.ply + 1) // 2
        dots = "." if game.turn == BLACK else ". ..."
        self.log(f"{number}{dots} {move.notation}  ({who})")

    def _peer_ended(self, record: DxpGame, message: GameEnd, stop: int) -> None:
        """The peer sent GAMEEND first: confirm it, and judge what it says."""
        game, us = record.game, record.colour
        record.peer_stops = message.stop == 1
        if game.result is None:
            said = GameEnd.REASONS[message.reason]
            if message.reason == 1:
                game.adjudicate(us, f"{record.opponent} resigned")
            elif message.reason == 2:
                game.adjudicate(None, f"{record.opponent} ended the game as a draw")
            else:
                record.reason = f"{record.opponent} ended the game ({said})"
        self.channel.send(GameEnd(0, stop))
        self._finish(record)

    def _we_end(self, record: DxpGame, stop: int, wait: bool = True) -> None:
        """The referee ended the game: the player to move sends GAMEEND (we do it too when
        the peer stays silent or sends a move, and at once when the peer lost by breaking
        a rule), then the other confirms."""
        game, us = record.game, record.colour
        if wait and game.turn != us:
            message = self._next(self.end_timeout)
            while message is not None and not isinstance(message, GameEnd | Move):
                message = self._next(self.end_timeout)
            if isinstance(message, GameEnd):
                record.peer_stops = message.stop == 1
                self.channel.send(GameEnd(0, stop))
                self._finish(record)
                return
        assert game.result is not None
        winner = game.result.winner
        reason = 2 if winner is None else (3 if winner == us else 1)
        self.channel.send(GameEnd(reason, stop))
        answer = self._next(self.end_timeout)
        while answer is not None and not isinstance(answer, GameEnd):
            answer = self._next(self.end_timeout)
        if answer is not None:
            record.peer_stops = answer.stop == 1
        self._finish(record)

    def _finish(self, record: DxpGame) -> None:
        result = record.game.result
        if result is not None:
            record.reason = result.reason
            self.log(f"result {result.pdn} ({result.reason})")
        else:
            self.log(f"result * ({record.reason})")


def connect(host: str, port: int, timeout: float = 10.0) -> Channel:
    """A connection to a Follower at ``host:port`` (for an Initiator)."""
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except OSError as error:
        raise ConnectionLostError(f"cannot connect to {host}:{port}: {error}") from None
    return Channel(sock)


def listen(host: str, port: int, backlog: int = 1) -> socket.socket:
    """A listening socket for a Follower (port 0 picks a free port)."""
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind((host, port))
    server.listen(backlog)
    return server


__all__ = [
    "DXP_PORT",
    "NOISE_SHOWN",
    "BackAcc",
    "BackReq",
    "Channel",
    "Chat",
    "ConnectionLostError",
    "DxpError",
    "DxpGame",
    "DxpSession",
    "GameAcc",
    "GameEnd",
    "GameReq",
    "IllegalDxpMoveError",
    "Message",
    "Move",
    "board_from_position",
    "connect",
    "decode",
    "legal_move",
    "listen",
    "move_message",
    "position_of",
]
