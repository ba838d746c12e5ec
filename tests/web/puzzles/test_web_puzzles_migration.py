"""Migration 0026 makes exactly the puzzles' tables their store declares, on SQLite and
PostgreSQL; taken back to 0025, it leaves none of them. And one rated attempt per player and
puzzle holds on PostgreSQL too, under parallel starts."""

from __future__ import annotations

import dataclasses
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import sqlalchemy as sa
from accountcalls import sign_up
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from fastapi.testclient import TestClient
from ondatabase import DATABASES, settings_on
from tournamentcalls import database

import boardplay.web.hub  # noqa: F401  (every other domain's tables declared, as the app has them)
from boardplay.web.app import create_app
from boardplay.web.database import metadata
from boardplay.web.migrate import alembic_config, head, upgrade

PUZZLE_TABLES = {"puzzles", "puzzle_players", "puzzle_attempts", "puzzle_results", "puzzle_streaks"}


@pytest.mark.parametrize("kind", DATABASES)
def test_the_migration_makes_exactly_the_declared_tables(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    engine = sa.create_engine(database(kind, tmp_path, request))
    try:
        assert upgrade(engine) == head() >= "0026"
        with engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
            command.downgrade(alembic_config(conn), "0025")
            conn.commit()
            left = set(sa.inspect(conn).get_table_names())
        assert not PUZZLE_TABLES & left
        assert "analysis_studies" in left
    finally:
        engine.dispose()


@pytest.mark.parametrize("kind", DATABASES)
def test_parallel_starts_give_one_rated_attempt(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    settings = settings_on(kind, tmp_path, request)
    settings = dataclasses.replace(settings, catalogue="boardplay.web.catalogue:REGISTRY")
    with TestClient(create_app(settings)) as client:
        gus = sign_up(client, "gus")
        puzzle = client.get("/api/puzzles/daily").json()["id"]
        with ThreadPoolExecutor(4) as pool:
            answers = list(
                pool.map(lambda _: gus.post(f"/api/puzzles/{puzzle}/attempts"), range(8))
            )
        assert {a.status_code for a in answers} == {200}
        rated = {a.json()["id"] for a in answers if a.json()["rated"]}
        assert len(rated) == 1
