# cython: language_level=3
"""The per-game evaluations of ``boardplay.ai.evaluation``, computed in C from the kernel's
feature vector, for the compiled search (``boardplay.ai.search``)."""

from boardplay.core.kernel cimport Kernel


cdef class LeafEvaluation:
    cdef readonly int kind
    cdef readonly int players
    cdef double weights[32]
    cdef double features[64]
    cdef double strength[4]
    cdef void evaluate(self, Kernel k, double* out) noexcept
    cdef double _potlatch(self) noexcept
    cdef double _proteus(self) noexcept
    cdef double _passtally(self) noexcept
    cdef double _montana(self) noexcept
