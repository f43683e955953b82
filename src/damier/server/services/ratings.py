"""Glicko-2 ratings per variant, after Mark Glickman's "Example of the Glicko-2 system"
(2013): a rating, its deviation (how sure we are of it) and a volatility (how erratic the
player's results are).

Every rated game is a rating period of its own for both players (the way online servers
use Glicko-2): each player's new rating is computed from the other's rating before the
game. Games are rated when both seats are registered human players.

>>> player = Rating(1500.0, 200.0, 0.06)
>>> games = [(Rating(1400.0, 30.0), 1.0), (Rating(1550.0, 100.0), 0.0),
...          (Rating(1700.0, 300.0), 0.0)]
>>> new = rate(player, games)
>>> round(new.rating, 2), round(new.deviation, 2), round(new.volatility, 6)
(1464.05, 151.52, 0.059996)
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from damier.server.store.history import RatingHistoryRow
from damier.server.store.models import GameRow, PlayerRow, RatingRow

log = logging.getLogger("damier.server")

INITIAL_RATING = 1500.0
INITIAL_DEVIATION = 350.0
INITIAL_VOLATILITY = 0.06
TAU = 0.5
"""The system constant: how much the volatility may change in a period."""
SCALE = 173.7178
"""Glicko-2's scale factor between the Glicko scale and its own (400 / ln 10)."""
EPSILON = 0.000001
"""Convergence tolerance of the volatility iteration."""


@dataclass(frozen=True)
class Rating:
    """A rating on the Glicko scale (1500 / 350 for a new player)."""

    rating: float = INITIAL_RATING
    deviation: float = INITIAL_DEVIATION
    volatility: float = INITIAL_VOLATILITY


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm on f(x) = 0."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, games: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after a rating period with ``games``: (opponent's rating before
    the period, score 1 / 0.5 / 0). Without games only the deviation grows (step 6)."""
    mu = (player.rating - INITIAL_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not games:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        deviation = min(phi_star * SCALE, INITIAL_DEVIATION)
        return Rating(player.rating, deviation, sigma)
    # Steps 3 and 4: the estimated variance and the estimated improvement.
    inverse_v = 0.0
    improvement = 0.0
    for opponent, score in games:
        mu_j = (opponent.rating - INITIAL_RATING) / SCALE
        phi_j = opponent.deviation / SCALE
        g = _g(phi_j)
        e = _expected(mu, mu_j, phi_j)
        inverse_v += g * g * e * (1.0 - e)
        improvement += g * (score - e)
    v = 1.0 / inverse_v
    delta = v * improvement
    # Steps 5 to 8: new volatility, pre-period deviation, new deviation and rating.
    sigma_new = _volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    return Rating(
        rating=SCALE * mu_new + INITIAL_RATING,
        deviation=min(SCALE * phi_new, INITIAL_DEVIATION),
        volatility=sigma_new,
    )


# -- the hook of finished games ----------------------------------------------------------

ABORTED = "aborted"
"""The reason of a game aborted before every player had moved: it has no result (``*``)
and is never rated."""


async def rate_game(session: AsyncSession, row: GameRow, now: float) -> bool:
    """Update both players' ratings in the game's variant if the finished game is rated
    (two registered human players; games of more players are never rated), and note each
    one's new rating in his history (``store.history``); in the transaction that finishes
    the game. Returns whether it was rated."""
    if (
        row.status != "finished"
        or row.players != 2
        or row.rated
        or row.white_kind != "human"
        or row.black_kind != "human"
        or row.white_id is None
        or row.black_id is None
        or row.white_id == row.black_id
        or row.result_pdn is None
        or row.result_reason == ABORTED
    ):
        return False
    ids = sorted({row.white_id, row.black_id})  # one lock order for every game
    players = {
        player.id: player
        for player in await session.scalars(
            select(PlayerRow).where(PlayerRow.id.in_(ids)).order_by(PlayerRow.id)
        )
    }
    if any(players.get(i) is None or players[i].password_hash is None for i in ids):
        return False
    query = (
        select(RatingRow)
        .where(RatingRow.player_id.in_(ids), RatingRow.variant == row.variant)
        .order_by(RatingRow.player_id)
        .with_for_update()
    )
    stored = {rating.player_id: rating for rating in await session.scalars(query)}
    rows: dict[str, RatingRow] = {}
    for player_id in ids:
        rating = stored.get(player_id)
        if rating is None:
            rating = RatingRow(
                player_id=player_id,
                variant=row.variant,
                rating=INITIAL_RATING,
                deviation=INITIAL_DEVIATION,
                volatility=INITIAL_VOLATILITY,
                games=0,
                updated=now,
            )
            session.add(rating)
        rows[player_id] = rating
    white, black = rows[row.white_id], rows[row.black_id]
    before_white = Rating(white.rating, white.deviation, white.volatility)
    before_black = Rating(black.rating, black.deviation, black.volatility)
    white_score = 0.5 if row.result_winner is None else 1.0 - row.result_winner
    for stored_row, new in (
        (white, rate(before_white, [(before_black, white_score)])),
        (black, rate(before_black, [(before_white, 1.0 - white_score)])),
    ):
        stored_row.rating = new.rating
        stored_row.deviation = new.deviation
        stored_row.volatility = new.volatility
        stored_row.games += 1
        stored_row.updated = now
        session.add(
            RatingHistoryRow(
                player_id=stored_row.player_id,
                game_id=row.id,
                variant=row.variant,
                at=now,
                rating=new.rating,
                deviation=new.deviation,
            )
        )
    row.rated = True
    return True
