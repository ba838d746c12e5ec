"""The kernel's main-decision draw without the list (``sample_legal``: ``_sample_main`` in
``work.pxi``, which counts the bank's and production's choices from bit sets and finds the
r-th) and its build sites from the board's ``afford`` bit sets, against the plain way: the
compiled random playouts play the very games a Python loop over ``legal_actions()`` plays with
the same generator, for every player count and rule option (a seed gives the same games
whichever way a driver draws, core/kernel.pxd)."""

from __future__ import annotations

from typing import Any

import pytest

import boardplay
from boardplay.core.kernel import random_playouts
from support import games, replayed_playouts

OPTION_SETS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 2, "recruit_grain": "additional", "build_adjacent_any": True},
    {"players": 3, "canteen_after_final": True, "tiebreak_money": "coins", "max_turns": 120},
    {"players": 4, "build_adjacent_any": True, "board_seed": 77, "start_player": 2},
]
IDS = [",".join(f"{k}={v}" for k, v in o.items()) for o in OPTION_SETS]


@pytest.mark.parametrize("options", OPTION_SETS, ids=IDS)
def test_compiled_playouts_play_the_listed_games(options: dict[str, Any]) -> None:
    """``random_playouts`` (through ``sample_legal``) draws ``legal[rng_below(count)]`` at every
    decision: the same actions, winners and draws as the replay over the listed actions."""
    start = boardplay.load("montana", **options).new_initial_state().kernel
    assert start is not None
    count, seed = games(3, 40), 20261126
    replayed = replayed_playouts(start, count, seed)
    assert random_playouts(start, count, seed) == replayed
    assert replayed[0] > 200 * count
