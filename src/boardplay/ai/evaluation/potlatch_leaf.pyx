# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Potlatch Klone's evaluation in C (``potlatch.py``'s, with its weights), a ``LeafEvaluation``
(``core/leaf.pyx``) that ``potlatch.HEURISTICS`` names for the compiled search."""

from boardplay.core.leaf cimport LeafEvaluation
from boardplay.games.potlatch.layout cimport (
    BLUE_STACKS, RED_BREAKS, RED_CROWNS, RED_STACKS, TO_MOVE,
)

from boardplay.ai.evaluation import potlatch
from boardplay.core.leaf import hand_only


cdef class PotlatchEvaluation(LeafEvaluation):
    """``ai/evaluation/potlatch.py`` in C."""

    def __init__(self, int players, str weights=None):
        hand_only("potlatch", weights)
        LeafEvaluation.__init__(self, players, [
            potlatch.TEMPERATURE, potlatch.CROWN, potlatch.MAX_CROWNS, potlatch.BREAK,
            potlatch.TEMPO, potlatch.THREE_STACKS,
        ])

    cdef double strengths(self) noexcept:
        cdef double* f = self.features
        cdef double* w = self.weights
        cdef int seat, at
        cdef double own
        for seat in range(2):
            at = (BLUE_STACKS - RED_STACKS) * seat
            own = f[RED_STACKS + at]
            self.strength[seat] = (own + w[1] * min(f[RED_CROWNS + at], w[2])
                                   + w[3] * min(f[RED_BREAKS + at], 1.0))
            if f[<int>TO_MOVE] == seat:
                self.strength[seat] += w[4]
            elif own >= 3:
                self.strength[seat] += w[5]
        return w[0]
