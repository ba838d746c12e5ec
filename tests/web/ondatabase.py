"""Apps of the web tests on either database: the tiny game's settings (``websettings``) on a
fresh SQLite file or on a fresh database of the module's throwaway PostgreSQL cluster (the
``postgres_url`` fixture, ``devservices``), so one test can ask both the same questions.
PostgreSQL refuses what SQLite stores quietly (a NUL in text, a value too long for its
column), so a rule about visitors' input is only shown to hold once it holds on both."""

from __future__ import annotations

import dataclasses
import uuid
from pathlib import Path
from typing import Any

import pytest
from websettings import tiny_settings

from boardplay.web.config import Settings

DATABASES = ("sqlite", "postgresql")


def settings_on(
    kind: str,
    folder: Path,
    request: pytest.FixtureRequest,
    limits: dict[str, Any] | None = None,
    **extra: Any,
) -> Settings:
    """``tiny_settings(folder, limits, **extra)``, on a new PostgreSQL database when ``kind``
    is ``postgresql`` (the cluster is the module's, started once)."""
    settings = tiny_settings(folder, limits, **extra)
    if kind == "sqlite":
        return settings
    import devservices as ds

    admin = request.getfixturevalue("postgres_url")
    url = ds.new_database(admin, f"t_{uuid.uuid4().hex[:16]}")
    return dataclasses.replace(settings, database_url=url)
