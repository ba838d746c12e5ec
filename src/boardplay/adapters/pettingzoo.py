"""PettingZoo adapter: every boardplay game as an AEC (agent-environment-cycle) environment.

>>> from boardplay.adapters import pettingzoo
>>> env = pettingzoo.env("potlatch", actions=3)     # doctest: +SKIP
>>> env.reset(seed=7)                                # doctest: +SKIP
>>> for agent in env.agent_iter():                   # doctest: +SKIP
...     obs, reward, terminated, truncated, info = env.last()
...     action = None if terminated else env.action_space(agent).sample(obs["action_mask"])
...     env.step(action)

- Agents are ``player_0 .. player_{n-1}`` (seat order). Turns made of several decisions
  select the same agent several times in a row.
- Observations are dicts ``{"observation": float32 tensor of Game.observation_shape(),
  "action_mask": int8 vector of num_distinct_actions}``; the mask is all zeros for an agent
  that is not to act (as in PettingZoo's classic games).
- Rewards are terminal and zero-sum (``boardplay.adapters.utilities``).
- Chance nodes never reach the agents: the environment resolves them with its own generator,
  seeded by ``reset(seed=...)``, so a seed and the same actions replay the same game.
- An illegal action raises ``IllegalActionError`` naming the legal moves; the game is unchanged.
- ``render_mode="ansi"``: ``render()`` returns the engine's text picture (``State.render()``).
- ``env.game_state`` is the engine state; ``state()`` is PettingZoo's global view (seat 0's
  tensor, the whole position since nothing is hidden).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pettingzoo
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from boardplay.adapters import utilities
from boardplay.adapters.arrays import action_mask, episode_limit, observe_tensor, resolve_game
from boardplay.core.errors import IllegalActionError
from boardplay.core.game import Game, State, sample_chance
from boardplay.core.registry import available, canonical_name


def observation_space(game: Game) -> spaces.Box:
    """The Box of one observation tensor. The engines document their value ranges per feature
    (docs/observations.md); the Box is unbounded so that no valid observation falls outside."""
    return spaces.Box(low=-np.inf, high=np.inf, shape=game.observation_shape(), dtype=np.float32)


class BoardplayAECEnv(AECEnv):  # type: ignore[misc]
    """The raw AEC environment of one boardplay game (``env`` adds PettingZoo's order check)."""

    metadata = {  # noqa: RUF012 (PettingZoo reads a plain class dict)
        "render_modes": ["ansi"],
        "name": "boardplay",
        "is_parallelizable": False,
    }

    def __init__(
        self, game: Game, render_mode: str | None = None, max_actions: int | None = None
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r} is not supported; use 'ansi' or None")
        limit = episode_limit(game, max_actions)
        self.max_actions = limit
        self.game = game
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"boardplay_{game.name}"}
        self.possible_agents = [f"player_{seat}" for seat in range(game.num_players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        box = observation_space(game)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": box,
                    "action_mask": spaces.Box(
                        0, 1, shape=(game.num_distinct_actions,), dtype=np.int8
                    ),
                }
            )
            for agent in self.possible_agents
        }
        self.state_space = box
        self.action_spaces = {
            agent: spaces.Discrete(game.num_distinct_actions) for agent in self.possible_agents
        }
        self._rng = random.Random()
        self.game_state: State = game.new_initial_state()

    # ----- spaces ---------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ----- the cycle ------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game. ``seed`` fixes every chance outcome; without one, the generator
        continues (first reset: seeded from the operating system)."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.game_state = self.game.new_initial_state()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._resolve_chance()
        self._cut()
        self._select()

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        seat = self._seat[agent]
        return {
            "observation": observe_tensor(self.game_state, seat),
            "action_mask": action_mask(self.game_state, seat),
        }

    def state(self) -> np.ndarray[Any, np.dtype[np.float32]]:
        """PettingZoo's global view (for centralised training): the tensor from seat 0's view,
        which is the whole position since nothing is hidden."""
        return observe_tensor(self.game_state, 0)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} must choose an action; the game is not over")
        self.game_state.apply_action(int(action))
        self._cumulative_rewards[agent] = 0.0
        self._resolve_chance()
        if self.game_state.is_terminal():
            for a, value in zip(self.possible_agents, utilities(self.game_state), strict=True):
                self.rewards[a] = value
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cut()
        self._select()
        self._accumulate_rewards()

    def _cut(self) -> None:
        """Truncate every agent once the game has lasted ``max_actions`` actions."""
        if len(self.game_state.history()) >= self.max_actions:
            self.truncations = dict.fromkeys(self.agents, True)

    def _resolve_chance(self) -> None:
        while (
            self.game_state.is_chance_node() and len(self.game_state.history()) < self.max_actions
        ):
            self.game_state.apply_action(sample_chance(self.game_state, self._rng))

    def _select(self) -> None:
        """The agent to act; at the end, each agent in seat order (to collect its reward)."""
        player = self.game_state.current_player()
        if player >= 0 and not any(self.truncations.values()):
            self.agent_selection = self.possible_agents[player]
        else:
            self.agent_selection = self.agents[0]

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self.game_state.render()

    def close(self) -> None:
        return None


def raw_env(
    game: str | Game,
    render_mode: str | None = None,
    max_actions: int | None = None,
    **options: Any,
) -> BoardplayAECEnv:
    return BoardplayAECEnv(
        resolve_game(game, options), render_mode=render_mode, max_actions=max_actions
    )


def env(
    game: str | Game,
    render_mode: str | None = None,
    max_actions: int | None = None,
    **options: Any,
) -> AECEnv:
    """The AEC environment of ``game`` (a name, a game string such as
    ``"potlatch(actions=3)"`` or a Game), with PettingZoo's order-enforcing wrapper. A game
    still going after ``max_actions`` actions (default ``Game.episode_limit``, chance
    included) is cut: every agent's ``truncations`` entry turns True, rewards 0."""
    raw = raw_env(game, render_mode=render_mode, max_actions=max_actions, **options)
    return wrappers.OrderEnforcingWrapper(raw)


def env_id(name: str) -> str:
    """The PettingZoo id of a game: ``boardplay/<game>-v0``."""
    return f"boardplay/{name}-v0"


def register_envs(games: Sequence[str] | None = None) -> list[str]:
    """Register ``boardplay/<game>-v0`` in PettingZoo's AEC registry for the given (default:
    available) games, so ``pettingzoo.make("aec", "boardplay/passtally-v0", players=3)``
    works. Safe to call again; returns the ids."""
    ids: list[str] = []
    for name in available() if games is None else [canonical_name(g) for g in games]:
        if env_id(name) not in pettingzoo.aec_registry:
            pettingzoo.register(
                "aec", env_id(name), "boardplay.adapters.pettingzoo:env", kwargs={"game": name}
            )
        ids.append(env_id(name))
    return ids
