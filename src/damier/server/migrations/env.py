"""Alembic environment: the URL comes from the config (set from settings by the server) or,
run by hand, from ``DAMIER_DATABASE_URL``. The server passes its open connection."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy import Connection

from damier.server.store.models import Base


def _migrate(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


async def _migrate_async(url: str) -> None:
    from damier.server.store.db import Database

    database = Database(url)
    try:
        async with database.engine.begin() as connection:
            await connection.run_sync(_migrate)
    finally:
        await database.close()


def run() -> None:
    config = context.config
    connection = config.attributes.get("connection")
    if connection is not None:
        _migrate(connection)
        return
    url = config.get_main_option("sqlalchemy.url")
    if not url:
        from damier.server.settings import Settings

        url = Settings().prepared().url
    if context.is_offline_mode():
        context.configure(url=url, target_metadata=Base.metadata, literal_binds=True)
        with context.begin_transaction():
            context.run_migrations()
    else:
        asyncio.run(_migrate_async(url))


if hasattr(context, "config"):  # imported by Alembic, not by a test collector
    run()
