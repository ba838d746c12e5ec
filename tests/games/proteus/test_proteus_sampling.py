"""The kernel's uniform draw without the list (``sample_legal``, ``sampling.pxi``) against the
plain way: the compiled random playouts play the very games a Python loop over
``legal_actions()`` plays with the same generator, in every option set (seed placement and
movement, the forcing rule, kadon, the repetition filter, the turn cap)."""

from __future__ import annotations

from typing import Any

import pytest

import boardplay
from boardplay.core.kernel import random_playouts
from support import games, replayed_playouts

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"max_turns": 200},
    {"repetition": "forbid"},
    {"rules": "kadon", "max_turns": 200},
    {"rules": "kadon", "repetition": "forbid", "max_turns": 200},
]
IDS = [",".join(f"{k}={v}" for k, v in o.items()) or "default" for o in OPTION_SETS]


@pytest.mark.parametrize("options", OPTION_SETS, ids=IDS)
def test_compiled_playouts_play_the_listed_games(options: dict[str, Any]) -> None:
    """``random_playouts`` (through ``sample_legal``) draws ``legal[rng_below(count)]`` at every
    step: the same actions, winners and draws as the replay over the listed actions."""
    start = boardplay.load("proteus", **options).new_initial_state().kernel
    count, seed = games(40, 400), 20261126
    actions, wins, draws, unfinished = random_playouts(start, count, seed)
    replayed = replayed_playouts(start, count, seed)
    assert (actions, wins, draws, unfinished) == replayed
    assert replayed[0] > 20 * count
