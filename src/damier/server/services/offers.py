"""A draw offered, accepted or declined: the game is drawn once every player still in wants
it; the computer declines at once."""

from __future__ import annotations

from typing import Literal

from sqlalchemy.ext.asyncio import AsyncSession

from damier.game import Game
from damier.server.i18n import tr
from damier.server.schemas import GameState
from damier.server.services.changes import change
from damier.server.services.context import Services
from damier.server.services.errors import Conflict
from damier.server.services.guards import player_seat, require_in_game, spend_offer
from damier.server.services.views import sitters
from damier.server.store.models import GameRow


async def draw_action(
    *,
    services: Services,
    game_id: str,
    player_id: str | None,
    action: Literal["offer", "accept", "decline"],
) -> GameState:
    """Offer, accept or decline a draw; the game is drawn once every player still in
    wants it. The computer declines at once."""

    async def draw(session: AsyncSession, row: GameRow, game: Game, now: float) -> None:
        seat = player_seat(row, player_id)
        require_in_game(row, game, seat)
        agreed = set() if game.draw_offer is None else {game.draw_offer, *game.draw_accepted}
        if action == "offer":
            if seat in agreed:
                raise Conflict(tr("your draw offer stands already"))
            spend_offer(services, row.id, seat, "draw offer")
            game.offer_draw(seat)
            seated = sitters(row)
            computers = [p for p in game.board.active_players if seated[p].kind == "computer"]
            if computers and game.result is None:
                game.decline_draw(computers[0])  # the computer plays on
        elif game.draw_offer is None or seat in agreed:
            raise Conflict(
                tr("there is no draw offer from your opponent to {action}", action=action)
            )
        elif action == "accept":
            game.accept_draw(seat)
        else:
            game.decline_draw(seat)
        return None

    return await change(services, game_id, draw, player_id)
