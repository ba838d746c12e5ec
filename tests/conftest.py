"""Shared test settings: a deterministic Hypothesis profile (CI must not flake), and no silent
skips under ``make test``."""

from __future__ import annotations

import ast
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


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Iterator[None]:
    """The same rule at collection: a module that skips as a whole (a module-level
    ``pytest.importorskip``, ``pytest.skip(allow_module_level=True)``) fails the run instead of
    vanishing from it. A module marked ``outside_repo`` (``pytestmark``) may still skip."""
    outcome = yield
    report = outcome.get_result()
    if STRICT and report.skipped and not _outside_repo(collector):
        report.outcome = "failed"
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.longrepr = (
            f"{collector.nodeid} skipped at collection under make test, where nothing may be"
            f" missing: {reason}"
        )


def _outside_repo(collector: pytest.Collector) -> bool:
    """Whether the collector, or the module it reads, is marked ``outside_repo``. A module that
    skipped while importing never got its ``pytestmark`` read, so the source is consulted."""
    if collector.get_closest_marker("outside_repo") is not None:
        return True
    if not isinstance(collector, pytest.Module):
        return False
    for node in ast.parse(collector.path.read_text("utf-8")).body:
        if isinstance(node, ast.Assign) and "pytestmark" in {ast.unparse(t) for t in node.targets}:
            return "outside_repo" in ast.unparse(node.value)
    return False
