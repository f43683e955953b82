"""Named options: their one-line summaries, combinations the registry refuses, and the
giveaway form of a variant with options (its name must give it back)."""

from __future__ import annotations

import pytest

from damier.game import Game
from damier.rules import all_variants, get_variant
from damier.rules.variants import OPTION_SUMMARIES


def test_every_option_of_every_variant_has_a_summary() -> None:
    names = {option for variant in all_variants() for option in variant.option_names}
    assert names == set(OPTION_SUMMARIES)


@pytest.mark.parametrize("spec", ["italian+dark-first", "radial4+teams+dead-pieces", "pool"])
def test_the_giveaway_form_of_a_variant_with_options_is_found_by_its_name(spec: str) -> None:
    losing = get_variant(spec).as_giveaway()
    again = get_variant(losing.name)
    assert again == losing and again.giveaway
    base, _, options = spec.partition("+")
    if options:  # the other spelling: the giveaway suffix on the base name
        assert get_variant(f"{base}-giveaway+{options}") == losing
    assert Game(losing.name).variant == losing


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("radial4+dead-pieces+pieces-to-eliminator", "cannot be combined"),
        ("radial6+teams+teams-alternate", "cannot be combined"),
        ("italian+dark-first+dark-first", "given twice"),
        ("tripad+teams", "has no option 'teams'"),
    ],
)
def test_contradicting_or_unknown_options_are_refused(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        get_variant(spec)
