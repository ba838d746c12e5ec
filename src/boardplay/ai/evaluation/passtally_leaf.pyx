# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Passtally's evaluation in C (``passtally.py``'s, with a named weight set), a ``LeafEvaluation``
(``core/leaf.pyx``) that ``passtally.HEURISTICS`` names for the compiled search."""

from libc.math cimport sqrt

from boardplay.core.leaf cimport LeafEvaluation
from boardplay.games.passtally.layout cimport (
    LINE_VP_SEAT0, PLAYERS, TILES_PILE_A, TILES_PILE_B, TILES_PILE_C, TURN_SEAT, VP_SEAT0,
)

from boardplay.ai.evaluation import passtally, weightsets


cdef class PasstallyEvaluation(LeafEvaluation):
    """``ai/evaluation/passtally.py`` in C, with the named weight set (default: the module's)."""

    def __init__(self, int players, str weights=None):
        chosen = weightsets.load("passtally", weights or passtally.DEFAULT_WEIGHTS)
        LeafEvaluation.__init__(self, players, [
            chosen.shaped("temperature_per_sqrt_turn"), chosen.shaped("line_turns"),
            chosen.shaped("temperature"), *chosen.vector(passtally.TERMS),
        ])

    cdef double strengths(self) noexcept:
        cdef double* f = self.features
        cdef double* w = self.weights
        cdef int players = <int>f[<int>PLAYERS], seat, line_vp
        cdef int turn_seat = <int>f[<int>TURN_SEAT]
        cdef int left = <int>f[<int>TILES_PILE_A]
        left = min(left, <int>f[<int>TILES_PILE_B])
        left = min(left, <int>f[<int>TILES_PILE_C])
        cdef double turns = max(1.0, 2.0 * left / players)
        cdef double pays = min(w[1], turns)
        cdef double value
        for seat in range(players):
            line_vp = <int>f[LINE_VP_SEAT0 + seat]
            # The hand set's sum first, in its order; terms weighing 0 then add exactly 0.
            value = w[3] * f[VP_SEAT0 + seat] + w[4] * (pays * line_vp)
            value += w[5] * line_vp + w[6] * (line_vp * turns)
            if seat == turn_seat:
                value += w[7] * line_vp  # scored when the turn under way ends
            self.strength[seat] = value
        return w[2] + w[0] * sqrt(turns)
