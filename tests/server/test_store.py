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


def test_a_move_is_recorded_whole_and_only_on_the_version_it_follows(tmp_path: Path) -> None:
    """The one write of a move: the game's new columns at its version and the move, both or
    neither (on SQLite two statements in a transaction, on PostgreSQL one)."""

    async def run() -> None:
        database = Database(database_url(tmp_path / "moves.sqlite3"))
        await database.migrate()
        try:
            async with database.session() as session, session.begin():
                row = {"id": "g", "variant": "international", "players": 2, "status": "playing"}
                row |= {"white_kind": "human", "black_kind": "human", "start_fen": "W:W:B"}
                row |= {"ply": 0, "created": 0.0, "updated": 0.0, "version": 1}
                await session.execute(GAMES.insert(), row)
            for ply, flag in ((1, 30.0), (2, None)):
                values = {"ply": ply, "updated": float(ply)}
                if flag is not None:
                    values["flag_at"] = flag  # another set of columns: another statement
                move = {"ply": ply, "notation": f"m{ply}", "at": float(ply)}
                assert await database.record_move("g", ply, values, move)
            stale = {"ply": 3, "updated": 3.0}
            assert not await database.record_move(
                "g", 2, stale, {"ply": 3, "notation": "x", "at": 3.0}
            )
            async with database.session() as session:
                moves = (await session.execute(select(MOVES.c.ply, MOVES.c.notation))).all()
                game = (
                    await session.execute(select(GAMES.c.version, GAMES.c.ply, GAMES.c.flag_at))
                ).one()
            assert sorted(moves) == [(1, "m1"), (2, "m2")]
            assert tuple(game) == (3, 2, 30.0)
        finally:
            await database.close()

    asyncio.run(run())
