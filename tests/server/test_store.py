"""The store on SQLite: one connection per process, driven in the event loop's thread, and
back in the pool as soon as a session or a transaction ends (``store.db``, ``store.sqlite``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from sqlalchemy import text

from damier.server.store import sqlite
from damier.server.store.db import Database


def test_sqlite_connection_is_inline_and_given_back_at_once(tmp_path: Path) -> None:
    async def run() -> None:
        database = Database(f"sqlite+aiosqlite:///{tmp_path / 'store.sqlite3'}")
        await database.migrate()
        pool = database.engine.pool
        try:
            async with database.transaction() as connection:
                raw = await connection.get_raw_connection()
                assert isinstance(raw.driver_connection, sqlite.Connection)
                mode = (await connection.execute(text("PRAGMA journal_mode"))).scalar()
                assert mode == "wal"
                await connection.execute(text("CREATE TABLE scratch (n INTEGER)"))
            assert pool.checkedin() == 1
            async with database.session() as session, session.begin():
                await session.execute(text("INSERT INTO scratch VALUES (1)"))
            assert pool.checkedin() == 1

            async def add(n: int) -> None:
                async with database.session() as session, session.begin():
                    await session.execute(text("INSERT INTO scratch VALUES (:n)"), {"n": n})

            await asyncio.gather(*(add(n) for n in range(50)))
            async with database.session() as session:
                count = (await session.execute(text("SELECT count(*) FROM scratch"))).scalar()
            assert count == 51
            assert pool.size() == 1 and pool.checkedin() == 1
        finally:
            await database.close()

    asyncio.run(run())
