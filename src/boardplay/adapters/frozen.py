"""Frozen copies of Stable-Baselines3 learners, as opponents (``opponents.snapshot`` makes them).

A model (``MaskablePPO``, ``PPO``, ``A2C``, ``DQN``, ...) holds its environment, rollout
buffer and optimizer, and an actor-critic policy keeps the last distribution it computed (tensors
that are not graph leaves), so neither can be deep-copied. What an opponent needs is the network:
``FrozenPolicy`` rebuilds the policy from its constructor parameters and loads its weights, as
SB3's own ``BasePolicy.save`` / ``load`` do, in eval mode with gradients off. Later training of
the learner does not reach it.

It plays the best legal action: the policy's logits (a Q-network's values for DQN) with every
illegal action removed, the action ``model.predict(obs, action_masks=mask,
deterministic=True)`` gives a maskable learner. It is ``batched``, so the batched league env
asks it for all its games in one call, and it also answers SB3's ``predict`` (with
``action_masks``), so a wrapper written around a model keeps working when ``snapshot`` puts a
frozen copy in the model's place. Nothing here imports SB3 or torch until such an object is
met: a program that has not imported ``stable_baselines3`` holds none.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from boardplay.ai.policy import best_legal, without_illegal
from boardplay.core.errors import OptionError

Array = np.ndarray[Any, Any]


def sb3_policy_of(learner: object) -> Any | None:
    """The SB3 policy (a ``BasePolicy``) behind ``learner``, a model or a policy; else None."""
    if "stable_baselines3" not in sys.modules:
        return None
    from stable_baselines3.common.base_class import BaseAlgorithm
    from stable_baselines3.common.policies import BasePolicy

    if isinstance(learner, BaseAlgorithm):
        return learner.policy
    if isinstance(learner, BasePolicy):
        return learner
    return None


class FrozenPolicy:
    """A frozen copy of an SB3 policy with a discrete action space, as an opponent policy
    ``policy(observations, masks) -> actions`` (a batch of rows; ``batched``)."""

    batched = True
    """Marks the call as batched for ``boardplay.adapters.opponents`` and the league env."""

    def __init__(self, policy: Any) -> None:
        from gymnasium import spaces

        if not isinstance(policy.action_space, spaces.Discrete):
            raise OptionError(
                f"snapshot: an opponent chooses one action id, so its policy needs a Discrete "
                f"action space, not {policy.action_space}"
            )
        parameters = policy._get_constructor_parameters()
        if "ortho_init" in parameters:  # the weights are replaced at once: skip the costly init
            parameters["ortho_init"] = False
        frozen = type(policy)(**parameters)
        frozen.load_state_dict(policy.state_dict())
        frozen.to(policy.device)
        frozen.set_training_mode(False)
        for parameter in frozen.parameters():
            parameter.requires_grad_(False)
        self.policy = frozen
        self.num_actions = int(policy.action_space.n)

    def scores(self, observations: Array) -> Array:
        """One row of action scores per observation: the policy's logits (a Q-network's
        values), as NumPy."""
        import torch

        rows = np.asarray(observations, dtype=np.float32)
        obs, _ = self.policy.obs_to_tensor(rows.reshape(-1, *self.policy.observation_space.shape))
        with torch.no_grad():
            if hasattr(self.policy, "get_distribution"):
                values = self.policy.get_distribution(obs).distribution.logits
            else:
                values = self.policy.q_net(obs)
        scores: Array = values.cpu().numpy().reshape(-1, self.num_actions)
        return scores

    def __call__(self, observations: Array, masks: Array) -> Array:
        """The best legal action of each row."""
        return best_legal(self.scores(observations), masks)

    def predict(
        self,
        observation: Array,
        state: Any = None,
        episode_start: Any = None,
        deterministic: bool = True,
        action_masks: Array | None = None,
    ) -> tuple[Array, Any]:
        """SB3's ``predict`` (as a maskable model's): the actions for one observation or a batch,
        and ``state`` as given. ``deterministic=False`` samples from the legal actions'
        probabilities (a Q-network always plays its best)."""
        import torch

        observation = np.asarray(observation, dtype=np.float32)
        single = observation.shape == self.policy.observation_space.shape
        scores = self.scores(observation)
        if action_masks is not None:
            scores = without_illegal(scores, action_masks)
        if deterministic or not hasattr(self.policy, "get_distribution"):
            actions: Array = scores.argmax(axis=1)
        else:
            chances = torch.softmax(torch.from_numpy(scores), dim=1)  # torch's generator, as SB3
            actions = torch.multinomial(chances, 1).reshape(-1).numpy()
        return (actions[0] if single else actions), state
