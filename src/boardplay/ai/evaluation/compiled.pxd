# cython: language_level=3
"""The per-game evaluations of ``boardplay.ai.evaluation``, computed in C from the kernel's
feature vector, for the compiled search (``boardplay.ai.search``): the shape every game's shares
(each game's subclass is in its own module, ``<game>_leaf.pyx``)."""

from boardplay.core.kernel cimport Kernel


cdef class LeafEvaluation:
    cdef readonly int players
    cdef double weights[32]
    cdef double features[64]
    cdef double strength[4]
    cdef void evaluate(self, Kernel k, double* out) noexcept
    cdef double strengths(self) noexcept
