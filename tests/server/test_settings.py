"""Settings: the development secret is generated once; production needs an explicit one."""

from __future__ import annotations

from pathlib import Path

import pytest

from damier.server.settings import Settings, SettingsError, async_url


def test_development_secret_is_persisted(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}"
    first = Settings(database_url=url).prepared()
    second = Settings(database_url=url).prepared()
    assert first.secret_key == second.secret_key
    assert len(first.secret_key) >= 32
    assert (tmp_path / "secret").stat().st_mode & 0o077 == 0


def test_default_database_is_in_the_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DAMIER_DATABASE_URL", raising=False)  # set for a PostgreSQL run
    settings = Settings(data_dir=tmp_path).prepared()
    assert settings.url == f"sqlite+aiosqlite:///{tmp_path / 'damier.sqlite3'}"


def test_production_refuses_to_start_without_a_secret(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DAMIER_ENV", "production")
    monkeypatch.delenv("DAMIER_SECRET", raising=False)
    with pytest.raises(SettingsError):
        Settings(data_dir=tmp_path).prepared()
    monkeypatch.setenv("DAMIER_SECRET", "a-long-enough-production-secret")
    assert Settings(data_dir=tmp_path).prepared().secure_cookie


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("sqlite:///games.db", "sqlite+aiosqlite:///games.db"),
        ("sqlite+aiosqlite:///:memory:", "sqlite+aiosqlite:///:memory:"),
        ("postgresql://me:pw@db.example/damier", "postgresql+asyncpg://me:pw@db.example/damier"),
        (
            "postgresql+psycopg2://me@db/damier?ssl=true",
            "postgresql+asyncpg://me@db/damier?ssl=true",
        ),
        ("postgresql+asyncpg://me:p%40ss@db/damier", "postgresql+asyncpg://me:p%40ss@db/damier"),
    ],
)
def test_a_database_url_gets_its_asyncio_driver(url: str, expected: str) -> None:
    assert async_url(url) == expected


@pytest.mark.parametrize("url", ["", "garbage", "mysql://me@db/damier", "oracle://x"])
def test_a_database_the_server_cannot_run_on_is_refused(url: str) -> None:
    with pytest.raises(SettingsError, match="database"):
        async_url(url)


def test_a_url_that_does_not_parse_is_not_repeated_with_its_password() -> None:
    with pytest.raises(SettingsError) as refused:
        async_url("postgres//me:hunter2@db.example/damier")
    assert "hunter2" not in str(refused.value) and "db.example/damier" in str(refused.value)
