# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Proteus's evaluation in C (``proteus.py``'s, with its weights), a ``LeafEvaluation``
(``core/leaf.pyx``) that ``proteus.HEURISTICS`` names for the compiled search."""

from boardplay.core.leaf cimport LeafEvaluation
from boardplay.games.proteus.layout cimport (
    ACTIVE_GOAL, BLACK_LINE, TO_MOVE, WHITE_LINE,
)

from boardplay.ai.evaluation import proteus
from boardplay.core.leaf import hand_only


cdef class ProteusEvaluation(LeafEvaluation):
    """``ai/evaluation/proteus.py`` in C."""

    def __init__(self, int players, str weights=None):
        hand_only("proteus", weights)
        LeafEvaluation.__init__(self, players, [
            proteus.TEMPERATURE, proteus.OTHER_GOAL_WEIGHT, proteus.TEMPO,
        ])

    cdef double strengths(self) noexcept:
        cdef double* f = self.features
        cdef double* w = self.weights
        cdef int seat, goal, at
        cdef double value
        for seat in range(2):
            # The seat's closeness to 3-IN-LINE, COLOR and SHAPE, in a row from its LINE.
            at = BLACK_LINE + (WHITE_LINE - BLACK_LINE) * seat
            value = 0.0
            for goal in range(3):
                value += (1.0 if goal == f[<int>ACTIVE_GOAL] else w[1]) * f[at + goal]
            if f[<int>TO_MOVE] == seat:
                value += w[2]
            self.strength[seat] = value
        return w[0]
