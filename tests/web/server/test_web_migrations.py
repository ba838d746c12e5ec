"""The baseline revision 0011 stands for the eleven revisions release 0.1.0 shipped, and 0018
for the seven made after it, which no release shipped.

Those eighteen are kept as they were in ``migrations_squashed/`` beside this file, and run here
as Alembic's versions with the package's own ``env.py``. A database they make and one the
package's two make reflect the same schema (tables, columns with their types, nullability and
defaults, primary keys, foreign keys, unique and check constraints, indexes) on SQLite and
PostgreSQL: at 0011, at 0018 (also for a 0.1.0 database, at the old 0011, taking the new 0018),
where both equal the stores' tables, and taken back to 0011. A database made before migrations
existed is brought up by the baseline as by the old chain, one with every table and no
revision is left as it is, and one at a squashed revision is refused, by the server and by
``boardplay db upgrade``."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import devservices as ds
import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy.engine import Engine

import boardplay.web.hub  # noqa: F401  (every domain's tables declared, as the app has them)
from boardplay.web.database import make_engine, metadata
from boardplay.web.migrate import (
    BASELINE,
    UnreleasedSchemaError,
    alembic_config,
    current,
    head,
    open_database,
    upgrade,
)

SQUASHED = Path(__file__).with_name("migrations_squashed")
"""Revisions 0001 to 0011 as release 0.1.0 shipped them, 0012 to 0018 as they were made."""
KINDS = ["sqlite", "postgresql"]


def squashed_config(conn: sa.Connection) -> Config:
    """Alembic's configuration on the squashed revisions instead of this version's."""
    config = alembic_config(conn)
    config.set_main_option("path_separator", "os")
    config.set_main_option("version_locations", str(SQUASHED))
    return config


def fresh(kind: str, tmp_path: Path, request: pytest.FixtureRequest, name: str) -> Engine:
    """An empty database: an SQLite file, or a new database on the test's PostgreSQL."""
    if kind == "sqlite":
        return make_engine(f"sqlite:///{tmp_path / name}.sqlite3")
    admin = request.getfixturevalue("postgres_url")
    return make_engine(ds.new_database(admin, f"{name}_{uuid.uuid4().hex[:12]}"))


def migrate(
    engine: Engine, config: Callable[[sa.Connection], Config], target: str, down: bool = False
) -> None:
    with engine.connect() as conn:
        (command.downgrade if down else command.upgrade)(config(conn), target)
        conn.commit()


def schema(engine: Engine) -> dict[str, dict[str, Any]]:
    """Everything the database says of its tables, in an order that does not depend on the
    order they were made in (a column's place counts: it is the table's)."""
    inspector = sa.inspect(engine)

    def ordered(items: list[Any]) -> list[Any]:
        return sorted(items, key=repr)

    return {
        table: {
            "columns": [{**c, "type": repr(c["type"])} for c in inspector.get_columns(table)],
            "primary key": inspector.get_pk_constraint(table),
            "foreign keys": ordered(inspector.get_foreign_keys(table)),
            "unique": ordered(inspector.get_unique_constraints(table)),
            "checks": ordered(inspector.get_check_constraints(table)),
            "indexes": ordered(inspector.get_indexes(table)),
        }
        for table in inspector.get_table_names()
    }


@pytest.mark.parametrize("kind", KINDS)
def test_the_baseline_makes_what_the_released_revisions_made(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    released = fresh(kind, tmp_path, request, "released")
    baseline = fresh(kind, tmp_path, request, "baseline")
    try:
        migrate(released, squashed_config, BASELINE)
        migrate(baseline, alembic_config, BASELINE)
        assert current(released) == current(baseline) == BASELINE
        made = schema(released)
        assert {"games", "accounts", "seeks", "chat_reports", "mail_outbox"} <= set(made)
        assert schema(baseline) == made
        assert upgrade(released) == upgrade(baseline) == head()
        assert schema(baseline) == schema(released)
        for engine in (released, baseline):
            with engine.connect() as conn:
                assert compare_metadata(MigrationContext.configure(conn), metadata) == []
    finally:
        released.dispose()
        baseline.dispose()


@pytest.mark.parametrize("kind", KINDS)
def test_0018_makes_what_the_revisions_after_the_release_made(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    old = fresh(kind, tmp_path, request, "old_chain")
    new = fresh(kind, tmp_path, request, "new_chain")
    try:
        migrate(old, squashed_config, "head")
        migrate(new, alembic_config, "0018")
        assert current(old) == current(new) == "0018"
        made = schema(old)
        after = {"throttles", "account_seen", "push_outbox", "seek_seats", "api_tokens"}
        assert after | {"tournaments", "tournament_chat"} <= set(made)
        assert "signin_failures" not in made
        assert schema(new) == made
        assert upgrade(old) == head()  # a development database at 0018 takes what came after
        migrate(old, alembic_config, "0018", down=True)
        assert schema(old) == made
        for engine, config in ((old, squashed_config), (new, alembic_config)):
            migrate(engine, config, BASELINE, down=True)
            assert current(engine) == BASELINE
        assert "signin_failures" in schema(new) and not after & set(schema(new))
        assert schema(new) == schema(old)
    finally:
        old.dispose()
        new.dispose()


@pytest.mark.parametrize("kind", KINDS)
def test_a_database_with_every_table_and_no_revision_is_left_as_it_is(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Its ``alembic_version`` lost (``test_web_security.py`` keeps such a database), it takes
    the baseline and 0018 over tables that are there: like the old revisions, they make only
    what is missing."""
    engine = fresh(kind, tmp_path, request, "unversioned")
    try:
        assert upgrade(engine) == head()
        made = schema(engine)
        with engine.begin() as conn:
            conn.execute(sa.text("DROP TABLE alembic_version"))
        assert upgrade(engine) == head()
        assert schema(engine) == made
    finally:
        engine.dispose()


def made_before_migrations(engine: Engine) -> None:
    """A database as the server made it before migrations: 0001's three tables (made here by
    0001, then its ``alembic_version`` dropped), games without ``reproducible``, a game being
    played and one over."""
    migrate(engine, squashed_config, "0001")
    when = sa.DateTime(timezone=True)
    games = sa.table(
        "games",
        *(sa.column(n) for n in ("id", "game", "seed", "status")),
        *(sa.column("options", sa.JSON), sa.column("created", when), sa.column("updated", when)),
    )
    seats = sa.table("seats", *(sa.column(n) for n in ("game_id", "seat", "kind", "name")))
    then = datetime(2026, 11, 1, tzinfo=UTC)
    with engine.begin() as conn:
        conn.execute(sa.text("DROP TABLE alembic_version"))
        conn.execute(sa.text("ALTER TABLE games DROP COLUMN reproducible"))
        for gid, status in (("playing", "active"), ("over", "finished")):
            row = {"options": {}, "seed": 7, "created": then, "updated": then}
            conn.execute(games.insert().values(id=gid, game="tiny", status=status, **row))
            conn.execute(seats.insert().values(game_id=gid, seat=0, kind="human", name="A"))


@pytest.mark.parametrize("kind", KINDS)
def test_a_database_from_before_migrations_is_brought_up_as_the_released_revisions_did(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    released = fresh(kind, tmp_path, request, "released_old")
    baseline = fresh(kind, tmp_path, request, "baseline_old")
    try:
        for engine in (released, baseline):
            made_before_migrations(engine)
        migrate(released, squashed_config, BASELINE)
        migrate(baseline, alembic_config, BASELINE)
        assert schema(baseline) == schema(released)
        rows = "SELECT id, reproducible, revision, ai_seat, private, rated FROM games ORDER BY id"
        with released.connect() as old, baseline.connect() as new:
            kept = old.execute(sa.text(rows)).all()
            assert new.execute(sa.text(rows)).all() == kept
        assert [(gid, ai_seat) for gid, _, _, ai_seat, _, _ in kept] == [
            ("over", None),
            ("playing", -2),
        ]
        migrate(released, squashed_config, "head")
        migrate(baseline, alembic_config, "0018")
        assert current(released) == current(baseline) == "0018"
        assert schema(baseline) == schema(released)
        assert upgrade(baseline) == upgrade(released) == head()
    finally:
        released.dispose()
        baseline.dispose()


@pytest.mark.parametrize(
    ("revision", "said", "there", "not_there"),
    [
        ("0005", r"before release 0\.1\.0 .* with boardplay 0\.1\.0 first", "reviews", "accounts"),
        (
            "0015",
            r"after release 0\.1\.0 .* revisions 0012 to 0018 one by one",
            "seek_seats",
            "api_tokens",
        ),
    ],
)
def test_a_database_at_a_squashed_revision_is_refused(
    revision: str, said: str, there: str, not_there: str, tmp_path: Path
) -> None:
    from typer.testing import CliRunner

    from boardplay.cli.main import app

    url = f"sqlite:///{tmp_path / 'unreleased.sqlite3'}"
    engine = make_engine(url)
    try:
        migrate(engine, squashed_config, revision)
        with pytest.raises(UnreleasedSchemaError, match=rf"revision {revision}, .*{said}"):
            upgrade(engine)
        with pytest.raises(UnreleasedSchemaError):
            open_database(url)  # what a server process opens first
        result = CliRunner().invoke(app, ["db", "upgrade", "--db", url])
        assert result.exit_code == 2, result.output
        assert f"revision {revision}" in result.output and "Traceback" not in result.output
        assert current(engine) == revision
        assert there in sa.inspect(engine).get_table_names()
        assert not_there not in sa.inspect(engine).get_table_names()
    finally:
        engine.dispose()
