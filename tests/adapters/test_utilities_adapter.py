"""The shared reward convention of all adapters."""

from __future__ import annotations

import random

import pytest
from dicerace import DiceRaceGame

from boardplay.adapters import utilities, utility_range
from boardplay.core.playout import random_playout


@pytest.mark.parametrize("players", [2, 3])
def test_utilities_are_zero_sum_and_rank_like_returns(players: int) -> None:
    game = DiceRaceGame({"players": players, "max_turns": 2 * players - 1})
    low, high = utility_range(game)
    seen: set[tuple[float, ...]] = set()
    for seed in range(60):
        state = game.new_initial_state()
        assert utilities(state) == [0.0] * players
        random_playout(state, random.Random(seed))
        values = utilities(state)
        seen.add(tuple(sorted(values, reverse=True)))
        assert sum(values) == pytest.approx(0.0)
        assert all(low <= v <= high for v in values)
        shares = state.returns()
        for a in range(players):
            for b in range(players):
                assert (values[a] > values[b]) == (shares[a] > shares[b])
    # wins and draws both occur, with the documented values
    assert tuple([1.0] + [-1.0 / (players - 1)] * (players - 1)) in seen
    assert tuple([0.0] * players) in seen
