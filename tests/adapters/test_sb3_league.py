"""Self-play with a real Stable-Baselines3 learner (research review 2026-11c, friction 2):
``snapshot`` freezes an SB3 model, its ``model.policy`` and a wrapper holding the model, each
playing what the model would (its best legal action) and untouched by later training; and
MaskablePPO trains on the batched league env through the SB3 bridge, against a League that its
own snapshots join while it learns."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="the train extra is not installed")

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.logger import Logger

from boardplay.adapters import gymnasium as bg
from boardplay.adapters.frozen import FrozenPolicy
from boardplay.adapters.opponents import League, snapshot
from boardplay.adapters.sb3 import BoardplayLeagueVecEnv, BoardplayVecEnv


def small_model(env: Any) -> MaskablePPO:
    torch.set_num_threads(1)
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=32, batch_size=128, n_epochs=1, seed=1, device="cpu"
    )
    model.set_logger(Logger(folder=None, output_formats=[]))
    return model


class Wrapper:
    """A researcher's own opponent: the model behind ``policy(obs, mask) -> action``."""

    def __init__(self, model: MaskablePPO) -> None:
        self.model = model

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> int:
        action, _ = self.model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
        return int(action)


def test_snapshot_freezes_an_sb3_model_its_policy_and_a_wrapper() -> None:
    env = BoardplayVecEnv("potlatch", num_envs=8, seat="random", seed=1)
    model = small_model(env)
    model.learn(256)
    obs = env.reset()
    masks = env.action_masks()
    expected, _ = model.predict(obs, action_masks=masks, deterministic=True)
    frozen = [snapshot(model), snapshot(model.policy)]
    for policy in frozen:
        assert isinstance(policy, FrozenPolicy) and policy.batched
        chosen = policy(obs, masks)
        np.testing.assert_array_equal(chosen, expected)
        assert masks[np.arange(8), chosen].all()
    wrapped = snapshot(Wrapper(model))
    assert isinstance(wrapped, Wrapper) and isinstance(wrapped.model, FrozenPolicy)
    assert [wrapped(o, m) for o, m in zip(obs, masks, strict=True)] == expected.tolist()
    before = [policy.scores(obs) for policy in frozen]

    model.learn(512, reset_num_timesteps=False)  # training goes on; the snapshots stay
    assert not np.allclose(FrozenPolicy(model.policy).scores(obs), before[0])
    for policy, scores in zip(frozen, before, strict=True):
        np.testing.assert_array_equal(policy.scores(obs), scores)
        assert not any(p.requires_grad for p in policy.policy.parameters())

    # a snapshot is an opponent of the single-game env too (called with a batch of one)
    game_env = bg.env("potlatch", opponent=League(["random", frozen[0]]), seat="random")
    game_env.reset(seed=0)
    done = False
    while not done:
        action = int(np.flatnonzero(game_env.action_masks())[0])
        _, _, terminated, truncated, _ = game_env.step(action)
        done = terminated or truncated


def test_maskable_ppo_trains_on_the_league_env_against_its_own_snapshots() -> None:
    league = League(["random"], keep=3)
    env = BoardplayLeagueVecEnv("potlatch", num_envs=8, opponents=league, seat="random", seed=2)
    model = small_model(env)
    met: list[bool] = []

    class Snapshots(BaseCallback):
        """A snapshot of the learner into the league every 128 steps."""

        def _on_step(self) -> bool:
            if self.num_timesteps % 128 == 0:
                league.add(snapshot(model))
            met.append(any(isinstance(o, FrozenPolicy) for o in env.envs.opponents))
            return True

    model.learn(640, callback=Snapshots())
    assert model.num_timesteps >= 640
    assert len(league.members) == 4  # random and the newest three snapshots
    assert any(met), "no game was dealt against a snapshot"
    # the observations SB3 saw are the learner's, with its masks, in the batched league games
    assert env.observation_space.shape == env.game.observation_shape()
    assert env.action_masks().any(axis=1).all()
