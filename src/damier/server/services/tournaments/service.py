"""The tournament service: create, join, withdraw, and move a tournament on.

A tournament's truth is in its rows (``store.models``): the tournament, its players, and
one :class:`TournamentGameRow` per game of each round paired so far. It moves on in
:func:`_settle`, under the tournament's lock and in one transaction: at the start time
round 1 is paired; a finished game is scored (a second leg starts when the first ends);
when every game of the round is scored, the next round is paired (stored with its games
in the same transaction, so a restart never pairs it again differently) or the tournament
ends. It runs whenever a tournament is read or changed, and from the clock task for those
nobody looks at. The games are ordinary games (``services.games``).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
from collections.abc import Awaitable, Callable

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.exc import StaleDataError

from damier.game import Game
from damier.server.services import games
from damier.server.services.context import Services
from damier.server.services.errors import BadRequest, Conflict, Forbidden, NotFound, ServiceError
from damier.server.services.players import new_id
from damier.server.services.ratings import ABORTED
from damier.server.services.tournaments.pairing import (
    ArenaPlayer,
    Pairing,
    SwissPlayer,
    arena_pairs,
    berger_rounds,
    swiss_round,
)
from damier.server.services.tournaments.schemas import (
    BoardView,
    CrossRow,
    Entrant,
    GameLink,
    NewTournament,
    RoundView,
    StandingView,
    TieBreakName,
    TournamentLists,
    TournamentSummary,
    TournamentView,
    YouView,
)
from damier.server.services.tournaments.standings import (
    ARENA_TIES,
    ROUND_ROBIN_TIES,
    SWISS_TIES,
    TIE_BREAK_NAMES,
    Result,
    Standing,
    TieBreak,
    arena_points,
    crosstable,
    standings,
)
from damier.server.services.views import Sitter
from damier.server.store.models import (
    GameRow,
    PlayerRow,
    RatingRow,
    TournamentGameRow,
    TournamentPlayerRow,
    TournamentRow,
)

log = logging.getLogger("damier.server")

MAX_ROUND_ROBIN = 20
"""The most players of a round robin (19 rounds, or 38 double)."""
MAX_SWISS = 100
DEFAULT_START = 300.0
"""Seconds from creation to the start when the creator does not say."""
BERSERK_MOVES = 7
"""The moves a berserk player must have made in a game he wins for its extra point."""
UNRATED = 1500.0
"""The rating that orders a player who has none in the variant."""
FORFEITS_TO_WITHDRAW = 2
"""Games lost without a move after which a player is withdrawn."""

Action = Callable[[AsyncSession, TournamentRow, float], Awaitable[None]]


# -- passwords ----------------------------------------------------------------------


def _hash_password(password: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=2**14, r=8, p=1)
    return f"{salt.hex()}${digest.hex()}"


def _password_ok(stored: str, password: str | None) -> bool:
    if password is None:
        return False
    salt, _, digest = stored.partition("$")
    given = hashlib.scrypt(password.encode(), salt=bytes.fromhex(salt), n=2**14, r=8, p=1)
    return hmac.compare_digest(given.hex(), digest)


# -- the format ---------------------------------------------------------------------


def tie_breaks(row: TournamentRow) -> tuple[TieBreak, ...]:
    if row.system == "arena":
        return ARENA_TIES
    return ROUND_ROBIN_TIES if row.system == "round-robin" else SWISS_TIES


def _active(row: TournamentRow) -> list[TournamentPlayerRow]:
    return [entry for entry in row.players if entry.withdrawn is None]


def _results(row: TournamentRow) -> list[Result]:
    """Every scored game, bye and default of the tournament, for the standings (a game's
    points are stored for the pairing's first and second player, whatever the colours);
    an arena's games count their arena points (:func:`_arena_results`)."""
    if row.system == "arena":
        return _arena_results(row)[0]
    return _plain_results(row)


def _plain_results(row: TournamentRow) -> list[Result]:
    """The scored games with their points as played (1, ½, 0)."""
    results = []
    for g in _scored(row):
        assert g.white_points is not None and g.black_points is not None
        kind = g.kind == "game"
        results.append(
            Result(g.round, g.white_id, g.black_id, g.white_points, g.black_points, kind)
        )
    return results


def _scored(row: TournamentRow) -> list[TournamentGameRow]:
    return [g for g in row.games if g.white_points is not None and g.black_points is not None]


def _arena_results(row: TournamentRow) -> tuple[list[Result], set[str]]:
    """An arena's games with their arena points (2 a win, 1 a draw, double on fire), in
    the order played, and the players on fire now."""
    scored = _scored(row)
    sheets: dict[str, list[float]] = {}
    for game in scored:  # each player's results in the order played
        assert game.white_points is not None and game.black_points is not None
        sheets.setdefault(game.white_id, []).append(game.white_points)
        if game.black_id is not None:
            sheets.setdefault(game.black_id, []).append(game.black_points)
    counted = {player: arena_points(sheet) for player, sheet in sheets.items()}
    taken = dict.fromkeys(sheets, 0)
    results = []
    for game in scored:
        points = []
        for player in (game.white_id, game.black_id):
            if player is None:
                points.append(0.0)
                continue
            bit = 1 if player == game.white_id else 2
            bonus = 1 if game.bonus & bit else 0
            points.append(float(counted[player][0][taken[player]] + bonus))
            taken[player] += 1
        white, black = points
        results.append(Result(game.round, game.white_id, game.black_id, white, black))
    return results, {player for player, (_, fire) in counted.items() if fire}


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
    for result in _results(row):
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
        for e in _active(row)
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
    active = _active(row)
    ids = [entry.player_id for entry in active]
    query = select(RatingRow).where(RatingRow.player_id.in_(ids), RatingRow.variant == row.variant)
    ratings = {rating.player_id: rating.rating for rating in (await session.scalars(query)).all()}
    active.sort(key=lambda entry: (-ratings.get(entry.player_id, UNRATED), entry.seed))
    for seed, entry in enumerate(active):
        entry.seed = seed
    row.players.sort(key=lambda entry: entry.seed)
    row.status = "playing"
    if row.system == "arena":
        return  # the players are paired as they come (:func:`_settle_arena`)
    if len(active) < 2:
        row.status, row.finished = "finished", now
        return
    if row.system == "round-robin":
        row.rounds = len(berger_rounds([e.player_id for e in active], row.cycles))
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


async def _settle(
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
        if row.round >= row.rounds or (row.system == "swiss" and len(_active(row)) < 2):
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


def _busy(row: TournamentRow) -> set[str]:
    """The players of the games not scored yet."""
    busy = set()
    for slot in row.games:
        if slot.white_points is None:
            busy.add(slot.white_id)
            if slot.black_id is not None:
                busy.add(slot.black_id)
    return busy


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
    busy = _busy(row)
    if now >= ends_at:
        if not busy:
            row.status, row.finished = "finished", now
        return
    free = [entry for entry in _active(row) if entry.player_id not in busy]
    if len(free) < 2:
        return
    scores: dict[str, float] = {}
    for result in _results(row):
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


async def _load(
    session: AsyncSession, tournament_id: str, *, for_update: bool = False
) -> TournamentRow:
    query = select(TournamentRow).where(TournamentRow.id == tournament_id)
    if for_update:
        query = query.with_for_update(of=TournamentRow)
    row = (await session.scalars(query)).unique().one_or_none()
    if row is None:
        raise NotFound(f"no tournament {tournament_id!r}")
    return row


async def _change(
    services: Services, tournament_id: str, action: Action | None, viewer: str | None
) -> TournamentView:
    """Apply ``action`` (if any) and move the tournament on, in one transaction; then
    announce the games it started."""
    async with services.lock(f"tournament:{tournament_id}"):
        now = services.now()
        try:
            async with services.database.session() as session, session.begin():
                row = await _load(session, tournament_id, for_update=True)
                if action is not None:
                    await action(session, row, now)
                started = await _settle(services, session, row, now)
                row.updated = now
                await session.flush()
                view = await _view(services, session, row, now, viewer)
        except (StaleDataError, IntegrityError):  # another process moved it on first
            raise Conflict("the tournament changed meanwhile: reload it") from None
    for game_row, game in started:
        await games.announce_game(services, game_row, game)
    return view


async def _due(session: AsyncSession, row: TournamentRow, now: float) -> bool:
    """Whether :func:`_settle` has something to do."""
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
        return now >= ends_at or len(_active(row)) >= 2
    query = select(GameRow.id).where(GameRow.id.in_(waiting), GameRow.status == "finished")
    if (await session.scalars(query)).first() is not None:
        return True
    if arena:  # players free while others play, or the end has come
        ends_at = row.ends_at if row.ends_at is not None else row.starts_at
        free = len([e for e in _active(row) if e.player_id not in _busy(row)])
        return now < ends_at and free >= 2
    return False


# -- views -----------------------------------------------------------------------------


def _points_text(points: float) -> str:
    return {1.0: "1", 0.5: "½", 0.0: "0"}.get(points, f"{points:g}")


def _summary(row: TournamentRow, table: list[Standing] | None = None) -> TournamentSummary:
    names = {entry.player_id: entry.player.name for entry in row.players}
    winner = None
    if row.status == "finished" and row.round > 0:
        table = table if table is not None else _table(row)
        winner = names.get(table[0].player) if table else None
    return TournamentSummary(
        id=row.id,
        name=row.name,
        variant=row.variant,
        clock=row.clock_control,
        system=row.system,  # type: ignore[arg-type]
        cycles=row.cycles,
        rounds=row.rounds,
        games=row.legs,
        status=row.status,  # type: ignore[arg-type]
        starts_at=row.starts_at,
        ends_at=row.ends_at,
        round=row.round,
        players=len(_active(row)),
        creator=row.creator.name,
        private=row.password_hash is not None,
        winner=winner,
    )


def _table(row: TournamentRow) -> list[Standing]:
    ids = [entry.player_id for entry in row.players]
    return standings(ids, _results(row), tie_breaks(row))


async def _view(
    services: Services, session: AsyncSession, row: TournamentRow, now: float, viewer: str | None
) -> TournamentView:
    names = {entry.player_id: entry.player.name for entry in row.players}
    withdrawn = {e.player_id for e in row.players if e.withdrawn is not None}
    ids = [g.game_id for g in row.games if g.game_id is not None]
    played: dict[str, GameRow] = {}
    if ids:
        query = select(GameRow).where(GameRow.id.in_(ids))
        played = {game.id: game for game in (await session.scalars(query)).unique().all()}
    table = _table(row) if row.round > 0 else []
    fire: set[str] = set()
    if row.system == "arena":  # wins, draws and losses from the games, not the points
        fire = _arena_results(row)[1]
        raw = standings([e.player_id for e in row.players], _plain_results(row), ())
        record = {line.player: line for line in raw}
        for line in table:
            plain = record[line.player]
            line.wins, line.draws, line.losses = plain.wins, plain.draws, plain.losses
    standings_view = [
        StandingView(
            rank=line.rank,
            id=line.player,
            name=names.get(line.player, "?"),
            score=line.score,
            games=line.games,
            wins=line.wins,
            draws=line.draws,
            losses=line.losses,
            ties=line.ties,
            withdrawn=line.player in withdrawn,
            fire=line.player in fire,
        )
        for line in table
    ]
    rounds: dict[int, dict[int, list[TournamentGameRow]]] = {}
    for slot in row.games:
        rounds.setdefault(slot.round, {}).setdefault(slot.board, []).append(slot)
    pairings = []
    for number, boards in sorted(rounds.items()):
        views = []
        for board, slots in sorted(boards.items()):
            first = slots[0]
            links = []
            for slot in slots:
                game = played.get(slot.game_id) if slot.game_id else None
                white = first.white_id if slot.leg == 0 else first.black_id
                result = None
                if slot.white_points is not None and slot.black_points is not None:
                    pair = (slot.white_points, slot.black_points)
                    if slot.leg == 1:
                        pair = pair[::-1]
                    result = "-".join(_points_text(p) for p in pair)
                elif game is not None and game.status == "finished" and game.result_pdn:
                    result = game.result_pdn
                links.append(
                    GameLink(
                        leg=slot.leg,
                        game=slot.game_id,
                        white=white,
                        white_points=slot.white_points,
                        black_points=slot.black_points,
                        result=result,
                    )
                )
            done = all(s.white_points is not None for s in slots)
            views.append(
                BoardView(
                    board=board,
                    kind=first.kind,  # type: ignore[arg-type]
                    white=Entrant(id=first.white_id, name=names.get(first.white_id, "?")),
                    black=None
                    if first.black_id is None
                    else Entrant(id=first.black_id, name=names.get(first.black_id, "?")),
                    games=links,
                    berserk=first.berserk,
                    bonus=first.bonus,
                    white_points=sum(s.white_points or 0.0 for s in slots) if done else None,
                    black_points=sum(s.black_points or 0.0 for s in slots) if done else None,
                )
            )
        pairings.append(RoundView(number=number, boards=views))
    cross = crosstable(_results(row))
    order = [line.player for line in table] if row.system != "arena" else []
    cross_rows = [
        CrossRow(
            id=player,
            name=names.get(player, "?"),
            cells=[
                "×"
                if other == player
                else " ".join(_points_text(p) for p in cross.get(player, {}).get(other, []))
                for other in order
            ],
        )
        for player in order
    ]
    you = None
    if viewer is not None:
        entry = next((e for e in row.players if e.player_id == viewer), None)
        current = None
        for slot in row.games:
            game = played.get(slot.game_id) if slot.game_id else None
            if (
                game is not None
                and game.status == "playing"
                and viewer
                in (
                    game.white_id,
                    game.black_id,
                )
            ):
                current = game.id
        you = YouView(
            joined=entry is not None,
            withdrawn=entry is not None and entry.withdrawn is not None,
            game=current,
            berserk=entry is not None and entry.berserk,
        )
    summary = _summary(row, table)
    return TournamentView(
        **summary.model_dump(),
        entrants=[Entrant(id=e.player_id, name=e.player.name) for e in _active(row)],
        tie_breaks=[TieBreakName(key=k, name=TIE_BREAK_NAMES[k]) for k in tie_breaks(row)],
        standings=standings_view,
        pairings=pairings,
        crosstable=cross_rows,
        you=you,
        cancelled=row.status == "finished" and row.round == 0,
        server_time=now,
    )


# -- the service functions ---------------------------------------------------------------


def _may_create(services: Services, player: PlayerRow) -> bool:
    if player.password_hash is None:
        return False
    allowed = [
        name.strip().casefold()
        for name in services.settings.tournament_creators.split(",")
        if name.strip()
    ]
    return not allowed or player.name.casefold() in allowed


async def create_tournament(
    *, services: Services, player_id: str, body: NewTournament
) -> TournamentView:
    """A new tournament, open for entries until its start; its creator must be a
    registered player (and one of ``tournament_creators`` when that setting names any)."""
    rules = games.rules_of(body.variant)
    if rules.players != 2:
        raise BadRequest(f"a tournament is for games of two players, not {rules.title}")
    control = games.check_clock(body.clock)
    if control is None:
        raise BadRequest("a tournament needs a clock: a player who leaves loses on time")
    if body.system == "swiss" and body.rounds is None:
        raise BadRequest("a Swiss tournament needs its number of rounds")
    if body.system == "arena" and body.minutes is None:
        raise BadRequest("an arena needs its length in minutes")
    now = services.now()
    if body.starts_at is not None:
        starts_at = body.starts_at
        if not now - 60 <= starts_at <= now + 30 * 86400:
            raise BadRequest("the start must be within the next 30 days")
    else:
        starts_at = now + (DEFAULT_START if body.starts_in is None else body.starts_in)
    tournament_id = new_id(8)
    hashed = await asyncio.to_thread(_hash_password, body.password) if body.password else None
    async with services.database.session() as session, session.begin():
        player = await session.get(PlayerRow, player_id)
        if player is None:
            raise Forbidden("unknown player: start a session first")
        if player.password_hash is None:
            raise Forbidden("only a registered player may create a tournament: register first")
        if not _may_create(services, player):
            raise Forbidden("tournaments are created by the site's organisers on this server")
        row = TournamentRow(
            id=tournament_id,
            name=body.name.strip(),
            variant=rules.name,
            clock_control=control,
            system=body.system,
            cycles=body.cycles if body.system == "round-robin" else 1,
            rounds=body.rounds if body.system == "swiss" and body.rounds else 0,
            legs=1 if body.system == "arena" else body.games,
            status="coming",
            starts_at=starts_at,
            ends_at=starts_at + 60 * body.minutes
            if body.system == "arena" and body.minutes
            else None,
            round=0,
            creator_id=player.id,
            creator=player,
            password_hash=hashed,
            created=now,
            updated=now,
            players=[],
            games=[],
        )
        session.add(row)
    return await _change(services, tournament_id, None, player_id)


async def join_tournament(
    *, services: Services, tournament_id: str, player_id: str, password: str | None
) -> TournamentView:
    """Enter a tournament: before its start, or during a Swiss (paired from the next
    round, with no points for the rounds missed). A withdrawn player may come back."""

    async def join(session: AsyncSession, row: TournamentRow, now: float) -> None:
        if row.status == "finished":
            raise Conflict("the tournament is over")
        entry = next((e for e in row.players if e.player_id == player_id), None)
        if entry is not None and entry.withdrawn is None:
            return
        stored = row.password_hash
        if stored is not None and not await asyncio.to_thread(_password_ok, stored, password):
            raise Forbidden("this tournament needs its password to join")
        if row.status == "playing" and row.system == "round-robin":
            raise Conflict("a round robin takes no new players once it has started")
        limit = MAX_ROUND_ROBIN if row.system == "round-robin" else MAX_SWISS
        if row.status == "playing" and row.ends_at is not None and now >= row.ends_at:
            raise Conflict("the arena is over: its last games are being played")
        if entry is None and len(_active(row)) >= limit:
            raise Conflict(f"the tournament is full ({limit} players)")
        if entry is not None:
            entry.withdrawn = None
            entry.forfeits = 0
            return
        player = await session.get(PlayerRow, player_id)
        if player is None:
            raise Forbidden("unknown player: start a session first")
        seed = max((e.seed for e in row.players), default=-1) + 1
        if row.status == "coming":
            seed = len(row.players)
        row.players.append(
            TournamentPlayerRow(
                player_id=player.id,
                player=player,
                seed=seed,
                joined=now,
                forfeits=0,
                berserk=False,
            )
        )

    return await _change(services, tournament_id, join, player_id)


async def withdraw(*, services: Services, tournament_id: str, player_id: str) -> TournamentView:
    """Leave a tournament: before the start the entry is removed; during it the player is
    paired no more (his game being played goes on: resign it or lose it on time)."""

    async def leave(session: AsyncSession, row: TournamentRow, now: float) -> None:
        entry = next((e for e in row.players if e.player_id == player_id), None)
        if entry is None or entry.withdrawn is not None:
            raise Conflict("you are not a player of this tournament")
        if row.status == "finished":
            raise Conflict("the tournament is over")
        if row.status == "coming":
            row.players.remove(entry)
            for seed, other in enumerate(row.players):
                other.seed = seed
        else:
            entry.withdrawn = now

    return await _change(services, tournament_id, leave, player_id)


async def set_berserk(
    *, services: Services, tournament_id: str, player_id: str, on: bool
) -> TournamentView:
    """In an arena: go berserk (or stop) in one's games paired from now on: half the time
    on the clock, a point more for a win of at least seven moves."""

    async def choose(session: AsyncSession, row: TournamentRow, now: float) -> None:
        if row.system != "arena":
            raise BadRequest("berserk is for arenas")
        entry = next((e for e in row.players if e.player_id == player_id), None)
        if entry is None:
            raise Conflict("you are not a player of this arena")
        entry.berserk = on

    return await _change(services, tournament_id, choose, player_id)


async def tournament_view(
    *, services: Services, tournament_id: str, viewer: str | None
) -> TournamentView:
    """The tournament as it is now (moved on first when something is due)."""
    async with services.database.session() as session:
        row = await _load(session, tournament_id)
        now = services.now()
        if not await _due(session, row, now):
            return await _view(services, session, row, now, viewer)
    return await _change(services, tournament_id, None, viewer)


async def list_tournaments(*, services: Services, limit: int = 50) -> TournamentLists:
    """The coming (soonest first), running, and recently finished tournaments."""
    lists: dict[str, list[TournamentSummary]] = {}
    async with services.database.session() as session:
        for status, order in (
            ("coming", TournamentRow.starts_at.asc()),
            ("playing", TournamentRow.starts_at.desc()),
            ("finished", TournamentRow.finished.desc()),
        ):
            query = select(TournamentRow).where(TournamentRow.status == status)
            rows = (await session.scalars(query.order_by(order).limit(limit))).unique().all()
            lists[status] = [_summary(row) for row in rows]
    return TournamentLists(**lists)


async def tournament_pdn(*, services: Services, tournament_id: str, base_url: str = "") -> str:
    """Every game of the tournament as PDN, with ``Event``, ``Round`` and ``Board`` tags
    (the second game of a pairing is round ``n.2``)."""
    async with services.database.session() as session:
        row = await _load(session, tournament_id)
        name, legs = row.name, row.legs
        slots = [(g.round, g.board, g.leg, g.game_id) for g in row.games if g.game_id]
    texts = []
    for number, board, leg, game_id in slots:
        round_ = f"{number}.{leg + 1}" if legs == 2 else str(number)
        event = {"Event": name, "Round": round_, "Board": str(board)}
        texts.append(
            await games.game_pdn(services=services, game_id=game_id, base_url=base_url, event=event)
        )
    return "\n".join(texts)


async def advance_tournaments(*, services: Services) -> int:
    """Move on the tournaments whose start is due, a game of whose round has ended, or an
    arena whose time is up (the clock task calls this); returns how many were moved."""
    now = services.now()
    starting = select(TournamentRow.id).where(
        TournamentRow.status == "coming", TournamentRow.starts_at <= now
    )
    ended = (
        select(TournamentGameRow.tournament_id)
        .join(GameRow, GameRow.id == TournamentGameRow.game_id)
        .where(TournamentGameRow.white_points.is_(None), GameRow.status == "finished")
    )
    over = select(TournamentRow.id).where(
        TournamentRow.status == "playing",
        TournamentRow.system == "arena",
        TournamentRow.ends_at <= now,
    )
    async with services.database.session() as session:
        ids = set((await session.scalars(starting)).all())
        ids |= set((await session.scalars(ended)).all())
        ids |= set((await session.scalars(over)).all())
        due = []
        for tournament_id in sorted(ids):
            row = await _load(session, tournament_id)
            if await _due(session, row, now):
                due.append(tournament_id)
    for tournament_id in due:
        try:
            await _change(services, tournament_id, None, None)
        except ServiceError as error:  # another process moved it on meanwhile
            log.info("tournament %s not moved on: %s", tournament_id, error.detail)
    return len(due)
