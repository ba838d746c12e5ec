# cython: language_level=3
"""A game's evaluation computed in C from its kernel's feature vector, for the compiled search
(``boardplay.ai.search``): the shape every game's shares. Each game's subclass is in a module of
its own (the shipped games' are ``ai/evaluation/<game>_leaf.pyx``), named by its heuristics'
``compiled`` (``boardplay.core.heuristics``)."""

from boardplay.core.kernel cimport Kernel


cdef class LeafEvaluation:
    cdef readonly int players
    cdef double weights[32]
    cdef double features[64]
    cdef double strength[4]
    cdef void evaluate(self, Kernel k, double* out) noexcept
    cdef double strengths(self) noexcept
