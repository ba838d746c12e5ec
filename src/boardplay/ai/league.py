"""A league of opponents drawn one per episode (``boardplay.adapters.opponents`` for the
single-learner envs, ``boardplay.ai.trainenv`` for ``boardplay train``): members are agent spec
strings or policy callables ``policy(observation, action_mask) -> action``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from boardplay.core.errors import OptionError

Policy = Callable[[Any, Any], Any]
Member = str | Policy


class League:
    """Opponents drawn one per episode: ``members`` (specs or policies), ``weights`` (default
    uniform), and at most ``keep`` snapshots added with ``add`` (the oldest go first; the
    members given at the start stay)."""

    def __init__(
        self,
        members: Sequence[Member],
        weights: Sequence[float] | None = None,
        keep: int | None = None,
    ) -> None:
        if not members:
            raise OptionError("a League needs at least one member")
        self.members: list[Member] = list(members)
        self.fixed = len(self.members)
        self.weights: list[float] | None = list(weights) if weights is not None else None
        if self.weights is not None and (
            len(self.weights) != len(self.members) or min(self.weights) < 0 or not sum(self.weights)
        ):
            raise OptionError("League weights: one non-negative weight per member, not all 0")
        self.keep = keep

    def add(self, member: Member, weight: float = 1.0) -> None:
        self.members.append(member)
        if self.weights is not None:
            self.weights.append(weight)
        if self.keep is not None and len(self.members) - self.fixed > self.keep:
            del self.members[self.fixed]
            if self.weights is not None:
                del self.weights[self.fixed]

    def draw(self, rng: np.random.Generator) -> Member:
        if self.weights is None:
            return self.members[int(rng.integers(len(self.members)))]
        p = np.asarray(self.weights, dtype=float)
        return self.members[int(rng.choice(len(self.members), p=p / p.sum()))]
