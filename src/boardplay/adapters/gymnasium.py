"""Gymnasium adapter: one seat of a boardplay game as a single-agent environment, the other
seats played by boardplay agents (``boardplay.ai.specs.make_agent``).

>>> from boardplay.adapters import gymnasium as bg
>>> env = bg.env("proteus", opponent="random")          # doctest: +SKIP
>>> obs, info = env.reset(seed=3)                        # doctest: +SKIP
>>> action = env.action_space.sample(info["action_mask"])  # doctest: +SKIP
>>> obs, reward, terminated, truncated, info = env.step(action)  # doctest: +SKIP

- Observation: the learner's ``observation_tensor`` (float32, ``Game.observation_shape()``).
- Action: ``Discrete(num_distinct_actions)``; the legal ones are ``info["action_mask"]``
  (int8), also available as ``env.action_masks()`` for maskable learners.
- Each ``step`` applies the learner's action, then plays chance (sampled with the env's
  ``np_random``, seeded by ``reset(seed=...)``) and the opponents until the learner is to act
  again or the game ends. A turn made of several decisions is several steps.
- Reward: 0 until the end, then the learner's zero-sum utility (``boardplay.adapters.utilities``:
  +1 win, -1 loss, 0 draw for two players).
- An illegal action (e.g. an unmasked ``action_space.sample()``) ends the episode as a loss with
  ``info["illegal_action"] = True`` when ``illegal="lose"`` (the default, as PettingZoo's
  ``TerminateIllegalWrapper``); with ``illegal="raise"`` it raises ``IllegalActionError`` and
  changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from boardplay.adapters import utilities, utility_range
from boardplay.adapters.pettingzoo import action_mask, observe_tensor, resolve_game
from boardplay.ai.agents import Agent
from boardplay.ai.specs import make_agent
from boardplay.core.errors import IllegalActionError, OptionError
from boardplay.core.game import Game, State, sample_chance
from boardplay.core.registry import available, canonical_name

DEFAULT_OPPONENT = "mcts(iterations=200)"

Obs = np.ndarray[Any, np.dtype[np.float32]]


class BoardplayEnv(gymnasium.Env[Obs, np.int64]):
    """One seat of ``game`` against agents in the other seats."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 (Gymnasium API)

    def __init__(
        self,
        game: Game,
        opponent: str | Sequence[str] = DEFAULT_OPPONENT,
        seat: int | str = 0,
        illegal: str = "lose",
        render_mode: str | None = None,
    ) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r} is not supported; use 'ansi' or None")
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal must be 'lose' or 'raise', not {illegal!r}")
        n = game.num_players
        if seat != "random" and not (isinstance(seat, int) and 0 <= seat < n):
            raise OptionError(f"seat must be 0..{n - 1} or 'random', not {seat!r}")
        specs = [opponent] * (n - 1) if isinstance(opponent, str) else list(opponent)
        if len(specs) != n - 1:
            raise OptionError(f"{game.name} needs {n - 1} opponent spec(s), got {len(specs)}")
        for spec in specs:  # fail now, with the agent's own message, not at reset
            make_agent(spec, game, seed=0)
        self.game = game
        self.opponent_specs = specs
        self.seat_option = seat
        self.illegal = illegal
        self.render_mode = render_mode
        self.observation_space = spaces.Box(
            low=-np.inf, high=np.inf, shape=game.observation_shape(), dtype=np.float32
        )
        self.action_space = spaces.Discrete(game.num_distinct_actions)
        self.seat = 0 if seat == "random" else int(seat)
        self.game_state: State = game.new_initial_state()
        self.opponents: dict[int, Agent] = {}

    # ----- gymnasium API --------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        n = self.game.num_players
        self.seat = int(rng.integers(n)) if self.seat_option == "random" else int(self.seat)
        others = [s for s in range(n) if s != self.seat]
        self.opponents = {
            s: make_agent(spec, self.game, seed=int(rng.integers(2**31)))
            for s, spec in zip(others, self.opponent_specs, strict=True)
        }
        self.game_state = self.game.new_initial_state()
        self._advance()
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[Obs, SupportsFloat, bool, bool, dict[str, Any]]:
        if self.game_state.is_terminal():
            raise IllegalActionError("the game is over; call reset() to start a new one")
        action = int(action)
        if action not in self.game_state.legal_actions():
            if self.illegal == "raise":
                self.game_state.apply_action(action)  # raises the engine's message
            info = self._info()
            info["illegal_action"] = True
            return self._obs(), utility_range(self.game)[0], True, False, info
        self._apply(action)
        self._advance()
        terminated = self.game_state.is_terminal()
        reward = utilities(self.game_state)[self.seat] if terminated else 0.0
        return self._obs(), reward, terminated, False, self._info()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self.game_state.render()

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        """The legal-action mask (the name maskable learners such as sb3-contrib look for)."""
        return action_mask(self.game_state, self.seat)

    # ----- driving the other seats ----------------------------------------------------------
    def _apply(self, action: int) -> None:
        self.game_state.apply_action(action)
        for agent in self.opponents.values():
            agent.inform(action)

    def _advance(self) -> None:
        """Play chance and the opponents until the learner is to act or the game is over."""
        while not self.game_state.is_terminal():
            player = self.game_state.current_player()
            if player == self.seat:
                return
            if self.game_state.is_chance_node():
                self._apply(self._sample_chance())
            else:
                self._apply(self.opponents[player].step(self.game_state.clone()))

    def _sample_chance(self) -> int:
        return sample_chance(self.game_state, self.np_random)

    def _obs(self) -> Obs:
        return observe_tensor(self.game_state, self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": action_mask(self.game_state, self.seat), "seat": self.seat}


def env(
    game: str | Game,
    opponent: str | Sequence[str] = DEFAULT_OPPONENT,
    seat: int | str = 0,
    illegal: str = "lose",
    render_mode: str | None = None,
    **options: Any,
) -> BoardplayEnv:
    """The single-agent environment of ``game`` (a name, game string or Game; options as
    keywords) with ``opponent`` agents (one spec for all other seats, or one per seat)."""
    return BoardplayEnv(
        resolve_game(game, options),
        opponent=opponent,
        seat=seat,
        illegal=illegal,
        render_mode=render_mode,
    )


def env_id(name: str) -> str:
    """The Gymnasium id of a game: ``boardplay/<game>-v0``."""
    return f"boardplay/{name}-v0"


def register_envs(games: Sequence[str] | None = None) -> list[str]:
    """Register ``boardplay/<game>-v0`` with Gymnasium for the given (default: available)
    games, so ``gymnasium.make("boardplay/proteus-v0", opponent="random")`` works; keywords of
    ``make`` are those of ``env`` (options included). Safe to call again; returns the ids."""
    ids: list[str] = []
    for name in available() if games is None else [canonical_name(g) for g in games]:
        if env_id(name) not in gymnasium.registry:
            gymnasium.register(
                id=env_id(name),
                entry_point="boardplay.adapters.gymnasium:env",
                kwargs={"game": name},
            )
        ids.append(env_id(name))
    return ids
