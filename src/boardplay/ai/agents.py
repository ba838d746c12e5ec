"""The ``Agent`` protocol (DESIGN.md §4) and the uniform-random agent.

An agent is asked for an action only at decision nodes of its own seat; chance nodes are
resolved by the driver. Agents are deterministic for a given seed."""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from boardplay.core.game import State


@runtime_checkable
class Agent(Protocol):
    """Chooses actions. ``inform`` tells the agent every action applied (its own, the other
    seats' and chance outcomes) so a search can reuse its tree; ``reset`` starts a new game."""

    name: str

    def step(self, state: State) -> int: ...

    def reset(self) -> None: ...

    def inform(self, action: int) -> None: ...


class RandomAgent:
    """Picks uniformly among the legal actions with its own seeded generator."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.name = "random" if seed is None else f"random(seed={seed})"
        self._rng = random.Random(seed)

    def step(self, state: State) -> int:
        legal = state.legal_actions()
        if not legal:
            raise ValueError("the game is over: there is no action to choose")
        return legal[self._rng.randrange(len(legal))]

    def reset(self) -> None:
        self._rng = random.Random(self.seed)

    def inform(self, action: int) -> None:
        return None
