"""The async engine, sessions, and migrations run at start."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, event, text
from sqlalchemy.dialects.sqlite import dialect as sqlite_dialect
from sqlalchemy.engine import Compiled, make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.sql.dml import UpdateBase

from damier.server.store import sqlite

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"
Step = tuple[UpdateBase, Mapping[str, Any]]
"""A statement that writes, with its parameters (:meth:`Database.apply`)."""
NAMED = sqlite_dialect(paramstyle="named")
"""SQLite's dialect with ``:name`` parameters: the names are the keys of a step's
parameters, so that they go to the driver as they are."""
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
        self._compiled: dict[tuple[UpdateBase, tuple[str, ...]], Compiled] = {}

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

    async def apply(self, steps: Sequence[Step]) -> bool:
        """Run ``steps`` in one transaction, all or none: False, and nothing written, when
        one of them changes no row (an update at a version another process moved past).

        The one write of every move. On SQLite the statements, compiled once for each set
        of parameters, go straight to the driver (:mod:`damier.server.store.sqlite`):
        SQLAlchemy's execution around them took three times as long as SQLite itself."""
        if self.sqlite:
            connection = await self.engine.connect().start()
            try:
                driver = (await connection.get_raw_connection()).driver_connection
                assert isinstance(driver, sqlite.Connection)
                return driver.apply([self._sql(statement, values) for statement, values in steps])
            finally:
                await connection.close()
        async with self.engine.connect() as connection:
            transaction = await connection.begin()
            for statement, parameters in steps:
                if (await connection.execute(statement, parameters)).rowcount == 0:
                    await transaction.rollback()
                    return False
            await transaction.commit()
            return True

    def _sql(
        self, statement: UpdateBase, parameters: Mapping[str, Any]
    ) -> tuple[str, Mapping[str, Any]]:
        """The SQL of ``statement`` for ``parameters`` (which say the columns it sets),
        and the parameters of that SQL (with the statement's own literal values)."""
        key = (statement, tuple(parameters))
        compiled = self._compiled.get(key)
        if compiled is None:
            compiled = statement.compile(dialect=NAMED, column_keys=list(parameters))
            self._compiled[key] = compiled
        return compiled.string, compiled.construct_params(parameters) or {}

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
