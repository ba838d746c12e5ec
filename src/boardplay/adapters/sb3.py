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
- A finished or cut game restarts in the same step, as SB3 expects: its last observation is in
  ``infos[i]["terminal_observation"]`` and a cut sets ``infos[i]["TimeLimit.truncated"]``, so
  learners bootstrap a cut game and not an ended one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import VecEnv

from boardplay.adapters.vector import BoardplayVectorEnv
from boardplay.core.game import Game

Array = np.ndarray[Any, Any]


class BoardplayVecEnv(VecEnv):
    """``num_envs`` games of ``game`` behind SB3's ``VecEnv`` interface."""

    render_mode: str | None = None  # the batch draws nothing; SB3 asks

    def __init__(
        self,
        game: Game | str,
        num_envs: int,
        seat: int | str = 0,
        seed: int = 0,
        max_actions: int | None = None,
        **options: Any,
    ) -> None:
        self.envs = BoardplayVectorEnv(
            game, num_envs, seat=seat, max_actions=max_actions, **options
        )
        self.game = self.envs.game
        super().__init__(
            num_envs, self.envs.single_observation_space, self.envs.single_action_space
        )
        self._seed = seed
        self._actions: Array = np.zeros(num_envs, dtype=np.int64)
        self._masks: Array = np.zeros((num_envs, self.game.num_distinct_actions), np.bool_)

    def reset(self) -> Array:
        obs, info = self.envs.reset(seed=self._seed)
        self._seed += 1  # the next reset deals new games
        self._masks = info["action_mask"].astype(np.bool_)
        return obs.copy()

    def step_async(self, actions: Array) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> tuple[Array, Array, Array, list[dict[str, Any]]]:
        obs, rewards, terminated, truncated, info = self.envs.step(self._actions)
        self._masks = info["action_mask"].astype(np.bool_)
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            infos[i]["terminal_observation"] = info["final_obs"][i].copy()
            if truncated[i]:
                infos[i]["TimeLimit.truncated"] = True
            if info["illegal_action"][i]:
                infos[i]["illegal_action"] = True
        return obs.copy(), rewards.copy(), dones.copy(), infos

    def action_masks(self) -> Array:
        """Every game's legal actions, one bool row each."""
        return self._masks.copy()

    def env_method(
        self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any
    ) -> list[Any]:
        if method_name == "action_masks":
            return list(self._masks[self._indices(indices)])
        raise AttributeError(f"the batched games have no method {method_name!r}")

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """A batch-wide attribute (``game``, ``render_mode``, ...), once per game asked for."""
        return [getattr(self, attr_name)] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError("the batched games share one configuration; make a new env")

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        if seed is not None:
            self._seed = seed
        return [None] * self.num_envs

    def close(self) -> None:
        return None

    def _indices(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)
