"""Matches (RULES.md decision 4, ``damier.match``): a series of games between two players,
colours alternating, openings drawn from the variant's deck, scored 1 / ½ / 0.

A match's truth is in its rows: ``matches`` and one ``match_games`` row per game, the coming
game's included (its colours and opening are drawn when the game before it ends, so that a
restart shows the same ones). A match moves on in :func:`_settle`, under the match's lock and
in one transaction: a finished game is scored, the coming game planned, and the coming game
started once both players are ready or its time has come. It runs whenever a match is read
or changed, and from the clock task for the matches nobody looks at. The games themselves
are ordinary games (``services.games``): moves, clocks, resignations and ratings as usual.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Awaitable, Callable
from functools import lru_cache

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.exc import StaleDataError

from damier.game import Game, Result
from damier.match import (
    SPANISH_MATCH,
    VARIANT_DECKS,
    GameSetup,
    Match,
    MatchFormat,
    OpeningDeck,
    balanced_match,
)
from damier.rules import Variant
from damier.server.i18n import DEFAULT, localize, tr, tr_n
from damier.server.schemas import (
    MatchGame,
    MatchPlan,
    MatchPlayer,
    MatchState,
    Mode,
    ModeCheck,
    ModesView,
    NowGroup,
    NowView,
    PlayingEntry,
    WaitingEntry,
)
from damier.server.services import games
from damier.server.services.clocks import check_clock
from damier.server.services.context import Services
from damier.server.services.errors import BadRequest, Conflict, Forbidden, NotFound
from damier.server.services.pdn import game_pdn
from damier.server.services.players import new_id
from damier.server.services.views import (
    Sitter,
    is_guest,
    mode_of,
    result_view,
    seat_view,
    sitters,
)
from damier.server.store.models import GameRow, MatchGameRow, MatchRow, PlayerRow

LENGTHS = (2, 4, 6)
"""The lengths of a match other than the Spanish one."""
FIRST, SECOND = "first", "second"
"""The players' names in :class:`damier.match.Match` (the first has White in game 1)."""

Action = Callable[[AsyncSession, MatchRow, float], Awaitable[None]]


# -- the format --------------------------------------------------------------------


@lru_cache(maxsize=8)
def _deck(name: str) -> OpeningDeck:
    return OpeningDeck.builtin(name)


def match_plan(rules: Variant, games: int | None) -> tuple[MatchFormat, OpeningDeck | None]:
    """The format of a match of ``games`` games (None: the usual length) in ``rules``; 400
    when the variant has no matches or not of that length."""
    if rules.players != 2:
        raise BadRequest(
            tr_n(
                "a match is for two players: {variant} is a game of {n} player",
                "a match is for two players: {variant} is a game of {n} players",
                rules.players,
                variant=rules.title,
            )
        )
    deck = _deck(VARIANT_DECKS[rules.name]) if rules.name in VARIANT_DECKS else None
    if rules.name == "spanish":
        if games not in (None, SPANISH_MATCH.games):
            raise BadRequest(tr("the Spanish match has 4 games"))
        return SPANISH_MATCH, deck
    length = 4 if games is None else games
    if length not in LENGTHS:
        raise BadRequest(tr("a match has 2, 4 or 6 games, not {n}", n=length))
    return (balanced_match(length) if deck is not None else MatchFormat(games=length)), deck


def _format(row: MatchRow) -> MatchFormat:
    numbers = tuple(int(n) for n in row.opening_games.split(",") if n)
    return MatchFormat(games=row.games, opening_games=numbers)


def _setup(round_: MatchGameRow) -> GameSetup:
    white, black = (FIRST, SECOND) if round_.first_white else (SECOND, FIRST)
    return GameSetup(round_.number, white, black, tuple(round_.opening.split()))


def _match(row: MatchRow) -> Match:
    """The library's match, restored from the games scored so far."""
    results = []
    for round_ in row.rounds:
        if round_.first_points is None:
            continue
        if round_.first_points == 0.5:
            winner = None
        else:  # White won if the first player won with White or lost with Black
            winner = 0 if (round_.first_points == 1.0) == round_.first_white else 1
        results.append((_setup(round_), Result(winner, "")))
    deck = _deck(row.deck) if row.deck else None
    return Match(row.variant, (FIRST, SECOND), _format(row), deck, random.SystemRandom(), results)


def _plan(row: MatchRow, match: Match) -> None:
    """Draw the coming game (colours, opening) and store it, or end the match."""
    setup = match.next_game()
    if setup is None:
        row.status = "finished"
        row.next_at = None
        return
    row.rounds.append(
        MatchGameRow(
            number=setup.number, first_white=setup.white == FIRST, opening=" ".join(setup.opening)
        )
    )


# -- seats ---------------------------------------------------------------------------


def _side(row: MatchRow, side: int) -> Sitter:
    if side == 0:
        return Sitter(row.first_kind, row.first_level, row.first_id, row.first)
    return Sitter(row.second_kind, row.second_level, row.second_id, row.second)


def _side_of(row: MatchRow, player_id: str | None) -> int | None:
    if player_id is None:
        return None
    for side in (0, 1):
        sitter = _side(row, side)
        if sitter.kind == "human" and sitter.player_id == player_id:
            return side
    return None


def _name(sitter: Sitter) -> str:
    if sitter.kind == "computer":
        return f"Computer (level {sitter.level})"
    return sitter.player.name if sitter.player is not None else ""


def _set_ready(row: MatchRow, side: int, ready: bool) -> None:
    if side == 0:
        row.first_ready = ready
    else:
        row.second_ready = ready


def _unready(row: MatchRow) -> None:
    """Nobody is ready for the coming game but the computer (always ready)."""
    row.first_ready = row.first_kind == "computer"
    row.second_ready = row.second_kind == "computer"


# -- moving a match on ----------------------------------------------------------------


def _points(game: GameRow, first_white: bool) -> float:
    """The first player's points from a finished two-player game."""
    if game.result_winner is None:
        return 0.5
    return 1.0 if (game.result_winner == 0) == first_white else 0.0


async def _settle(
    services: Services, session: AsyncSession, row: MatchRow, now: float
) -> list[tuple[GameRow, Game]]:
    """Score the game just finished and plan the next, start the coming game when it may
    start; the games started (to announce once committed)."""
    if row.status != "playing" or not row.rounds:
        return []
    current = row.rounds[-1]
    if current.game_id is not None and current.first_points is None:
        ended = await session.get(GameRow, current.game_id)
        if ended is None or ended.status != "finished":
            return []
        current.first_points = _points(ended, current.first_white)
        _plan(row, _match(row))
        if row.status == "finished":
            row.finished = now
            return []
        row.next_at = now + services.settings.match_pause
        _unready(row)
    current = row.rounds[-1]
    due = row.next_at is not None and row.next_at <= now
    if current.game_id is not None or not ((row.first_ready and row.second_ready) or due):
        return []
    white, black = (0, 1) if current.first_white else (1, 0)
    game_row, game, moves = games.seated_game(
        services=services,
        variant=row.variant,
        sitting=[_side(row, white), _side(row, black)],
        control=row.clock_control,
        opening=tuple(current.opening.split()),
        match_id=row.id,
        now=now,
    )
    session.add(game_row)
    await session.flush()  # the game before its moves (no relationship orders them)
    session.add_all(moves)
    await session.flush()
    current.game_id = row.game_id = game_row.id
    row.next_at = None
    row.first_ready = row.second_ready = False
    return [(game_row, game)]


async def _load(session: AsyncSession, match_id: str, *, for_update: bool = False) -> MatchRow:
    query = select(MatchRow).where(MatchRow.id == match_id)
    if for_update:
        query = query.with_for_update(of=MatchRow)
    row = (await session.scalars(query)).unique().one_or_none()
    if row is None:
        raise NotFound(tr("no match {match}", match=repr(match_id)))
    return row


async def _change(
    services: Services, match_id: str, action: Action | None, viewer: str | None
) -> MatchState:
    """Apply ``action`` (if any) and move the match on, in one transaction; then announce
    the games it started."""
    async with services.lock(f"match:{match_id}"):
        now = services.now()
        try:
            async with services.database.session() as session, session.begin():
                row = await _load(session, match_id, for_update=True)
                if action is not None:
                    await action(session, row, now)
                started = await _settle(services, session, row, now)
                row.updated = now
                await session.flush()
                state = await _view(session, row, now, viewer)
        except StaleDataError:
            raise Conflict(tr("the match changed meanwhile: reload it")) from None
    for game_row, game in started:
        await games.announce_game(services, game_row, game)
    return state


# -- views -----------------------------------------------------------------------------


async def _view(session: AsyncSession, row: MatchRow, now: float, viewer: str | None) -> MatchState:
    ids = [round_.game_id for round_ in row.rounds if round_.game_id is not None]
    played = {}
    if ids:
        query = select(GameRow).where(GameRow.id.in_(ids))
        played = {game.id: game for game in (await session.scalars(query)).unique().all()}
    match = _match(row)
    scores = match.scores
    readiness = (row.first_ready, row.second_ready)
    players = []
    for side, key in enumerate((FIRST, SECOND)):
        sitter = _side(row, side)
        players.append(
            MatchPlayer(
                id=sitter.player_id,
                name=_name(sitter),
                kind="computer" if sitter.kind == "computer" else "human",
                level=sitter.level,
                guest=is_guest(sitter.player),
                score=scores[key],
                ready=readiness[side],
            )
        )
    rounds = []
    current = None
    for round_ in row.rounds:
        game = played.get(round_.game_id) if round_.game_id is not None else None
        points = round_.first_points
        if game is not None and game.status == "playing":
            current = game.id
        rounds.append(
            MatchGame(
                number=round_.number + 1,
                white=0 if round_.first_white else 1,
                opening=round_.opening.split(),
                game=round_.game_id,
                result=result_view(game) if game is not None else None,
                points=None if points is None else [points, 1.0 - points],
            )
        )
    winner = match.winner
    return MatchState(
        id=row.id,
        variant=row.variant,
        status=row.status,  # type: ignore[arg-type]
        games=row.games,
        deck=row.deck,
        clock=row.clock_control,
        players=players,
        rounds=rounds,
        current=current,
        next_at=row.next_at,
        winner=None
        if winner is None or row.status != "finished"
        else (0 if winner == FIRST else 1),
        you=_side_of(row, viewer),
        server_time=now,
        created=row.created,
    )


# -- the service functions ---------------------------------------------------------------


def modes(spec: str, language: str = DEFAULT) -> ModesView:
    """What can be played in ``spec`` (a variant with its options): a single game, a match
    (of which lengths, from which deck) and the losing game; 400 when the registry refuses
    the variant itself. A mode's ``reason`` and the match's ``opening_games`` are said in
    ``language`` (the view holds plain strings: they are translated here)."""
    rules = games.rules_of(spec)
    losing = rules.as_giveaway()
    try:
        Game(rules)
        Game(games.rules_of(losing.name))
    except ValueError as error:
        # i18n: a variant (with its options) and why the rules refuse it (in English)
        raise BadRequest(tr("{variant}: {error}", variant=spec, error=str(error))) from None
    checks = [ModeCheck(mode="single", ok=True, reason="", variant=rules.name)]
    plan = None
    try:
        format_, deck = match_plan(rules, None)
    except BadRequest as error:
        reason = localize(error.detail, language)
        checks.append(ModeCheck(mode="match", ok=False, reason=reason, variant=rules.name))
    else:
        spanish = format_ == SPANISH_MATCH
        if deck is None:
            openings = tr("every game from the start")
        elif spanish:
            openings = tr(
                "games 3 and 4 from one opening drawn from the deck, once with each colour"
            )
        else:
            openings = tr("each pair of games from an opening drawn from the deck, colours swapped")
        plan = MatchPlan(
            games=[SPANISH_MATCH.games] if spanish else list(LENGTHS),
            deck=deck.name if deck is not None else None,
            opening_games=localize(openings, language),
        )
        checks.append(ModeCheck(mode="match", ok=True, reason="", variant=rules.name))
    checks.append(ModeCheck(mode="losing", ok=True, reason="", variant=losing.name))
    return ModesView(
        variant=rules.name, title=rules.title, players=rules.players, modes=checks, match=plan
    )


async def create_match(
    *,
    services: Services,
    player_id: str,
    variant: str,
    length: int | None,
    opponent: str,
    level: int,
    color: str,
    clock: str | None,
) -> MatchState:
    """A new match against the computer (its first game starts at once) or open for a
    person to join. A match between people needs a clock: a player who leaves loses his
    games on time and the match goes on to its end."""
    rules = games.rules_of(variant)
    format_, deck = match_plan(rules, length)
    control = check_clock(clock)
    if opponent == "open" and control is None:
        raise BadRequest(
            tr("a match against a person needs a clock: a player who leaves loses on time")
        )
    now = services.now()
    creator_first = secrets.randbelow(2) == 0 if color == "random" else color == "white"
    match_id = new_id(8)
    async with services.database.session() as session, session.begin():
        player = await session.get(PlayerRow, player_id)
        if player is None:
            raise Forbidden(tr("unknown player: start a session first"))
        computer = opponent == "computer"
        other = Sitter("computer" if computer else "human", level if computer else None, None, None)
        you = Sitter("human", None, player.id, player)
        first, second = (you, other) if creator_first else (other, you)
        row = MatchRow(
            id=match_id,
            variant=rules.name,
            status="playing" if computer else "open",
            games=format_.games,
            opening_games=",".join(str(n) for n in format_.opening_games),
            deck=deck.name if deck is not None else None,
            first_id=first.player_id,
            first=first.player,
            first_kind=first.kind,
            first_level=first.level,
            second_id=second.player_id,
            second=second.player,
            second_kind=second.kind,
            second_level=second.level,
            clock_control=control,
            first_ready=True,  # the first game starts as soon as both are there
            second_ready=True,
            created=now,
            updated=now,
            rounds=[],
        )
        _plan(row, _match(row))
        session.add(row)
        await session.flush()
    return await _change(services, match_id, None, player_id)


async def join_match(*, services: Services, match_id: str, player_id: str) -> MatchState:
    """Take the open side of a match: its first game starts at once."""

    async def join(session: AsyncSession, row: MatchRow, now: float) -> None:
        if _side_of(row, player_id) is not None:
            return
        if row.status != "open":
            raise Conflict(tr("the match has already started"))
        player = await session.get(PlayerRow, player_id)
        if player is None:
            raise Forbidden(tr("unknown player: start a session first"))
        if row.first_kind == "human" and row.first_id is None:
            row.first_id, row.first = player.id, player
        else:
            row.second_id, row.second = player.id, player
        row.status = "playing"

    return await _change(services, match_id, join, player_id)


async def ready(*, services: Services, match_id: str, player_id: str | None) -> MatchState:
    """Say one is ready for the coming game: it starts when both are (the computer always
    is), or when its time comes."""

    async def mark(session: AsyncSession, row: MatchRow, now: float) -> None:
        side = _side_of(row, player_id)
        if side is None:
            raise Forbidden(tr("you are not a player of this match"))
        if row.status != "playing":
            raise Conflict(tr("the match is not being played"))
        _set_ready(row, side, True)

    return await _change(services, match_id, mark, player_id)


async def match_state(*, services: Services, match_id: str, viewer: str | None) -> MatchState:
    """The match as it is now (moved on first if a game ended or the coming one is due)."""
    async with services.database.snapshot() as session:
        row = await _load(session, match_id)
        if not _due(row, services.now(), await _current_status(session, row)):
            return await _view(session, row, services.now(), viewer)
    return await _change(services, match_id, None, viewer)


async def _current_status(session: AsyncSession, row: MatchRow) -> str | None:
    if row.game_id is None:
        return None
    game = await session.get(GameRow, row.game_id)
    return game.status if game is not None else None


def _due(row: MatchRow, now: float, current: str | None) -> bool:
    """Whether :func:`_settle` has something to do."""
    if row.status != "playing" or not row.rounds:
        return False
    last = row.rounds[-1]
    if last.game_id is not None:
        return last.first_points is None and current == "finished"
    return (row.first_ready and row.second_ready) or (
        row.next_at is not None and row.next_at <= now
    )


async def list_matches(
    *, services: Services, status: str | None, limit: int = 100
) -> list[MatchState]:
    """The newest matches, of one status or all."""
    query = select(MatchRow).order_by(MatchRow.created.desc()).limit(limit)
    if status is not None:
        query = query.where(MatchRow.status == status)
    async with services.database.session() as session:
        rows = (await session.scalars(query)).unique().all()
        now = services.now()
        return [await _view(session, row, now, None) for row in rows]


async def match_pdn(*, services: Services, match_id: str, base_url: str = "") -> str:
    """Every game of the match as PDN, each with its ``Round`` and its opening (``base_url``:
    the site's root, for each game's ``Site``)."""
    async with services.database.session() as session:
        row = await _load(session, match_id)
        rounds = [(r.number, r.opening, r.game_id) for r in row.rounds if r.game_id is not None]
    texts = []
    for number, opening, game_id in rounds:
        event = {"Event": f"Damier match {match_id}", "Round": str(number + 1)}
        if opening:
            event["Opening"] = opening
        text = await game_pdn(services=services, game_id=game_id, base_url=base_url, event=event)
        texts.append(text)
    return "\n".join(texts)


async def advance_matches(*, services: Services) -> int:
    """Move on the matches whose game has ended or whose coming game is due (the clock
    task calls this); returns how many were looked at."""
    now = services.now()
    due = select(MatchRow.id).where(MatchRow.status == "playing", MatchRow.next_at <= now)
    ended = (
        select(MatchRow.id)
        .join(GameRow, GameRow.id == MatchRow.game_id)
        .where(
            MatchRow.status == "playing", MatchRow.next_at.is_(None), GameRow.status == "finished"
        )
    )
    async with services.database.session() as session:
        ids = set((await session.scalars(due)).all()) | set((await session.scalars(ended)).all())
    for match_id in sorted(ids):
        await _change(services, match_id, None, None)
    return len(ids)


def _matches_filter(variant: str, wanted: str | None) -> bool:
    """Whether a game of ``variant`` is one of the variant ``wanted`` (its options and its
    losing form included)."""
    if wanted is None:
        return True
    return variant == wanted or variant.split("+")[0].removesuffix("-giveaway") == wanted


async def now_playing(
    *, services: Services, variant: str | None, mode: Mode | None, limit: int = 500
) -> NowView:
    """Who is playing now: per variant and mode, the games being played and who waits for
    an opponent (open games and matches)."""
    groups: dict[tuple[str, Mode], NowGroup] = {}

    def group(name: str, kind: Mode) -> NowGroup | None:
        if not _matches_filter(name, variant) or (mode is not None and kind != mode):
            return None
        return groups.setdefault(
            (name, kind), NowGroup(variant=name, mode=kind, playing=0, waiting=[], live=[])
        )

    query = (
        select(GameRow)
        .where(GameRow.status.in_(("open", "playing")))
        .order_by(GameRow.created.desc())
        .limit(limit)
    )
    open_matches = (
        select(MatchRow)
        .where(MatchRow.status.in_(("open", "playing")))
        .order_by(MatchRow.created.desc())
        .limit(limit)
    )
    async with services.database.session() as session:
        rows = (await session.scalars(query)).unique().all()
        matches = (await session.scalars(open_matches)).unique().all()
    for row in rows:
        found = group(row.variant, mode_of(row.variant, row.match_id))
        if found is None:
            continue
        seated = sitters(row)
        views = [seat_view(row, seat) for seat in range(row.players)]
        names = [view.name for view in views]
        if row.status == "playing":
            found.playing += 1
            if row.match_id is None:
                found.live.append(
                    PlayingEntry(
                        kind="game",
                        id=row.id,
                        game=row.id,
                        players=names,
                        guests=[view.guest for view in views],
                        score=None,
                    )
                )
            continue
        open_seats = sum(1 for s in seated if s.kind == "human" and s.player_id is None)
        creator = next((v for s, v in zip(seated, views, strict=True) if s.player_id), None)
        found.waiting.append(
            WaitingEntry(
                kind="game",
                id=row.id,
                name=creator.name if creator is not None else "",
                guest=creator is not None and creator.guest,
                clock=row.clock_control,
                games=None,
                seats=open_seats,
            )
        )
    for match in matches:
        found = group(match.variant, "match")
        if found is None:
            continue
        sides = [_side(match, side) for side in (0, 1)]
        if match.status == "open":
            side = next(s for s in sides if s.player_id is not None)
            found.waiting.append(
                WaitingEntry(
                    kind="match",
                    id=match.id,
                    name=_name(side),
                    guest=is_guest(side.player),
                    clock=match.clock_control,
                    games=match.games,
                    seats=1,
                )
            )
        else:
            scores = _match(match).scores
            found.live.append(
                PlayingEntry(
                    kind="match",
                    id=match.id,
                    game=match.game_id,
                    players=[_name(s) for s in sides],
                    guests=[is_guest(s.player) for s in sides],
                    score=[scores[FIRST], scores[SECOND]],
                )
            )
    order = {"single": 0, "match": 1, "losing": 2}
    return NowView(groups=sorted(groups.values(), key=lambda g: (g.variant, order[g.mode])))
