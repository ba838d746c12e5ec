"""The compiled Passtally kernel on its own (the contract every game keeps, clones and sizes among
it, is ``tests/core/test_contract.py``): its feature size, and the observation written into a
float32 row is the listed tensor. The kernel's agreement with the old engine it replaced is
frozen in ``golden.json`` (``tests/games/test_golden.py``)."""

from __future__ import annotations

import math
import random

import pytest

import boardplay
from boardplay.games.passtally.observation import SIZE, observe_into


def test_kernel_sizes_match_the_game() -> None:
    game = boardplay.load("passtally", players=3)
    kernel = game.new_initial_state().kernel
    assert kernel is not None
    assert kernel.action_space == game.num_distinct_actions
    assert kernel.chance_space == game.max_chance_outcomes
    assert (kernel.observation_size,) == game.observation_shape()
    assert kernel.num_players == 3 and kernel.feature_size == 11
    assert math.isclose(sum(p for _, p in kernel.chance_outcomes()), 1.0)


def test_observation_into_a_float32_row_equals_the_list() -> None:
    np = pytest.importorskip("numpy")
    state = boardplay.load("passtally", players=3).new_initial_state()
    rng = random.Random(9)
    for _ in range(40):
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    rows = np.zeros((3, SIZE), dtype=np.float32)
    for seat in range(3):
        observe_into(state, seat, rows[seat])
        assert rows[seat].tolist() == state.observation_tensor(seat)
    with pytest.raises(ValueError, match="player must be a seat"):
        observe_into(state, 3, rows[0])
