"""``/api/variants``: the variants, their rules and their boards."""

from __future__ import annotations

import math

from fastapi import APIRouter

from damier.board import Board
from damier.geometry import (
    Geometry,
    Point,
    SquareGeometry,
    geometry_of,
)
from damier.render.shapes import bounds, cell_shade, centroid, unplayable_polygons
from damier.rules import Variant, all_variants, get_variant
from damier.rules.description import BoardKind, Topology
from damier.rules.explain import explain
from damier.rules.variants import BUILTIN, OPTION_SUMMARIES, UnknownVariantError
from damier.server.i18n import tr
from damier.server.schemas import (
    CellView,
    Family,
    GeometryView,
    OptionInfo,
    VariantDetail,
    VariantInfo,
)
from damier.server.services.errors import NotFound
from damier.server.services.games import rules_of

router = APIRouter(prefix="/api/variants", tags=["variants"])


def _family(variant: Variant) -> Family:
    """The lobby's group of a variant (the ``family`` of ``VariantInfo``)."""
    if variant.players > 2 or variant.topology is not Topology.SQUARE:
        return "multi-player"
    if variant not in BUILTIN:
        return "files"
    if variant.board is BoardKind.ALL:
        return "orthogonal"
    size = f"{variant.width}x{variant.height}"
    return size if size in ("10x10", "8x8", "12x12") else "other"  # type: ignore[return-value]


def _info(variant: Variant) -> VariantInfo:
    return VariantInfo(
        name=variant.name,
        title=variant.title,
        summary=variant.summary,
        width=variant.width,
        height=variant.height,
        board=variant.board.value,
        family=_family(variant),
        players=variant.players,
        options=[
            OptionInfo(name=name, summary=OPTION_SUMMARIES.get(name, ""))
            for name in variant.option_names
        ],
    )


def _rules(variant: Variant) -> dict[str, str | bool | int | list[str]]:
    return {
        "first": "black" if variant.first_player else "white",
        "kings": variant.king_range.value,
        "capture_choice": [choice.value for choice in variant.choice] or ["free"],
        "crowning": variant.promotion.value,
        "removal": variant.removal.value,
        "men_capture_kings": variant.men_capture_kings,
        "giveaway": variant.giveaway,
        "crowning_wins": variant.crowning_wins,
        "line_moves": variant.line_moves,
        "draw_rules": [type(rule).__name__ for rule in variant.draw_rules],
    }


def _seat_angles(variant: Variant, geometry: Geometry, centre: Point) -> list[float]:
    """Each seat's turn of the drawing that brings its men of the start position (its own
    side) to the bottom: the angle from the centre to their centroid, made to point down,
    to the nearest of the board's symmetries (dark-square setups sit a little off centre)."""
    cells = Board(variant).cells
    angles = []
    for player in range(variant.players):
        pieces = (2 * player + 1, 2 * player + 2)
        own = [c for c in range(geometry.cell_count) if cells[c] in pieces]
        if not own:
            angles.append(0.0)
            continue
        x, y = centroid(tuple(centroid(geometry.polygons[c]) for c in own))
        down = math.degrees(math.atan2(x - centre[0], y - centre[1]))
        step = 180.0 / variant.players
        angles.append(round(down / step) * step % 360.0)
    return angles


def _geometry(variant: Variant) -> GeometryView:
    """The board for drawing: every playable cell's outline, the outlines of the cells that
    take no piece (the same board with every cell playable, less the playable ones), and
    the turn that puts each seat's side at the bottom."""
    geometry = geometry_of(variant)
    cells = []
    for cell, polygon in enumerate(geometry.polygons):
        row: int | None = None
        column: int | None = None
        if isinstance(geometry, SquareGeometry):
            row, column = geometry.coordinates[cell]
        cells.append(
            CellView(
                cell=cell,
                name=geometry.names[cell],
                row=row,
                column=column,
                polygon=[[float(x), float(y)] for x, y in polygon],
                shade=cell_shade(geometry, cell),
            )
        )
    background = [[[float(x), float(y)] for x, y in p] for p in unplayable_polygons(variant)]
    left, top, right, bottom = bounds(variant)
    centre = ((left + right) / 2, (top + bottom) / 2)
    return GeometryView(
        width=variant.width,
        height=variant.height,
        numbering=variant.numbering.value,
        cells=cells,
        start_fen=variant.start_fen,
        players=variant.players,
        background=background,
        seat_angles=_seat_angles(variant, geometry, centre),
    )


@router.get("", response_model=list[VariantInfo])
async def list_variants() -> list[VariantInfo]:
    return [_info(variant) for variant in all_variants()]


@router.get("/{name}", response_model=VariantDetail)
async def variant_detail(name: str) -> VariantDetail:
    if len(name) > 64:
        raise NotFound(tr("no such variant"))
    try:
        get_variant(name.split("+")[0])
    except UnknownVariantError as error:
        raise NotFound(str(error)) from None
    variant = rules_of(name)  # options the variant refuses: 400, with the registry's reason
    return VariantDetail(
        **_info(variant).model_dump(),
        start_fen=variant.start_fen,
        rules_text=explain(variant),
        rules=_rules(variant),
        geometry=_geometry(variant),
    )
