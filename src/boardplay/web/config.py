"""Server settings: where the database lives, which games are offered and how AI moves run.

The defaults suit one person running ``boardplay serve`` on a laptop: an embedded SQLite file
under the XDG data directory, the games of the registry, AI moves in a small process pool. Each
setting can come from the environment so the same code serves tests, the CLI and a deployment."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

DATABASE_ENV = "BOARDPLAY_DATABASE_URL"
"""Environment variable with a SQLAlchemy URL, e.g. ``postgresql+psycopg://user@host/db``."""
CATALOGUE_ENV = "BOARDPLAY_WEB_CATALOGUE"
"""Environment variable naming the game catalogue as ``module:attribute`` (tests: a tiny game)."""
AI_WORKERS_ENV = "BOARDPLAY_WEB_AI_WORKERS"
DEFAULT_CATALOGUE = "boardplay.web.catalogue:REGISTRY"


def default_database_path() -> Path:
    """``$XDG_DATA_HOME/boardplay/boardplay.sqlite3`` (``~/.local/share/...`` by default)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "boardplay" / "boardplay.sqlite3"


def default_database_url() -> str:
    """``BOARDPLAY_DATABASE_URL`` if set, else the embedded SQLite file."""
    url = os.environ.get(DATABASE_ENV)
    if url:
        return url
    return f"sqlite:///{default_database_path()}"


@dataclass(frozen=True)
class Settings:
    """Everything ``create_app`` needs. ``ai_workers = 0`` runs AI moves in a thread instead of a
    process pool (used where processes cannot be spawned); the event loop is free either way."""

    database_url: str = field(default_factory=default_database_url)
    catalogue: str = field(default_factory=lambda: os.environ.get(CATALOGUE_ENV, DEFAULT_CATALOGUE))
    ai_workers: int = field(default_factory=lambda: int(os.environ.get(AI_WORKERS_ENV, "1")))
    resume_on_start: bool = True
