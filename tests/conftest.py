"""Shared test settings: a deterministic Hypothesis profile (CI must not flake)."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile(
    "boardplay",
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.load_profile("boardplay")
