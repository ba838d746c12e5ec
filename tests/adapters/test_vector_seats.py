"""Random learner seats in the batched env: a seat drawn for every game, decisions asked only
of that seat, and rewards from the seat the learner held in the game that ended."""

from __future__ import annotations

import numpy as np
import pytest

from boardplay.adapters.vector import BoardplayVectorEnv
from boardplay.core.errors import OptionError


@pytest.mark.parametrize("name", ["potlatch", "passtally(players=3)", "montana"])
def test_random_seats(name: str) -> None:
    envs = BoardplayVectorEnv(name, 8, seat="random")
    _, info = envs.reset(seed=4)
    seen: set[int] = set(info["seat"].tolist())
    results: dict[int, list[float]] = {}
    for _ in range(400):
        assert (envs._buffers.to_move == envs.seats).all(), "only the learner is asked"
        actions = np.array([np.flatnonzero(row)[0] for row in info["action_mask"]])
        _, rewards, terminated, truncated, info = envs.step(actions)
        seen.update(info["seat"].tolist())
        for i in np.flatnonzero(terminated):
            seat = int(info["final_info"]["seat"][i])
            results.setdefault(seat, []).append(float(rewards[i]))
        assert not rewards[~(terminated | truncated)].any()
    assert seen == set(range(envs.game.num_players))
    assert len(results) >= 2, "games ended with the learner in several seats"


def test_rewards_follow_the_learners_seat() -> None:
    """A learner that always takes the lowest action wins and loses by seat; against random
    Potlatch opponents, whatever the seat, its results average near zero but are not constant."""
    envs = BoardplayVectorEnv("potlatch", 16, seat="random")
    _, info = envs.reset(seed=1)
    total = []
    for _ in range(600):
        actions = np.array([np.flatnonzero(row)[-1] for row in info["action_mask"]])
        _, rewards, terminated, _, info = envs.step(actions)
        total += rewards[terminated].tolist()
    assert set(total) <= {-1.0, 0.0, 1.0} and len(set(total)) >= 2


def test_a_bad_seat_is_named() -> None:
    with pytest.raises(OptionError, match=r"seat must be 0\.\.1 or 'random'"):
        BoardplayVectorEnv("potlatch", 2, seat="any")
