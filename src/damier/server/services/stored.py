"""A game's rows and its :class:`~damier.game.Game`: the game rebuilt from its stored moves
(when the one in memory is missing or behind the row), and the game's state copied into its
row."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from damier.game import Forfeit, Game, Result
from damier.rules.variants import UnknownVariantError
from damier.server.i18n import tr
from damier.server.services.clocks import clock_due, first_moves_made
from damier.server.services.context import Services
from damier.server.services.errors import NotFound, Unplayable
from damier.server.services.ratings import ABORTED
from damier.server.services.views import ranking_of
from damier.server.store.models import GameRow, MoveRow


async def load_row(session: AsyncSession, game_id: str, *, for_update: bool = False) -> GameRow:
    query = select(GameRow).where(GameRow.id == game_id)
    if for_update:
        query = query.with_for_update(of=GameRow)
    row = (await session.scalars(query)).unique().one_or_none()
    if row is None:
        raise NotFound(tr("no game {game}", game=repr(game_id)))
    return row


def rebuild(row: GameRow, moves: list[MoveRow], services: Services) -> Game:
    """The game of a row; :class:`Unplayable` when this server cannot replay it (one such
    game must not stop the start, the clock task or the other games)."""
    try:
        return _replay(row, moves, services)
    except UnknownVariantError:
        raise Unplayable(
            tr(
                "game {game} is played in variant {variant}, which this server has not "
                "loaded (was its variant file removed?): it is left as it is until the "
                "variant is back; its moves are in /api/games/{game}/pdn",
                game=row.id,
                variant=repr(row.variant),
            )
        ) from None
    except ValueError as error:
        # i18n: why the rules refuse a stored move (in English)
        raise Unplayable(
            tr(
                "game {game} does not replay on this server ({error}): it is left as it "
                "is; its moves are in /api/games/{game}/pdn",
                game=row.id,
                error=str(error),
            )
        ) from None


def _replay(row: GameRow, moves: list[MoveRow], services: Services) -> Game:
    """The game of a row, by replaying its stored moves and forfeits (resignations and
    time-outs of a game of more players) in their order, at their stored times."""
    game = Game(row.variant, fen=row.start_fen)
    forfeits = {seat.forfeit_index: seat for seat in row.seats if seat.forfeit_index is not None}
    pending = iter(moves)
    clock_due(row, game, row.started or 0.0, services)
    for index in range(len(moves) + len(forfeits)):
        seat = forfeits.get(index)
        if seat is not None:
            game.forfeit(seat.seat, seat.forfeit_reason or "", at=seat.forfeit_at)
        else:
            move = next(pending)
            game.push(move.notation, at=move.at)
            clock_due(row, game, move.at, services)
    if row.status == "finished" and game.result is None:
        if row.players == 2:
            game.result = Result(row.result_winner, row.result_reason or "")
        else:
            ranking = tuple(tuple(place) for place in ranking_of(row))
            game.result = Result.ranked(ranking, row.result_reason or "", row.players)
        if game.clock is not None:
            game.clock.stop(at=row.finished)
    game.draw_offer = row.draw_offer
    game.draw_accepted = {seat.seat for seat in row.seats if seat.draw} - {row.draw_offer}
    return game


async def row_game(services: Services, session: AsyncSession, row: GameRow) -> Game:
    """The row's game: the one in memory if it is at the row's version, else rebuilt (the
    caller keeps it once the transaction has committed)."""
    game = services.cached(row.id, row.version)
    if game is None:
        query = select(MoveRow).where(MoveRow.game_id == row.id).order_by(MoveRow.ply)
        moves = list((await session.scalars(query)).all())
        game = rebuild(row, moves, services)
    return game


def stored_columns(row: GameRow, game: Game, now: float, first_move: float) -> dict[str, Any]:
    """The row's columns that follow from the game's state at ``now``; ``first_move`` is
    the time a player has for his first move."""
    values: dict[str, Any] = {"ply": game.ply, "draw_offer": game.draw_offer, "updated": now}
    moved = game.ply != row.ply
    values["takeback_offer"] = None if moved else row.takeback_offer
    if game.result is None and row.status == "playing" and not first_moves_made(row, game):
        # Waiting for a player's first move: the game is aborted at flag_at.
        if game.clock is None and (moved or row.flag_at is None):
            values["flag_at"] = now + first_move
    else:
        values["flag_at"] = None
    if game.result is not None and row.status != "finished":
        aborted = game.result.reason == ABORTED
        values.update(
            status="finished",
            finished=now,
            result_pdn="*" if aborted else game.result.pdn,
            result_winner=game.result.winner,
            result_reason=game.result.reason,
            draw_offer=None,
        )
    clock = game.clock
    if clock is not None:
        running = clock.running
        if row.players == 2:  # more players keep their clocks on their seats
            values["clock_white"], values["clock_black"] = clock.snapshot(now)
        values["clock_running"] = running
        values["clock_since"] = now
        values["flag_at"] = None if running is None else now + clock.remaining(running, now)
    return values


def store(row: GameRow, game: Game, now: float, services: Services) -> None:
    """Copy the game's state into its row."""
    first_move = services.settings.first_move_seconds
    for column, value in stored_columns(row, game, now, first_move).items():
        setattr(row, column, value)
    if row.status == "finished":
        game.draw_offer = None
    if row.players != 2:
        _store_seats(row, game, now)


def _store_seats(row: GameRow, game: Game, now: float) -> None:
    """Copy what a game of more players keeps per seat: clocks, forfeits (new ones
    happened now), the draw agreement and, at the end, the places."""
    seats = row.seats
    if game.clock is not None:
        for seat, time in zip(seats, game.clock.snapshot(now), strict=True):
            seat.clock = time
    for index, event in enumerate(game.events):
        if isinstance(event, Forfeit) and seats[event.player].forfeit_index is None:
            seat = seats[event.player]
            seat.forfeit_index, seat.forfeit_reason, seat.forfeit_at = index, event.reason, now
    agreed = set() if game.draw_offer is None else {game.draw_offer, *game.draw_accepted}
    for seat in seats:
        seat.draw = seat.seat in agreed
    if game.result is not None:
        for place, players in enumerate(game.result.ranking):
            for player in players:
                seats[player].place = place


async def read_game(services: Services, game_id: str) -> tuple[GameRow, Game]:
    async with services.lock(game_id):
        async with services.database.snapshot() as session:  # the row and its moves agree
            row = await load_row(session, game_id)
            game = await row_game(services, session, row)
        services.keep(game_id, game, row.version, row)
        return row, game
