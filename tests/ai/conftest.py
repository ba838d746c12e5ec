"""Fixtures shared by the AI tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from boardplay.core import registry


@pytest.fixture
def pig() -> Iterator[None]:
    """The dice game Pig (``ai_testgames``) registered by name for the test, as a game from
    outside ``boardplay.games`` is (``registry.register``), so the arena's workers and the CLI can
    load it; unregistered afterwards."""
    registry.register("pig", "ai_testgames:PigGame")
    yield
    registry.unregister("pig")
