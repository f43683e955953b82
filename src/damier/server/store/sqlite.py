"""SQLite in the event loop's own thread, behind the connection interface of aiosqlite that
SQLAlchemy's ``sqlite+aiosqlite`` dialect drives.

aiosqlite runs every call (cursor, execute, fetch, close: about fifteen for one move) in a
thread of its own and waits for the answer; each hand-over costs more than the statement
itself, and under load the thread waits for the GIL behind the event loop, so a move took
milliseconds to store. The statements of this schema are small (one game, its moves, two
players), and with WAL and ``synchronous=NORMAL`` a commit does not wait for the disk, so
they run here directly. The process keeps one connection: its transactions never wait for
each other's locks, and since nothing inside a transaction awaits anything but the
database, a transaction runs to its end without giving the loop away.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Coroutine, Iterable, Mapping, Sequence
from typing import Any


class Cursor:
    """aiosqlite's cursor, done at once."""

    def __init__(self, cursor: sqlite3.Cursor) -> None:
        self._cursor = cursor

    @property
    def description(self) -> Any:
        return self._cursor.description

    @property
    def rowcount(self) -> int:
        return self._cursor.rowcount

    @property
    def lastrowid(self) -> int | None:
        return self._cursor.lastrowid

    async def execute(self, sql: str, parameters: Any = ()) -> Cursor:
        self._cursor.execute(sql, parameters)
        return self

    async def executemany(self, sql: str, parameters: Iterable[Any]) -> Cursor:
        self._cursor.executemany(sql, parameters)
        return self

    async def fetchone(self) -> Any:
        return self._cursor.fetchone()

    async def fetchmany(self, size: int | None = None) -> list[Any]:
        return self._cursor.fetchmany(self._cursor.arraysize if size is None else size)

    async def fetchall(self) -> list[Any]:
        return self._cursor.fetchall()

    async def close(self) -> None:
        self._cursor.close()


class Connection:
    """aiosqlite's connection, done at once."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._conn = connection

    @property
    def isolation_level(self) -> str | None:
        return self._conn.isolation_level

    async def cursor(self) -> Cursor:
        return Cursor(self._conn.cursor())

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> Cursor:
        return Cursor(self._conn.execute(sql, parameters))

    async def create_function(
        self, name: str, arity: int, function: Callable[..., Any], **options: Any
    ) -> None:
        self._conn.create_function(name, arity, function, **options)

    def apply(self, steps: Sequence[tuple[str, Mapping[str, Any]]]) -> bool:
        """Run the statements in one transaction, all or none: False (rolled back) when
        one changes no row (see :meth:`damier.server.store.db.Database.record_move`)."""
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            for sql, parameters in steps:
                if self._conn.execute(sql, parameters).rowcount == 0:
                    self._conn.rollback()
                    return False
        except BaseException:
            self._conn.rollback()
            raise
        self._conn.commit()
        return True

    async def commit(self) -> None:
        self._conn.commit()

    async def rollback(self) -> None:
        self._conn.rollback()

    async def close(self) -> None:
        self._conn.close()

    def stop(self) -> None:
        """Close at once (SQLAlchemy's forced termination)."""
        self._conn.close()


def connector(*arguments: Any, **keywords: Any) -> Callable[[], Coroutine[Any, Any, Connection]]:
    """The ``async_creator`` of an engine: ``sqlite3.connect(*arguments, **keywords)`` in
    autocommit mode (the engine's ``begin`` listener opens each transaction itself)."""

    async def connect() -> Connection:
        connection: sqlite3.Connection = sqlite3.connect(*arguments, **keywords)
        connection.isolation_level = None
        return Connection(connection)

    return connect
