"""``damier play``: two people (or, on a multi-player board, up to eight) at one keyboard,
with the board, the legal moves, a clock and the result in the terminal."""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable
from typing import TextIO

from damier.clock import Clock
from damier.errors import IllegalMoveError
from damier.game import Game, Result
from damier.notation.pdn import PLAYER_TAGS, write_pdn
from damier.rules import Variant, get_variant

HELP = "Type a move (32-28, 28x19 or a full path), or: undo, draw (offer or accept), resign, quit."
NAMES = PLAYER_TAGS
"""Each player's name on screen: White, Black, Red, ..."""


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
) -> int:
    """Run a game until it ends or a player quits; returns 0."""
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

    say(f"{game.variant.title}. {HELP}")
    while game.result is None:
        say()
        say(str(game.board))
        if game.clock is not None:
            say("    " + _clock_line(game))
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
        names = {tag: tag for tag in NAMES[: game.variant.players]}
        record = write_pdn(game, names)
        try:
            with open(pdn_path, "w", encoding="utf-8") as handle:
                handle.write(record)
        except OSError as error:  # the game is not lost: it is shown instead
            say(f"cannot write {pdn_path} ({error.strerror}); the game:\n{record}")
            return 1
        say(f"saved to {pdn_path}")
    return 0
