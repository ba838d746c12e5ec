"""The batched games with opponents of your choosing: per environment, a policy callable, an
agent-free ``League`` drawn from for every game, or the compiled random player; the learner's
seat fixed or drawn for every game.

``BoardplayVectorEnv`` keeps the opponents inside the compiled step (uniformly random, the
fastest loop). This env steps the same compiled batch in self-play mode and asks the opponents
itself: after the learner's actions, every game whose next decision belongs to another seat is
advanced with its opponent's action (one batched call per opponent object: a policy with
``batched = True`` such as ``boardplay.ai.policy.PolicyNet`` sees all its games at once), the
games already waiting for the learner standing still, until every game waits for the learner.
Observations, masks, rewards, truncation and the info keys are those of ``BoardplayVectorEnv``.

Members are policies, not agent specs: the batch holds kernels, not the engine states a search
agent reads. ``"random"`` is understood and plays inside the batch's own loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from boardplay.adapters import warn_illegal
from boardplay.ai.league import League, Member
from boardplay.core.errors import OptionError
from boardplay.core.game import Game

from .vector import BatchedGames

Array = np.ndarray[Any, Any]
RANDOM = "random"
Choice = Member | League


class BoardplayLeagueVectorEnv(gymnasium.vector.VectorEnv[Array, Array, Array]):
    """``num_envs`` games of ``game``; the learner in ``seat`` (or ``"random"``), the other
    seats played by ``opponents``: one member or League for every env, or a list, one per env."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (Gymnasium API)

    def __init__(
        self,
        game: Game | str,
        num_envs: int,
        opponents: Choice | Sequence[Choice] = RANDOM,
        seat: int | str = 0,
        max_actions: int | None = None,
        seed: int = 0,
        **options: Any,
    ) -> None:
        self.games = BatchedGames(game, num_envs, max_actions=max_actions, **options)
        self.game = self.games.game
        self.warned_illegal = False
        n = self.game.num_players
        if seat != "random" and not (isinstance(seat, int) and 0 <= seat < n):
            raise OptionError(f"seat must be 0..{n - 1} or 'random', not {seat!r}")
        if isinstance(opponents, (str, League)) or callable(opponents):
            per_env: list[Choice] = [opponents] * num_envs
        else:
            per_env = list(opponents)
        if len(per_env) != num_envs:
            raise OptionError(f"give one opponent for every env ({num_envs}), not {len(per_env)}")
        for choice in per_env:
            for member in choice.members if isinstance(choice, League) else [choice]:
                if not (member == RANDOM or (callable(member) and not isinstance(member, str))):
                    raise OptionError(
                        f"opponents here are policy callables or 'random', not {member!r} "
                        "(agent specs need engine states: use the single-game Gymnasium env)"
                    )
        self.choices = per_env
        self.seat_option = seat
        self.num_envs = num_envs
        self.rng = np.random.default_rng(seed)
        self.seats = np.zeros(num_envs, dtype=np.int32)
        self.opponents: list[Member] = [RANDOM] * num_envs
        self.tensor_shape = self.game.observation_shape()
        self.single_observation_space = spaces.Box(-np.inf, np.inf, self.tensor_shape, np.float32)
        self.single_action_space = spaces.Discrete(self.game.num_distinct_actions)
        self.observation_space = gymnasium.vector.utils.batch_space(
            self.single_observation_space, num_envs
        )
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)
        self._obs = np.zeros((num_envs, *self.tensor_shape), np.float32)
        self._mask = np.zeros((num_envs, self.game.num_distinct_actions), np.int8)
        self._last: tuple[Array, Array, Array] = (self._obs, self._mask, self.seats)

    # ----- one game -------------------------------------------------------------------------
    def _deal(self, i: int) -> None:
        """A new game in env ``i``: the learner's seat and this game's opponent."""
        n = self.game.num_players
        self.seats[i] = (
            int(self.rng.integers(n)) if self.seat_option == "random" else int(self.seat_option)
        )
        choice = self.choices[i]
        self.opponents[i] = choice.draw(self.rng) if isinstance(choice, League) else choice

    def _opponent_actions(self, obs: Array, mask: Array, todo: Array) -> Array:
        """The actions of the opponents in the ``todo`` games (others wait: -1)."""
        actions = np.full(self.num_envs, -1, dtype=np.int64)
        by_member: dict[int, list[int]] = {}
        for index in np.flatnonzero(todo).tolist():
            by_member.setdefault(id(self.opponents[index]), []).append(index)
        for rows in by_member.values():
            member = self.opponents[rows[0]]
            if member == RANDOM:
                for i in rows:
                    actions[i] = self.rng.choice(np.flatnonzero(mask[i]))
            elif getattr(member, "batched", False):
                assert callable(member)
                actions[rows] = np.asarray(member(obs[rows], mask[rows])).reshape(-1)
            else:
                assert callable(member)
                for i in rows:
                    actions[i] = int(member(obs[i].reshape(self.tensor_shape), mask[i]))
        return actions

    def _settle(
        self, rewards: Array, terminated: Array, truncated: Array, infos: dict[str, Any]
    ) -> None:
        """Play the opponents until every game waits for the learner; record the games that end
        on the way (the learner's reward, the final observation) and deal them anew."""
        games = self.games
        obs, mask, to_move = self._last
        for _ in range(self.game.episode_limit + 1):
            todo = to_move != self.seats
            if not todo.any():
                return
            actions = self._opponent_actions(obs.reshape(self.num_envs, -1), mask, todo)
            seats_before = self.seats.copy()
            games.batch.view_from(self.seats)
            obs, mask, to_move, seat_rewards, ended = games.step(actions)
            cut = games.truncated
            self._record(ended, cut, seat_rewards, seats_before, rewards, terminated,
                         truncated, infos)  # fmt: skip
            self._last = (obs, mask, to_move)
        raise RuntimeError("the opponents did not hand the game back within its limit")

    def _record(
        self, ended: Array, cut: Array, seat_rewards: Array, seats: Array, rewards: Array,
        terminated: Array, truncated: Array, infos: dict[str, Any],
    ) -> None:  # fmt: skip
        """The games the last batch step ended or cut: the learner's reward, its view of the
        final position (``view_from``), and a new deal."""
        final = self.games._buffers.final_obs
        for i in np.flatnonzero(ended | cut):
            rewards[i] = seat_rewards[i, seats[i]]
            terminated[i] = bool(ended[i])
            truncated[i] = bool(cut[i])
            infos["final_obs"][i] = final[i].reshape(self.tensor_shape)
            infos["_final_obs"][i] = True
            infos["final_info"]["seat"][i] = seats[i]
            self._deal(int(i))

    # ----- the VectorEnv interface -------------------------------------------------------------
    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Array, dict[str, Any]]:
        if isinstance(seed, list):
            seed = seed[0] if seed else None
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        obs, mask, to_move = self.games.reset(int(self.rng.integers(2**63)))
        for i in range(self.num_envs):
            self._deal(i)
        self._last = (obs, mask, to_move)
        scratch = self._blank_infos()
        self._settle(*self._blank_results(), scratch)
        return self._observe(), {"action_mask": self._mask, "seat": self.seats.copy()}

    def step(self, actions: Array) -> tuple[Array, Array, Array, Array, dict[str, Any]]:
        rewards, terminated, truncated = self._blank_results()
        infos = self._blank_infos()
        chosen = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        seats_before = self.seats.copy()
        self.games.batch.view_from(self.seats)
        obs, mask, to_move, seat_rewards, ended = self.games.step(chosen)
        if not self.warned_illegal and self.games.illegal.any():
            self.warned_illegal = True
            warn_illegal(self.game)
        cut = self.games.truncated
        self._record(ended, cut, seat_rewards, seats_before, rewards, terminated, truncated,
                     infos)  # fmt: skip
        self._last = (obs, mask, to_move)
        self._settle(rewards, terminated, truncated, infos)
        done = terminated | truncated
        infos["_final_info"] = done
        infos["final_info"]["_seat"] = done
        if not done.any():
            for key in ("final_obs", "_final_obs", "final_info", "_final_info"):
                del infos[key]
        infos.update({"action_mask": self._mask, "seat": self.seats.copy()})
        return self._observe(), rewards, terminated, truncated, infos

    def _observe(self) -> Array:
        obs, mask, _ = self._last
        self._obs[:] = obs.reshape(self._obs.shape)
        self._mask[:] = mask
        return self._obs

    def _blank_results(self) -> tuple[Array, Array, Array]:
        n = self.num_envs
        return np.zeros(n, np.float32), np.zeros(n, np.bool_), np.zeros(n, np.bool_)

    def _blank_infos(self) -> dict[str, Any]:
        n = self.num_envs
        return {
            "final_obs": np.zeros((n, *self.tensor_shape), np.float32),
            "_final_obs": np.zeros(n, np.bool_),
            "final_info": {"seat": np.zeros(n, np.int32)},
        }
