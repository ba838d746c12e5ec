"""``sample_actions``: the compiled random agent of the batched envs picks legal actions only,
every legal action in time, without touching the games' own draws."""

from __future__ import annotations

import numpy as np
import pytest

from boardplay.adapters.vector import BatchedGames, BoardplayVectorEnv
from option_sets import KERNEL_GAMES, at_most_players


@pytest.mark.parametrize("spec", [at_most_players(name) for name in KERNEL_GAMES])
def test_sampled_actions_are_legal_and_leave_the_games_draws_alone(spec: str) -> None:
    envs = BoardplayVectorEnv(spec, num_envs=8, seat="random", compact=True)
    twin = BoardplayVectorEnv(spec, num_envs=8, seat="random", compact=True)
    _obs, infos = envs.reset(seed=3)
    twin.reset(seed=3)
    for _ in range(100):
        actions = envs.sample_actions()
        assert actions.dtype == np.int64 and actions.shape == (8,)
        assert infos["action_mask"][np.arange(8), actions].all()
        twin.sample_actions()  # the same draws on the same seed
        twin.sample_actions()  # and extra ones change nothing in the games
        obs, _r, _te, _tr, infos = envs.step(actions)
        twin_obs, *_ = twin.step(actions)
        assert not infos["illegal_action"].any() and np.array_equal(obs, twin_obs)


def test_batched_games_sample_for_the_seat_to_move_and_cover_the_moves() -> None:
    games = BatchedGames("proteus", 4)
    _obs, mask, _to_move = games.reset(seed=1)
    first = mask[0].copy()
    seen = {int(games.sample_actions()[0]) for _ in range(2000)}
    assert seen == set(np.flatnonzero(first).tolist())
