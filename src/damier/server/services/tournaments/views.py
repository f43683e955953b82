"""What the API shows of a tournament: its summary, standings, pairings and crosstable."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from damier.server.services.context import Services
from damier.server.services.tournaments.records import (
    active,
    arena_results,
    plain_results,
    results,
    table_of,
    tie_breaks,
)
from damier.server.services.tournaments.schemas import (
    BoardView,
    CrossRow,
    Entrant,
    GameLink,
    RoundView,
    StandingView,
    TieBreakName,
    TournamentSummary,
    TournamentView,
    YouView,
)
from damier.server.services.tournaments.standings import (
    TIE_BREAK_NAMES,
    Standing,
    crosstable,
    standings,
)
from damier.server.store.models import GameRow, TournamentGameRow, TournamentRow


def _points_text(points: float) -> str:
    return {1.0: "1", 0.5: "½", 0.0: "0"}.get(points, f"{points:g}")


def summary(row: TournamentRow, table: list[Standing] | None = None) -> TournamentSummary:
    names = {entry.player_id: entry.player.name for entry in row.players}
    winner = None
    if row.status == "finished" and row.round > 0:
        table = table if table is not None else table_of(row)
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
        players=len(active(row)),
        creator=row.creator.name,
        private=row.password_hash is not None,
        winner=winner,
    )


async def view(
    services: Services, session: AsyncSession, row: TournamentRow, now: float, viewer: str | None
) -> TournamentView:
    names = {entry.player_id: entry.player.name for entry in row.players}
    withdrawn = {e.player_id for e in row.players if e.withdrawn is not None}
    ids = [g.game_id for g in row.games if g.game_id is not None]
    played: dict[str, GameRow] = {}
    if ids:
        query = select(GameRow).where(GameRow.id.in_(ids))
        played = {game.id: game for game in (await session.scalars(query)).unique().all()}
    table = table_of(row) if row.round > 0 else []
    fire: set[str] = set()
    if row.system == "arena":  # wins, draws and losses from the games, not the points
        fire = arena_results(row)[1]
        raw = standings([e.player_id for e in row.players], plain_results(row), ())
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
    cross = crosstable(results(row))
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
            paused=row.system == "arena" and entry is not None and entry.withdrawn is not None,
        )
    head = summary(row, table)
    return TournamentView(
        **head.model_dump(),
        entrants=[Entrant(id=e.player_id, name=e.player.name) for e in active(row)],
        tie_breaks=[TieBreakName(key=k, name=TIE_BREAK_NAMES[k]) for k in tie_breaks(row)],
        standings=standings_view,
        pairings=pairings,
        crosstable=cross_rows,
        you=you,
        cancelled=row.status == "finished" and row.round == 0,
        server_time=now,
    )
