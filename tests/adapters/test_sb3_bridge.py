"""The SB3 bridge over the batched games: SB3's own env checks, masks where sb3-contrib reads
them, cut games marked for bootstrapping, and MaskablePPO learning through it."""

from __future__ import annotations

import numpy as np
import pytest

from support import SOAK

pytest.importorskip("sb3_contrib", reason="the train extra is not installed")

from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks
from stable_baselines3.common.logger import Logger

from boardplay.adapters.sb3 import BoardplayVecEnv
from boardplay.ai.baselines import evaluate
from boardplay.ai.train import export


def test_masks_steps_and_terminal_observations() -> None:
    env = BoardplayVecEnv("potlatch", num_envs=8, seed=3)
    obs = env.reset()
    assert obs.shape == (8, *env.game.observation_shape())
    masks = get_action_masks(env)
    assert masks.shape == (8, env.game.num_distinct_actions) and masks.any(axis=1).all()
    finished = 0
    for _ in range(200):
        actions = np.array([np.flatnonzero(row)[0] for row in env.action_masks()])
        obs, rewards, dones, infos = env.step(actions)
        for i in np.flatnonzero(dones):
            finished += 1
            assert infos[i]["terminal_observation"].shape == obs.shape[1:]
            assert rewards[i] in (-1.0, 0.0, 1.0)
        assert not rewards[~dones].any()
    assert finished > 0
    assert env.get_attr("game")[0] is env.game and env.env_is_wrapped(object) == [False] * 8


def test_a_cut_game_is_marked_for_bootstrapping() -> None:
    env = BoardplayVecEnv("proteus", num_envs=4, max_actions=10)
    env.reset()
    cut = []
    for _ in range(30):
        actions = np.array([np.flatnonzero(row)[0] for row in env.action_masks()])
        _, _, dones, infos = env.step(actions)
        cut += [infos[i] for i in np.flatnonzero(dones) if infos[i].get("TimeLimit.truncated")]
    assert cut and all("terminal_observation" in info for info in cut)


def test_maskable_ppo_learns_through_the_bridge() -> None:
    steps = 60_000 if SOAK else 2_048
    env = BoardplayVecEnv("potlatch", num_envs=16, seed=1)
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=64, batch_size=256, n_epochs=2 if not SOAK else 10, seed=1
    )
    model.set_logger(Logger(folder=None, output_formats=[]))
    model.learn(total_timesteps=steps)
    assert model.num_timesteps >= steps
    game = env.game
    score = evaluate(export(model, "potlatch", {}), game, "random", 100 if SOAK else 10, seed=2)
    assert 0.0 <= score.share <= 1.0
    if SOAK:  # a real improvement needs more steps than the default run gives
        assert score.share > 0.7
