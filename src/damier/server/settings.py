"""One settings object, read from ``DAMIER_*`` environment variables.

>>> settings = Settings(database_url="sqlite+aiosqlite:///:memory:", secret="s" * 32)
>>> settings.prepared().database_url
'sqlite+aiosqlite:///:memory:'
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Literal

from platformdirs import user_data_dir
from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError


class SettingsError(RuntimeError):
    """Settings the server refuses to start with."""


def default_data_dir() -> Path:
    """Where the embedded database and the development secret live."""
    return Path(user_data_dir("damier", appauthor=False))


class Settings(BaseSettings):
    """The server's configuration. Call :meth:`prepared` before use: it fills the defaults
    that need the file system (database file, development secret)."""

    model_config = SettingsConfigDict(env_prefix="DAMIER_", extra="ignore")

    env: Literal["development", "production", "test"] = "development"
    """``production`` refuses to start without an explicit ``DAMIER_SECRET``."""
    database_url: str | None = None
    """SQLAlchemy async URL; default: SQLite in the user's data directory."""
    database_connections: int = Field(default=20, ge=1)
    """PostgreSQL connections each process keeps open, and never more: processes times
    this must stay below the database server's ``max_connections``."""
    redis_url: str | None = None
    """Set to share game rooms between processes through Redis pub/sub."""
    secret: SecretStr | None = None
    """Key that signs the session cookie."""
    data_dir: Path | None = None
    """Default: the user data directory (``~/.local/share/damier`` on Linux)."""
    engine_workers: int = 2
    """Threads searching computer moves (the cap per process)."""
    engine_seconds: float = 1.0
    """Longest think of the computer per move (the level's own limit may be lower)."""
    analysis_workers: int = 1
    """Engine analyses (the analysis board) running at once in the whole process; more are
    refused. They have threads of their own, apart from the computer opponents'."""
    analysis_per_player: int = 1
    """Engine analyses one player (or, without a session, one address) may run at once."""
    analysis_seconds: float = 30.0
    """Longest run of one analysis (the page starts it again on the next position)."""
    clock_tick: float = 0.5
    """Seconds between two checks for flag falls."""
    match_pause: float = 30.0
    """Seconds between two games of a match: the next one starts then even if a player has
    not said he is ready."""
    first_move_seconds: float = 30.0
    """A game is aborted when a player does not make his first move within this time (from
    the start, then from the previous player's first move)."""
    tournament_creators: str = ""
    """Names of the registered players who may create tournaments, comma-separated (empty:
    every registered player may)."""
    open_game_hours: float = 24.0
    """A game nobody has taken (its seats still open) is withdrawn from the lobby after
    this many hours: its maker has most often left."""
    claim_seconds: float = 30.0
    """How long a player's connections must have been gone before his opponent may claim
    the game (a win or a draw)."""
    chat_capacity: float = 5.0
    """Token bucket per player for chat messages: burst size ..."""
    chat_per_second: float = 0.5
    """... and refill rate (a message every two seconds)."""
    max_body_bytes: int = 16 * 1024
    max_message_bytes: int = 4 * 1024
    rate_capacity: float = 40.0
    """Token bucket per client for moves and messages: burst size ..."""
    rate_per_second: float = 20.0
    """... and refill rate."""
    login_capacity: float = 10.0
    """Token bucket per client address for log-in and register attempts, and per account
    name for wrong passwords (``security.LoginThrottle``): burst size ..."""
    login_per_second: float = 0.1
    """... and refill rate (one attempt every ten seconds)."""
    login_pair_capacity: float = 5.0
    """Wrong passwords one address may give for one name in a burst ..."""
    login_pair_per_second: float = 1 / 720
    """... and how fast it gets them back (one every twelve minutes)."""
    guest_capacity: float = 20.0
    """Token bucket per client address for new guests: burst size ..."""
    guest_per_second: float = 0.1
    """... and refill rate (a new guest every ten seconds)."""
    trusted_origins: list[str] = []
    """Origins (``https://host[:port]``) besides the request's own host that may send
    state-changing requests: for a proxy that does not pass the ``Host`` header on."""
    cookie_secure: bool | None = None
    """Mark the session cookie Secure (default: in production)."""
    run_migrations: bool = True
    variants_dir: Path | None = None
    """A directory of variant files (``*.toml``) offered next to the built-in variants."""

    def data_path(self) -> Path:
        return self.data_dir if self.data_dir is not None else default_data_dir()

    def prepared(self) -> Settings:
        """A copy with the database URL and the secret filled in; a clear error for a URL
        or a variants directory the server could not start with."""
        url = async_url(
            self.database_url or f"sqlite+aiosqlite:///{self.data_path() / 'damier.sqlite3'}"
        )
        if self.variants_dir is not None and not self.variants_dir.is_dir():
            raise SettingsError(f"variants directory {str(self.variants_dir)!r}: no such directory")
        secret = self.secret
        if secret is None or not secret.get_secret_value():
            if self.env == "production":
                raise SettingsError("DAMIER_SECRET must be set when DAMIER_ENV=production")
            secret = SecretStr(_development_secret(self._secret_file(url)))
        elif self.env == "production" and len(secret.get_secret_value()) < 16:
            raise SettingsError("DAMIER_SECRET is too short: use at least 16 characters")
        return self.model_copy(update={"database_url": url, "secret": secret})

    def _secret_file(self, url: str) -> Path:
        """The development secret lives next to an SQLite database file."""
        parsed = make_url(url)
        if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
            return Path(str(parsed.database)).expanduser().resolve().parent / "secret"
        return self.data_path() / "secret"

    @property
    def secret_key(self) -> str:
        if self.secret is None:
            raise SettingsError("settings not prepared: no secret")
        return self.secret.get_secret_value()

    @property
    def url(self) -> str:
        if self.database_url is None:
            raise SettingsError("settings not prepared: no database URL")
        return self.database_url

    @property
    def secure_cookie(self) -> bool:
        return self.cookie_secure if self.cookie_secure is not None else self.env == "production"


ASYNC_DRIVERS = {"sqlite": "aiosqlite", "postgresql": "asyncpg"}
"""The database servers the server runs on, each with the asyncio driver it uses."""


def async_url(url: str) -> str:
    """``url`` with its database's asyncio driver (``sqlite:///x.db``, as SQLAlchemy's own
    documents write it, is ``sqlite+aiosqlite:///x.db`` here); a clear error for what is
    no URL or another database."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        # (What stands before an "@" may hold a password: it is not repeated.)
        shown = f"...@{url.rsplit('@', 1)[1]}" if "@" in url else url
        raise SettingsError(
            f"database {shown!r}: not a database URL (sqlite:///path or postgresql://...)"
        ) from None
    backend = parsed.get_backend_name()
    if backend not in ASYNC_DRIVERS:
        raise SettingsError(
            f"database {parsed.render_as_string(hide_password=True)!r}: "
            "the server runs on SQLite or PostgreSQL"
        )
    if parsed.get_driver_name() == ASYNC_DRIVERS[backend]:
        return url
    parsed = parsed.set(drivername=f"{backend}+{ASYNC_DRIVERS[backend]}")
    return parsed.render_as_string(hide_password=False)


def _development_secret(path: Path) -> str:
    """Read the secret saved at ``path``, or create it (readable by the owner only)."""
    try:
        text = path.read_text().strip()
    except FileNotFoundError:
        text = ""
    if text:
        return text
    path.parent.mkdir(parents=True, exist_ok=True)
    text = secrets.token_urlsafe(32)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process wrote it first
        return path.read_text().strip()
    with os.fdopen(descriptor, "w") as handle:
        handle.write(text + "\n")
    return text
