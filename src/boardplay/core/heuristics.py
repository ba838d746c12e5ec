"""What a game tells the AI about itself beyond its rules: its ``Heuristics`` (a position
evaluation, a rollout policy and the search settings measured for it), named by the game's
``Game.heuristics`` reference (``"module:HEURISTICS"``).

An evaluation maps a state to a per-seat vector of estimated win chances (non-negative, summing
to about 1, like ``returns()`` at the end of a game), so the greedy agent can compare positions
and MCTS can stop a rollout early and back up the estimate instead of a result. A rollout policy
picks an action during MCTS playouts; a cheap policy that is better than uniform makes each
simulation more informative. A game's evaluation weighs the typed feature vector its kernel
writes (``state.kernel.features()``, laid out in the game's ``layout.pxd``), reading each
feature by its name (the layout's ``FEATURE_NAMES``), and never parses the position JSON; its
counterpart in C for the compiled search is a ``boardplay.core.leaf.LeafEvaluation``.

These live in ``core``, below the games and the AI (docs/design.md §1), so that a game can keep
its evaluation in its own folder importing only ``core``; the AI reads them
(``boardplay.ai.evaluation.heuristics_for``) and keeps the shipped games' evaluations and the
generic fallback.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from boardplay.core.game import State

Evaluation = Callable[[State], list[float]]
"""Per-seat estimated win chances of a position."""
RolloutPolicy = Callable[[State, list[int], random.Random], int]
"""Picks one of ``legal`` (the state's legal actions, non-empty) during a rollout."""


@dataclass(frozen=True)
class Heuristics:
    """What the AI knows about one game beyond its rules."""

    evaluate: Evaluation
    rollout: RolloutPolicy | None
    description: str
    cutoff: int | None = None
    """MCTS's default rollout length before the evaluation takes over (None: play to the end),
    chosen per game from measurements (docs/ai.md)."""
    table_cutoffs: tuple[tuple[int, int | None], ...] = ()
    """``(players, cutoff)`` pairs: the default cutoff of a table of that many seats where it
    differs from ``cutoff`` (``default_cutoff``; Montana with three and four players, Passtally
    with three)."""
    table_spread: tuple[int, ...] = ()
    """The seat counts whose tables scale MCTS's exploration term by the spread of each node's
    returns by default (``spread``, ``default_spread``; Montana with three and four players)."""
    exploration: float = 1.0
    """MCTS's default UCT exploration constant for this game (measured, docs/ai.md)."""
    decisive: bool = False
    """Whether MCTS playouts play a move that wins at once when there is one (measured per
    game, docs/ai.md): it costs one trial move per legal action at every playout step."""
    repetition: bool = False
    """Whether MCTS scores a line that returns to a position already met as a draw (measured
    per game, docs/ai.md; needs a kernel with position keys, ``boardplay.ai.repetition``)."""
    kernel_playouts: bool = False
    """Whether the game's compiled kernel carries a playout policy (``Kernel.playout_action``),
    which the compiled search plays instead of uniform actions under ``rollout=policy``
    (measured per game, docs/ai.md; Passtally)."""
    weighted: Callable[[str], Evaluation] | None = None
    """The evaluation with a named weight set (``weightsets``), for games whose weights are
    data; ``evaluate`` is the one with the game's default set."""
    compiled: str | None = None
    """``"module:Class"`` of the evaluation in C the compiled search backs up (a
    ``core.leaf.LeafEvaluation`` taking the player count and a weight set name); None: MCTS runs
    the Python reference search, 20-60 times slower (docs/ai.md), so every game meant to be
    played against the AI names one (``tests/core/test_registration.py`` checks the four)."""
    opening: Callable[[State], bool] | None = None
    """Whether a position is in the game's opening: a setup phase that always runs to its end
    in a bounded number of turns and decides nothing by itself (Proteus's placement). MCTS's
    ``opening_cutoff`` replaces the cutoff for searches rooted there; None: no such phase.
    (The cutoff of a search decides what its leaves see; from the middle of the opening, an
    evaluation cut-off guesses at a phase that has not begun.)"""


def softmax(values: list[float], temperature: float) -> list[float]:
    """Turn per-seat strength numbers into win chances; ``temperature`` is the difference in
    strength that makes one seat e times as likely to win as another."""
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


@dataclass(frozen=True)
class StrengthEvaluation:
    """The evaluation of a game whose strengths are a fixed function of its kernel's features:
    the result at the end, otherwise the softmax of ``strengths(state.kernel.features())`` at
    ``temperature``. A value, not a closure, so that it pickles with the agents that hold it."""

    strengths: Callable[[Sequence[float]], list[float]]
    """Per-seat strength from the kernel's feature vector."""
    temperature: float
    title: str
    """The game's title, for the error on a state without a compiled kernel."""

    def __call__(self, state: State) -> list[float]:
        if state.is_terminal():
            return state.returns()
        if state.kernel is None:
            raise TypeError(f"the {self.title} evaluation reads the compiled kernel's features")
        return softmax(self.strengths(state.kernel.features()), self.temperature)
