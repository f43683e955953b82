"""The values of the API (``docs/PLATFORM.md``) as pydantic models: requests are validated
against them and the OpenAPI document at ``/openapi.json`` is generated from them."""

from __future__ import annotations

import unicodedata
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

Color = Literal["white", "black", "red", "green", "yellow", "purple", "orange", "cyan"]
"""A player by his colour (``damier.board.PLAYER_NAMES``): seat 0 is White, 1 Black, ..."""
Status = Literal["open", "playing", "finished"]
Square = int | str
Family = Literal["10x10", "8x8", "12x12", "orthogonal", "multi-player", "files", "other"]
Mode = Literal["single", "match", "losing"]
"""How a game is played: a single game, a game of a match, or a losing (giveaway) game."""

COLORS: tuple[Color, ...] = ("white", "black", "red", "green", "yellow", "purple", "orange", "cyan")


class Seat(BaseModel):
    id: str | None
    """The player's id; None for an empty seat or the computer."""
    name: str
    kind: Literal["human", "computer"]
    level: int | None
    guest: bool = False
    """Whether a guest sits there (a player without an account: his name proves nothing)."""


class SeatView(Seat):
    """A seat in a game's list of seats."""

    color: Color
    """The seat's player on the board."""


class ClockView(BaseModel):
    control: str
    white: float
    black: float
    running: Color | None


class SeatsClockView(ClockView):
    """The clock of a game of more than two players."""

    times: list[float]
    """Every seat's time, by seat number (White's and Black's repeated above)."""


class MoveView(BaseModel):
    notation: str
    path: list[Square]
    captured: list[Square]


class PlayedMove(MoveView):
    ply: int


class ResultView(BaseModel):
    pdn: str
    """``2-0``, ``1-1``, ``0-2``; ``*`` for a game of more players (see ``ranking``)."""
    winner: Color | None
    reason: str


class RankedResult(ResultView):
    """The result of a game of more than two players."""

    ranking: list[list[Color]]
    """The places, first to last; the players of one place share it."""


class GameState(BaseModel):
    id: str
    variant: str
    status: Status
    fen: str
    start_fen: str
    turn: Color
    ply: int
    moves: list[PlayedMove]
    legal_moves: list[MoveView]
    white: Seat
    black: Seat
    players: int
    seats: list[SeatView]
    """Every seat, by seat number (two-player games too)."""
    active: list[Color]
    """The players still in the game, in turn order."""
    eliminated: list[list[Color]]
    """The players put out of the game, oldest first (those out at one moment together)."""
    clock: SeatsClockView | ClockView | None
    result: RankedResult | ResultView | None
    draw_offer: Color | None
    draw_agreed: list[Color]
    """The players who want the standing draw (the offerer and those who accepted)."""
    you: Color | None
    server_time: float
    rematch: str | None = None
    """The id of the rematch of this game, once one is asked for."""
    match: str | None = None
    """The id of the match this game is a game of (None for a single game)."""
    tournament: str | None = None
    """The id of the tournament this game is a game of (None for others)."""
    first_move_deadline: float | None = None
    """While a player has yet to make his first move: when the game is aborted if he does
    not (no clock runs before a player's first move)."""
    takeback_offer: Color | None = None
    """The player whose takeback request stands."""
    takebacks: bool = True
    """Whether takebacks are allowed should the game be rated (unrated games allow them)."""


class GameSummary(BaseModel):
    id: str
    variant: str
    status: Status
    white: Seat
    black: Seat
    players: int
    seats: list[SeatView]
    clock: SeatsClockView | ClockView | None
    result: RankedResult | ResultView | None
    created: float
    match: str | None = None
    mode: Mode = "single"


class PlayerView(BaseModel):
    id: str
    name: str
    guest: bool
    """Whether the player is a guest (has no account: any name is free to a guest but a
    registered player's)."""


class OptionInfo(BaseModel):
    name: str
    summary: str
    """One line on what the option changes."""


class VariantInfo(BaseModel):
    name: str
    title: str
    summary: str
    width: int
    height: int
    board: str
    family: Family
    """The lobby's group: the board size of the diagonal games, the orthogonal games, the
    boards of more players, and the server's variant files."""
    players: int
    options: list[OptionInfo]
    """The named options (``<name>+<option>``)."""


class CellView(BaseModel):
    cell: int
    name: str
    row: int | None
    """Row and column on a rectangular board (row 0 at the top); None on other boards."""
    column: int | None
    polygon: list[list[float]]
    shade: int = 1
    """The cell's colour in the board's pattern: 0 light, 1 dark, 2 the third colour of
    the hexagonal board."""


class GeometryView(BaseModel):
    width: int
    height: int
    numbering: str
    cells: list[CellView]
    start_fen: str
    players: int = 2
    background: list[list[list[float]]] = Field(default_factory=list)
    """The outlines of the board's cells that take no piece (light squares), to draw."""
    seat_angles: list[float] = Field(default_factory=list)
    """For each seat, the degrees to turn the drawing by (clockwise on the screen) so that
    the seat's own side of the board is at the bottom: 0 for White, 180 for Black on a
    two-player board, 360 k / n on a radial board."""


class VariantDetail(VariantInfo):
    start_fen: str
    rules_text: list[str]
    """The rules in plain words, a paragraph each (written from the variant description)."""
    rules: dict[str, str | bool | int | list[str]]
    geometry: GeometryView


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SessionRequest(_Strict):
    name: str = Field(min_length=1, max_length=40)

    @field_validator("name")
    @classmethod
    def _clean(cls, value: str) -> str:
        value = " ".join(value.split())
        if not value:
            raise ValueError("the name is empty")
        if any(unicodedata.category(c).startswith("C") for c in value):
            raise ValueError("the name has control characters")
        return value


class SeatChoice(_Strict):
    """Who sits at one seat of a new game: its creator, anyone who joins, or the computer."""

    kind: Literal["you", "open", "computer"]
    level: int = Field(3, ge=1, le=10)
    """The computer's level."""


class NewGame(_Strict):
    variant: str = Field("international", max_length=64)
    opponent: Literal["computer", "open"] = "computer"
    level: int = Field(3, ge=1, le=10)
    color: Literal["white", "black", "random"] = "random"
    clock: str | None = Field(None, max_length=32)
    seats: list[SeatChoice] | None = Field(None, min_length=2, max_length=8)
    """Every seat by seat number, exactly one of them ``you``; required for a variant of
    more than two players (``opponent``, ``level`` and ``color`` are then unused)."""
    fen: str | None = Field(None, max_length=2000)
    """A start position other than the variant's."""
    takebacks: bool = True
    """Whether takebacks are allowed if the game is rated (unrated games always allow
    them)."""


class JoinRequest(_Strict):
    seat: int | None = Field(None, ge=0, le=7)
    """The seat to take; None: the first open one."""


class MoveRequest(_Strict):
    move: str = Field(min_length=1, max_length=128)
    ply: int = Field(ge=0, le=100_000)


class DrawRequest(_Strict):
    action: Literal["offer", "accept", "decline"]


class ModeCheck(BaseModel):
    """Whether a mode can be played in a variant (with its options), and why not."""

    mode: Mode
    ok: bool
    reason: str
    """Why the mode is refused (empty when it is not), in the request's language."""
    variant: str
    """The variant a game of this mode plays (the giveaway form for ``losing``)."""


class MatchPlan(BaseModel):
    games: list[int]
    """The lengths a match may have (``[4]`` for the Spanish match)."""
    deck: str | None
    """The opening deck the games start from, if the variant has one."""
    opening_games: str
    """Which games start from a drawn opening, in words."""


class ModesView(BaseModel):
    variant: str
    title: str
    players: int
    modes: list[ModeCheck]
    match: MatchPlan | None


class MatchPlayer(BaseModel):
    id: str | None
    """The player's id; None for the computer and for a seat still open."""
    name: str
    kind: Literal["human", "computer"]
    level: int | None
    guest: bool = False
    """Whether the player is a guest (a player without an account)."""
    score: float
    ready: bool
    """Ready for the coming game (the computer always is)."""


class MatchGame(BaseModel):
    number: int
    """From 1."""
    white: int
    """Which player (0 the first, 1 the second) has White."""
    opening: list[str]
    game: str | None
    """The game's id once it has started."""
    result: ResultView | None
    points: list[float] | None
    """Each player's points from this game once it is over."""


class MatchState(BaseModel):
    id: str
    variant: str
    status: Status
    games: int
    """The most games of the match."""
    deck: str | None
    clock: str | None
    players: list[MatchPlayer]
    rounds: list[MatchGame]
    """The games played, the one being played and the coming one (with its colours and
    opening)."""
    current: str | None
    """The game being played now, if any."""
    next_at: float | None
    """When the coming game starts even if a player is not ready."""
    winner: int | None
    you: int | None
    server_time: float
    created: float


class NewMatch(_Strict):
    variant: str = Field("spanish", max_length=64)
    games: int | None = Field(None, ge=1, le=6)
    """2, 4 or 6 (the Spanish match has 4); None: the variant's usual length."""
    opponent: Literal["computer", "open"] = "computer"
    level: int = Field(3, ge=1, le=10)
    color: Literal["white", "black", "random"] = "random"
    """The creator's colour in the first game."""
    clock: str | None = Field("5+3", max_length=32)


class WaitingEntry(BaseModel):
    kind: Literal["game", "match"]
    id: str
    name: str
    """Who waits for an opponent."""
    guest: bool = False
    """Whether he is a guest (a player without an account)."""
    clock: str | None
    games: int | None
    """The match's length (None for a game)."""
    seats: int
    """Open seats (1 for two players)."""


class PlayingEntry(BaseModel):
    kind: Literal["game", "match"]
    id: str
    """The game's id, or the match's (its current game in ``game``)."""
    game: str | None
    players: list[str]
    guests: list[bool] = []
    """Whether each of ``players`` is a guest."""
    score: list[float] | None
    """A match's score so far."""


class NowGroup(BaseModel):
    variant: str
    mode: Mode
    playing: int
    """Games being played."""
    waiting: list[WaitingEntry]
    live: list[PlayingEntry]


class NowView(BaseModel):
    groups: list[NowGroup]


class TakebackRequest(_Strict):
    action: Literal["propose", "accept", "decline"]


class ClaimRequest(_Strict):
    result: Literal["win", "draw"]
