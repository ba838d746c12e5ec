# cython: language_level=3
"""The per-game evaluations of ``boardplay.ai.evaluation``, computed in C from the kernel's
feature vector, for the compiled search (``boardplay.ai.search``): the shape every game's shares,
and one subclass per game."""

from boardplay.core.kernel cimport Kernel


cdef class LeafEvaluation:
    cdef readonly int players
    cdef double weights[32]
    cdef double features[64]
    cdef double strength[4]
    cdef void evaluate(self, Kernel k, double* out) noexcept
    cdef double strengths(self) noexcept


cdef class PotlatchEvaluation(LeafEvaluation):
    pass


cdef class ProteusEvaluation(LeafEvaluation):
    pass


cdef class PasstallyEvaluation(LeafEvaluation):
    pass


cdef class MontanaEvaluation(LeafEvaluation):
    pass
