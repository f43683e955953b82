"""A directory of variant files is offered by the platform next to the built-ins."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from damier.server.app import create_app
from damier.server.settings import Settings, SettingsError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "variants"


def _settings(tmp_path: Path, variants: Path) -> Settings:
    return Settings(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}",
        secret="s" * 32,
        env="test",
        variants_dir=variants,
    )


def test_variant_files_are_served_and_playable(tmp_path: Path) -> None:
    folder = tmp_path / "variants"
    folder.mkdir()
    shutil.copy(EXAMPLES / "mini.toml", folder)
    with TestClient(create_app(_settings(tmp_path, folder))) as client:
        families = {v["name"]: v["family"] for v in client.get("/api/variants").json()}
        assert families["mini"] == "files" and families["international"] == "10x10"
        geometry = client.get("/api/variants/mini").json()["geometry"]
        assert geometry["width"] == 6
        game = client.post(
            "/api/games",
            json={"variant": "mini", "opponent": "computer", "level": 1, "color": "white"},
        ).json()
        assert game["variant"] == "mini"
        assert {m["notation"] for m in game["legal_moves"]} == {
            "13-10",
            "13-11",
            "14-11",
            "14-12",
            "15-12",
        }


def test_a_broken_variant_file_stops_the_start_with_its_line(tmp_path: Path) -> None:
    folder = tmp_path / "variants"
    folder.mkdir()
    (folder / "bad.toml").write_text('[variant]\nname = "bad"\nbase = "russian"\nnope = 1\n')
    with pytest.raises(SettingsError, match="line 4"):
        create_app(_settings(tmp_path, folder))


def test_a_variant_file_cannot_take_a_built_in_name(tmp_path: Path) -> None:
    folder = tmp_path / "variants"
    folder.mkdir()
    (folder / "x.toml").write_text('[variant]\nname = "russian"\nbase = "russian"\n')
    with pytest.raises(SettingsError, match="built-in"):
        create_app(_settings(tmp_path, folder))
