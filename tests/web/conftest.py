"""Fixtures of the web tests: an app on a fresh SQLite file, serving the tiny test game (or the
real registry), with AI moves in a thread so tests need not spawn processes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from websettings import TEST_LIMITS, tiny_settings

from boardplay.web.app import create_app
from boardplay.web.config import Settings


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tiny_settings(tmp_path))) as test_client:
        yield test_client


@pytest.fixture
def registry_client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'reg.sqlite3'}", ai_workers=1, limits=TEST_LIMITS
    )
    with TestClient(create_app(settings)) as test_client:
        yield test_client
