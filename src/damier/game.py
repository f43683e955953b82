"""The whole game: moves with their history, the end of the game and its reason, every
draw rule of the variant, draw offers, resignation, adjudication and clocks.

>>> game = Game("russian")
>>> game.push("c3-d4")
Move('22-18')
>>> game.result is None
True
>>> game.resign(1)
Result(winner=0, reason='resignation')
>>> game.result.pdn
'2-0'
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from damier.board import Board, Move
from damier.clock import Clock
from damier.rules import Variant
from damier.rules.draws import (
    BareMaterial,
    Endgame,
    Material,
    QuietMoves,
    Repetition,
    StableMaterial,
)


class GameOverError(ValueError):
    """A move or action on a game that has already ended."""


@dataclass(frozen=True)
class Result:
    """How a game ended: the winner (None for a draw) and why."""

    winner: int | None
    reason: str
    players: int = field(default=2, repr=False)

    @property
    def scores(self) -> tuple[float, ...]:
        """Points per player: 1 for a win, 0.5 each for a draw, 0 for a loss."""
        if self.winner is None:
            return tuple(0.5 for _ in range(self.players))
        return tuple(1.0 if p == self.winner else 0.0 for p in range(self.players))

    @property
    def pdn(self) -> str:
        """The PDN result: ``2-0``, ``1-1`` or ``0-2`` (White's score first)."""
        return {None: "1-1", 0: "2-0", 1: "0-2"}.get(self.winner, "*")


@dataclass(frozen=True)
class _Ply:
    """What the game remembers after each move, so that undo restores every counter."""

    move: Move | None
    mover: int | None
    key: int
    irreversible: bool
    quiet: int
    material: tuple[int, int, int, int]
    material_since: int
    endgames: tuple[tuple[int, int] | None, ...]
    """Per Endgame rule: (ply the count started, stronger player) while it applies."""


class Game:
    """A game of any variant from a start position, with its history and result.

    ``clock`` (optional) is started on creation; a move made after the mover's time ran out
    is refused and loses the game on time.
    """

    def __init__(
        self,
        variant: str | Variant = "international",
        fen: str | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.board = Board(variant, fen)
        """The current position."""
        self.start_fen = self.board.fen
        """The position the game started from."""
        self.clock = clock
        self.result: Result | None = None
        """None while the game goes on."""
        self.draw_offer: int | None = None
        """The player whose draw offer stands, if any."""
        self._plies: list[_Ply] = [self._record(None, None, None)]
        if clock is not None and clock.running is None:
            clock.start(player=self.board.turn)
        self._check_end()

    # -- state ---------------------------------------------------------------------

    @property
    def variant(self) -> Variant:
        return self.board.variant

    @property
    def moves(self) -> list[Move]:
        """The moves played, oldest first."""
        return self.board.move_stack

    @property
    def turn(self) -> int:
        return self.board.turn

    @property
    def ply(self) -> int:
        """Moves played so far."""
        return len(self._plies) - 1

    def _material(self) -> tuple[int, int, int, int]:
        cells = self.board.cells
        return (
            int(np.count_nonzero(cells == 2)),
            int(np.count_nonzero(cells == 1)),
            int(np.count_nonzero(cells == 4)),
            int(np.count_nonzero(cells == 3)),
        )

    def material_of(self, player: int) -> Material:
        """The material seen from ``player``'s side (for the draw rules)."""
        cells = self.board.cells
        diagonal = list(self.board.geometry.main_diagonal)
        own_king, other_king = 2 * player + 2, 2 * (1 - player) + 2
        return Material(
            kings=int(np.count_nonzero(cells == own_king)),
            men=int(np.count_nonzero(cells == own_king - 1)),
            opponent_kings=int(np.count_nonzero(cells == other_king)),
            opponent_men=int(np.count_nonzero(cells == other_king - 1)),
            kings_on_main_diagonal=int(np.count_nonzero(cells[diagonal] == own_king)),
            opponent_kings_on_main_diagonal=int(np.count_nonzero(cells[diagonal] == other_king)),
        )

    def _record(self, move: Move | None, mover: int | None, before: _Ply | None) -> _Ply:
        """The counters after ``move`` (None: the start position)."""
        ply = 0 if before is None else self.ply + 1
        material = self._material()
        irreversible = move is not None and (move.is_capture or self._was_man_move(move))
        quiet = 0 if before is None or irreversible else before.quiet + 1
        if before is None or material != before.material:
            material_since = ply
        else:
            material_since = before.material_since
        endgames: list[tuple[int, int] | None] = []
        rules = [r for r in self.variant.draw_rules if isinstance(r, Endgame)]
        for index, rule in enumerate(rules):
            fitting = [p for p in (0, 1) if rule.applies(self.material_of(p))]
            if not fitting:
                endgames.append(None)
                continue
            previous = None if before is None else before.endgames[index]
            # King v king fits both ways: the side counted so far stays the stronger one.
            keep = previous is not None and previous[1] in fitting
            strong = previous[1] if keep and previous is not None else fitting[0]
            # Only a capture starts a new count: a crowning keeps the same balance.
            changed = before is not None and sum(material) != sum(before.material) and rule.restarts
            if previous is not None and previous[1] == strong and not changed:
                endgames.append(previous)
            else:
                endgames.append((ply, strong))
        return _Ply(
            move=move,
            mover=mover,
            key=self.board.zobrist_hash(),
            irreversible=irreversible,
            quiet=quiet,
            material=material,
            material_since=material_since,
            endgames=tuple(endgames),
        )

    def _was_man_move(self, move: Move) -> bool:
        piece = self.board.piece_at(move.to_square)
        return piece is not None and (not piece[1] or move.crowns)

    # -- moves ---------------------------------------------------------------------

    def push(self, move: Move | str, at: float | None = None) -> Move:
        """Play ``move`` for the player to move; ends the game when a rule says so."""
        if self.result is not None:
            raise GameOverError(f"the game is over ({self.result.reason})")
        mover = self.board.turn
        if self.clock is not None and self.clock.flagged(at) == mover:
            self._finish(Result(1 - mover, "time forfeit"))
            raise GameOverError("time is up: the game is lost on time")
        before = self._plies[-1]
        played = self.board.push(move)
        if self.clock is not None:
            self.clock.press(mover, at)
        self._plies.append(self._record(played, mover, before))
        if self.draw_offer is not None and self.draw_offer != mover:
            self.draw_offer = None  # a move declines the opponent's offer
        self._check_end()
        return played

    def undo(self) -> Move:
        """Take back the last move (and any result it caused)."""
        if self.ply == 0:
            raise IndexError("no move to undo")
        self._plies.pop()
        self.result = None
        self.draw_offer = None
        return self.board.pop()

    # -- end of game ---------------------------------------------------------------

    def _finish(self, result: Result) -> Result:
        self.result = result
        if self.clock is not None:
            self.clock.stop()
        return result

    def _check_end(self) -> None:
        board = self.board
        if board.is_game_over():
            winner = board.winner()
            reason = "no pieces" if not self._has_pieces(board.turn) else "blocked"
            if board.crowned_player() is not None:
                reason = "crowned first"
            elif self.variant.giveaway:
                reason = f"{reason} (giveaway: no move wins)"
            self._finish(Result(winner, reason))
            return
        draw = self.draw_reason()
        if draw is not None:
            self._finish(Result(None, draw))

    def _has_pieces(self, player: int) -> bool:
        cells = self.board.cells
        return bool(np.any((cells == 2 * player + 1) | (cells == 2 * player + 2)))

    def draw_reason(self) -> str | None:
        """The draw rule that ends the game in the current position, if any."""
        now = self._plies[-1]
        endgame_index = 0
        for rule in self.variant.draw_rules:
            if isinstance(rule, Repetition):
                if self._repetitions() >= rule.times:
                    return rule.reason
            elif isinstance(rule, QuietMoves):
                if now.quiet >= rule.plies:
                    return rule.reason
            elif isinstance(rule, Endgame):
                state = now.endgames[endgame_index]
                endgame_index += 1
                if state is not None and self._counted(rule, *state) >= rule.limit:
                    return rule.reason
            elif isinstance(rule, StableMaterial):
                limit = rule.limit(self.material_of(0))
                if limit is not None and self.ply - now.material_since >= limit:
                    return rule.reason
            elif isinstance(rule, BareMaterial) and rule.applies(self.material_of(0)):
                return rule.reason
        return None

    def _counted(self, rule: Endgame, start: int, strong: int) -> int:
        """Moves counted by an endgame rule since ``start``."""
        plies = self._plies[start + 1 :]
        if rule.strong_moves_only:
            return sum(1 for p in plies if p.mover == strong)
        return len(plies)

    def _repetitions(self) -> int:
        """How often the current position has occurred since the last irreversible move."""
        key = self._plies[-1].key
        count = 0
        for ply in reversed(self._plies):
            count += ply.key == key
            if ply.irreversible:
                break
        return count

    def resign(self, player: int) -> Result:
        """``player`` resigns; his opponent wins."""
        self._require_playing()
        return self._finish(Result(1 - player, "resignation"))

    def offer_draw(self, player: int) -> Result | None:
        """``player`` offers a draw; if the opponent had offered one, it is agreed."""
        self._require_playing()
        if self.draw_offer is not None and self.draw_offer != player:
            return self._finish(Result(None, "agreement"))
        self.draw_offer = player
        return None

    def accept_draw(self, player: int) -> Result:
        """``player`` accepts the standing draw offer of his opponent."""
        self._require_playing()
        if self.draw_offer is None or self.draw_offer == player:
            raise ValueError("there is no draw offer from the opponent to accept")
        return self._finish(Result(None, "agreement"))

    def decline_draw(self, player: int) -> None:
        """``player`` declines the standing draw offer."""
        if self.draw_offer is not None and self.draw_offer != player:
            self.draw_offer = None

    def adjudicate(self, winner: int | None, reason: str = "adjudication") -> Result:
        """End the game by an arbiter's (or an engine's) decision."""
        self._require_playing()
        return self._finish(Result(winner, reason))

    def check_time(self, at: float | None = None) -> Result | None:
        """End the game if the player to move has run out of time."""
        if self.result is None and self.clock is not None:
            flagged = self.clock.flagged(at)
            if flagged is not None:
                return self._finish(Result(1 - flagged, "time forfeit"))
        return self.result

    def _require_playing(self) -> None:
        if self.result is not None:
            raise GameOverError(f"the game is over ({self.result.reason})")
