"""What every batched-games ``VecEnv`` of boardplay shares with Stable-Baselines3: the masks
where sb3-contrib looks for them, and the batch-wide answers to SB3's per-env questions (one
configuration for all games, no wrappers). Used by ``boardplay.ai.trainenv`` and
``boardplay.adapters.sb3``."""

from __future__ import annotations

from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import VecEnv

Array = np.ndarray[Any, Any]


class MaskedVecEnv(VecEnv):
    """A ``VecEnv`` whose subclass keeps ``self.masks``: one bool row of legal actions per game."""

    render_mode: str | None = None  # nothing to draw; SB3 asks
    masks: Array

    def action_masks(self) -> Array:
        """Every game's legal actions, one bool row each."""
        return self.masks.copy()

    def env_method(
        self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any
    ) -> list[Any]:
        if method_name == "action_masks":
            return list(self.masks[self._indices(indices)])
        raise AttributeError(f"these batched games have no method {method_name!r}")

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """A batch-wide attribute (``game``, ``render_mode``, ...), once per game asked for."""
        return [getattr(self, attr_name)] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError("the batched games share one configuration; make a new env")

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def close(self) -> None:
        return None

    def _indices(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)
