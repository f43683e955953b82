"""The async engine, sessions, and migrations run at start."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from damier.server.store import sqlite

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"
LOCK = 0x64616D696572
"""The advisory lock key that serialises migrations on PostgreSQL ("damier")."""


def alembic_config(url: str) -> Config:
    """Alembic's configuration for ``url`` (no ini file: the URL comes from settings)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def _sqlite_pragmas(engine: AsyncEngine) -> None:
    """SQLite: WAL, foreign keys, a busy timeout, and ``BEGIN IMMEDIATE`` so that two
    processes on one file queue for the write lock instead of failing on upgrade."""

    @event.listens_for(engine.sync_engine, "connect")
    def connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def begin(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


class Database:
    """The engine and session factory of one URL."""

    def __init__(self, url: str) -> None:
        self.url = url
        parsed = make_url(url)
        self.sqlite = parsed.get_backend_name() == "sqlite"
        options: dict[str, Any] = {}
        if self.sqlite:
            database = parsed.database
            if database and database != ":memory:":
                Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
                options["pool_size"], options["max_overflow"] = 1, 0  # see store.sqlite
            arguments, keywords = parsed.get_dialect()().create_connect_args(parsed)
            options["async_creator"] = sqlite.connector(*arguments, **{"timeout": 30, **keywords})
        else:
            options["pool_pre_ping"] = True
            # Hundreds of games move at once: with SQLAlchemy's 5 kept connections, the
            # others were opened and closed for every move (a PostgreSQL handshake each).
            options["pool_size"], options["max_overflow"] = 20, 10
        self.engine = create_async_engine(url, **options)
        if self.sqlite:
            _sqlite_pragmas(self.engine)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)

    @asynccontextmanager
    async def session(self) -> AsyncIterator[AsyncSession]:
        """A session, closed at the end of the block. On SQLite it is closed at once:
        SQLAlchemy's own exit closes in a task of its own, which keeps the process's one
        connection from everyone else for a turn of the loop, and under load the waiters
        for it queued for seconds."""
        if not self.sqlite:
            async with self.sessions() as session:
                yield session
            return
        session = self.sessions()
        try:
            yield session
        finally:
            await session.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncConnection]:
        """A connection in a transaction (SQL without the ORM), committed at the end of the
        block; closed at once on SQLite, as :meth:`session` is."""
        if not self.sqlite:
            async with self.engine.begin() as connection:
                yield connection
            return
        connection = await self.engine.connect().start()
        try:
            async with connection.begin():
                yield connection
        finally:
            await connection.close()

    async def migrate(self) -> None:
        """Bring the schema to the newest migration. On PostgreSQL, processes starting
        together take turns (a transaction-scoped advisory lock), so that only the first
        creates the tables; SQLite's ``BEGIN IMMEDIATE`` does the same there."""
        async with self.engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                await connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK})
            await connection.run_sync(self._upgrade)

    def _upgrade(self, connection: Connection) -> None:
        config = alembic_config(self.url)
        config.attributes["connection"] = connection
        command.upgrade(config, "head")

    async def close(self) -> None:
        await self.engine.dispose()
