"""Each kernel game's numbered layouts (``games/<game>/layout.pxd``) against what the game and
its kernel report: the action ids the layout declares are the game's action space, and the
feature names name every number ``features()`` writes, once each. The layouts are the one place
these numbers are written, so this is where they meet the running game."""

from __future__ import annotations

import importlib

import pytest

import boardplay
from option_sets import KERNEL_SETS

TABLES = sorted(KERNEL_SETS)
"""Every option set of the games that run on a compiled kernel."""


@pytest.mark.parametrize("spec", TABLES)
def test_the_layout_is_the_games_action_space_and_feature_vector(spec: str) -> None:
    game = boardplay.load(spec)
    layout = importlib.import_module(f"boardplay.games.{game.name}.layout")
    assert game.num_distinct_actions == layout.NUM_ACTIONS
    kernel = game.new_initial_state().kernel
    assert kernel is not None
    assert len(layout.FEATURE_NAMES) == kernel.feature_size == len(kernel.features())
    assert len(set(layout.FEATURE_NAMES)) == len(layout.FEATURE_NAMES)
