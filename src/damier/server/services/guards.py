"""What every change of a game asked by a player checks first: that he sits at the game,
that it is being played and he is still in it, and that his offers do not come too fast."""

from __future__ import annotations

from damier.game import Game
from damier.server.i18n import tr
from damier.server.services.context import OFFER_EVERY, Services
from damier.server.services.errors import Conflict, Forbidden, RateLimited
from damier.server.services.views import seat_of
from damier.server.store.models import GameRow


def spend_offer(services: Services, game_id: str, seat: int, kind: str) -> None:
    """Refuse (429) an offer of ``kind`` made too soon after the player's last ones."""
    if not services.offer_limiter.take(f"{game_id}:{seat}:{kind}"):
        raise RateLimited(
            tr(
                "too many {kind}s in a row: wait {seconds} s before the next",
                kind=kind,
                seconds=f"{OFFER_EVERY:g}",
            )
        )


def player_seat(row: GameRow, player_id: str | None) -> int:
    seat = seat_of(row, player_id)
    if seat is None:
        raise Forbidden(tr("you are not a player of this game"))
    return seat


def require_playing(row: GameRow, game: Game) -> None:
    if row.status == "open":
        if row.players == 2:
            raise Conflict(tr("the game has not started: it waits for an opponent"))
        raise Conflict(tr("the game has not started: it waits for players for its open seats"))
    if row.status == "finished" or game.result is not None:
        raise Conflict(tr("the game is over"))


def require_in_game(row: GameRow, game: Game, seat: int) -> None:
    require_playing(row, game)
    if seat not in game.board.active_players:
        raise Conflict(tr("you are out of this game"))
