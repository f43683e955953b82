"""``damier serve`` builds the app and hands it to uvicorn on the address asked for."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from damier import compiled
from damier.cli import main
from damier.server import serving


def test_serve_runs_uvicorn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: calls.append(options))
    monkeypatch.setattr(
        compiled.WARMUP, "start", lambda stages, progress: calls.append({"warm-up": stages})
    )
    monkeypatch.setenv("DAMIER_SECRET", "cli-test-secret-0123456789")
    database = f"sqlite+aiosqlite:///{tmp_path / 'cli.sqlite3'}"
    assert main(["serve", "--port", "8123", "--database", database, "--workers", "1"]) == 0
    started, calls[:] = calls[0], calls[1:]
    # The compiled code is made ready in the background, started before the port opens.
    assert started == {"warm-up": ("kernel", "engine")}
    assert calls[0]["host"] == "127.0.0.1"
    assert calls[0]["port"] == 8123
    assert "http://127.0.0.1:8123/" in capsys.readouterr().out


def test_serve_with_workers_shares_a_private_redis_and_its_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[Any, dict[str, Any]]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: calls.append((app, options)))

    @contextlib.contextmanager
    def fake_redis(binary: str) -> Iterator[str]:
        yield "unix:///tmp/fake.sock"

    monkeypatch.setattr(serving, "private_redis", fake_redis)
    monkeypatch.setattr(serving, "redis_server_binary", lambda: "/usr/bin/redis-server")
    monkeypatch.setattr(os, "environ", dict(os.environ))  # the command sets variables
    monkeypatch.delenv("DAMIER_REDIS_URL", raising=False)
    monkeypatch.setenv("DAMIER_SECRET", "cli-test-secret-0123456789")
    database = f"sqlite+aiosqlite:///{tmp_path / 'workers.sqlite3'}"
    assert main(["serve", "--database", database, "--workers", "3"]) == 0
    [(app, options)] = calls
    assert app == "damier.server.serving:worker_app"
    assert options["factory"] is True and options["workers"] == 3
    assert os.environ["DAMIER_DATABASE_URL"] == database
    assert os.environ["DAMIER_REDIS_URL"] == "unix:///tmp/fake.sock"
    assert os.environ["DAMIER_SECRET"] == "cli-test-secret-0123456789"


def test_serve_runs_one_process_by_default_and_one_a_core_with_a_redis(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[tuple[Any, dict[str, Any]]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: calls.append((app, options)))
    monkeypatch.setattr(compiled.WARMUP, "start", lambda stages, progress: None)
    monkeypatch.setattr(serving, "available_cores", lambda: 4)
    monkeypatch.setattr(os, "environ", dict(os.environ))  # the command sets variables
    monkeypatch.delenv("DAMIER_REDIS_URL", raising=False)
    monkeypatch.setenv("DAMIER_SECRET", "cli-test-secret-0123456789")
    database = f"sqlite+aiosqlite:///{tmp_path / 'one.sqlite3'}"
    assert main(["serve", "--database", database]) == 0
    assert not isinstance(calls[-1][0], str)  # the app itself: one process
    monkeypatch.setenv("DAMIER_REDIS_URL", "redis://127.0.0.1:1/0")
    assert main(["serve", "--database", database]) == 0
    assert calls[-1][1]["workers"] == 4
    assert os.environ["DAMIER_REDIS_URL"] == "redis://127.0.0.1:1/0"


def test_serve_without_a_redis_server_refuses_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: None)
    monkeypatch.setattr(serving, "redis_server_binary", lambda: None)
    monkeypatch.delenv("DAMIER_REDIS_URL", raising=False)
    monkeypatch.setenv("DAMIER_SECRET", "cli-test-secret-0123456789")
    database = f"sqlite+aiosqlite:///{tmp_path / 'one.sqlite3'}"
    assert main(["serve", "--database", database, "--workers", "2"]) == 2
    assert "--workers needs a Redis server" in capsys.readouterr().err


@pytest.mark.parametrize("port", ["99999", "0", "-1", "http"])
def test_serve_refuses_a_port_out_of_range(
    port: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: calls.append(options))
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--port", port])
    assert exited.value.code == 2
    assert not calls
    captured = capsys.readouterr()
    assert "--port" in captured.err and "serving" not in captured.out


def test_serve_refuses_production_without_a_secret(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DAMIER_ENV", "production")
    monkeypatch.delenv("DAMIER_SECRET", raising=False)
    assert main(["serve"]) == 2
    assert "DAMIER_SECRET" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("value", "reason"),
    [("0", "greater than or equal to 1"), ("many", "valid integer")],
)
def test_serve_names_a_setting_of_the_wrong_kind(
    value: str, reason: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: calls.append(options))
    monkeypatch.setenv("DAMIER_DATABASE_CONNECTIONS", value)
    assert main(["serve"]) == 2
    assert not calls
    error = capsys.readouterr().err
    assert f"DAMIER_DATABASE_CONNECTIONS='{value}'" in error and reason in error


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize(
    ("database", "said"),
    [
        ("garbage", "not a database URL"),
        ("mysql://someone@localhost/damier", "runs on SQLite or PostgreSQL"),
        # No server on that port: refused at once, the password never shown.
        ("postgresql://someone:hunter2@127.0.0.1:{port}/damier", "cannot reach the database"),
    ],
)
def test_serve_says_why_a_database_will_not_do(
    database: str,
    said: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: calls.append(options))
    monkeypatch.setattr(compiled.WARMUP, "start", lambda stages, progress: None)
    monkeypatch.setenv("DAMIER_SECRET", "cli-test-secret-0123456789")
    assert main(["serve", "--database", database.format(port=_free_port())]) == 2
    assert not calls
    captured = capsys.readouterr()
    assert said in captured.err
    assert "Traceback" not in captured.err and "hunter2" not in captured.err
    assert "serving" not in captured.out


def test_serve_takes_sqlalchemy_s_plain_sqlite_url(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``sqlite:///x.db``, as SQLAlchemy writes it, runs on the asyncio driver."""
    calls: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: calls.append(app))
    monkeypatch.setattr(compiled.WARMUP, "start", lambda stages, progress: None)
    monkeypatch.setenv("DAMIER_SECRET", "cli-test-secret-0123456789")
    assert main(["serve", "--database", f"sqlite:///{tmp_path / 'plain.sqlite3'}"]) == 0
    assert len(calls) == 1
    assert (tmp_path / "plain.sqlite3").exists()


def test_serve_refuses_a_variants_directory_that_is_not_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: calls.append(options))
    monkeypatch.setenv("DAMIER_SECRET", "cli-test-secret-0123456789")
    database = f"sqlite+aiosqlite:///{tmp_path / 'v.sqlite3'}"
    missing = tmp_path / "no-such-folder"
    assert main(["serve", "--database", database, "--variants-dir", str(missing)]) == 2
    assert not calls
    assert "no such directory" in capsys.readouterr().err
