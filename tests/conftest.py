"""Shared test settings: a deterministic Hypothesis profile (CI must not flake), and no silent
skips under ``make test``."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "boardplay",
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.load_profile("boardplay")


STRICT = os.environ.get("BOARDPLAY_NO_SKIPS") == "1"
"""Set by ``make test`` and ``make soak``: there every component a test needs (kernels,
Chromium, PostgreSQL, Redis, the optional extras) is installed and started by the Makefile, so a
test that skips has found something missing, and that must fail the run rather than pass it by."""


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    if (
        STRICT
        and report.skipped
        and not hasattr(report, "wasxfail")
        and item.get_closest_marker("outside_repo") is None
    ):
        report.outcome = "failed"
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.longrepr = f"skipped under make test, where nothing may be missing: {reason}"
