"""Settings of the web tests: the tiny game on a fresh SQLite file, AI in a thread, and the
default ceilings except those one test client meets by making many requests quickly."""

from __future__ import annotations

import dataclasses
import functools
import tempfile
from pathlib import Path
from typing import Any

from boardplay.web.config import Limits, Settings

TEST_LIMITS = Limits(
    rate_per_second=10_000,
    rate_burst=100_000,
    games_per_visitor=100_000,
    signups_per_network=100_000,
    chat_account_age=0.001,
    rated_fresh_account=0.001,
    heavy_share=10_000.0,
    heavy_burst=10_000.0,
)
"""The default ceilings, except those one test client would meet by making many requests (and
the ages a new account needs to write in a spectators' chat and to play a rated game against an
account of the same address: the tests' players sign up and play at once, all from one address;
``test_web_bursts.py`` holds the defaults)."""


def tiny_settings(tmp_path: Path, limits: dict[str, Any] | None = None, **extra: Any) -> Settings:
    """The settings of an app on ``tmp_path``'s database: a new one starts as a copy of a
    database migrated once in this process (the app then finds its schema current), an existing
    one (a restart's) is left as it is."""
    database = tmp_path / "web.sqlite3"
    start_migrated(database)
    values: dict[str, Any] = {"ai_workers": 0, **extra}
    return Settings(
        database_url=f"sqlite:///{database}",
        catalogue="webtiny:CATALOGUE",
        limits=dataclasses.replace(TEST_LIMITS, **(limits or {})),
        **values,
    )


def start_migrated(database: Path) -> None:
    """Make ``database`` a copy of the migrated one unless it exists (a restart's is kept)."""
    if not database.exists():
        database.parent.mkdir(parents=True, exist_ok=True)
        database.write_bytes(migrated_database())


@functools.cache
def migrated_database() -> bytes:
    """The bytes of a SQLite database as a server's first start leaves it, made by the app's
    own code once per test process: at the newest schema, with the shipped puzzles. About 400
    tests each start an app on a new database; migrating one from nothing runs 170 statements
    of DDL, each synced to disk (0.1 s quiet, seconds when the workers' syncs queue on one
    disk), and storing the 930 puzzles took each server 0.07 s of CPU more."""
    from boardplay.web.catalogue import REGISTRY
    from boardplay.web.puzzles.service import NEWCOMER
    from boardplay.web.puzzles.sets import shipped
    from boardplay.web.puzzles.store import PuzzleStore
    from boardplay.web.table.storage import Storage

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "template.sqlite3"
        storage = Storage(f"sqlite:///{path}")
        PuzzleStore(storage.engine, NEWCOMER).add_missing(shipped(REGISTRY.names()))
        storage.close()
        return path.read_bytes()
