# cython: language_level=3
"""The PUCT search's node and fields (``puct.pyx`` has the search and says how it works)."""

from boardplay.core.leaf cimport LeafEvaluation
from boardplay.ai.nets cimport Network
from boardplay.core.kernel cimport Kernel
from boardplay.ai.tree cimport MAX_SEATS, Tree

cdef enum:
    TIME_EVERY = 8  # simulations between two looks at the clock
    UNSEEN = -99  # the player of a node no simulation has reached yet


ctypedef struct Node:
    double value        # summed return of the seat that chose this node
    float prior         # the parent's policy for this action (a chance outcome: its probability)
    float guess         # the network's value of this node for its seat to act (first-play urgency)
    int first_child     # start of the children's block; -1 until expanded
    int visits
    short action        # the action or chance outcome that leads here (-1 at a root)
    short count         # children in the block
    signed char player  # the seat to act here, CHANCE, TERMINAL, or UNSEEN


cdef class Puct(Tree):
    cdef Network network
    cdef LeafEvaluation evaluation
    cdef Kernel scout
    cdef int* scratch
    cdef Node* nodes
    cdef int node_count
    cdef int node_capacity
    cdef int max_nodes
    cdef float* logits
    cdef float values[MAX_SEATS]
    cdef public double c
    cdef public double fpu
    cdef public double mix
    cdef public bint finish_turn
    cdef public bint uniform
    cdef readonly int root
    cdef void check(self, int node) except *
    cdef bint reserve(self, int count) except -1
    cdef int expand(self, int node, int last, double* reward) except -1
    cdef void judge(self, int last, double* reward) noexcept
    cdef int select(self, int node) noexcept
    cdef int draw(self, int node) noexcept
    cdef void settle(self, int last, double* reward) noexcept
    cdef int simulate(self) except -1
    cdef void compact(self, int top) except *
