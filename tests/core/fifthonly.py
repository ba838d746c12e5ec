"""A pytest plugin (``-p fifthonly``) for running the suites over the registered games in a tree
where the toy fifth game, Race to ten, has arrived (``fifthgame.laid_out``): of the tests
parametrized by game or option set it keeps the fifth game's cases (their ids name ``race``),
leaving out the four games' cases, which the checkout's own run holds already; every test that
is not parametrized runs, as those that loop over ``boardplay.available()`` inside."""

from __future__ import annotations

import re

import pytest

GAME = re.compile(r"(?<!\w)race(?!\w)")
"""The fifth game's name in a case's id (``race``, ``race(step=3)``, ``race-en``; not the
``dicerace`` registered from outside the package by the adapters' tests)."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    kept: list[pytest.Item] = []
    others: list[pytest.Item] = []
    for item in items:
        callspec = getattr(item, "callspec", None)
        (kept if callspec is None or GAME.search(callspec.id) else others).append(item)
    config.hook.pytest_deselected(items=others)
    items[:] = kept
