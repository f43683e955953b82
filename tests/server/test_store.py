"""The store (``store.db``, ``store.sqlite``): on SQLite one connection per process for the
sessions, driven in the event loop's thread and back in the pool as soon as a session ends;
a move's write, on SQLite (on a connection of its own) and on PostgreSQL (when
``DAMIER_DATABASE_URL`` names a server)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, text
from sqlalchemy.engine import make_url

from damier.server.store import sqlite
from damier.server.store.db import Database
from damier.server.store.models import Base
from tests.server.conftest import (
    SERVER_DATABASE,
    AppFactory,
    another,
    database_url,
    open_game,
    sign_in,
)

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


async def _new_game(database: Database, game_id: str = "g") -> None:
    async with database.session() as session, session.begin():
        row = {"id": game_id, "variant": "international", "players": 2, "status": "playing"}
        row |= {"white_kind": "human", "black_kind": "human", "start_fen": "W:W:B"}
        row |= {"ply": 0, "created": 0.0, "updated": 0.0, "version": 1}
        await session.execute(GAMES.insert(), row)


def test_a_move_is_recorded_whole_and_only_on_the_version_it_follows(tmp_path: Path) -> None:
    """The one write of a move: the game's new columns at its version and the move, both or
    neither (on SQLite two statements in a transaction, on PostgreSQL one)."""

    async def run() -> None:
        database = Database(database_url(tmp_path / "moves.sqlite3"))
        await database.migrate()
        try:
            await _new_game(database)
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


def test_a_snapshot_reads_the_database_at_one_moment(tmp_path: Path) -> None:
    """What another process commits while a snapshot reads is not seen by the snapshot's
    later statements: on PostgreSQL the snapshot reads past it, on SQLite the writer waits
    for the snapshot to end. (Each statement seeing the latest commit once showed a match
    with its readiness from before its game ended and its rounds from after.)"""

    async def run() -> None:
        url = database_url(tmp_path / "snapshot.sqlite3")
        database, other = Database(url), Database(url)  # two processes on one database
        await database.migrate()
        status = select(GAMES.c.status).where(GAMES.c.id == "g")

        async def finish() -> None:
            async with other.session() as session, session.begin():
                await session.execute(GAMES.update().where(GAMES.c.id == "g"), {"status": "done"})

        try:
            await _new_game(database)
            async with database.snapshot() as session:
                assert (await session.execute(status)).scalar() == "playing"
                writer = asyncio.create_task(finish())
                if database.sqlite:
                    await asyncio.sleep(0.3)
                    assert not writer.done()
                else:
                    await writer
                assert (await session.execute(status)).scalar() == "playing"
            await writer
            async with database.session() as session:
                assert (await session.execute(status)).scalar() == "done"
        finally:
            await database.close()
            await other.close()

    asyncio.run(run())


@pytest.mark.skipif(SERVER_DATABASE is None, reason="needs DAMIER_DATABASE_URL (PostgreSQL)")
def test_a_burst_of_moves_waits_for_the_kept_connections_and_opens_no_more(
    tmp_path: Path,
) -> None:
    """More moves at once than the process keeps connections: each is written, on those
    connections only (opening more for a burst, and closing them after it, made the slowest
    moves of 1,000 live games ten times slower)."""

    async def run() -> None:
        database = Database(database_url(tmp_path / "burst.sqlite3"), connections=2)
        await database.migrate()
        try:
            games = [f"g{number}" for number in range(8)]
            for game in games:
                await _new_game(database, game)
            move = {"ply": 1, "notation": "a", "at": 1.0}
            pool, most = database.engine.pool, 0
            burst = asyncio.gather(
                *(database.record_move(game, 1, {"ply": 1}, move) for game in games)
            )
            while not burst.done():
                most = max(most, pool.checkedout())
                await asyncio.sleep(0)
            assert await burst == [True] * len(games)
            assert most == 2
            async with database.session() as session:
                backends = await session.scalar(
                    text("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()")
                )
                plies = (await session.scalars(select(MOVES.c.game_id))).all()
            assert sorted(plies) == games
            assert backends == 2
        finally:
            await database.close()

    asyncio.run(run())


@pytest.mark.skipif(SERVER_DATABASE is None, reason="needs DAMIER_DATABASE_URL (PostgreSQL)")
def test_a_move_is_recorded_after_the_server_dropped_every_connection(tmp_path: Path) -> None:
    """The pool does not ping its connections: a move on one the server closed (a restart)
    renews the pool and is written on a new connection."""
    import asyncpg

    async def run() -> None:
        url = database_url(tmp_path / "dropped.sqlite3")
        database = Database(url)
        await database.migrate()
        try:
            await _new_game(database)
            assert await database.record_move(
                "g", 1, {"ply": 1}, {"ply": 1, "notation": "a", "at": 1.0}
            )
            plain = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
            admin = await asyncpg.connect(plain)
            try:
                dropped = await admin.fetchval(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            finally:
                await admin.close()
            assert dropped >= 1
            assert await database.record_move(
                "g", 2, {"ply": 2}, {"ply": 2, "notation": "b", "at": 2.0}
            )
            async with database.session() as session:
                plies = (await session.scalars(select(MOVES.c.ply))).all()
            assert sorted(plies) == [1, 2]
        finally:
            await database.close()

    asyncio.run(run())


@pytest.mark.skipif(SERVER_DATABASE is None, reason="needs DAMIER_DATABASE_URL (PostgreSQL)")
def test_a_request_on_a_dropped_connection_gets_a_clear_refusal_then_is_served(
    make_app: AppFactory,
) -> None:
    """A request whose pooled connection the database server dropped changes nothing and
    says so (503); the pool is renewed, and the same request then succeeds."""
    import asyncpg

    # A clock that ticks every hour: its check would otherwise race the request for the
    # dropped connection (and take the 503 itself).
    with TestClient(make_app(clock_tick=3600.0)) as client:
        sign_in(client, "Ana")
        bob = another(client)
        sign_in(bob, "Bob")
        game = open_game(client, bob)
        url = client.app.state.settings.database_url  # type: ignore[attr-defined]
        plain = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)

        async def drop_connections() -> int:
            admin = await asyncpg.connect(plain)
            try:
                dropped: int = await admin.fetchval(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
                return dropped
            finally:
                await admin.close()

        assert asyncio.run(drop_connections()) >= 1
        answers = [client.get(f"/api/games/{game['id']}") for _ in range(3)]
        assert [answer.status_code for answer in answers] == [503, 200, 200]
        assert "connection was lost: nothing was changed" in answers[0].json()["detail"]
        assert answers[-1].json()["ply"] == game["ply"]


def test_sqlite_checkpoints_run_in_a_thread_of_their_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The write-ahead log reaches the database file through the checkpoint thread, not
    through the commits of the event loop's connections (a checkpoint in a commit stopped
    every game for milliseconds)."""
    monkeypatch.setattr(sqlite, "CHECKPOINT_SECONDS", 0.05)
    path = tmp_path / "checkpoints.sqlite3"

    async def run() -> None:
        database = Database(f"sqlite+aiosqlite:///{path}")
        await database.migrate()
        try:
            async with database.session() as session, session.begin():
                assert (await session.execute(text("PRAGMA wal_autocheckpoint"))).scalar() == 0
                await session.execute(text("CREATE TABLE scratch (text TEXT)"))
                await session.execute(
                    text("INSERT INTO scratch VALUES (:text)"), [{"text": "x" * 1000}] * 500
                )
            before = path.stat().st_size
            for _ in range(100):
                await asyncio.sleep(0.02)
                if path.stat().st_size > before + 400_000:
                    break
            assert path.stat().st_size > before + 400_000
        finally:
            await database.close()

    asyncio.run(run())
