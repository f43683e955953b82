"""The command line as ``pip install damier`` leaves it, with the core packages only: the
server's and the bot's packages hidden from the import system in a child process, every
command is listed, a core command runs, and ``damier serve`` says what to install."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _distribution(requirement: str) -> str:
    """A requirement's distribution name, normalised (``uvicorn[standard]>=0.30`` ->
    ``uvicorn``)."""
    name = re.match(r"[A-Za-z0-9._-]+", requirement)
    assert name is not None, requirement
    return re.sub(r"[-_.]+", "-", name.group()).lower()


def extras_packages() -> list[str]:
    """The top-level packages of what the optional extras (``server``, ``scale``, ``bot``)
    add to the core, read from pyproject.toml and the installed distributions."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    core = {_distribution(r) for r in project["dependencies"]}
    extras = project["optional-dependencies"]
    added = {_distribution(r) for extra in ("server", "scale", "bot") for r in extras[extra]}
    tops: dict[str, set[str]] = {}
    for top, distributions in packages_distributions().items():
        for distribution in distributions:
            tops.setdefault(_distribution(distribution), set()).add(top)
    return sorted(top for name in added - core - {"damier"} for top in tops.get(name, ()))


EXTRAS = extras_packages()

CORE_ONLY = f"""
import sys

class Hidden:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {EXTRAS!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, Hidden())
from damier.cli import main
sys.exit(main(sys.argv[1:]))
"""


def damier(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", CORE_ONLY, *args], capture_output=True, text=True, timeout=300
    )


def test_every_command_is_listed_without_the_extras() -> None:
    assert {"fastapi", "sqlalchemy", "httpx", "asyncpg"} <= set(EXTRAS)  # hidden indeed
    assert "networkx" not in EXTRAS  # a core dependency
    listed = damier("--help")
    assert listed.returncode == 0, listed.stderr
    for command in ("perft", "hub", "match", "serve", "tournament", "bot"):
        assert command in listed.stdout


def test_a_swiss_is_paired_without_the_server(tmp_path: Path) -> None:
    sheet = tmp_path / "club.csv"
    sheet.write_text("system,swiss\nrounds,3\nplayer,Ann,1800\nplayer,Bob,1700\nplayer,Cid\n")
    paired = damier("tournament", str(sheet))
    assert paired.returncode == 0, paired.stderr
    assert "  Ann,Bob,\n  Cid,bye\n" in paired.stdout  # the top half against the bottom


def test_serve_without_the_server_s_packages_says_what_to_install() -> None:
    refused = damier("serve")
    assert refused.returncode == 2
    assert "pip install 'damier[server]'" in refused.stderr
    assert "Traceback" not in refused.stderr
