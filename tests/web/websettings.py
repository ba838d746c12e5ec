"""Settings of the web tests: the tiny game on a fresh SQLite file, AI in a thread, and the
default ceilings except those one test client meets by making many requests quickly."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from boardplay.web.config import Limits, Settings

TEST_LIMITS = Limits(
    rate_per_second=10_000,
    rate_burst=100_000,
    games_per_visitor=100_000,
    heavy_share=10_000.0,
    heavy_burst=10_000.0,
)
"""The default ceilings, except those one test client would meet by making many requests."""


def tiny_settings(tmp_path: Path, limits: dict[str, Any] | None = None, **extra: Any) -> Settings:
    values: dict[str, Any] = {"ai_workers": 0, **extra}
    return Settings(
        database_url=f"sqlite:///{tmp_path / 'web.sqlite3'}",
        catalogue="webtiny:CATALOGUE",
        limits=dataclasses.replace(TEST_LIMITS, **(limits or {})),
        **values,
    )
