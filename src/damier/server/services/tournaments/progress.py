"""Moving a tournament on (:func:`settle`): the start, the rounds' pairings, the games
started and scored, the arena's pairings as players come free, the end.

A round's pairings are stored with its games in the transaction that pairs it, so a
restart never pairs it again differently; :func:`settle` runs under the tournament's lock
(``service``), whenever a tournament is read or changed and from the clock task.
"""

from __future__ import annotations

import asyncio

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from damier.game import Game
from damier.server.services import games
from damier.server.services.context import Services
from damier.server.services.ratings import ABORTED
from damier.server.services.tournaments.pairing import (
    ArenaPlayer,
    Pairing,
    SwissPlayer,
    arena_pairs,
    berger_rounds,
    swiss_round,
)
from damier.server.services.tournaments.records import active, busy, results
from damier.server.services.views import Sitter
from damier.server.store.models import (
    GameRow,
    RatingRow,
    TournamentGameRow,
    TournamentPlayerRow,
    TournamentRow,
)

BERSERK_MOVES = 7
"""The moves a berserk player must have made in a game he wins for its extra point."""
UNRATED = 1500.0
"""The rating that orders a player who has none in the variant."""
FORFEITS_TO_WITHDRAW = 2
"""Games lost without a move after which a player is withdrawn."""


async def _pair_round(row: TournamentRow, number: int) -> list[Pairing]:
    """The pairings of round ``number`` (from 1); a Swiss's in a worker thread (a field
    of a hundred takes half a second)."""
    if row.system == "round-robin":
        seeds = [entry.player_id for entry in row.players]  # everyone in at the start
        return berger_rounds(seeds, row.cycles)[number - 1]
    return await asyncio.to_thread(swiss_round, _swiss_field(row))


def _swiss_field(row: TournamentRow) -> list[SwissPlayer]:
    """The players to pair in a Swiss's next round, with their past."""
    scores = {entry.player_id: 0.0 for entry in row.players}
    met: dict[str, set[str]] = {entry.player_id: set() for entry in row.players}
    colours: dict[str, list[int]] = {entry.player_id: [] for entry in row.players}
    byes: set[str] = set()
    for game in row.games:
        if game.kind == "bye":
            byes.add(game.white_id)
        elif game.black_id is not None:
            met[game.white_id].add(game.black_id)
            met[game.black_id].add(game.white_id)
            if game.kind == "game" and game.leg == 0:
                colours[game.white_id].append(0)
                colours[game.black_id].append(1)
    for result in results(row):
        scores[result.white] += result.white_points
        if result.black is not None:
            scores[result.black] += result.black_points
    field = [
        SwissPlayer(
            e.player_id,
            scores[e.player_id],
            met[e.player_id],
            colours[e.player_id],
            e.player_id in byes,
        )
        for e in active(row)
    ]
    return field


async def _store_round(row: TournamentRow, number: int) -> None:
    """Pair round ``number`` and store its games (none started yet)."""
    withdrawn = {entry.player_id for entry in row.players if entry.withdrawn is not None}
    bye_points = 0.0 if row.system == "round-robin" else 1.0
    for board, pairing in enumerate(await _pair_round(row, number), start=1):
        for leg in range(row.legs):
            game = TournamentGameRow(
                round=number,
                board=board,
                leg=leg,
                white_id=pairing.white,
                black_id=pairing.black,
                kind="game",
                berserk=0,
                bonus=0,
            )
            if pairing.black is None:
                if leg:
                    continue  # a bye is one entry, worth the pairing's points
                game.kind = "bye"
                game.white_points, game.black_points = bye_points * row.legs, 0.0
            elif pairing.white in withdrawn or pairing.black in withdrawn:
                game.kind = "default"
                game.white_points = 0.0 if pairing.white in withdrawn else 1.0
                game.black_points = 0.0 if pairing.black in withdrawn else 1.0
            row.games.append(game)
    row.round = number


async def _start(session: AsyncSession, row: TournamentRow, now: float) -> None:
    """Start at the start time: the players are numbered by rating in the variant (the
    unrated at 1500), then by order of entry; round 1 is paired (or the tournament is
    cancelled for want of players)."""
    present = active(row)
    ids = [entry.player_id for entry in present]
    query = select(RatingRow).where(RatingRow.player_id.in_(ids), RatingRow.variant == row.variant)
    ratings = {rating.player_id: rating.rating for rating in (await session.scalars(query)).all()}
    present.sort(key=lambda entry: (-ratings.get(entry.player_id, UNRATED), entry.seed))
    for seed, entry in enumerate(present):
        entry.seed = seed
    row.players.sort(key=lambda entry: entry.seed)
    row.status = "playing"
    if row.system == "arena":
        return  # the players are paired as they come (:func:`_settle_arena`)
    if len(present) < 2:
        row.status, row.finished = "finished", now
        return
    if row.system == "round-robin":
        row.rounds = len(berger_rounds([e.player_id for e in present], row.cycles))
    await _store_round(row, 1)


# -- scoring ------------------------------------------------------------------------


def _first(game: GameRow) -> int:
    """The seat that moves first in the game's start position (0 White, 1 Black)."""
    return 1 if game.start_fen.strip().upper().startswith("B") else 0


def _mover_at_end(game: GameRow) -> int:
    """The seat to move when the game ended."""
    return (_first(game) + game.ply) % 2


def _moves_of(game: GameRow, seat: int) -> int:
    return (game.ply + 1) // 2 if seat == _first(game) else game.ply // 2


def _score(game: GameRow) -> tuple[float, float, int | None]:
    """White's and Black's points from a finished game, and the seat that forfeited (lost
    without making a move) if one did. A game aborted because a player did not make his
    first move in time is lost by that player."""
    if game.result_reason == ABORTED:
        loser = _mover_at_end(game)
        points = (0.0, 1.0) if loser == 0 else (1.0, 0.0)
        return points[0], points[1], loser
    if game.result_winner is None:
        return 0.5, 0.5, None
    loser = 1 - game.result_winner
    forfeit = loser if "time" in (game.result_reason or "") and not _moves_of(game, loser) else None
    return (1.0, 0.0, forfeit) if game.result_winner == 0 else (0.0, 1.0, forfeit)


# -- moving a tournament on -----------------------------------------------------------


async def settle(
    services: Services, session: AsyncSession, row: TournamentRow, now: float
) -> list[tuple[GameRow, Game]]:
    """Start, score, start the games due, pair the next round or end; the games started
    (to announce once committed)."""
    started: list[tuple[GameRow, Game]] = []
    if row.status == "coming":
        if row.starts_at > now:
            return started
        await _start(session, row, now)
    entries = {entry.player_id: entry for entry in row.players}
    if row.system == "arena":
        if row.status == "playing":
            await _settle_arena(services, session, row, entries, now, started)
        return started
    while row.status == "playing":
        current = [g for g in row.games if g.round == row.round]
        await _score_games(session, current, entries, now)
        for slot in current:
            if slot.kind != "game" or slot.game_id is not None:
                continue
            if slot.leg == 1:
                first = next(g for g in current if g.board == slot.board and g.leg == 0)
                if first.white_points is None:
                    continue
            started.append(await _start_game(services, session, row, slot, entries, now))
        if any(slot.white_points is None for slot in current):
            break
        if row.round >= row.rounds or (row.system == "swiss" and len(active(row)) < 2):
            row.status, row.finished = "finished", now
            break
        await _store_round(row, row.round + 1)
    return started


async def _score_games(
    session: AsyncSession,
    slots: list[TournamentGameRow],
    entries: dict[str, TournamentPlayerRow],
    now: float,
) -> None:
    """Score the games of ``slots`` that have ended; count the forfeits (a player who
    lost two games without a move is withdrawn)."""
    for slot in slots:
        if slot.kind != "game" or slot.game_id is None or slot.white_points is not None:
            continue
        played = await session.get(GameRow, slot.game_id)
        if played is None or played.status != "finished":
            continue
        white, black, forfeit = _score(played)
        seated: tuple[str | None, ...] = (slot.white_id, slot.black_id)
        if slot.leg == 1:  # the colours were swapped
            white, black, seated = black, white, seated[::-1]
        slot.white_points, slot.black_points = white, black
        if slot.berserk and played.result_winner is not None:  # an arena's berserk bonus
            winner = played.result_winner
            if slot.berserk >> winner & 1 and _moves_of(played, winner) >= BERSERK_MOVES:
                slot.bonus = 1 << winner
        if forfeit is not None:
            entry = entries.get(seated[forfeit] or "")
            if entry is not None:
                entry.forfeits += 1
                if entry.forfeits >= FORFEITS_TO_WITHDRAW and entry.withdrawn is None:
                    entry.withdrawn = now


async def _settle_arena(
    services: Services,
    session: AsyncSession,
    row: TournamentRow,
    entries: dict[str, TournamentPlayerRow],
    now: float,
    started: list[tuple[GameRow, Game]],
) -> None:
    """An arena: score the games ended; until the end, pair at once every player who is
    free (by points); after it, end once the last game is over."""
    await _score_games(session, [g for g in row.games if g.white_points is None], entries, now)
    ends_at = row.ends_at if row.ends_at is not None else row.starts_at
    playing = busy(row)
    if now >= ends_at:
        if not playing:
            row.status, row.finished = "finished", now
        return
    free = [entry for entry in active(row) if entry.player_id not in playing]
    if len(free) < 2:
        return
    scores: dict[str, float] = {}
    for result in results(row):
        scores[result.white] = scores.get(result.white, 0.0) + result.white_points
        if result.black is not None:
            scores[result.black] = scores.get(result.black, 0.0) + result.black_points
    last: dict[str, str] = {}
    balance: dict[str, int] = {}
    for slot in row.games:
        if slot.black_id is None:
            continue
        last[slot.white_id], last[slot.black_id] = slot.black_id, slot.white_id
        balance[slot.white_id] = balance.get(slot.white_id, 0) + 1
        balance[slot.black_id] = balance.get(slot.black_id, 0) - 1
    waiting = [
        ArenaPlayer(
            e.player_id,
            scores.get(e.player_id, 0.0),
            last.get(e.player_id),
            balance.get(e.player_id, 0),
        )
        for e in free
    ]
    number = row.round + 1
    for board, pairing in enumerate(await asyncio.to_thread(arena_pairs, waiting), start=1):
        assert pairing.black is not None
        berserk = (1 if entries[pairing.white].berserk else 0) | (
            2 if entries[pairing.black].berserk else 0
        )
        slot = TournamentGameRow(
            round=number,
            board=board,
            leg=0,
            kind="game",
            white_id=pairing.white,
            black_id=pairing.black,
            berserk=berserk,
            bonus=0,
        )
        row.games.append(slot)
        started.append(await _start_game(services, session, row, slot, entries, now))
    row.round = number


async def _start_game(
    services: Services,
    session: AsyncSession,
    row: TournamentRow,
    slot: TournamentGameRow,
    entries: dict[str, TournamentPlayerRow],
    now: float,
) -> tuple[GameRow, Game]:
    """Create the game of ``slot`` (the second leg with the colours swapped)."""
    assert slot.black_id is not None
    white, black = entries[slot.white_id], entries[slot.black_id]
    if slot.leg == 1:
        white, black = black, white
    sitting = [Sitter("human", None, e.player_id, e.player) for e in (white, black)]
    game_row, game, moves = games.seated_game(
        services=services,
        variant=row.variant,
        sitting=sitting,
        control=row.clock_control,
        opening=(),
        match_id="",
        now=now,
    )
    game_row.match_id, game_row.tournament_id = None, row.id  # a tournament's, not a match's
    game_row.berserk = slot.berserk if slot.leg == 0 else 0  # (an arena has one leg)
    session.add(game_row)
    await session.flush()
    session.add_all(moves)
    slot.game_id = game_row.id
    await session.flush()
    return game_row, game


async def due(session: AsyncSession, row: TournamentRow, now: float) -> bool:
    """Whether :func:`settle` has something to do."""
    if row.status == "coming":
        return row.starts_at <= now
    if row.status != "playing":
        return False
    arena = row.system == "arena"
    waiting = [
        g.game_id
        for g in row.games
        if (arena or g.round == row.round) and g.white_points is None and g.game_id is not None
    ]
    if not waiting:
        if not arena:
            return True
        ends_at = row.ends_at if row.ends_at is not None else row.starts_at
        return now >= ends_at or len(active(row)) >= 2
    query = select(GameRow.id).where(GameRow.id.in_(waiting), GameRow.status == "finished")
    if (await session.scalars(query)).first() is not None:
        return True
    if arena:  # players free while others play, or the end has come
        ends_at = row.ends_at if row.ends_at is not None else row.starts_at
        free = len([e for e in active(row) if e.player_id not in busy(row)])
        return now < ends_at and free >= 2
    return False
