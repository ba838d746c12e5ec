"""Batched environments: many games of one game stepped in one compiled call.

>>> from boardplay.adapters.vector import BoardplayVectorEnv, BatchedGames
>>> envs = BoardplayVectorEnv("potlatch", num_envs=1024)          # doctest: +SKIP
>>> obs, infos = envs.reset(seed=1)                                # doctest: +SKIP
>>> obs, rewards, terminated, truncated, infos = envs.step(actions)  # doctest: +SKIP

- ``BoardplayVectorEnv`` is a Gymnasium ``VectorEnv``: the learner holds one seat of every
  game, the other seats play uniformly at random inside the step (the compiled opponents; for
  an agent opponent use the single-game ``boardplay.adapters.gymnasium`` env). Game options are
  keywords (``BoardplayVectorEnv("proteus", 64, max_turns=50)``). Observations are
  the learner's ``observation_tensor``; ``infos["action_mask"]`` is the int8 mask of the next
  decision; rewards are the learner's zero-sum utility at the end (``adapters.utilities``).
  Autoreset happens in the same step (``AutoresetMode.SAME_STEP``), with the info keys of
  Gymnasium's own vector envs: a finished game's last observation is in
  ``infos["final_obs"]`` (where ``infos["_final_obs"]``), ``infos["final_info"]`` holds its
  last info, and the returned observation is already the next game's first. A game still going
  after ``max_actions`` actions (default ``Game.episode_limit``, all seats and chance counted)
  is cut: ``truncated``, reward 0, restarted the same way.
- ``BatchedGames`` is the matching multi-agent (PettingZoo-style, turn-based) API: every seat's
  decisions come from the caller; ``to_move[i]`` names the seat deciding in game ``i`` and the
  observation is from that seat's view; rewards are per seat.
- An action outside the mask ends that game as a loss for the seat that chose it
  (``infos["illegal_action"]``), as the single-game envs' default ``illegal="lose"``; the
  first such step of a ``BoardplayVectorEnv`` raises an ``IllegalActionWarning``.
- ``compact=True`` (every game's kernel has a ``compact_size``) returns each observation as
  the kernel's compact uint8 row instead of the float32 tensor: the same information in
  bytes of bit-planes and counts (Potlatch's 537 bytes instead of 36 KB; docs/adapters.md,
  "Compact observations"), so that 1,024 games step at memory speed.
  ``expand(obs)`` gives the tensors back, exactly; a learner can also expand on its device.
- ``sample_actions()`` (both classes): a uniformly random legal action per game, drawn by the
  compiled rules (a random agent without a pass over the masks).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from boardplay.adapters import warn_illegal
from boardplay.adapters.arrays import episode_limit
from boardplay.core.batch import RANDOM_SEAT, KernelBatch
from boardplay.core.errors import OptionError
from boardplay.core.game import Game
from boardplay.core.registry import load

Array = np.ndarray[Any, Any]


def _kernel_game(game: Game | str, compact: bool, options: dict[str, Any]) -> Game:
    if isinstance(game, Game) and options:
        raise OptionError("give options either in the Game or as keywords, not both")
    loaded = load(game, **options) if isinstance(game, str) else game
    kernel = loaded.new_initial_state().kernel
    if kernel is None:
        raise OptionError(f"{loaded.name} has no compiled kernel, so it cannot be batched")
    if compact and kernel.compact_size == 0:
        raise OptionError(f"{loaded.name} has no compact observation; use compact=False")
    return loaded


def _limit(game: Game, max_actions: int | None) -> int:
    """The action count at which the batch cuts a game (``episode_limit``), within a C int."""
    return min(episode_limit(game, max_actions), 2**31 - 1)


def _expand(batch: KernelBatch, compact: Array) -> Array:
    rows = np.ascontiguousarray(compact, dtype=np.uint8).reshape(-1, batch.row_size)
    out = np.empty((rows.shape[0], batch.observation_size), dtype=np.float32)
    batch.expand(rows, out)
    return out


class _Buffers:
    """The arrays one compiled call reads and writes, allocated once per batch."""

    def __init__(self, batch: KernelBatch, size: int, keep_obs: bool) -> None:
        width = batch.row_size if keep_obs else 0
        dtype = np.uint8 if batch.compact else np.float32
        self.obs = np.zeros((size, width), dtype=dtype)
        self.final_obs = np.zeros((size, width), dtype=dtype)
        self.mask = np.zeros((size, batch.action_space), dtype=np.int8)
        self.picks = np.zeros(size, dtype=np.int64)
        self.to_move = np.zeros(size, dtype=np.int32)
        self.rewards = np.zeros((size, batch.num_players), dtype=np.float32)
        self.terminated = np.zeros(size, dtype=np.uint8)
        self.truncated = np.zeros(size, dtype=np.uint8)
        self.illegal = np.zeros(size, dtype=np.uint8)

    def step(self, batch: KernelBatch, actions: Array) -> int:
        chosen = np.ascontiguousarray(actions, dtype=np.int64).reshape(-1)
        finished: int = batch.step(
            chosen,
            self.obs,
            self.mask,
            self.to_move,
            self.rewards,
            self.terminated,
            self.illegal,
            self.final_obs,
            self.truncated,
        )
        return finished


class BatchedGames:
    """``size`` games of ``game`` for self-play: the caller decides for every seat."""

    def __init__(
        self,
        game: Game | str,
        size: int,
        observations: bool = True,
        compact: bool = False,
        max_actions: int | None = None,
        **options: Any,
    ) -> None:
        self.game = _kernel_game(game, compact, options)
        kernel = self.game.new_initial_state().kernel
        assert kernel is not None
        limit = _limit(self.game, max_actions)
        self.batch = KernelBatch(kernel, size, -1, 0, compact, limit)
        self.size = size
        self._buffers = _Buffers(self.batch, size, observations)

    @property
    def action_mask(self) -> Array:
        """``size`` x ``num_distinct_actions`` int8: the legal actions of each next decision."""
        return self._buffers.mask

    def reset(self, seed: int = 0) -> tuple[Array, Array, Array]:
        """Restart every game: ``(observations, action masks, seats to move)``."""
        b = self._buffers
        self.batch.reset(seed & 0xFFFFFFFFFFFFFFFF, b.obs, b.mask, b.to_move)
        return b.obs, b.mask, b.to_move

    def step(self, actions: Array) -> tuple[Array, Array, Array, Array, Array]:
        """One decision in every game: ``(observations, masks, seats to move, rewards per
        seat, terminated)``; finished games restart in the same call, and so do games cut at
        ``max_actions`` (``self.truncated`` says which). The arrays are reused by the next
        call (copy what you keep)."""
        b = self._buffers
        b.step(self.batch, actions)
        return b.obs, b.mask, b.to_move, b.rewards, b.terminated.view(np.bool_)

    def sample_actions(self) -> Array:
        """A uniformly random legal action per game (``KernelBatch.sample``), reused by the
        next call."""
        self.batch.sample(self._buffers.picks)
        return self._buffers.picks

    @property
    def truncated(self) -> Array:
        """Which games the last ``step`` cut at ``max_actions`` (and restarted)."""
        return self._buffers.truncated.view(np.bool_)

    @property
    def illegal(self) -> Array:
        """Which games the last ``step`` ended because the seat to move chose an action outside
        its mask (a loss for that seat; the games restarted)."""
        return self._buffers.illegal.view(np.bool_)

    def expand(self, compact: Array) -> Array:
        """Compact observations (``compact=True``) as the float32 tensors they stand for, one
        flat row each."""
        return _expand(self.batch, compact)


class BoardplayVectorEnv(gymnasium.vector.VectorEnv[Array, Array, Array]):
    """``num_envs`` games of ``game``, the learner in ``seat``, random opponents compiled in."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (Gymnasium API)

    def __init__(
        self,
        game: Game | str,
        num_envs: int,
        seat: int | str = 0,
        compact: bool = False,
        max_actions: int | None = None,
        **options: Any,
    ) -> None:
        self.game = _kernel_game(game, compact, options)
        n = self.game.num_players
        if seat != "random" and not (isinstance(seat, int) and 0 <= seat < n):
            raise OptionError(f"seat must be 0..{n - 1} or 'random', not {seat!r}")
        kernel = self.game.new_initial_state().kernel
        assert kernel is not None
        learner = RANDOM_SEAT if seat == "random" else int(seat)
        self.num_envs = num_envs
        self.max_actions = _limit(self.game, max_actions)
        self.batch = KernelBatch(kernel, num_envs, learner, 0, compact, self.max_actions)
        self.seats = np.zeros(num_envs, dtype=np.int32)
        """The learner's seat in each game (drawn per game with ``seat="random"``)."""
        self._final_seats = np.zeros(num_envs, dtype=np.int32)
        self.warned_illegal = False
        self.batch.learner_seats(self.seats)
        self._buffers = _Buffers(self.batch, num_envs, True)
        self.tensor_shape = self.game.observation_shape()
        shape = (kernel.compact_size,) if compact else self.tensor_shape
        self.single_observation_space: spaces.Box = (
            spaces.Box(0, 255, shape, np.uint8)
            if compact
            else spaces.Box(-np.inf, np.inf, shape, np.float32)
        )
        self.single_action_space = spaces.Discrete(self.game.num_distinct_actions)
        self.observation_space = gymnasium.vector.utils.batch_space(
            self.single_observation_space, num_envs
        )
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)
        self._shape = (num_envs, *shape)

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Array, dict[str, Any]]:
        if isinstance(seed, list):
            seed = seed[0] if seed else None
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
        b = self._buffers
        self.batch.reset(seed & 0xFFFFFFFFFFFFFFFF, b.obs, b.mask, b.to_move)
        self.batch.learner_seats(self.seats)
        return b.obs.reshape(self._shape), {"action_mask": b.mask, "seat": self.seats}

    def step(self, actions: Array) -> tuple[Array, Array, Array, Array, dict[str, Any]]:
        b = self._buffers
        self._final_seats[:] = self.seats  # the seats of the games this step may end
        finished = b.step(self.batch, actions)
        self.batch.learner_seats(self.seats)
        terminated = b.terminated.view(np.bool_)
        truncated = b.truncated.view(np.bool_)
        illegal = b.illegal.view(np.bool_)
        if not self.warned_illegal and illegal.any():
            self.warned_illegal = True
            warn_illegal(self.game)
        rewards = b.rewards[np.arange(self.num_envs), self._final_seats]
        infos: dict[str, Any] = {
            "action_mask": b.mask,
            "illegal_action": illegal,
            "seat": self.seats,
        }
        if finished:  # the keys and masks of Gymnasium's own vector envs (SAME_STEP)
            ended = terminated | truncated
            infos["final_obs"] = b.final_obs.reshape(self._shape)
            infos["_final_obs"] = ended
            infos["final_info"] = {
                "illegal_action": illegal,
                "_illegal_action": ended,
                "seat": self._final_seats.copy(),
                "_seat": ended,
            }
            infos["_final_info"] = ended
        return b.obs.reshape(self._shape), rewards, terminated, truncated, infos

    def sample_actions(self) -> Array:
        """A uniformly random legal action for the learner in every game, drawn by the
        compiled rules with a generator of their own (seeded by ``reset``), without a pass
        over the masks; the array is reused by the next call."""
        self.batch.sample(self._buffers.picks)
        return self._buffers.picks

    def expand(self, compact: Array) -> Array:
        """Compact observations (``compact=True``) as the tensors they stand for, shaped
        ``(n, *tensor_shape)``."""
        return _expand(self.batch, compact).reshape(-1, *self.tensor_shape)
