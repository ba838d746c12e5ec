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


def test_ceilings_come_from_the_environment() -> None:
    from boardplay.web.config import Limits

    limits = Limits.from_env({"BOARDPLAY_WEB_AI_MAX_TIME": "2.5", "BOARDPLAY_WEB_RATE_BURST": "7"})
    assert limits.ai_max_time == 2.5 and limits.rate_burst == 7
    assert limits.max_body_bytes == Limits().max_body_bytes
    for bad in ("inf", "-1", "lots"):
        with pytest.raises(ValueError, match="BOARDPLAY_WEB_AI_MAX_TIME"):
            Limits.from_env({"BOARDPLAY_WEB_AI_MAX_TIME": bad})
    result = CliRunner().invoke(app, ["serve", "--help"])
    for flag in ("--ai-max-time", "--ai-max-iterations", "--data-dir", "--ai-workers"):
        assert flag in result.output
