# cython: language_level=3
"""The PUCT search's node and fields (``puct.pyx`` has the search and says how it works)."""

from libc.stdint cimport uint64_t

from boardplay.ai.nets cimport Network
from boardplay.core.kernel cimport Kernel, Rng

cdef enum:
    MAX_SEATS = 4
    TIME_EVERY = 8  # simulations between two looks at the clock
    UNSEEN = -99  # the player of a node no simulation has reached yet
    MAX_SPACE = 32767  # actions and chance outcomes fit a node's 16-bit fields


ctypedef struct Node:
    double value        # summed return of the seat that chose this node
    float prior         # the parent's policy for this action (a chance outcome: its probability)
    float guess         # the network's value of this node for its seat to act (first-play urgency)
    int first_child     # start of the children's block; -1 until expanded
    int visits
    short action        # the action or chance outcome that leads here (-1 at a root)
    short count         # children in the block
    signed char player  # the seat to act here, CHANCE, TERMINAL, or UNSEEN


cdef class Puct:
    cdef Kernel root_kernel
    cdef Kernel work
    cdef Kernel probe
    cdef Network network
    cdef Node* nodes
    cdef int node_count
    cdef int node_capacity
    cdef int max_nodes
    cdef int* path
    cdef int* owners
    cdef uint64_t* path_keys
    cdef int path_capacity
    cdef uint64_t* history
    cdef int history_count
    cdef int* outcomes
    cdef double* probabilities
    cdef float* logits
    cdef float values[MAX_SEATS]
    cdef int players
    cdef int space
    cdef Rng rng
    cdef public double c
    cdef public double fpu
    cdef public bint decisive
    cdef public bint repetition
    cdef public double contempt
    cdef public int seat
    cdef readonly int root
    cdef void check(self, int node) except *
    cdef bint reserve(self, int count) except -1
    cdef int expand(self, int node, double* reward) except -1
    cdef int select(self, int node) noexcept
    cdef int draw(self, int node) noexcept
    cdef int push(self, int depth, int node, int owner) except -1
    cdef void settle(self, double* reward) noexcept
    cdef int simulate(self) except -1
    cdef void compact(self, int top) except *
