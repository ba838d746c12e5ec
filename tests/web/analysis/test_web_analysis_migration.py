"""Migration 0025 makes exactly the analysis board's tables its store declares, on SQLite and
PostgreSQL; taken back to 0024, it leaves none of them. And a burst of moves on one study holds
its ceiling on PostgreSQL too, where the edits of one study queue on its row's lock."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from fastapi.testclient import TestClient
from ondatabase import DATABASES, settings_on
from tournamentcalls import database

import boardplay.web.hub  # noqa: F401  (every other domain's tables declared, as the app has them)
from boardplay.web.analysis.store import nodes_table, studies_table
from boardplay.web.app import create_app
from boardplay.web.database import metadata
from boardplay.web.migrate import alembic_config, head, upgrade

ANALYSIS_TABLES = {"analysis_studies", "analysis_nodes"}


@pytest.mark.parametrize("kind", DATABASES)
def test_the_migration_makes_exactly_the_declared_tables(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    assert studies_table.metadata is nodes_table.metadata is metadata
    engine = sa.create_engine(database(kind, tmp_path, request))
    try:
        assert upgrade(engine) == head() >= "0025"
        with engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
            command.downgrade(alembic_config(conn), "0024")
            conn.commit()
            left = set(sa.inspect(conn).get_table_names())
        assert not ANALYSIS_TABLES & left
        assert "games" in left
    finally:
        engine.dispose()


@pytest.mark.parametrize("kind", DATABASES)
def test_a_burst_of_moves_holds_the_study_ceiling(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    settings = settings_on(kind, tmp_path, request, {"analysis_nodes": 5})
    with TestClient(create_app(settings)) as client:
        made = client.post("/api/analysis", json={"game": "tiny"})
        study = made.json()["id"]
        base = f"/api/analysis/{study}/nodes"
        rolled = client.post(f"{base}/0/moves", json={"move": "roll2"}).json()["node"]
        with ThreadPoolExecutor(6) as pool:
            answers = list(
                pool.map(
                    lambda m: client.post(f"{base}/{rolled}/moves", json={"move": m}),
                    ["t1", "t2", "t3"] * 3,
                )
            )
        codes = sorted(a.status_code for a in answers)
        assert codes.count(409) == 0 and set(codes) == {200}, [a.text for a in answers]
        nodes = client.get(f"/api/analysis/{study}").json()["nodes"]
        assert len(nodes) == 5 and len({n["move"] for n in nodes}) == 5
        extra = client.post(f"{base}/{nodes[-1]['id']}/moves", json={"move": "t1"})
        assert extra.status_code == 409 and extra.json()["error"]["code"] == "study_full"
