"""A game as PDN: the players' names, the date and the game's address in its tags; a game
this server cannot replay is written as its rows record it."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select

from damier.game import Forfeit
from damier.notation.pdn import Node, PdnGame, dump_pdn, forfeit_text, write_pdn
from damier.server.schemas import COLORS
from damier.server.services.context import Services
from damier.server.services.errors import Unplayable
from damier.server.services.stored import load_row, read_game
from damier.server.services.views import seat_view
from damier.server.store.models import GameRow, MoveRow


async def game_pdn(
    *,
    services: Services,
    game_id: str,
    base_url: str = "",
    event: dict[str, str] | None = None,
) -> str:
    """The game as PDN, with the players' names (a tag per colour), the date, and the
    game's address on the site that serves it (``base_url``, the site's root); ``event``
    adds tags or replaces the event's (a match's ``Round``). A game this server cannot
    replay is written as its rows record it."""
    try:
        row, game = await read_game(services, game_id)
    except Unplayable:
        return await _stored_pdn(services, game_id, base_url)
    tags = _pdn_tags(row, game.result.pdn if game.result is not None else "*", base_url, event)
    return write_pdn(game, tags)


def _pdn_tags(
    row: GameRow, result: str, base_url: str = "", event: dict[str, str] | None = None
) -> dict[str, str]:
    created = datetime.fromtimestamp(row.created, UTC)
    tags = {
        "Event": "Damier game",
        "Site": f"{base_url.rstrip('/')}/games/{row.id}",
        "Date": created.strftime("%Y.%m.%d"),
        **(event or {}),
    }
    for seat in range(row.players):
        tags[COLORS[seat].capitalize()] = seat_view(row, seat).name or "?"
    tags["Result"] = result
    if row.clock_control is not None:
        tags["TimeControl"] = row.clock_control
    return tags


async def _stored_pdn(services: Services, game_id: str, base_url: str = "") -> str:
    """The PDN of a game from its rows alone: its moves and forfeits as stored."""
    async with services.database.session() as session:
        row = await load_row(session, game_id)
        query = select(MoveRow.notation).where(MoveRow.game_id == game_id).order_by(MoveRow.ply)
        moves = list((await session.scalars(query)).all())
        forfeits = {s.forfeit_index: s for s in row.seats if s.forfeit_index is not None}
        tags = _pdn_tags(row, row.result_pdn or "*", base_url)
        record = PdnGame(tags=tags, result=row.result_pdn or "*")
    record.tags.update(Variant=row.variant, FEN=row.start_fen)
    if row.result_reason:
        record.tags["Termination"] = row.result_reason
    pending = iter(moves)
    for index in range(len(moves) + len(forfeits)):
        seat = forfeits.get(index)
        text = (
            next(pending)
            if seat is None
            else forfeit_text(Forfeit(seat.seat, seat.forfeit_reason or ""))
        )
        record.moves.append(Node(text, 0, 0))
    return dump_pdn(record)
