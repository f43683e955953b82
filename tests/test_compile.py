"""``damier compile`` builds the whole compiled cache: afterwards no command compiles, in
this process or a new one; ``damier perft`` reports compilation apart from its counts."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from damier.cli import main
from damier.compiled import exercise
from damier.kernel.jit import watch_compilation
from damier.rules import all_variants

FRESH_PROCESS = """
from damier.cli import main
from damier.kernel.jit import watch_compilation
with watch_compilation() as done:
    main(["moves", "--variant", "russian"])
    main(["perft", "--variant", "pool", "--depth", "3", "--duplicates", "keep", "--divide"])
    main(["analyse", "--variant", "international", "--depth", "2"])
    main(["analyse", "--variant", "dameo", "--depth", "2"])
    main(["analyse", "--variant", "hex3", "--depth", "2"])
print("compiled", done.count, done.names)
"""


@pytest.fixture(scope="module")
def built() -> None:
    assert main(["compile"]) == 0


@pytest.mark.parametrize(
    "variant",
    [*(v.name for v in all_variants()), "russian-giveaway", "radial4+teams", "frisian-giveaway"],
)
def test_nothing_compiles_after_compile(built: None, variant: str) -> None:
    with watch_compilation() as done:
        exercise(variant)
    assert (done.count, done.names) == (0, [])


def test_a_new_process_reads_everything_from_the_cache(built: None) -> None:
    ran = subprocess.run(
        [sys.executable, "-c", FRESH_PROCESS], capture_output=True, text=True, check=True
    )
    assert ran.stdout.splitlines()[-1] == "compiled 0 []"


def test_perft_reports_compilation_apart(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--variant", "russian", "--depth", "2"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert re.fullmatch(r"compiled (code loaded )?in \d+\.\d{3} s", err[0])
    assert err[1].startswith("depth 1: ")
