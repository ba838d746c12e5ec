"""Stable-Baselines3 bridge: the batched games (``BoardplayVectorEnv``) as an SB3 ``VecEnv``,
so SB3 and sb3-contrib learners step the compiled batch directly instead of a ``DummyVecEnv``
of single-game environments.

>>> from sb3_contrib import MaskablePPO                        # doctest: +SKIP
>>> from boardplay.adapters.sb3 import BoardplayVecEnv           # doctest: +SKIP
>>> env = BoardplayVecEnv("potlatch", num_envs=32, seed=1)     # doctest: +SKIP
>>> MaskablePPO("MlpPolicy", env).learn(20_000)                # doctest: +SKIP

- Observations, rewards and the learner's seat (``seat="random"``: drawn for every game) are
  those of ``BoardplayVectorEnv`` (the other seats play uniformly at random inside the compiled
  step); game options are keywords.
- ``action_masks()`` gives the masks of every game (as bools), and ``env_method("action_masks")``
  one per game: what sb3-contrib's ``get_action_masks`` asks for.
- ``BoardplayLeagueVecEnv`` is the same over ``BoardplayLeagueVectorEnv``: the other seats
  played by policies or a ``League`` (of the learner's own snapshots, for self-play), so SB3
  trains against league opponents in the compiled batch too; ``VectorBridge(envs)`` puts either
  vector env behind the interface.
- A finished or cut game restarts in the same step, as SB3 expects: its last observation is in
  ``infos[i]["terminal_observation"]`` and a cut sets ``infos[i]["TimeLimit.truncated"]``, so
  learners bootstrap a cut game and not an ended one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from boardplay.adapters.leaguevector import RANDOM, BoardplayLeagueVectorEnv, Choice
from boardplay.adapters.vector import BoardplayVectorEnv
from boardplay.ai.maskedvec import MaskedVecEnv
from boardplay.core.game import Game

Array = np.ndarray[Any, Any]


class VectorBridge(MaskedVecEnv):
    """One of boardplay's Gymnasium vector envs (``BoardplayVectorEnv``,
    ``BoardplayLeagueVectorEnv``) behind SB3's ``VecEnv`` interface."""

    def __init__(self, envs: BoardplayVectorEnv | BoardplayLeagueVectorEnv, seed: int = 0) -> None:
        self.envs = envs
        self.game = envs.game
        super().__init__(envs.num_envs, envs.single_observation_space, envs.single_action_space)
        self._seed = seed
        self._actions: Array = np.zeros(self.num_envs, dtype=np.int64)
        self.masks: Array = np.zeros((self.num_envs, self.game.num_distinct_actions), np.bool_)

    def reset(self) -> Array:
        obs, info = self.envs.reset(seed=self._seed)
        self._seed += 1  # the next reset deals new games
        self.masks = info["action_mask"].astype(np.bool_)
        return obs.copy()

    def step_async(self, actions: Array) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> tuple[Array, Array, Array, list[dict[str, Any]]]:
        obs, rewards, terminated, truncated, info = self.envs.step(self._actions)
        self.masks = info["action_mask"].astype(np.bool_)
        dones = terminated | truncated
        illegal = info.get("illegal_action")
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            infos[i]["terminal_observation"] = info["final_obs"][i].copy()
            if truncated[i]:
                infos[i]["TimeLimit.truncated"] = True
            if illegal is not None and illegal[i]:
                infos[i]["illegal_action"] = True
        return obs.copy(), rewards.copy(), dones.copy(), infos

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        if seed is not None:
            self._seed = seed
        return [None] * self.num_envs


class BoardplayVecEnv(VectorBridge):
    """``num_envs`` games of ``game`` behind SB3's ``VecEnv`` interface, the other seats played
    uniformly at random inside the compiled step."""

    def __init__(
        self,
        game: Game | str,
        num_envs: int,
        seat: int | str = 0,
        seed: int = 0,
        max_actions: int | None = None,
        **options: Any,
    ) -> None:
        envs = BoardplayVectorEnv(game, num_envs, seat=seat, max_actions=max_actions, **options)
        super().__init__(envs, seed)


class BoardplayLeagueVecEnv(VectorBridge):
    """``num_envs`` games of ``game`` against ``opponents`` (``BoardplayLeagueVectorEnv``: a
    policy, a ``League`` drawn from for every game, or ``"random"``; one for all envs or one per
    env) behind SB3's ``VecEnv`` interface. A ``League`` is read at every new game, so snapshots
    of the learner added to it during ``learn`` (``opponents.snapshot(model)``) join the games."""

    def __init__(
        self,
        game: Game | str,
        num_envs: int,
        opponents: Choice | Sequence[Choice] = RANDOM,
        seat: int | str = 0,
        seed: int = 0,
        max_actions: int | None = None,
        **options: Any,
    ) -> None:
        envs = BoardplayLeagueVectorEnv(
            game, num_envs, opponents, seat=seat, max_actions=max_actions, seed=seed, **options
        )
        super().__init__(envs, seed)
