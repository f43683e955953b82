"""Reading a tournament's rows: its players still in, its scored games as results (an
arena's in arena points), its standings and tie-breaks, who is playing."""

from __future__ import annotations

from damier.server.services.tournaments.standings import (
    ARENA_TIES,
    ROUND_ROBIN_TIES,
    SWISS_TIES,
    Result,
    Standing,
    TieBreak,
    arena_points,
    standings,
)
from damier.server.store.models import TournamentGameRow, TournamentPlayerRow, TournamentRow


def tie_breaks(row: TournamentRow) -> tuple[TieBreak, ...]:
    if row.system == "arena":
        return ARENA_TIES
    return ROUND_ROBIN_TIES if row.system == "round-robin" else SWISS_TIES


def active(row: TournamentRow) -> list[TournamentPlayerRow]:
    return [entry for entry in row.players if entry.withdrawn is None]


def results(row: TournamentRow) -> list[Result]:
    """Every scored game, bye and default of the tournament, for the standings (a game's
    points are stored for the pairing's first and second player, whatever the colours);
    an arena's games count their arena points (:func:`arena_results`)."""
    if row.system == "arena":
        return arena_results(row)[0]
    return plain_results(row)


def plain_results(row: TournamentRow) -> list[Result]:
    """The scored games with their points as played (1, ½, 0)."""
    results = []
    for g in scored(row):
        assert g.white_points is not None and g.black_points is not None
        kind = g.kind == "game"
        results.append(
            Result(g.round, g.white_id, g.black_id, g.white_points, g.black_points, kind)
        )
    return results


def scored(row: TournamentRow) -> list[TournamentGameRow]:
    return [g for g in row.games if g.white_points is not None and g.black_points is not None]


def arena_results(row: TournamentRow) -> tuple[list[Result], set[str]]:
    """An arena's games with their arena points (2 a win, 1 a draw, double on fire), in
    the order played, and the players on fire now."""
    done = scored(row)
    sheets: dict[str, list[float]] = {}
    for game in done:  # each player's results in the order played
        assert game.white_points is not None and game.black_points is not None
        sheets.setdefault(game.white_id, []).append(game.white_points)
        if game.black_id is not None:
            sheets.setdefault(game.black_id, []).append(game.black_points)
    counted = {player: arena_points(sheet) for player, sheet in sheets.items()}
    taken = dict.fromkeys(sheets, 0)
    results = []
    for game in done:
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


def busy(row: TournamentRow) -> set[str]:
    """The players of the games not scored yet."""
    busy = set()
    for slot in row.games:
        if slot.white_points is None:
            busy.add(slot.white_id)
            if slot.black_id is not None:
                busy.add(slot.black_id)
    return busy


def table_of(row: TournamentRow) -> list[Standing]:
    ids = [entry.player_id for entry in row.players]
    return standings(ids, results(row), tie_breaks(row))
