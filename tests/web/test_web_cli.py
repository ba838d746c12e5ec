"""``boardplay serve`` is registered with the command line and documents its defaults."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from boardplay.cli.main import app
from boardplay.web.config import DATABASE_ENV, default_database_url


def test_serve_help_names_the_defaults() -> None:
    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0, result.output
    for word in ("--host", "--port", "--db", "127.0.0.1", "8000", DATABASE_ENV):
        assert word in result.output


def test_database_url_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DATABASE_ENV, "postgresql+psycopg://u@localhost/boardplay")
    assert default_database_url() == "postgresql+psycopg://u@localhost/boardplay"
    monkeypatch.delenv(DATABASE_ENV)
    monkeypatch.setenv("XDG_DATA_HOME", "/data")
    assert default_database_url() == "sqlite:////data/boardplay/boardplay.sqlite3"
