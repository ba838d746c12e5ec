"""The baseline revision 0011 stands for the eleven revisions release 0.1.0 shipped.

Those eleven are kept as they shipped in ``migrations_0_1_0/`` beside this file, and run here as
Alembic's versions with the package's own ``env.py``. A database they make and one the baseline
makes reflect the same schema (tables, columns with their types, nullability and defaults,
primary keys, foreign keys, unique and check constraints, indexes) on SQLite and PostgreSQL,
and still do once both took the later revisions, when both equal the stores' tables. A database
made before migrations existed is brought up by the baseline as by the old chain, and one at a
revision before the release is refused, by the server and by ``boardplay db upgrade``."""

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

RELEASED = Path(__file__).with_name("migrations_0_1_0")
"""Revisions 0001 to 0011 as release 0.1.0 shipped them."""
KINDS = ["sqlite", "postgresql"]


def released_config(conn: sa.Connection) -> Config:
    """Alembic's configuration on 0.1.0's revisions instead of this version's."""
    config = alembic_config(conn)
    config.set_main_option("path_separator", "os")
    config.set_main_option("version_locations", str(RELEASED))
    return config


def fresh(kind: str, tmp_path: Path, request: pytest.FixtureRequest, name: str) -> Engine:
    """An empty database: an SQLite file, or a new database on the test's PostgreSQL."""
    if kind == "sqlite":
        return make_engine(f"sqlite:///{tmp_path / name}.sqlite3")
    admin = request.getfixturevalue("postgres_url")
    return make_engine(ds.new_database(admin, f"{name}_{uuid.uuid4().hex[:12]}"))


def migrate(engine: Engine, config: Callable[[sa.Connection], Config], target: str) -> None:
    with engine.connect() as conn:
        command.upgrade(config(conn), target)
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
        migrate(released, released_config, BASELINE)
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


def made_before_migrations(engine: Engine) -> None:
    """A database as the server made it before migrations: 0001's three tables (made here by
    0001, then its ``alembic_version`` dropped), games without ``reproducible``, a game being
    played and one over."""
    migrate(engine, released_config, "0001")
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
        migrate(released, released_config, BASELINE)
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
        assert upgrade(released) == upgrade(baseline) == head()
        assert schema(baseline) == schema(released)
    finally:
        released.dispose()
        baseline.dispose()


def test_a_database_at_a_revision_before_the_release_is_refused(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from boardplay.cli.main import app

    url = f"sqlite:///{tmp_path / 'unreleased.sqlite3'}"
    engine = make_engine(url)
    try:
        migrate(engine, released_config, "0005")
        with pytest.raises(UnreleasedSchemaError, match=r"revision 0005, .* release 0\.1\.0"):
            upgrade(engine)
        with pytest.raises(UnreleasedSchemaError):
            open_database(url)  # what a server process opens first
        result = CliRunner().invoke(app, ["db", "upgrade", "--db", url])
        assert result.exit_code == 2, result.output
        assert "revision 0005" in result.output and "Traceback" not in result.output
        assert current(engine) == "0005"
        assert "reviews" in sa.inspect(engine).get_table_names()
        assert "accounts" not in sa.inspect(engine).get_table_names()
    finally:
        engine.dispose()
