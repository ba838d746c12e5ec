"""Proteus evaluation (weighs the kernel's typed features, never the position JSON).

The active yellow tile is the goal: 3-IN-LINE (one of the 8 lines), COLOR (the three tiles of
one colour) or SHAPE (the three tiles of one shape). For each seat and each goal the evaluation
finds the target triple of cells the seat is closest to: its pieces already on the triple, minus
half a point per opponent piece sitting there (it has to be moved or traded away). The active goal
counts fully; the other two goals count 0.3, because a single placement or move can flip the
goal. The side to move gets a small tempo bonus: it is the one that can complete a triple first.

The kernel computes those closeness numbers in C (``state.kernel.features()``, laid out as
``Feature`` in ``games/proteus/layout.pxd``); this module only weighs them, reading each by its
name (``FEATURE_NAMES``, resolved to indices once, at import).
"""

from __future__ import annotations

from collections.abc import Sequence

from boardplay.core.game import State
from boardplay.core.heuristics import Heuristics, StrengthEvaluation
from boardplay.games.proteus.layout import FEATURE_NAMES
from boardplay.games.proteus.state import ProteusState

TEMPERATURE = 0.5
OTHER_GOAL_WEIGHT = 0.3
TEMPO = 0.3

GOALS = ("line", "color", "shape")
"""The goals in the order of the active goal's feature value (0 3-IN-LINE, 1 COLOR, 2 SHAPE)."""
CLOSENESS = tuple(
    tuple(FEATURE_NAMES.index(f"{seat}_{goal}") for goal in GOALS) for seat in ("black", "white")
)
"""``CLOSENESS[seat][goal]``: the feature index of the seat's closeness to the goal."""
ACTIVE_GOAL = FEATURE_NAMES.index("active_goal")
"""The active goal's feature (an index of ``GOALS``, -1 for none)."""
TO_MOVE = FEATURE_NAMES.index("to_move")


def strengths(features: Sequence[float]) -> list[float]:
    """Per seat: the weighted closeness to the three goals plus the tempo bonus."""
    out: list[float] = []
    for seat in (0, 1):
        value = 0.0
        for goal, index in enumerate(CLOSENESS[seat]):
            weight = 1.0 if goal == features[ACTIVE_GOAL] else OTHER_GOAL_WEIGHT
            value += weight * features[index]
        if features[TO_MOVE] == seat:
            value += TEMPO
        out.append(value)
    return out


evaluate = StrengthEvaluation(strengths, TEMPERATURE, "Proteus")
"""The result at the end, otherwise the softmax of the seats' strengths."""


def in_placement(state: State) -> bool:
    """The opening: 15 placements that decide nothing by themselves (``rules=seed`` checks no
    goal before the first move), yet fix who can win on the first moves after them."""
    return isinstance(state, ProteusState) and state.in_placement


HEURISTICS = Heuristics(
    evaluate,
    None,
    "closeness to the active goal's best target triple (own pieces on it minus half per "
    "opponent piece) + 0.3 × the same for the inactive goals + tempo; softmax, temperature 0.5",
    cutoff=0,
    opening=in_placement,
    compiled="boardplay.ai.evaluation.proteus_leaf:ProteusEvaluation",
)
