"""Bring a database's schema up to date with Alembic, safely when several processes start at once.

Every server process runs the migrations when it starts (and ``boardplay db upgrade`` runs them
alone). Two processes starting together on an empty PostgreSQL database would both try to
create the tables and one would crash; so the migration runs under a PostgreSQL advisory lock
(a second process waits, then finds the schema current). SQLite is one file on one host: a file
lock next to it does the same.

A database is upgraded from release 0.1.0's schema (revision 0011) or from nothing: the
revisions before 0011 are squashed into it (``migrations/versions/v0011_baseline.py``), and
those after it, which no release shipped, into 0018 (``v0018_since_0_1_0.py``). A database
still at a squashed revision, which only a development version made, is refused with a
sentence saying so and what to do rather than Alembic's "Can't locate revision"."""

from __future__ import annotations

import contextlib
import fcntl
import functools
from collections.abc import Iterator
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, text
from sqlalchemy.engine import Engine

from boardplay.core.errors import BoardplayError
from boardplay.web.database import make_engine

MIGRATION_LOCK = 0x626F6172_64706C61
"""PostgreSQL advisory lock key held while migrating ("boardpla" as a 64-bit number)."""
BASELINE = "0011"
"""The oldest revision a database is upgraded from: release 0.1.0's schema."""
RELEASES = {BASELINE: "0.1.0"}
"""The revision each release's schema is at, and the release."""


class UnreleasedSchemaError(BoardplayError):
    """A database at a revision squashed into a later one, which only a development version
    made and this version cannot upgrade: ``found``, one of ``first`` to ``into``."""

    def __init__(self, found: str, first: str, into: str) -> None:
        release = RELEASES.get(into)
        if release is not None:  # squashed into a release's schema: that release upgrades it
            made = f"before release {release}"
            step = f"with boardplay {release} first (it brings the database to {release}'s schema)"
        else:  # squashed after the last release: a version from before the squash upgrades it
            made = f"after release {RELEASES[max(r for r in RELEASES if r < found)]}"
            step = (
                f"first with a development version that still has the revisions {first} to "
                f"{into} one by one (it brings the database to revision {into})"
            )
        super().__init__(
            f"the database is at schema revision {found}, which only a development version "
            f"{made} made; this version upgrades a database from {RELEASES[BASELINE]} "
            f"(revision {BASELINE}) or newer, or an empty one: run 'boardplay db upgrade' "
            f"{step}, then with this version"
        )
        self.found = found
        self.into = into


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's configuration without an ini file: the scripts ship inside the package."""
    config = Config()
    config.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head() -> str:
    """The newest schema revision this code knows."""
    found = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert found is not None
    return found


@functools.cache
def schema_head() -> str:
    """``head``, read once per process: the scripts do not change while it runs, and the
    readiness probe asks every second (``Hub.readiness``)."""
    return head()


def squashed(found: str | None) -> UnreleasedSchemaError | None:
    """Why a database at ``found`` is not upgraded, if it is at a revision the chain no longer
    has because it is squashed into a later one; None for no revision, one of the chain, or
    one after its head (a newer version's, which Alembic names as unknown)."""
    chain = sorted(
        s.revision for s in ScriptDirectory.from_config(alembic_config()).walk_revisions()
    )
    if found is None or found in chain or found > chain[-1]:
        return None
    before = max((r for r in chain if r < found), default="0000")
    return UnreleasedSchemaError(
        found, f"{int(before) + 1:04d}", next(r for r in chain if r > found)
    )


def current(engine: Engine) -> str | None:
    """The database's schema revision (None before the first migration)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def open_database(url: str) -> Engine:
    """An engine on ``url``'s database (``database.make_engine``), its schema brought up to
    date: what a server process opens first, before any domain reads it."""
    engine = make_engine(url)
    upgrade(engine)
    return engine


def upgrade(engine: Engine) -> str:
    """Migrate ``engine``'s database to the newest revision, once however many processes call
    this at the same time; returns the revision reached. ``UnreleasedSchemaError`` for a
    database at a squashed revision (it is left as it is)."""
    with engine.connect() as conn, _migration_lock(engine, conn):
        found = MigrationContext.configure(conn).get_current_revision()
        conn.rollback()  # the look ends its transaction: Alembic's own wraps the migration
        refused = squashed(found)
        if refused is not None:
            raise refused
        if found == schema_head():  # every start but the first: Alembic would load every script
            return found
        command.upgrade(alembic_config(conn), "head")
        conn.commit()
        reached = MigrationContext.configure(conn).get_current_revision()
    return reached or ""


@contextlib.contextmanager
def _migration_lock(engine: Engine, conn: Connection) -> Iterator[None]:
    if engine.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": _signed(MIGRATION_LOCK)})
        conn.commit()
        try:
            yield
        finally:
            conn.rollback()
            conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": _signed(MIGRATION_LOCK)})
            conn.commit()
        return
    database = engine.url.database if engine.dialect.name == "sqlite" else None
    if not database or database == ":memory:" or database.startswith("file:"):
        yield
        return
    lock_path = Path(database).expanduser().with_name(Path(database).name + ".migrate-lock")
    with lock_path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _signed(key: int) -> int:
    """PostgreSQL's bigint is signed."""
    return key - (1 << 64) if key >= 1 << 63 else key
