"""The games ``boardplay train`` learns from: many games of one game, the learner in a seat drawn
anew for every game, every other seat played by an opponent drawn from a league per game.

It is a Stable-Baselines3 ``VecEnv`` stepped in Python over the compiled kernels (one
``Kernel.step`` per action, the observation written in place by ``Kernel.observe``). The rules
cost microseconds per action, far below the network's update, so a plain loop is enough here;
the opponents of all the games waiting for one are asked in one batched call. Every game is cut
at ``Game.episode_limit`` actions (``truncated``, a draw), as in the research adapters.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces

from boardplay.ai.league import League
from boardplay.ai.maskedvec import MaskedVecEnv
from boardplay.ai.policy import PolicyNet
from boardplay.core.game import CHANCE, TERMINAL, Game
from boardplay.core.kernel import Kernel

Array = np.ndarray[Any, Any]

RANDOM = "random"
"""The league member that plays uniformly at random among the legal actions."""


def new_league(keep: int = 5) -> League:
    """The self-play league: ``random`` always, and up to ``keep`` snapshots of the learner
    (NumPy ``PolicyNet`` s, which play batched)."""
    return League([RANDOM], keep=keep)


class LearnerGames(MaskedVecEnv):
    """``num_envs`` games; the learner decides in its seat, the league everywhere else."""

    def __init__(self, game: Game, num_envs: int, seed: int, league: League | None) -> None:
        start = game.new_initial_state().kernel
        if start is None:
            raise ValueError(f"{game.name} has no compiled kernel to train on")
        self.game = game
        self.start: Kernel = start
        self.league = league or new_league()
        for member in self.league.members:
            if member != RANDOM and not isinstance(member, PolicyNet):
                raise ValueError("the training league holds 'random' and PolicyNet snapshots")
        self.limit = game.episode_limit
        self.rng = random.Random(seed)
        self.draws = np.random.default_rng(seed)
        self.size = int(np.prod(game.observation_shape()))
        self.actions = game.num_distinct_actions
        observation = spaces.Box(-np.inf, np.inf, (self.size,), np.float32)
        super().__init__(num_envs, observation, spaces.Discrete(self.actions))
        self.kernels: list[Kernel] = [start.clone() for _ in range(num_envs)]
        self.seats = [0] * num_envs
        self.opponents: list[str | PolicyNet] = [RANDOM] * num_envs
        self.lengths = [0] * num_envs
        self.obs = np.zeros((num_envs, self.size), np.float32)
        self.masks = np.zeros((num_envs, self.actions), np.bool_)
        self._actions: Array = np.zeros(num_envs, np.int64)
        self.finished = 0
        self.learner_wins = 0.0

    # ----- one game ------------------------------------------------------------------------
    def _new_game(self, i: int) -> None:
        self.kernels[i].assign(self.start)
        self.seats[i] = self.rng.randrange(self.game.num_players)
        drawn = self.league.draw(self.draws)
        assert drawn == RANDOM or isinstance(drawn, PolicyNet)
        self.opponents[i] = drawn
        self.lengths[i] = 0

    def _act(self, i: int, action: int) -> None:
        self.kernels[i].step(action)
        self.lengths[i] += 1

    def _settle(self, pending: Sequence[int]) -> dict[int, float]:
        """Play chance and the opponents in the ``pending`` games until each is at a learner
        decision, over, or cut; the rewards of the games that ended (learner's utility)."""
        ended: dict[int, float] = {}
        waiting = list(pending)
        while waiting:
            asked: list[int] = []
            for i in waiting:
                kernel = self.kernels[i]
                player = kernel.current_player()
                while player == CHANCE and self.lengths[i] < self.limit:
                    outcomes = kernel.chance_outcomes()
                    weights = [p for _, p in outcomes]
                    self._act(i, self.rng.choices(outcomes, weights)[0][0])
                    player = kernel.current_player()
                if player == TERMINAL or self.lengths[i] >= self.limit:
                    ended[i] = self._reward(i, player == TERMINAL)
                elif player != self.seats[i]:
                    asked.append(i)
            for i in asked:
                opponent = self.opponents[i]
                if opponent == RANDOM:
                    legal = self.kernels[i].legal_actions()
                    self._act(i, legal[self.rng.randrange(len(legal))])
            snapshots = [i for i in asked if self.opponents[i] != RANDOM]
            for net in {id(self.opponents[i]): self.opponents[i] for i in snapshots}.values():
                mine = [i for i in snapshots if self.opponents[i] is net]
                assert isinstance(net, PolicyNet)
                obs = np.zeros((len(mine), self.size), np.float32)
                mask = np.zeros((len(mine), self.actions), np.int8)
                for row, i in enumerate(mine):
                    kernel = self.kernels[i]
                    kernel.observe(kernel.current_player(), obs[row])
                    mask[row, kernel.legal_actions()] = 1
                for i, action in zip(mine, net(obs, mask), strict=True):
                    self._act(i, int(action))
            waiting = asked
        return ended

    def _reward(self, i: int, terminal: bool) -> float:
        """The learner's zero-sum utility (0 for a cut game: a draw)."""
        self.finished += 1
        if not terminal:
            self.learner_wins += 1.0 / self.game.num_players
            return 0.0
        share = self.kernels[i].returns()[self.seats[i]]
        self.learner_wins += share
        n = self.game.num_players
        return (n * share - 1.0) / (n - 1)

    def _observe(self, i: int) -> None:
        kernel = self.kernels[i]
        kernel.observe(self.seats[i], self.obs[i])
        self.masks[i].fill(False)
        self.masks[i, kernel.legal_actions()] = True

    # ----- the VecEnv interface -------------------------------------------------------------
    def reset(self) -> Array:
        everyone = range(self.num_envs)
        for i in everyone:
            self._new_game(i)
        restart = list(self._settle(everyone))
        while restart:  # a game over before the learner's first decision: deal again
            for i in restart:
                self._new_game(i)
            restart = list(self._settle(restart))
        for i in everyone:
            self._observe(i)
        return self.obs.copy()

    def step_async(self, actions: Array) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> tuple[Array, Array, Array, list[dict[str, Any]]]:
        rewards = np.zeros(self.num_envs, np.float32)
        dones = np.zeros(self.num_envs, np.bool_)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i, action in enumerate(self._actions):
            if not self.masks[i, action]:
                raise ValueError(f"game {i}: action {int(action)} is not legal (masks hold)")
            self._act(i, int(action))
        ended = self._settle(range(self.num_envs))
        restart = list(ended)
        for i, reward in ended.items():
            rewards[i] = reward
            dones[i] = True
            self._observe_final(i, infos[i])
        while restart:
            for i in restart:
                self._new_game(i)
            restart = list(self._settle(restart))
        for i in range(self.num_envs):
            self._observe(i)
        return self.obs.copy(), rewards, dones, infos

    def _observe_final(self, i: int, info: dict[str, Any]) -> None:
        final = np.zeros(self.size, np.float32)
        self.kernels[i].observe(self.seats[i], final)
        info["terminal_observation"] = final
        if self.kernels[i].current_player() != TERMINAL:
            info["TimeLimit.truncated"] = True
