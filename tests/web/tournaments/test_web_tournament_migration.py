"""Migration 0018 makes exactly the tournaments' tables their store declares, on SQLite and
PostgreSQL, on the migrations' one line; taken back, it leaves none of them."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from tournamentcalls import database

import boardplay.web.hub  # noqa: F401  (every other domain's tables declared, as the app has them)
from boardplay.web.database import metadata
from boardplay.web.migrate import alembic_config, upgrade
from boardplay.web.tournaments.schema import tournaments_table

TOURNAMENT_TABLES = {"tournaments", "tournament_players", "tournament_tables", "tournament_byes"}


def test_the_migrations_have_one_head_and_the_tournaments_are_on_its_line() -> None:
    scripts = ScriptDirectory.from_config(alembic_config())
    heads = scripts.get_heads()
    assert len(heads) == 1, heads
    line = [s.revision for s in scripts.walk_revisions("base", heads[0])]
    assert "0018" in line and "0011" in line


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_migration_makes_exactly_the_declared_tables(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    assert tournaments_table.metadata is metadata
    engine = sa.create_engine(database(kind, tmp_path, request))
    try:
        assert upgrade(engine) == ScriptDirectory.from_config(alembic_config()).get_current_head()
        with engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
            command.downgrade(alembic_config(conn), "0011")
            conn.commit()
            left = set(sa.inspect(conn).get_table_names())
        assert not TOURNAMENT_TABLES & left
        assert "games" in left
    finally:
        engine.dispose()
