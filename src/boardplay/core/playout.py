"""Drivers that play a state forward: the seeded random playout used by ``sim``, ``bench``,
property tests and MCTS rollouts. Chance nodes are sampled with the same generator, so a seed
fixes the whole game."""

from __future__ import annotations

import random
from collections.abc import Callable

from boardplay.core.game import State, sample_chance

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
