"""The whole game: moves with their history, the end of the game and its reason, every
draw rule of the variant, draw offers, resignation, adjudication and clocks.

Multi-player boards (RULES.md 12.2) play the same game: a resignation or a time-out puts
one player out and the others play on; the game ends when one player (or team) is left,
by a draw rule, or when every player still in agrees to a draw. Its result is a ranking.

>>> game = Game("russian")
>>> game.push("c3-d4")
Move('22-18')
>>> game.result is None
True
>>> game.resign(1)
Result(winner=0, reason='resignation')
>>> game.result.pdn
'2-0'
>>> three = Game("tripad")
>>> three.resign(1) is None  # Black is out; White and Red play on
True
>>> three.resign(0)
Result(winner=2, reason='resignation', ranking=((2,), (0,), (1,)))
>>> three.result.scores
(0.5, 0.0, 1.0)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from damier.board import PLAYER_NAMES, Board, Move
from damier.clock import Clock
from damier.errors import FenError
from damier.geometry import Geometry, SquareGeometry
from damier.rules import Variant
from damier.rules.description import PLAYER_LETTERS
from damier.rules.draws import (
    BareMaterial,
    Endgame,
    Material,
    QuietMoves,
    QuietRounds,
    Repetition,
    StableMaterial,
)

Ranking = tuple[tuple[int, ...], ...]
"""Places, first to last; the players of one place share it."""


@cache
def _main_road(geometry: Geometry) -> npt.NDArray[np.intp]:
    """The cells of the long diagonal (the "main road" of the draw rules), which only
    rectangular boards have."""
    cells = sorted(geometry.main_diagonal) if isinstance(geometry, SquareGeometry) else []
    return np.array(cells, dtype=np.intp)


class GameOverError(ValueError):
    """A move or action on a game that has already ended."""


@dataclass(frozen=True, repr=False)
class Result:
    """How a game ended: the winner (None for a draw) and why, and every player's place.

    With more than two players ``winner`` is the player alone in first place, None when
    first place is shared (a draw among those still in, or a team's win).
    """

    winner: int | None
    reason: str
    players: int = 2
    ranking: Ranking = ()
    """Places, first to last. Left out, it is derived from ``winner``: the winner first
    and the others sharing second place, or (no winner) everybody sharing first."""

    def __post_init__(self) -> None:
        if self.ranking:
            return
        everybody = tuple(range(self.players))
        if self.winner is None:
            ranking: Ranking = (everybody,)
        else:
            ranking = ((self.winner,), tuple(p for p in everybody if p != self.winner))
        object.__setattr__(self, "ranking", ranking)

    @classmethod
    def ranked(cls, ranking: Ranking, reason: str, players: int) -> Result:
        """The result of a multi-player game from its places."""
        first = ranking[0]
        return cls(first[0] if len(first) == 1 else None, reason, players, ranking)

    @property
    def scores(self) -> tuple[float, ...]:
        """Points per player: place k of n is worth (n - 1 - k) / (n - 1), and players
        sharing places split their points. Two players: 1 for a win, 0.5 each for a draw,
        0 for a loss; every game hands out n / 2 points in all."""
        n = self.players
        points = [0.0] * n
        place = 0
        for group in self.ranking:
            worth = sum(n - 1 - k for k in range(place, place + len(group)))
            for player in group:
                points[player] = worth / (n - 1) / len(group)
            place += len(group)
        return tuple(points)

    @property
    def pdn(self) -> str:
        """The PDN result: ``2-0``, ``1-1`` or ``0-2`` (White's score first); ``*`` with
        more than two players, whose result is the ``Ranking`` tag (:attr:`ranking_text`)."""
        if self.players != 2:
            return "*"
        return {None: "1-1", 0: "2-0", 1: "0-2"}.get(self.winner, "*")

    @property
    def ranking_text(self) -> str:
        """The places by player letter, first to last: ``"R, W=B"`` (W and B share 2nd)."""
        return ", ".join("=".join(PLAYER_LETTERS[p] for p in group) for group in self.ranking)

    def __repr__(self) -> str:
        text = f"Result(winner={self.winner!r}, reason={self.reason!r}"
        if self.players != 2:
            text += f", ranking={self.ranking!r}"
        return text + ")"


@dataclass(frozen=True)
class Forfeit:
    """A player out of a multi-player game by resignation or time, not by a move."""

    player: int
    reason: str


@dataclass(frozen=True)
class _Ply:
    """What the game remembers after each move, so that undo restores every counter."""

    move: Move | None
    """None for the start position and for a forfeit."""
    mover: int | None
    moves: int
    """Moves played up to here (forfeits are not moves)."""
    forfeit: Forfeit | None
    out: tuple[int, ...]
    """The players this entry put out of the game (multi-player boards)."""
    key: int
    irreversible: bool
    quiet: int
    material: tuple[int, int, int, int]
    material_since: int
    endgames: tuple[tuple[int, int] | None, ...]
    """Per Endgame rule: (ply the count started, stronger player) while it applies."""


class Game:
    """A game of any variant from a start position, with its history and result.

    ``clock`` (optional, one time per player) is started on creation; a move made after the
    mover's time ran out is refused and loses the game on time (puts the mover out, on a
    multi-player board).
    """

    def __init__(
        self,
        variant: str | Variant = "international",
        fen: str | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.board = Board(variant, fen)
        """The current position."""
        if self._multiplayer and self._blocked_at_the_start():
            name = PLAYER_NAMES[self.board.turn]
            raise FenError(f"{name} is to move but cannot: give the turn to the next player")
        self.start_fen = self.board.fen
        """The position the game started from."""
        if clock is not None and clock.players != self.variant.players:
            raise ValueError(
                f"a clock for {clock.players} players cannot time a game of {self.variant.players}"
            )
        self.clock = clock
        self.result: Result | None = None
        """None while the game goes on."""
        self.draw_offer: int | None = None
        """The player whose draw offer stands, if any."""
        self.draw_accepted: set[int] = set()
        """Multi-player boards: who, besides the offerer, has accepted the standing offer."""
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
    def events(self) -> list[Move | Forfeit]:
        """The moves and forfeits, oldest first: what a record of the game must replay."""
        return [e for p in self._plies[1:] for e in (p.move, p.forfeit) if e is not None]

    @property
    def turn(self) -> int:
        return self.board.turn

    @property
    def ply(self) -> int:
        """Moves played so far."""
        return self._plies[-1].moves

    @property
    def _multiplayer(self) -> bool:
        return self.variant.players > 2

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
        pieces = np.bincount(cells, minlength=7)
        on_road = np.bincount(cells[_main_road(self.board.geometry)], minlength=7)
        own_king, other_king = 2 * player + 2, 2 * (1 - player) + 2
        return Material(
            kings=int(pieces[own_king]),
            men=int(pieces[own_king - 1]),
            opponent_kings=int(pieces[other_king]),
            opponent_men=int(pieces[other_king - 1]),
            kings_on_main_diagonal=int(on_road[own_king]),
            opponent_kings_on_main_diagonal=int(on_road[other_king]),
        )

    def _record(
        self,
        move: Move | None,
        mover: int | None,
        before: _Ply | None,
        forfeit: Forfeit | None = None,
        out: tuple[int, ...] = (),
    ) -> _Ply:
        """The counters after ``move`` or ``forfeit`` (neither: the start position).

        A forfeit counts as irreversible: pieces leave the board (or change hands) and the
        players still in are fewer, so no earlier position can come back."""
        index = 0 if before is None else len(self._plies)
        material = self._material()
        irreversible = forfeit is not None or (
            move is not None and (move.is_capture or self._was_man_move(move))
        )
        quiet = 0 if before is None or irreversible else before.quiet + 1
        if before is None or material != before.material:
            material_since = index
        else:
            material_since = before.material_since
        endgames: list[tuple[int, int] | None] = []
        rules = [r for r in self.variant.draw_rules if isinstance(r, Endgame)]
        sides = (self.material_of(0), self.material_of(1)) if rules else ()
        for rule_index, rule in enumerate(rules):
            fitting = [p for p in (0, 1) if rule.applies(sides[p])]
            if not fitting:
                endgames.append(None)
                continue
            previous = None if before is None else before.endgames[rule_index]
            # King v king fits both ways: the side counted so far stays the stronger one.
            keep = previous is not None and previous[1] in fitting
            strong = previous[1] if keep and previous is not None else fitting[0]
            # Only a capture starts a new count: a crowning keeps the same balance.
            changed = before is not None and sum(material) != sum(before.material) and rule.restarts
            if previous is not None and previous[1] == strong and not changed:
                endgames.append(previous)
            else:
                endgames.append((index, strong))
        return _Ply(
            move=move,
            mover=mover,
            moves=0 if before is None else before.moves + (move is not None),
            forfeit=forfeit,
            out=out,
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

    def _gone(self, active: tuple[int, ...]) -> tuple[int, ...]:
        """The players of ``active`` who are no longer in the game."""
        return tuple(p for p in active if p not in self.board.active_players)

    # -- moves ---------------------------------------------------------------------

    def push(self, move: Move | str, at: float | None = None) -> Move:
        """Play ``move`` for the player to move; ends the game when a rule says so."""
        self._require_playing()
        mover = self.board.turn
        if self.clock is not None and self.clock.flagged(at) == mover:
            self.forfeit(mover, "time forfeit", at)
            if not self._multiplayer:
                raise GameOverError("time is up: the game is lost on time")
            raise GameOverError(f"time is up: {PLAYER_NAMES[mover]} is out of the game")
        before = self._plies[-1]
        active = self.board.active_players
        played = self.board.push(move)
        if self.clock is not None:
            self.clock.press(mover, at, following=self.board.turn)
        out = self._gone(active)
        self._plies.append(self._record(played, mover, before, out=out))
        if mover not in self.draw_agreed or out:
            # A move declines the standing offer; an elimination changes what was offered.
            self._withdraw_draw()
        self._check_end()
        return played

    def undo(self, at: float | None = None) -> Move:
        """Take back the last move, or forfeit, and any result it caused (a forfeit
        comes back as the board's place-holder move ``(eliminated)``). The running player is
        charged up to ``at``; the clock then runs for the player to move again."""
        if len(self._plies) == 1:
            raise IndexError("no move to undo")
        self._plies.pop()
        self.result = None
        self._withdraw_draw()
        taken = self.board.pop()
        if self.clock is not None:  # the time spent until now stays spent
            self.clock.stop(at)
            self.clock.start(at, player=self.board.turn)
        return taken

    # -- end of game ---------------------------------------------------------------

    def _finish(self, result: Result) -> Result:
        self.result = result
        if self.clock is not None:
            self.clock.stop()
        return result

    def _check_end(self) -> None:
        if self._multiplayer:
            self._check_multiplayer_end()
            return
        board = self.board
        if board.is_game_over():
            winner = board.winner()
            reason = "no pieces" if not board.has_pieces(board.turn) else "blocked"
            if board.crowned_player() is not None:
                reason = "crowned first"
            elif self.variant.giveaway:
                reason = f"{reason} (giveaway: no move wins)"
            self._finish(Result(winner, reason))
            return
        draw = self.draw_reason()
        if draw is not None:
            self._finish(Result(None, draw))

    def _check_multiplayer_end(self) -> None:
        """One player or team left (in the giveaway form: a player out), nobody able to
        move (when blocked players pass), or a draw rule."""
        board = self.board
        if board.is_game_over():
            last = self._plies[-1]
            if board.winner() is None:
                reason = "nobody can move"
            elif last.forfeit is not None:
                reason = last.forfeit.reason
            elif self.variant.giveaway:
                reason = "out first (giveaway: no move wins)"
            elif self.variant.teams:
                reason = "last team standing"
            else:
                reason = "last player standing"
            self._finish(self._ranked(reason))
            return
        draw = self.draw_reason()
        if draw is not None:
            self._finish(self._ranked(draw))

    def ranking(self) -> Ranking:
        """The places of a multi-player game as it stands (what its result will say): the
        players still in share first place, those out follow in reverse order of
        elimination (those of one move sharing a place). In the giveaway form the players
        put out by play come first, oldest first, and a forfeit still ranks last. In team
        mode partners share their best member's place. Players without a piece in the
        start position come last."""
        put_out: list[tuple[int, ...]] = []  # giveaway: out by play, winners first
        fallen: list[tuple[int, ...]] = []  # out of the game, ranked newest first
        for ply in self._plies[1:]:
            if self.variant.giveaway and ply.forfeit is not None:
                quitter = ply.forfeit.player
                put_out.append(tuple(p for p in ply.out if p != quitter))
                fallen.append((quitter,))
            elif self.variant.giveaway:
                put_out.append(ply.out)
            else:
                fallen.append(ply.out)
        places = [*put_out, self.board.active_players, *reversed(fallen)]
        ranked = {p for place in places for p in place}
        # A player the start position gave no piece never played: he is last.
        places.append(tuple(p for p in range(self.variant.players) if p not in ranked))
        return self._team_places([place for place in places if place])

    def _team_places(self, places: list[tuple[int, ...]]) -> Ranking:
        """Places of players as places of teams: each team where its best member is."""
        if not self.variant.teams:
            return tuple(places)
        team_of = self.variant.team_of
        placed: set[int] = set()
        ranking = []
        for place in places:
            teams = {team_of[p] for p in place} - placed
            if teams:
                ranking.append(tuple(p for p in range(self.variant.players) if team_of[p] in teams))
                placed |= teams
        return tuple(ranking)

    def _blocked_at_the_start(self) -> bool:
        """Whether the player to move cannot, though another player could. After a move
        the board has already put such a player out (or let him pass); a position set up
        that way would end as if nobody could move."""
        board = self.board
        if board.legal_moves or board.winner() is not None:
            return False
        pieces = board.fen.split(":", 1)[1]
        return any(
            Board(self.variant, f"{PLAYER_LETTERS[player]}:{pieces}").legal_moves
            for player in board.active_players
        )

    def _ranked(self, reason: str) -> Result:
        return Result.ranked(self.ranking(), reason, self.variant.players)

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
            elif isinstance(rule, QuietRounds):
                # A round is one move of each player still in (a pass is no move).
                if now.quiet >= rule.rounds * len(self.board.active_players):
                    return rule.reason
            elif isinstance(rule, Endgame):
                state = now.endgames[endgame_index]
                endgame_index += 1
                if state is not None and self._counted(rule, *state) >= rule.limit:
                    return rule.reason
            elif isinstance(rule, StableMaterial):
                limit = rule.limit(self.material_of(0))
                if limit is not None and len(self._plies) - 1 - now.material_since >= limit:
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
        """How often the current position has occurred since the last irreversible move
        (the key holds the player to move and, on multi-player boards, who is still in)."""
        key = self._plies[-1].key
        count = 0
        for ply in reversed(self._plies):
            count += ply.key == key
            if ply.irreversible:
                break
        return count

    def forfeit(self, player: int, reason: str, at: float | None = None) -> Result | None:
        """``player`` loses by his own act or his clock. With two players his opponent
        wins; on a multi-player board he is out, the others play on, and the result is
        None unless that decides the game."""
        self._require_playing()
        if not self._multiplayer:
            return self._finish(Result(1 - player, reason))
        board = self.board
        if player not in board.active_players:
            raise ValueError(f"{PLAYER_NAMES[player]} is not in the game")
        before, active = self._plies[-1], board.active_players
        board.eliminate(player)
        event = Forfeit(player, reason)
        self._plies.append(self._record(None, None, before, event, self._gone(active)))
        self._withdraw_draw()
        if self.clock is not None and self.clock.running != board.turn:
            self.clock.start(at, player=board.turn)
        self._check_end()
        return self.result

    def resign(self, player: int, at: float | None = None) -> Result | None:
        """``player`` resigns: his opponent wins, or (multi-player) he is out."""
        return self.forfeit(player, "resignation", at)

    @property
    def draw_agreed(self) -> set[int]:
        """The players who want the standing draw: the offerer and those who accepted."""
        if self.draw_offer is None:
            return set()
        return {self.draw_offer, *self.draw_accepted}

    def _withdraw_draw(self) -> None:
        self.draw_offer = None
        self.draw_accepted = set()

    def _require_in_game(self, player: int) -> None:
        self._require_playing()
        if player not in self.board.active_players:
            raise ValueError(f"{PLAYER_NAMES[player]} is not in the game")

    def offer_draw(self, player: int) -> Result | None:
        """``player`` offers a draw; if another player's offer stands, he accepts it."""
        self._require_in_game(player)
        if self.draw_offer is not None and player not in self.draw_agreed:
            return self.accept_draw(player)
        if self.draw_offer is None:
            self.draw_offer = player
        return None

    def accept_draw(self, player: int) -> Result | None:
        """``player`` accepts the standing draw offer; the game is drawn once every player
        still in wants it (with two players: at once). None while some have not agreed."""
        self._require_in_game(player)
        if self.draw_offer is None or player in self.draw_agreed:
            raise ValueError("there is no draw offer from the opponent to accept")
        self.draw_accepted.add(player)
        if not self._multiplayer:
            return self._finish(Result(None, "agreement"))
        if set(self.board.active_players) <= self.draw_agreed:
            return self._finish(self._ranked("agreement"))
        return None

    def decline_draw(self, player: int) -> None:
        """``player`` declines the standing draw offer (unless it is his own)."""
        if self.draw_offer is not None and self.draw_offer != player:
            self._withdraw_draw()

    def adjudicate(
        self, winner: int | None, reason: str = "adjudication", ranking: Ranking | None = None
    ) -> Result:
        """End the game by an arbiter's (or an engine's) decision. On a multi-player board
        ``ranking`` gives every place; without it ``winner`` (or, if None, every player
        still in) takes first place and the others keep their order."""
        self._require_playing()
        if not self._multiplayer:
            return self._finish(Result(winner, reason))
        if ranking is None:
            places = self.ranking()
            if winner is not None:
                rest = [tuple(p for p in place if p != winner) for place in places]
                places = ((winner,), *(place for place in rest if place))
            ranking = places
        return self._finish(Result.ranked(ranking, reason, self.variant.players))

    def check_time(self, at: float | None = None) -> Result | None:
        """End the game (or, multi-player, put the player out) if the player to move has
        run out of time."""
        if self.result is None and self.clock is not None:
            flagged = self.clock.flagged(at)
            if flagged is not None:
                return self.forfeit(flagged, "time forfeit", at)
        return self.result

    def _require_playing(self) -> None:
        if self.result is not None:
            raise GameOverError(f"the game is over ({self.result.reason})")
