"""SQLite in the event loop's own thread, behind the connection interface of aiosqlite that
SQLAlchemy's ``sqlite+aiosqlite`` dialect drives.

aiosqlite runs every call (cursor, execute, fetch, close: about fifteen for one move) in a
thread of its own and waits for the answer; each hand-over costs more than the statement
itself, and under load the thread waits for the GIL behind the event loop, so a move took
milliseconds to store. The statements of this schema are small (one game, its moves, two
players), and with WAL and ``synchronous=NORMAL`` a commit does not wait for the disk, so
they run here directly. The process keeps one connection for its sessions and one for its
moves (:meth:`damier.server.store.db.Database.record_move`). Hardly anything inside a
transaction awaits anything but the database (a claim asks the rooms who is here), so a
transaction runs to its end without giving the loop away, and the two connections seldom
wait for each other's lock (as for another process's, below).

Several processes on one file (``damier serve --workers N``) do wait for each other: each
transaction starts with ``BEGIN IMMEDIATE``, which takes the file's write lock. SQLite's own
wait for a lock sleeps in the calling thread, here the event loop's, for 1, 2, 5 ... 100 ms
at a time: every game of the process stopped with it (two processes on 1,000 games: p99
780 ms). So the connection waits for no lock (``busy_timeout`` 0), and a ``BEGIN
IMMEDIATE`` that finds the file locked is tried again after an ``asyncio`` sleep, the loop
serving the others meanwhile (:func:`begin`). Inside the transaction nothing waits: with
WAL, reads take no lock and the holder of the write lock is the only writer.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Coroutine, Iterable, Mapping, Sequence
from typing import Any

log = logging.getLogger("damier.server")

BEGIN = "BEGIN IMMEDIATE"
CHECKPOINT_SECONDS = 1.0
"""How often a process's checkpoint thread copies the write-ahead log into the database."""
LOCK_WAIT_SECONDS = 30.0
"""How long a transaction waits for another process's write lock before it fails."""
_FIRST_PAUSE, _LONGEST_PAUSE = 0.0002, 0.005


async def begin(connection: sqlite3.Connection) -> None:
    """``BEGIN IMMEDIATE`` on ``connection``, waiting for another process's write lock
    without stopping the event loop."""
    await execute_waiting(connection, BEGIN)


async def execute_waiting(connection: sqlite3.Connection, sql: str) -> None:
    """Run ``sql``, which takes a lock (``BEGIN IMMEDIATE``, the switch to WAL), trying
    again while another process holds it: pauses from 0.2 to 5 ms in ``asyncio``, at most
    LOCK_WAIT_SECONDS in all."""
    pause, deadline = _FIRST_PAUSE, time.monotonic() + LOCK_WAIT_SECONDS
    while True:
        try:
            connection.execute(sql)
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) and "busy" not in str(error):
                raise
            if time.monotonic() > deadline:
                raise
        await asyncio.sleep(pause)
        pause = min(_LONGEST_PAUSE, pause * 2)


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
        if sql == BEGIN:
            await begin(self._cursor.connection)
        else:
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
        if sql == BEGIN:
            await begin(self._conn)
            return Cursor(self._conn.cursor())
        return Cursor(self._conn.execute(sql, parameters))

    async def create_function(
        self, name: str, arity: int, function: Callable[..., Any], **options: Any
    ) -> None:
        self._conn.create_function(name, arity, function, **options)

    async def apply(self, steps: Sequence[tuple[str, Mapping[str, Any]]]) -> bool:
        """Run the statements in one transaction, all or none: False (rolled back) when
        one changes no row (see :meth:`damier.server.store.db.Database.record_move`)."""
        await begin(self._conn)
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
    autocommit mode (the engine's ``begin`` listener opens each transaction itself), in
    WAL mode."""

    async def connect() -> Connection:
        connection: sqlite3.Connection = sqlite3.connect(*arguments, **keywords)
        connection.isolation_level = None
        # The first switch to WAL needs the file to itself: a second process starting
        # beside the first (``--workers``, or two servers on one file) waits for it.
        await execute_waiting(connection, "PRAGMA journal_mode=WAL")
        return Connection(connection)

    return connect


class Checkpoints:
    """Copies the write-ahead log into the database file every CHECKPOINT_SECONDS, in a
    thread of its own, on a connection of its own (the process's other connections do not
    checkpoint: ``wal_autocheckpoint`` is 0 on them). SQLite's own checkpoints ran in the
    commit that filled the log, in the event loop's thread: every few hundred moves one
    copied the log back and waited for the disk, 3-5 ms during which no game moved. A
    passive checkpoint waits for no writer and stops no writer."""

    def __init__(self, path: str) -> None:
        self._path = path
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="damier-checkpoints", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        connection = sqlite3.connect(self._path, timeout=5)  # this thread may wait
        try:
            while not self._stop.wait(CHECKPOINT_SECONDS):
                try:
                    connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error as error:  # busy, or the file away: the next one tries
                    log.warning("sqlite checkpoint skipped: %s", error)
        finally:
            connection.close()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
