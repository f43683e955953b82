"""The store on SQLite: one connection per process, driven in the event loop's thread, and
back in the pool as soon as a session or a transaction ends (``store.db``, ``store.sqlite``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from sqlalchemy import select, text

from damier.server.store import sqlite
from damier.server.store.db import Database
from damier.server.store.models import Base
from tests.server.conftest import database_url

GAMES, MOVES = Base.metadata.tables["games"], Base.metadata.tables["moves"]


def test_sqlite_connection_is_inline_and_given_back_at_once(tmp_path: Path) -> None:
    async def run() -> None:
        database = Database(f"sqlite+aiosqlite:///{tmp_path / 'store.sqlite3'}")
        await database.migrate()
        pool = database.engine.pool
        try:
            async with database.session() as session, session.begin():
                connection = await session.connection()
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


def test_apply_writes_all_its_steps_or_none(tmp_path: Path) -> None:
    """The one write of a move: an update at a version, then the move; an update that finds
    no row at its version writes nothing (on SQLite the driver runs the steps directly)."""
    update = GAMES.update().where(GAMES.c.id == "g", GAMES.c.version == text(":at_version"))

    def move(ply: int) -> dict[str, object]:
        return {"game_id": "g", "ply": ply, "notation": f"m{ply}", "at": 1.0}

    async def run() -> None:
        database = Database(database_url(tmp_path / "apply.sqlite3"))
        await database.migrate()
        try:
            async with database.session() as session, session.begin():
                row = {"id": "g", "variant": "international", "players": 2, "status": "playing"}
                row |= {"white_kind": "human", "black_kind": "human", "start_fen": "W:W:B"}
                row |= {"ply": 0, "created": 0.0, "updated": 0.0, "version": 1}
                await session.execute(GAMES.insert(), row)
            for ply in (1, 2):
                moved = {"ply": ply, "version": ply + 1, "at_version": ply}
                assert await database.apply([(update, moved), (MOVES.insert(), move(ply))])
            stale = {"ply": 3, "version": 3, "at_version": 2}
            assert not await database.apply([(update, stale), (MOVES.insert(), move(3))])
            async with database.session() as session:
                plies = (await session.scalars(select(MOVES.c.ply))).all()
                version = (await session.scalars(select(GAMES.c.version))).one()
            assert sorted(plies) == [1, 2] and version == 3
            assert database.engine.pool.checkedin() >= 1
        finally:
            await database.close()

    asyncio.run(run())
