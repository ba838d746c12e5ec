# cython: language_level=3
"""The PUCT search's fields and what it keeps per node beside the pool of ``tree.pxd``
(``puct.pyx`` has the search and says how it works)."""

from boardplay.core.leaf cimport LeafEvaluation
from boardplay.ai.nets cimport Network
from boardplay.core.kernel cimport Kernel
from boardplay.ai.tree cimport MAX_SEATS, Tree


ctypedef struct Guide:
    float prior  # the parent's policy for this action (a chance outcome: its probability)
    float guess  # the network's value of this node for its seat to act (first-play urgency)


cdef class Puct(Tree):
    cdef Network network
    cdef LeafEvaluation evaluation
    cdef Kernel scout
    cdef int* scratch
    cdef Guide* guides  # beside the pool of nodes, one per node
    cdef float* logits
    cdef float values[MAX_SEATS]
    cdef public double c
    cdef public double fpu
    cdef public double mix
    cdef public bint finish_turn
    cdef public bint uniform
    cdef void lay(self, int node, int action, float prior) noexcept
    cdef int grown(self, int capacity) except -1
    cdef int moved(self, const int* source, int count) except -1
    cdef int expand(self, int node, int last, double* reward) except -1
    cdef void judge(self, int last, double* reward) noexcept
    cdef int select(self, int node) noexcept
    cdef int draw(self, int node) noexcept
    cdef void settle(self, int last, double* reward) noexcept
    cdef int simulate(self) except -1
