"""The ``make_game`` fixture: every case of ``adapter_cases.CASES``."""

from __future__ import annotations

import pytest
from adapter_cases import CASES, GameFactory


@pytest.fixture(params=sorted(CASES))
def make_game(request: pytest.FixtureRequest) -> GameFactory:
    """A factory of the Game under test (a fresh instance per call)."""
    factory: GameFactory = CASES[request.param]
    return factory
