"""The values of the API (``docs/PLATFORM.md``) as pydantic models: requests are validated
against them and the OpenAPI document at ``/docs`` is generated from them."""

from __future__ import annotations

import unicodedata
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

Color = Literal["white", "black"]
Status = Literal["open", "playing", "finished"]
Square = int | str

COLORS: tuple[Color, Color] = ("white", "black")


class Seat(BaseModel):
    id: str | None
    """The player's id; None for an empty seat or the computer."""
    name: str
    kind: Literal["human", "computer"]
    level: int | None


class ClockView(BaseModel):
    control: str
    white: float
    black: float
    running: Color | None


class MoveView(BaseModel):
    notation: str
    path: list[Square]
    captured: list[Square]


class PlayedMove(MoveView):
    ply: int


class ResultView(BaseModel):
    pdn: str
    winner: Color | None
    reason: str


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
    clock: ClockView | None
    result: ResultView | None
    draw_offer: Color | None
    you: Color | None
    server_time: float
    rematch: str | None = None
    """The id of the rematch of this game, once one is asked for."""


class GameSummary(BaseModel):
    id: str
    variant: str
    status: Status
    white: Seat
    black: Seat
    clock: ClockView | None
    result: ResultView | None
    created: float


class PlayerView(BaseModel):
    id: str
    name: str


class VariantInfo(BaseModel):
    name: str
    title: str
    summary: str
    width: int
    height: int
    board: str


class CellView(BaseModel):
    cell: int
    name: str
    row: int
    column: int
    polygon: list[list[float]]


class GeometryView(BaseModel):
    width: int
    height: int
    numbering: str
    cells: list[CellView]
    start_fen: str


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


class NewGame(_Strict):
    variant: str = Field("international", max_length=64)
    opponent: Literal["computer", "open"] = "computer"
    level: int = Field(3, ge=1, le=10)
    color: Literal["white", "black", "random"] = "random"
    clock: str | None = Field(None, max_length=32)


class MoveRequest(_Strict):
    move: str = Field(min_length=1, max_length=128)
    ply: int = Field(ge=0, le=100_000)


class DrawRequest(_Strict):
    action: Literal["offer", "accept", "decline"]
