"""``damier play``: two people (or, on a multi-player board, up to eight) at one keyboard,
or against the computer, with the board, the legal moves, a clock and the result in the
terminal."""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, TextIO

from damier.board import PLAYER_NAMES
from damier.clock import Clock
from damier.errors import IllegalMoveError
from damier.game import Game, Result
from damier.notation.pdn import PLAYER_TAGS, write_pdn
from damier.rules import Variant, get_variant

if TYPE_CHECKING:
    from damier.engine import Engine

HELP = "Type a move (32-28, 28x19 or a full path), or: undo, draw (offer or accept), resign, quit."
NAMES = PLAYER_TAGS
"""Each player's name on screen: White, Black, Red, ..."""
THINK = 1.0
"""The most the computer thinks on a move by default (seconds), as on the platform."""


def parse_seats(text: str, players: int) -> frozenset[int]:
    """The players the computer plays, from ``black``, ``white,black`` or ``all`` (on a
    multi-player board, its colours: ``red,green``)."""
    names = PLAYER_NAMES[:players]
    if text.strip().lower() == "all":
        return frozenset(range(players))
    seats = set()
    for word in text.lower().split(","):
        if word.strip() not in names:
            raise ValueError(f"--computer {text!r}: name {', '.join(names)} or all")
        seats.add(names.index(word.strip()))
    return frozenset(seats)


def parse_clock(
    text: str | None, now: Callable[[], float] = time.monotonic, players: int = 2
) -> Clock | None:
    """A clock from ``5+3`` (minutes + seconds increment), ``10`` (minutes),
    ``30/move`` or ``30/move+600`` (elastic: seconds a move + reserve)."""
    if not text:
        return None
    if not text.isascii():  # \d and float() would read other scripts' digits: ٥+٣ as 5+3
        raise ValueError(f"clock {text[:32]!r}: write it with the digits 0-9, as 5+3 or 10")
    if match := re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)/move(?:\+([0-9]+(?:\.[0-9]+)?))?", text):
        per_move, reserve = float(match.group(1)), match.group(2)
        if reserve is None:
            return Clock.per_move(per_move, players, now=now)
        return Clock.elastic(per_move, float(reserve), players, now=now)
    if match := re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)(?:\+([0-9]+(?:\.[0-9]+)?))?", text):
        minutes, increment = float(match.group(1)), match.group(2)
        if increment is None:
            return Clock.sudden_death(minutes * 60, players, now=now)
        return Clock.fischer(minutes * 60, float(increment), players, now=now)
    raise ValueError(f"clock {text!r}: write 5+3, 10, 30/move or 30/move+600")


def _clock_line(game: Game) -> str:
    if game.clock is None:
        return ""
    times = game.clock.snapshot()
    return "  ".join(
        f"{NAMES[p]} {int(max(t, 0)) // 60}:{int(max(t, 0)) % 60:02d}"
        for p, t in enumerate(times)
        if p in game.board.active_players
    )


def _offer_line(game: Game) -> str:
    """Who offers a draw, and (multi-player) who has agreed so far."""
    assert game.draw_offer is not None
    text = f"    {NAMES[game.draw_offer]} offers a draw"
    if game.variant.players > 2:
        agreed = ", ".join(NAMES[p] for p in sorted(game.draw_agreed))
        text += f" (agreed: {agreed})"
    return text + ": type draw to accept"


def _result_line(result: Result) -> str:
    """``result: 2-0 (White wins: resignation)``; with more players, the ranking."""
    if result.players == 2:
        winner = "draw" if result.winner is None else f"{NAMES[result.winner]} wins"
        return f"result: {result.pdn} ({winner}: {result.reason})"
    first = result.ranking[0]
    if len(first) == 1:
        winner = f"{NAMES[first[0]]} wins"
    else:
        winner = " and ".join(NAMES[p] for p in first) + " share first place"
    return f"result: {result.ranking_text} ({winner}: {result.reason})"


def play_in_terminal(
    variant: str | Variant,
    fen: str | None = None,
    clock: str | None = None,
    pdn_path: str | None = None,
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
    computer: Collection[int] = (),
    level: int = 10,
    think: float = THINK,
) -> int:
    """Run a game until it ends or a player quits; returns 0. ``computer``: the players
    the engine plays, at ``level``, thinking at most ``think`` seconds a move (less when
    the clock runs short)."""
    players = get_variant(variant).players
    if pdn_path:  # a file that cannot be written is said before the game, not after it
        with open(pdn_path, "a", encoding="utf-8"):
            pass
    timer = parse_clock(clock, players=players)
    if timer is not None and not 0 < timer.control.base < float("inf"):
        # (A clock of nothing would lose the game on time before its first move.)
        raise ValueError(f"clock {clock!r}: give some time, as 5+3, 10 or 30/move")
    game = Game(variant, fen, clock=timer)

    def say(text: str = "") -> None:
        print(text, file=stdout, flush=True)

    engine = _engine(game.variant, level, say) if computer else None
    say(f"{game.variant.title}. {HELP}")
    while game.result is None:
        say()
        say(str(game.board))
        if game.clock is not None:
            say("    " + _clock_line(game))
        if engine is not None and game.turn in computer:
            if game.draw_offer is not None and game.draw_offer not in computer:
                say(f"{NAMES[game.turn]} (the computer) declines the draw and plays on")
                game.decline_draw(game.turn)
            move = _computer_move(game, engine, level, think)
            say(f"{NAMES[game.turn]} (the computer, level {level}) plays {move}")
            try:
                game.push(move)
            except ValueError as error:  # the game ended on time
                say(str(error))
            game.check_time()
            continue
        say("    moves: " + " ".join(m.notation for m in game.board.legal_moves))
        if game.draw_offer is not None:
            say(_offer_line(game))
        stdout.write(f"{NAMES[game.turn]}> ")
        stdout.flush()
        line = stdin.readline()
        if not line:
            say("\nend of input: the game is left unfinished")
            break
        command = line.strip().lower()
        if not command:
            continue
        if command in ("quit", "exit"):
            say("the game is left unfinished")
            break
        if command == "help":
            say(HELP)
        elif command == "undo":
            try:
                game.undo()
                # Against the computer, back to the last position a person was to move in.
                while game.turn in computer and len(game.board.move_stack) > 0:
                    game.undo()
            except IndexError as error:
                say(f"cannot undo: {error}")
        elif command == "resign":
            say(f"{NAMES[game.turn]} resigns")
            game.resign(game.turn)
        elif command == "draw":
            if game.draw_offer is not None and game.turn not in game.draw_agreed:
                game.accept_draw(game.turn)
            else:
                game.offer_draw(game.turn)
                say(f"{NAMES[game.turn]} offers a draw; it stands until the next move")
        else:
            try:
                game.push(line.strip())
            except IllegalMoveError as error:
                say(f"illegal: {error}")
            except ValueError as error:  # the game ended on time
                say(str(error))
        game.check_time()
    if game.result is not None:
        say()
        say(str(game.board))
        say(_result_line(game.result))
    if pdn_path:
        names = {
            tag: f"Damier (level {level})" if seat in computer else tag
            for seat, tag in enumerate(NAMES[: game.variant.players])
        }
        record = write_pdn(game, names)
        try:
            with open(pdn_path, "w", encoding="utf-8") as handle:
                handle.write(record)
        except OSError as error:  # the game is not lost: it is shown instead
            say(f"cannot write {pdn_path} ({error.strerror}); the game:\n{record}")
            return 1
        say(f"saved to {pdn_path}")
    return 0


def _engine(variant: Variant, level: int, say: Callable[[str], None]) -> Engine:
    """The computer's engine, its compiled code made ready first (and said, if that means
    compiling; a variant file's engine compiles at its first search)."""
    from damier.compiled import load_engine
    from damier.engine import Engine
    from damier.rules.variants import UnknownVariantError

    try:
        known = get_variant(variant.name) == variant
    except UnknownVariantError:
        known = False
    if known:
        load_engine(variant.name, say)
    return Engine(variant, level=level)


def _computer_move(game: Game, engine: Engine, level: int, think: float) -> str:
    """The engine's move for the player to move, in the time its clock allows."""
    from damier.engine import move_time

    remaining = increment = None
    if game.clock is not None:
        remaining = game.clock.remaining(game.turn)
        increment = game.clock.control.increment
    seconds = move_time(level, think, remaining, increment or 0.0)
    best = engine.search(game.board.copy(), time=seconds).best_move
    return (best or game.board.legal_moves[0]).notation
