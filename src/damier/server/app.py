"""``create_app(settings)``: the FastAPI application of ``damier serve``."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from damier.compiled import SERVER_STAGES, WARMUP, Warmup
from damier.rules import Variant, register_variant
from damier.rules.variant_file import load_variant_file
from damier.server import i18n
from damier.server.rooms import RedisRooms, Refresh, Rooms, State
from damier.server.routes import (
    accounts,
    analysis,
    games,
    matches,
    pages,
    players,
    puzzles,
    review,
    session,
    table,
    tournaments,
    variants,
)
from damier.server.routes.pages import STATIC
from damier.server.security import BodyLimit, SameOrigin, SecurityHeaders
from damier.server.services.analysis import Analyses
from damier.server.services.changes import (
    end_flagged_games,
    resume_computer_games,
    withdraw_stale_offers,
)
from damier.server.services.computer import ComputerPool
from damier.server.services.context import Services
from damier.server.services.errors import ServiceError
from damier.server.services.games import game_snapshot
from damier.server.services.matches import advance_matches
from damier.server.services.moves import follow_move
from damier.server.services.pools import pair_pools
from damier.server.services.table import presence_frame
from damier.server.services.tournaments.service import advance_tournaments
from damier.server.settings import Settings, SettingsError
from damier.server.store.db import Database, unavailable
from damier.server.warmup import WaitForKernel
from damier.server.warmup import router as status_router
from damier.server.ws import router as ws_router

log = logging.getLogger("damier.server")


def load_variant_files(directory: Path) -> list[Variant]:
    """Register every variant file of ``directory``; a broken file stops the start with
    its error (file and line), rather than serving without it."""
    if not directory.is_dir():
        raise SettingsError(f"variants directory {directory} does not exist")
    loaded = []
    for path in sorted(directory.glob("*.toml")):
        try:
            loaded.append(register_variant(load_variant_file(path)))
        except ValueError as error:
            raise SettingsError(f"variant file {path}: {error}") from None
    return loaded


def create_app(
    settings: Settings | None = None,
    *,
    now: Callable[[], float] = time.time,
    warmup: Warmup | None = None,
) -> FastAPI:
    """The app for ``settings`` (default: from the environment). ``now`` is the wall clock
    the game clocks read (tests pass their own); ``warmup`` makes the compiled code ready
    (default: the process's, :data:`damier.compiled.WARMUP`; tests hold their own)."""
    warmup = warmup if warmup is not None else WARMUP
    settings = (settings or Settings()).prepared()
    if settings.variants_dir is not None:
        load_variant_files(settings.variants_dir)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # The port opens at once: the kernel, then the engine, are compiled (or loaded) in
        # a thread; the requests that need them wait (WaitForKernel, ComputerPool).
        warmup.start(SERVER_STAGES)
        database = Database(settings.url, settings.database_connections)
        if settings.run_migrations:
            await database.migrate()
        rooms: Rooms = RedisRooms(settings.redis_url) if settings.redis_url else Rooms()
        services = Services(
            settings=settings,
            database=database,
            rooms=rooms,
            computer=ComputerPool(settings.engine_workers, settings.engine_seconds, warmup),
            now=now,
        )
        await rooms.start(_refresh(services))
        app.state.services = services
        app.state.analyses = Analyses(
            settings.analysis_workers, settings.analysis_per_player, settings.analysis_seconds
        )
        ticker = asyncio.create_task(_clock_ticker(services, warmup), name="damier-clocks")
        resumed = asyncio.create_task(_resume(services, warmup), name="damier-resume")
        if warmup.ready("kernel"):
            await resumed
        try:
            yield
        finally:
            ticker.cancel()
            resumed.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ticker
            with contextlib.suppress(asyncio.CancelledError):
                await resumed
            app.state.analyses.close()
            await services.close()
            await rooms.stop()
            await database.close()

    app = FastAPI(
        title="Damier",
        summary="Draughts in every variant: the platform's API",
        version="0.1.0",
        lifespan=lifespan,
        # No /docs nor /redoc: their pages load scripts from a CDN, blank offline.
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.warmup = warmup
    app.add_middleware(WaitForKernel, warmup=warmup)
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    app.add_middleware(SameOrigin, trusted=frozenset(settings.trusted_origins))
    app.add_middleware(SecurityHeaders)  # the last added is the outermost: on every answer

    @app.exception_handler(ServiceError)
    async def service_error(request: Request, error: ServiceError) -> JSONResponse:
        detail = i18n.localize(error.detail, i18n.request_language(request))
        return JSONResponse({"detail": detail}, status_code=error.status_code)

    async def database_away(request: Request, error: Exception) -> JSONResponse:
        """The database could not be reached or lost the connection (stopped, restarting:
        the pool does not ping, see ``store.db``): nothing was written, the pool is renewed,
        and the request may be sent again (503). Any other error stays a bug (500)."""
        detail = unavailable(error)
        if detail is None:
            raise error
        return JSONResponse({"detail": detail}, status_code=503)

    for failure in (DBAPIError, PoolTimeout, OSError):
        app.add_exception_handler(failure, database_away)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = []
        for problem in error.errors():
            where = ".".join(str(part) for part in problem.get("loc", ()) if part != "body")
            problems.append(
                f"{where}: {problem.get('msg', 'invalid')}" if where else problem["msg"]
            )
        return JSONResponse({"detail": "; ".join(problems) or "invalid request"}, status_code=400)

    app.include_router(status_router)
    app.include_router(variants.router)
    app.include_router(session.router)
    app.include_router(i18n.router)
    app.include_router(accounts.router)
    app.include_router(games.router)
    app.include_router(review.router)
    app.include_router(puzzles.router)
    app.include_router(matches.router)
    app.include_router(analysis.router)
    app.include_router(table.router)
    app.include_router(tournaments.router)
    app.include_router(tournaments.sockets)
    app.include_router(players.router)
    app.include_router(players.pages)
    app.include_router(ws_router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    return app


def _refresh(services: Services) -> Refresh:
    """How the rooms read a game's state and presence again (after Redis was away), and
    keep this process's games up with the moves made on other processes."""

    async def state(game_id: str) -> State:
        return await game_snapshot(services=services, game_id=game_id)

    async def presence(game_id: str, state: State) -> str:
        return await presence_frame(services, game_id, state)

    def follow_move_here(game_id: str, state: State) -> None:
        follow_move(services, game_id, state)

    return Refresh(state, presence, follow_move_here)


async def _resume(services: Services, warmup: Warmup) -> None:
    """Let the computer move where it is its turn, once the kernel is ready (the games
    are read with it, in the event loop's thread)."""
    await warmup.wait_async("kernel")
    await resume_computer_games(services=services)


CHORES_EVERY = 60.0
"""Seconds between two rounds of what may wait that long: the offers nobody took."""


async def _clock_ticker(services: Services, warmup: Warmup) -> None:
    """End the games whose flag fell, and move on the matches whose game ended or whose
    next game is due, every ``clock_tick`` seconds (once the kernel is ready); withdraw
    the stale offers every minute."""
    await warmup.wait_async("kernel")
    chores = services.now()
    while True:
        await asyncio.sleep(services.settings.clock_tick)
        try:
            await end_flagged_games(services=services)
            await advance_matches(services=services)
            await pair_pools(services=services)
            await advance_tournaments(services=services)
            if services.now() >= chores:
                chores = services.now() + CHORES_EVERY
                await withdraw_stale_offers(services=services)
        except Exception:
            log.exception("clock check failed")
