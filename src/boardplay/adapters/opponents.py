"""Opponents for the single-learner environments: agent specs, any callable policy, leagues
sampled per episode, and frozen snapshots of the learner (docs/adapters.md, "Self-play").

- A **policy** is any callable ``policy(observation, action_mask) -> action``: the observation is
  the deciding seat's float32 tensor (``Game.observation_shape()``), the mask the int8 legal
  actions. A policy whose attribute ``batched`` is true is called with a batch of one row
  instead (``policy(obs[None], mask[None])[0]``), as the NumPy ``PolicyNet`` of
  ``boardplay.ai.policy``.
- An **agent spec** (``"random"``, ``"easy"``, ``"mcts(iterations=50)"``,
  ``"policy(potlatch-ppo)"``) is built with ``boardplay.ai.specs.make_agent``.
- A **League** holds members of either kind and draws one per episode (uniformly, or by
  weights); ``League.add`` grows it, dropping the oldest snapshot past ``keep``.
- ``snapshot(policy)`` is a frozen copy: training the learner afterwards does not change it. A
  Stable-Baselines3 model or policy (or a wrapper holding a model) becomes a ``FrozenPolicy``
  (``boardplay.adapters.frozen``) that plays its best legal action; anything else is deep-copied,
  a torch module put in eval mode with gradients off.
"""

from __future__ import annotations

import copy

import numpy as np

from boardplay.adapters.arrays import action_mask, observe_tensor
from boardplay.adapters.frozen import FrozenPolicy, sb3_policy_of
from boardplay.ai.agents import Agent
from boardplay.ai.league import League, Member, Policy
from boardplay.ai.specs import make_agent
from boardplay.core.errors import OptionError
from boardplay.core.game import Game, State


class CallableAgent:
    """A policy in a seat, as an ``Agent``: reads the seat's observation and mask, asks the
    policy, and checks the answer is legal (a policy's mistake names the policy)."""

    def __init__(self, policy: Policy, game: Game) -> None:
        self.policy = policy
        self.name = getattr(policy, "__name__", type(policy).__name__)
        self.batched = bool(getattr(policy, "batched", False))
        self.shape = game.observation_shape()
        self.actions = game.num_distinct_actions

    def step(self, state: State) -> int:
        seat = state.current_player()
        obs = observe_tensor(state, seat)
        mask = action_mask(state, seat)
        if self.batched:
            chosen = self.policy(obs.reshape(1, -1), mask.reshape(1, -1))
            action = int(np.asarray(chosen).reshape(-1)[0])
        else:
            action = int(self.policy(obs, mask))
        if not 0 <= action < self.actions or not mask[action]:
            raise OptionError(f"policy {self.name} chose {action}, which is not legal")
        return action

    def reset(self) -> None:
        return None

    def inform(self, action: int) -> None:
        return None


def check_member(member: object, game: Game) -> Member:
    """``member`` if it is a spec that builds for ``game`` or a callable; else a clear error."""
    if isinstance(member, str):
        make_agent(member, game, seed=0)  # the spec's own message if it is wrong
        return member
    if callable(member):
        return member
    raise OptionError(
        f"an opponent is an agent spec (e.g. 'random'), a policy callable "
        f"(observation, mask) -> action, or a League; got {type(member).__name__}"
    )


def agent_for(member: Member, game: Game, seed: int) -> Agent:
    """The agent that plays ``member`` in one episode."""
    if isinstance(member, str):
        return make_agent(member, game, seed=seed)
    return CallableAgent(member, game)


def check_league(league: League, game: Game) -> League:
    """``league`` if every member is a spec that builds for ``game`` or a callable."""
    for member in league.members:
        check_member(member, game)
    return league


__all__ = [
    "CallableAgent",
    "FrozenPolicy",
    "League",
    "Member",
    "Policy",
    "agent_for",
    "check_member",
    "snapshot",
]


def snapshot(policy: Policy) -> Policy:
    """A frozen copy of ``policy``: later training of the original does not reach it.

    A Stable-Baselines3 model or policy becomes a ``FrozenPolicy`` (its network rebuilt and its
    weights copied; it plays the best legal action, batched); an object holding SB3 models in its
    attributes (a wrapper around the learner) is copied with a frozen policy in each model's
    place; anything else is deep-copied, a torch module put in eval mode with gradients off."""
    sb3 = sb3_policy_of(policy)
    if sb3 is not None:
        return FrozenPolicy(sb3)
    memo: dict[int, object] = {}
    for value in getattr(policy, "__dict__", {}).values():
        held = sb3_policy_of(value)
        if held is not None:
            memo[id(value)] = FrozenPolicy(held)
    try:
        frozen = copy.deepcopy(policy, memo)
    except (TypeError, RuntimeError) as error:
        raise OptionError(
            f"snapshot cannot copy {type(policy).__name__}: {error}. Give it the learner itself "
            "(an SB3 model or model.policy, a torch module, a PolicyNet) or an object holding it"
        ) from error
    if hasattr(frozen, "eval") and hasattr(frozen, "parameters"):  # a torch module
        frozen.eval()
        for parameter in frozen.parameters():
            parameter.requires_grad_(False)
    return frozen
