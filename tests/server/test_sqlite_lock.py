"""Two processes on one SQLite file: a transaction that finds the write lock taken waits for
it without stopping the event loop (SQLite's own wait slept in the loop's thread)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import text

from damier.server.store import sqlite
from damier.server.store.db import Database


def _connect(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(path, timeout=0, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    return connection


def test_a_locked_begin_waits_without_stopping_the_loop(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite3"
    holder, waiter = _connect(path), _connect(path)
    holder.execute("CREATE TABLE t (x INTEGER)")
    holder.execute("BEGIN IMMEDIATE")  # another process's write transaction
    ticks = 0

    async def run() -> None:
        nonlocal ticks

        async def other_games() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.001)

        async def release() -> None:
            while ticks < 20:  # the loop went on while the waiter waited
                await asyncio.sleep(0.001)
            holder.execute("INSERT INTO t VALUES (1)")
            holder.execute("COMMIT")

        others = asyncio.create_task(other_games())
        releasing = asyncio.create_task(release())
        await asyncio.wait_for(sqlite.begin(waiter), timeout=10)
        waiter.execute("INSERT INTO t VALUES (2)")
        waiter.execute("COMMIT")
        await releasing
        others.cancel()

    asyncio.run(run())
    assert ticks >= 20
    assert sorted(x for (x,) in waiter.execute("SELECT x FROM t")) == [1, 2]


def test_a_lock_held_too_long_fails_with_sqlite_s_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "held.sqlite3"
    holder, waiter = _connect(path), _connect(path)
    holder.execute("BEGIN IMMEDIATE")
    monkeypatch.setattr(sqlite, "LOCK_WAIT_SECONDS", 0.05)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        asyncio.run(sqlite.begin(waiter))


def test_a_server_starting_beside_another_waits_for_the_switch_to_wal(tmp_path: Path) -> None:
    """The second of two servers started together on a new file found it locked by the
    first one's switch to WAL and its migrations, and stopped ("database is locked")."""
    path = tmp_path / "new.sqlite3"
    first = sqlite3.connect(path, timeout=0, isolation_level=None)
    first.execute("CREATE TABLE t (x INTEGER)")
    first.execute("BEGIN EXCLUSIVE")  # the file is not in WAL yet: no one may read it

    async def run() -> str:
        async def release() -> None:
            await asyncio.sleep(0.05)
            first.execute("COMMIT")

        database = Database(f"sqlite+aiosqlite:///{path}")
        releasing = asyncio.create_task(release())
        try:
            async with database.session() as session:
                mode = (await session.execute(text("PRAGMA journal_mode"))).scalar_one()
        finally:
            await database.close()
        await releasing
        return str(mode)

    assert asyncio.run(run()) == "wal"
