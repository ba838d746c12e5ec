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
    signups_per_network=100_000,
    chat_account_age=0.001,
    rated_fresh_account=0.001,
    heavy_share=10_000.0,
    heavy_burst=10_000.0,
)
"""The default ceilings, except those one test client would meet by making many requests (and
the ages a new account needs to write in a spectators' chat and to play a rated game against an
account of the same address: the tests' players sign up and play at once, all from one address;
``test_web_bursts.py`` holds the defaults)."""


def tiny_settings(tmp_path: Path, limits: dict[str, Any] | None = None, **extra: Any) -> Settings:
    values: dict[str, Any] = {"ai_workers": 0, **extra}
    return Settings(
        database_url=f"sqlite:///{tmp_path / 'web.sqlite3'}",
        catalogue="webtiny:CATALOGUE",
        limits=dataclasses.replace(TEST_LIMITS, **(limits or {})),
        **values,
    )
