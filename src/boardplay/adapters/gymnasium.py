"""Gymnasium adapter: one seat of a boardplay game as a single-agent environment, the other
seats played by opponents: agent specs, policy callables, or a ``League`` drawn from per
episode (``boardplay.adapters.opponents``).

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
- A game still going after ``max_actions`` actions (default ``Game.episode_limit``; every seat's
  and chance's count) is cut: ``truncated`` is True and the reward 0 (the play before the
  learner's first decision always runs to it, as ``reset`` cannot report a cut). So no
  episode runs for ever, even in Proteus or Passtally without ``max_turns`` and against
  opponents that never end a game.
- An illegal action (e.g. an unmasked ``action_space.sample()``) ends the episode as a loss with
  ``info["illegal_action"] = True`` when ``illegal="lose"`` (the default, as PettingZoo's
  ``TerminateIllegalWrapper``), and the env's first one raises an ``IllegalActionWarning``
  saying how to mask; with ``illegal="raise"`` it raises ``IllegalActionError`` and changes
  nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from boardplay.adapters import utilities, utility_range, warn_illegal
from boardplay.adapters.arrays import action_mask, episode_limit, observe_tensor, resolve_game
from boardplay.adapters.opponents import League, Member, agent_for, check_league, check_member
from boardplay.ai.agents import Agent
from boardplay.core.errors import IllegalActionError, OptionError
from boardplay.core.game import Game, State, sample_chance
from boardplay.core.registry import available, canonical_name, load

DEFAULT_OPPONENT = "random"
"""Cheap on purpose: a search opponent such as ``mcts(iterations=200)`` costs 50-100 times more
per step than the rules (docs/adapters.md); ask for it when the study needs it."""

Opponent = Member | League | Sequence[Member | League]

Obs = np.ndarray[Any, np.dtype[np.float32]]


class BoardplayEnv(gymnasium.Env[Obs, np.int64]):
    """One seat of ``game`` against agents in the other seats."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 1}  # noqa: RUF012 (Gymnasium API)

    def __init__(
        self,
        game: Game,
        opponent: Opponent = DEFAULT_OPPONENT,
        seat: int | str = 0,
        illegal: str = "lose",
        render_mode: str | None = None,
        max_actions: int | None = None,
    ) -> None:
        if render_mode not in (None, "ansi", "rgb_array"):
            raise ValueError(
                f"render_mode {render_mode!r} is not supported; use 'ansi', 'rgb_array' or None"
            )
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal must be 'lose' or 'raise', not {illegal!r}")
        n = game.num_players
        if seat != "random" and not (isinstance(seat, int) and 0 <= seat < n):
            raise OptionError(f"seat must be 0..{n - 1} or 'random', not {seat!r}")
        if isinstance(opponent, (str, League)) or callable(opponent):
            seats: list[Member | League] = [opponent] * (n - 1)
        else:
            seats = list(opponent)
        if len(seats) != n - 1:
            raise OptionError(f"{game.name} needs {n - 1} opponent(s), got {len(seats)}")
        for member in seats:  # fail now, with the agent's own message, not at reset
            if isinstance(member, League):
                check_league(member, game)
            else:
                check_member(member, game)
        limit = episode_limit(game, max_actions)
        self.game = game
        self.opponent_seats = seats
        self.seat_option = seat
        self.illegal = illegal
        self.render_mode = render_mode
        self.max_actions = limit
        self.observation_space = spaces.Box(
            low=-np.inf, high=np.inf, shape=game.observation_shape(), dtype=np.float32
        )
        self.action_space = spaces.Discrete(game.num_distinct_actions)
        self.seat = 0 if seat == "random" else int(seat)
        self.game_state: State = game.new_initial_state()
        self.opponents: dict[int, Agent] = {}
        self.warned_illegal = False

    # ----- gymnasium API --------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        n = self.game.num_players
        self.seat = int(rng.integers(n)) if self.seat_option == "random" else int(self.seat)
        others = [s for s in range(n) if s != self.seat]
        self.opponents = {}
        for s, choice in zip(others, self.opponent_seats, strict=True):
            member = choice.draw(rng) if isinstance(choice, League) else choice
            self.opponents[s] = agent_for(member, self.game, seed=int(rng.integers(2**31)))
        self.game_state = self.game.new_initial_state()
        self.actions_played = 0
        self._advance(cap=False)  # reset cannot report a cut: the setup always plays out
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[Obs, SupportsFloat, bool, bool, dict[str, Any]]:
        if self.game_state.is_terminal() or self.truncated:
            raise IllegalActionError("the episode is over; call reset() to start a new one")
        action = int(action)
        if action not in self.game_state.legal_actions():
            if self.illegal == "raise":
                self.game_state.apply_action(action)  # raises the engine's message
            if not self.warned_illegal:
                self.warned_illegal = True
                warn_illegal(self.game)
            info = self._info()
            info["illegal_action"] = True
            return self._obs(), utility_range(self.game)[0], True, False, info
        self._apply(action)
        self._advance()
        terminated = self.game_state.is_terminal()
        reward = utilities(self.game_state)[self.seat] if terminated else 0.0
        return self._obs(), reward, terminated, self.truncated, self._info()

    @property
    def truncated(self) -> bool:
        """The game reached ``max_actions`` without ending."""
        return self.actions_played >= self.max_actions and not self.game_state.is_terminal()

    def render(self) -> str | np.ndarray[Any, np.dtype[np.uint8]] | None:
        """``ansi``: the engine's text picture; ``rgb_array``: that text drawn as an image (what
        SB3's ``make_vec_env`` and video recorders ask for)."""
        if self.render_mode is None:
            return None
        text = self.game_state.render()
        if self.render_mode == "ansi":
            return text
        return text_image(text)

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        """The legal-action mask (the name maskable learners such as sb3-contrib look for)."""
        mask: np.ndarray[Any, np.dtype[np.int8]] = self._info()["action_mask"]
        return mask

    # ----- driving the other seats ----------------------------------------------------------
    def _apply(self, action: int) -> None:
        self.game_state.apply_action(action)
        self.actions_played += 1
        for agent in self.opponents.values():
            agent.inform(action)

    def _advance(self, cap: bool = True) -> None:
        """Play chance and the opponents until the learner is to act, the game is over, or it
        reaches ``max_actions``."""
        while not self.game_state.is_terminal() and (
            not cap or self.actions_played < self.max_actions
        ):
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
        mask = action_mask(self.game_state, self.seat)
        if self.truncated:
            mask[:] = 0
        return {"action_mask": mask, "seat": self.seat}


def text_image(text: str) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """``text`` in black on white, one line per line, as an RGB array (Pillow's own font)."""
    from PIL import Image, ImageDraw

    lines = text.splitlines() or [""]
    width = 8 + 6 * max(len(line) for line in lines)
    image = Image.new("RGB", (width, 8 + 11 * len(lines)), "white")
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(lines):
        draw.text((4, 4 + 11 * row), line, fill="black")
    return np.asarray(image, dtype=np.uint8)


def env(
    game: str | Game,
    opponent: Opponent = DEFAULT_OPPONENT,
    seat: int | str = 0,
    illegal: str = "lose",
    render_mode: str | None = None,
    max_actions: int | None = None,
    **options: Any,
) -> BoardplayEnv:
    """The single-agent environment of ``game`` (a name, game string or Game; options as
    keywords) against ``opponent``: one spec, policy or League for every other seat, or a list
    with one per seat."""
    return BoardplayEnv(
        resolve_game(game, options),
        opponent=opponent,
        seat=seat,
        illegal=illegal,
        render_mode=render_mode,
        max_actions=max_actions,
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
            # TimeLimit at the default options' bound: the env cuts a game itself (counting
            # every seat's actions, so it comes first); the spec states the bound honestly.
            gymnasium.register(
                id=env_id(name),
                entry_point="boardplay.adapters.gymnasium:env",
                kwargs={"game": name},
                max_episode_steps=load(name).episode_limit,
            )
        ids.append(env_id(name))
    return ids


register_envs()
"""Importing this module registers every game, so Gymnasium's module-prefixed id works in a
fresh process: ``gymnasium.make("boardplay.adapters.gymnasium:boardplay/proteus-v0")``."""
