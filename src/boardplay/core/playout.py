"""Drivers that play a state forward: the seeded random playout through the contract (used by
``sim``, property tests and the AI), and ``random_playouts``, whole games inside the compiled
kernel for research and ``bench``. Chance nodes are sampled with the same generator, so a seed
fixes the whole game."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from boardplay.core.game import Game, State, sample_chance
from boardplay.core.kernel import random_playouts as kernel_playouts

Observer = Callable[[State, int], None]


def random_playout(
    state: State,
    rng: random.Random,
    max_actions: int | None = None,
    observe: Observer | None = None,
) -> int:
    """Play uniformly random actions (chance sampled by its probabilities) until the game ends
    or ``max_actions`` have been applied. ``observe(state, action)`` is called after each action.
    Returns the number of actions applied."""
    count = 0
    while not state.is_terminal():
        if max_actions is not None and count >= max_actions:
            break
        if state.is_chance_node():
            action = sample_chance(state, rng)
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
        state.apply_action(action)
        count += 1
        if observe is not None:
            observe(state, action)
    return count


@dataclass(frozen=True)
class Speed:
    """A throughput figure: ``games`` whole games and ``actions`` actions in ``seconds``."""

    games: int
    actions: int
    """Actions applied, chance outcomes included."""
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds > 0 else 0.0


@dataclass(frozen=True)
class PlayoutStats(Speed):
    """What ``random_playouts`` measured: whole games played inside the compiled kernel."""

    wins: tuple[int, ...]
    """Games won outright, per seat."""
    draws: int
    """Finished games that no seat won outright (draws and shared wins)."""
    unfinished: int
    """Games stopped by ``max_actions`` before their end."""


def random_playouts(game: Game, games: int, seed: int = 0, max_actions: int = 0) -> PlayoutStats:
    """Play ``games`` uniformly random games of ``game`` from its initial state inside compiled
    code (chance sampled by its probabilities; a seed fixes every game). The research fast
    path: no Python object is touched per action. ``max_actions`` > 0 stops a game early."""
    if games < 0 or max_actions < 0:
        raise ValueError("games and max_actions must not be negative")
    start = game.new_initial_state()
    if start.kernel is None:
        raise ValueError(f"{game.name} has no compiled kernel")
    began = time.perf_counter()
    actions, wins, draws, unfinished = kernel_playouts(
        start.kernel, games, seed & 0xFFFFFFFFFFFFFFFF, max_actions
    )
    seconds = time.perf_counter() - began
    return PlayoutStats(games, actions, seconds, tuple(wins), draws, unfinished)
