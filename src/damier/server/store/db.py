"""The async engine, sessions, and migrations run at start."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, bindparam, event, exc, select, text
from sqlalchemy.dialects.sqlite import dialect as sqlite_dialect
from sqlalchemy.engine import Compiled, Dialect, make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.pool import PoolProxiedConnection
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.dml import UpdateBase
from sqlalchemy.util import greenlet_spawn

from damier.server.store import sqlite
from damier.server.store.models import Base

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"
LOCK = 0x64616D696572
"""The advisory lock key that serialises migrations on PostgreSQL ("damier")."""
NAMED = sqlite_dialect(paramstyle="named")
"""SQLite's dialect with ``:name`` parameters, which the driver takes from a dictionary."""
GAMES, MOVES = Base.metadata.tables["games"], Base.metadata.tables["moves"]
LOST = "the database connection was lost: nothing was changed, try again"
UNAVAILABLE = "the database is unavailable: nothing was changed, try again"
_AWAY_STATES = ("08", "53", "57")
"""SQLSTATE classes of a server away: connection exception, insufficient resources (too
many connections), operator intervention (shut down, starting up)."""
_SQLITE_AWAY = ("SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_CANTOPEN", "SQLITE_IOERR", "SQLITE_FULL")
"""SQLite's errors of a file that cannot be used now (its other OperationalErrors are bugs:
no such table, a syntax error)."""
_DRIVERS = ("asyncpg", "sqlalchemy", "aiosqlite", "damier.server.store")


def unavailable(error: BaseException) -> str | None:
    """What to tell a client when ``error`` says the database could not be reached or lost
    the connection (stopped, restarting, too busy, timed out), rather than refused a
    statement; None for any other error (a bug, a constraint). Nothing was changed, and the
    request may be sent again (a move carries its ply: it is never applied twice)."""
    if isinstance(error, exc.TimeoutError):  # no pooled connection came free
        return UNAVAILABLE
    if isinstance(error, exc.DBAPIError) and error.connection_invalidated:
        return LOST
    cause = error.orig if isinstance(error, exc.DBAPIError) else error
    if isinstance(cause, sqlite3.Error):
        name = getattr(cause, "sqlite_errorname", None) or ""
        return UNAVAILABLE if name.startswith(_SQLITE_AWAY) else None
    if isinstance(error, exc.OperationalError | exc.InterfaceError):
        return UNAVAILABLE  # asyncpg's: a connection refused (see _refused_connects), closed
    state = getattr(cause, "sqlstate", None)
    if isinstance(state, str) and state.startswith(_AWAY_STATES):
        return UNAVAILABLE
    if isinstance(cause, OSError):
        # A socket's error (refused, reset, timed out) met in the database's code.
        modules = (tb.tb_frame.f_globals.get("__name__", "") for tb in _frames(cause))
        if any(str(module).startswith(_DRIVERS) for module in modules):
            return UNAVAILABLE
    return None


def _frames(error: BaseException) -> Iterator[Any]:
    tb = error.__traceback__
    while tb is not None:
        yield tb
        tb = tb.tb_next


def _move_statements(columns: tuple[str, ...], sqlite: bool) -> list[UpdateBase]:
    """The statements of :meth:`Database.record_move` setting ``columns``: the update of the
    game at its version, then the insert of the move (on PostgreSQL one statement: the
    insert selects from the update's returned row, so that it inserts nothing without it)."""
    new = {name: bindparam(f"new_{name}", type_=GAMES.c[name].type) for name in columns}
    new["version"] = bindparam("new_version", type_=GAMES.c.version.type)
    update = (
        GAMES.update()
        .where(GAMES.c.id == bindparam("at_id"), GAMES.c.version == bindparam("at_version"))
        .values(new)
    )
    row = {
        "game_id": bindparam("at_id", type_=MOVES.c.game_id.type),
        **{
            name: bindparam(f"move_{name}", type_=MOVES.c[name].type)
            for name in ("ply", "notation", "at")
        },
    }
    if sqlite:
        return [update, MOVES.insert().values(row)]
    moved = update.returning(GAMES.c.id).cte("moved")
    return [MOVES.insert().from_select(list(row), select(*row.values()).select_from(moved))]


def alembic_config(url: str) -> Config:
    """Alembic's configuration for ``url`` (no ini file: the URL comes from settings)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def _sqlite_pragmas(engine: AsyncEngine) -> None:
    """SQLite (WAL is set by :func:`damier.server.store.sqlite.connector`): foreign keys,
    and ``BEGIN IMMEDIATE`` so that two processes on one file queue for the write lock
    (:func:`damier.server.store.sqlite.begin`, without stopping the event loop) instead of
    failing on upgrade."""

    @event.listens_for(engine.sync_engine, "connect")
    def connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=0")  # locks are waited for by sqlite.begin
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA wal_autocheckpoint=0")  # see sqlite.Checkpoints
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def begin(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def _refused_connects(engine: AsyncEngine) -> None:
    """A connection that cannot be opened (the server is stopped, shutting down, starting
    up, full) raises the driver's OperationalError, which SQLAlchemy wraps as every database
    error: asyncpg's own errors (and the socket's) otherwise reached the request bare."""
    import asyncpg  # type: ignore[import-untyped]

    @event.listens_for(engine.sync_engine, "do_connect")
    def connect(dialect: Dialect, _record: Any, arguments: Any, keywords: Any) -> Any:
        try:
            return dialect.connect(*arguments, **keywords)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise dialect.loaded_dbapi.OperationalError(f"cannot connect: {error}") from error


class Database:
    """The engine and session factory of one URL."""

    def __init__(self, url: str, connections: int = 20) -> None:
        self.url = url
        parsed = make_url(url)
        self.sqlite = parsed.get_backend_name() == "sqlite"
        options: dict[str, Any] = {}
        self._file = False
        """SQLite on a file (not in memory): its moves have a connection of their own."""
        self._checkpoints: sqlite.Checkpoints | None = None
        if self.sqlite:
            database = parsed.database
            if database and database != ":memory:":
                path = Path(database).expanduser()
                path.parent.mkdir(parents=True, exist_ok=True)
                options["pool_size"], options["max_overflow"] = 1, 0  # see store.sqlite
                self._file = True
                self._checkpoints = sqlite.Checkpoints(str(path))
            arguments, keywords = parsed.get_dialect()().create_connect_args(parsed)
            options["async_creator"] = sqlite.connector(*arguments, **{"timeout": 0, **keywords})
        else:
            # A commit does not wait for the disk, like SQLite's WAL with synchronous=NORMAL
            # (a crash of the database server may lose the last moves, never the database);
            # and no ping at each checkout: a move is one round trip, the ping was another.
            # A connection lost with the server is found by the statement that fails on it
            # (SQLAlchemy then renews the pool; record_move does it itself).
            options["connect_args"] = {"server_settings": {"synchronous_commit": "off"}}
            # A fixed set of ``connections``, kept open, and none beyond: a burst of moves
            # (after a pause of the process) waits a moment for one of them. Connections
            # opened for a burst and closed after it (SQLAlchemy's overflow) each cost a
            # PostgreSQL process and a password exchange when the server was busiest: at
            # 1,000 live games they made the slowest moves ten times slower.
            options["pool_size"], options["max_overflow"] = connections, 0
        self.engine = create_async_engine(url, **options)
        if self.sqlite:
            _sqlite_pragmas(self.engine)
        else:
            _refused_connects(self.engine)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        self._compiled: dict[tuple[str, ...], list[Compiled]] = {}
        self._mover: sqlite.Connection | None = None

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
    async def snapshot(self) -> AsyncIterator[AsyncSession]:
        """A session whose reads all see the database at one moment, for reads that must
        agree (a game's row and its moves; a match's or a tournament's view, which decides
        whether something is due). PostgreSQL's default lets each statement see every
        commit before it, so a row and its children (a ``selectin`` collection, the next
        statement) could come from either side of another connection's commit (the clock
        task's, another server's): a match with its readiness from before a game ended and
        its rounds from after, a state that never was. There it reads in a repeatable-read,
        read-only transaction. On SQLite every session's transaction starts with ``BEGIN
        IMMEDIATE``, which already keeps other writers out until it ends."""
        async with self.session() as session:
            if not self.sqlite:
                options = {"isolation_level": "REPEATABLE READ", "postgresql_readonly": True}
                await session.connection(execution_options=options)
            yield session

    async def record_move(
        self, game_id: str, version: int, values: Mapping[str, Any], move: Mapping[str, Any]
    ) -> bool:
        """Store a move of a game still at ``version``: the game's new column ``values``
        (its version becomes the next) and the ``move`` (``ply``, ``notation``, ``at``),
        both or neither; False when the game is no longer at ``version`` (another process
        changed it first).

        The one write of every move, so it skips SQLAlchemy's execution (which took longer
        than the database): the SQL, compiled once for each set of columns, goes to the
        driver. On SQLite (run in this thread, :mod:`damier.server.store.sqlite`) it is an
        update and an insert in one transaction; on PostgreSQL one statement, the insert
        reading the row the update returns (one round trip, atomic by itself)."""
        columns = tuple(values)
        compiled = self._compiled.get(columns)
        if compiled is None:
            dialect = NAMED if self.sqlite else self.engine.dialect
            compiled = [s.compile(dialect=dialect) for s in _move_statements(columns, self.sqlite)]
            self._compiled[columns] = compiled
        parameters = {f"new_{name}": value for name, value in values.items()}
        parameters |= {"new_version": version + 1, "at_id": game_id, "at_version": version}
        parameters |= {f"move_{name}": move[name] for name in ("ply", "notation", "at")}
        if self._file:
            mover = self._mover or await self._sqlite_mover()
            return await mover.apply([(c.string, parameters) for c in compiled])
        for attempt in (1, 2):
            # The pool's connection itself, not SQLAlchemy's Connection around it: half
            # the CPU of the checkout and the checkin.
            pooled = await self._checkout()
            try:
                driver = pooled.driver_connection
                if isinstance(driver, sqlite.Connection):  # in memory
                    return await driver.apply([(c.string, parameters) for c in compiled])
                (statement,) = compiled  # asyncpg: positional parameters, the status as text
                assert isinstance(statement, SQLCompiler) and driver is not None
                arguments = [parameters[name] for name in statement.positiontup or ()]
                try:
                    status = await driver.execute(statement.string, *arguments)
                except Exception as error:
                    lost = driver.is_closed()
                    if lost and attempt == 1:
                        # The server went away (a restart): every kept connection is presumed
                        # dead, not only this one; the pool does not ping them at checkout.
                        await greenlet_spawn(pooled.invalidate)
                        await self.engine.dispose()
                        continue
                    if lost or unavailable(error):  # as SQLAlchemy's own statements say it
                        raise exc.OperationalError(
                            statement.string, None, error, connection_invalidated=lost
                        ) from error
                    raise
                return bool(status.endswith(" 1"))
            finally:
                await greenlet_spawn(pooled.close)
        raise AssertionError("unreachable: the second attempt returns or raises")

    async def _checkout(self) -> PoolProxiedConnection:
        """A connection of the pool, its driver's errors wrapped as SQLAlchemy's own (as
        :meth:`AsyncEngine.connect` does), which :func:`unavailable` reads."""
        dbapi = self.engine.dialect.loaded_dbapi
        try:
            return await greenlet_spawn(self.engine.sync_engine.raw_connection)
        except dbapi.Error as error:
            raise exc.DBAPIError.instance(None, None, error, dbapi.Error) from error

    async def _sqlite_mover(self) -> sqlite.Connection:
        """SQLite: the connection that stores the moves, taken from the pool once (made
        with its pragmas) and kept apart from it, the pool making another for the sessions.
        Its transactions never wait in the process either: they do not give the loop away.
        Checking the pool's one connection out and in again for each move took more CPU
        than the move's statements."""
        pooled = await self._checkout()
        if self._mover is not None:  # another move took it while this one waited
            await greenlet_spawn(pooled.close)
            return self._mover
        driver = pooled.driver_connection
        assert isinstance(driver, sqlite.Connection)
        pooled.detach()
        self._mover = driver
        return driver

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
        if self._mover is not None:
            await self._mover.close()
            self._mover = None
        if self._checkpoints is not None:
            self._checkpoints.stop()
            self._checkpoints = None
        await self.engine.dispose()
