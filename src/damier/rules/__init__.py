"""Rules as data: the variant description and the named variants."""

from damier.rules.description import (
    ALL_DIRECTIONS,
    DIAGONAL,
    ORTHOGONAL,
    BoardKind,
    Choice,
    CountedKingMoves,
    Direction,
    Landing,
    Numbering,
    Promotion,
    Range,
    Removal,
    Variant,
)
from damier.rules.variants import (
    UnknownVariantError,
    all_variants,
    get_variant,
    register_variant,
)

__all__ = [
    "ALL_DIRECTIONS",
    "DIAGONAL",
    "ORTHOGONAL",
    "BoardKind",
    "Choice",
    "CountedKingMoves",
    "Direction",
    "Landing",
    "Numbering",
    "Promotion",
    "Range",
    "Removal",
    "UnknownVariantError",
    "Variant",
    "all_variants",
    "get_variant",
    "register_variant",
]
