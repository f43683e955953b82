"""``/api/variants``: the variants, their rules and their boards."""

from __future__ import annotations

from fastapi import APIRouter

from damier.geometry import geometry_of
from damier.rules import Variant, all_variants, get_variant
from damier.rules.explain import explain
from damier.rules.variants import UnknownVariantError
from damier.server.schemas import CellView, GeometryView, VariantDetail, VariantInfo
from damier.server.services.errors import NotFound

router = APIRouter(prefix="/api/variants", tags=["variants"])


def _info(variant: Variant) -> VariantInfo:
    return VariantInfo(
        name=variant.name,
        title=variant.title,
        summary=variant.summary,
        width=variant.width,
        height=variant.height,
        board=variant.board.value,
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


def _geometry(variant: Variant) -> GeometryView:
    geometry = geometry_of(variant)
    cells = []
    for cell, (row, column) in enumerate(geometry.coordinates):
        polygon = [
            [float(column), float(row)],
            [float(column + 1), float(row)],
            [float(column + 1), float(row + 1)],
            [float(column), float(row + 1)],
        ]
        cells.append(
            CellView(cell=cell, name=geometry.names[cell], row=row, column=column, polygon=polygon)
        )
    return GeometryView(
        width=geometry.width,
        height=geometry.height,
        numbering=geometry.numbering.value,
        cells=cells,
        start_fen=variant.start_fen,
    )


@router.get("", response_model=list[VariantInfo])
async def list_variants() -> list[VariantInfo]:
    return [_info(variant) for variant in all_variants()]


@router.get("/{name}", response_model=VariantDetail)
async def variant_detail(name: str) -> VariantDetail:
    if len(name) > 64:
        raise NotFound("no such variant")
    try:
        variant = get_variant(name)
    except UnknownVariantError as error:
        raise NotFound(str(error)) from None
    return VariantDetail(
        **_info(variant).model_dump(),
        start_fen=variant.start_fen,
        rules_text=explain(variant),
        rules=_rules(variant),
        geometry=_geometry(variant),
    )
