"""The tournaments' request and response bodies (``/api/tournaments``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

System = Literal["round-robin", "swiss", "arena"]
Status = Literal["coming", "playing", "finished"]


class NewTournament(BaseModel):
    name: str = Field(min_length=1, max_length=80)
    variant: str = Field(max_length=200)
    clock: str = Field(max_length=32)
    """A clock is required: a player who leaves loses his games on time."""
    system: System
    rounds: int | None = Field(default=None, ge=1, le=30)
    """A Swiss's rounds (required there); a round robin's follow from its players."""
    cycles: int = Field(default=1, ge=1, le=2)
    """A round robin's cycles: 2 for a double round robin."""
    games: int = Field(default=1, ge=1, le=2)
    """Games per pairing: 1, or 2 with the colours swapped (not in an arena)."""
    minutes: int | None = Field(default=None, ge=5, le=720)
    """An arena's length (required there)."""
    starts_in: float | None = Field(default=None, ge=0, le=30 * 86400)
    """Seconds from now to the start (or ``starts_at``); default five minutes."""
    starts_at: float | None = None
    """The start, in seconds since the epoch."""
    password: str | None = Field(default=None, max_length=128)
    """Set to make joining need it."""


class BerserkBody(BaseModel):
    on: bool


class PauseBody(BaseModel):
    on: bool
    """True to pause (paired no more), False to resume."""


class JoinBody(BaseModel):
    password: str | None = Field(default=None, max_length=128)


class Entrant(BaseModel):
    id: str
    name: str


class TieBreakName(BaseModel):
    key: str
    name: str


class StandingView(BaseModel):
    rank: int
    id: str
    name: str
    score: float
    games: int
    wins: int
    draws: int
    losses: int
    ties: dict[str, float]
    withdrawn: bool
    fire: bool = False
    """In an arena: two wins in a row, so the next game counts double."""


class GameLink(BaseModel):
    leg: int
    game: str | None
    """The game's id (None before it starts, and for a bye or a win by default)."""
    white: str | None
    """The id of the player with White in this game."""
    white_points: float | None
    black_points: float | None
    result: str | None
    """``1-0``, ``0-1``, ``½-½``, or None while playing."""


class BoardView(BaseModel):
    board: int
    kind: Literal["game", "bye", "default"]
    white: Entrant
    black: Entrant | None
    games: list[GameLink]
    berserk: int = 0
    """In an arena: 1 White went berserk, 2 Black, 3 both."""
    bonus: int = 0
    """The same bits for a berserk win that earned its extra point."""
    white_points: float | None
    black_points: float | None
    """The pairing's points, once every game of it is over."""


class RoundView(BaseModel):
    number: int
    boards: list[BoardView]


class CrossRow(BaseModel):
    id: str
    name: str
    cells: list[str]
    """Against each player of the standings in their order: the points taken, game by
    game (``1``, ``½``, ``0``, joined), empty if they did not meet, ``×`` for himself."""


class YouView(BaseModel):
    joined: bool
    withdrawn: bool
    game: str | None
    """The player's game being played now, if any."""
    berserk: bool = False
    """In an arena: whether the player goes berserk in his coming games."""
    paused: bool = False
    """In an arena: whether the player has paused (he is paired no more until he resumes)."""


class TournamentSummary(BaseModel):
    id: str
    name: str
    variant: str
    clock: str
    system: System
    cycles: int
    rounds: int
    games: int
    status: Status
    starts_at: float
    ends_at: float | None
    """When an arena ends."""
    round: int
    players: int
    creator: str
    private: bool
    winner: str | None
    """The name of the player ranked first, once finished."""


class TournamentView(TournamentSummary):
    entrants: list[Entrant]
    tie_breaks: list[TieBreakName]
    standings: list[StandingView]
    pairings: list[RoundView]
    crosstable: list[CrossRow]
    you: YouView | None
    cancelled: bool
    """Finished without a round: fewer than two players at the start."""
    server_time: float


class TournamentLists(BaseModel):
    coming: list[TournamentSummary]
    playing: list[TournamentSummary]
    finished: list[TournamentSummary]
