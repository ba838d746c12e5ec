# cython: language_level=3
"""A small policy/value network evaluated in C (``nets.pyx`` says how), for the PUCT search."""

from boardplay.core.kernel cimport Kernel


cdef enum:
    MAX_HEADS = 8  # values a network may write (one per seat)


cdef class Network:
    cdef readonly int inputs
    """Floats the network reads (the kernel's observation, or its compact bytes as floats)."""
    cdef readonly int actions
    """Policy logits it writes (the game's ``action_space``)."""
    cdef readonly int seats
    """Values it writes, one per seat, the viewer's first (tanh, in [-1, 1])."""
    cdef readonly bint compact
    """Whether the input is the kernel's ``compact_into`` bytes (else ``observe_into``)."""
    cdef int depth
    cdef int widest
    cdef int* widths
    cdef float** weights
    cdef float** biases
    cdef float* policy_w
    cdef float* policy_b
    cdef float* policy_t  # policy_w transposed (actions × hidden): one row per legal logit
    cdef float* value_w
    cdef float* value_b
    cdef float* value_t  # value_w transposed (seats × hidden)
    cdef int seat_index[MAX_HEADS]  # 0, 1, ... seats - 1: the value head's rows
    cdef float* input
    cdef float* left
    cdef float* right
    cdef unsigned char* raw
    cdef float* nonzero  # a layer's gathered input: its non-zero entries and their indices
    cdef int* index
    cdef int gathered  # entries in nonzero and index after ``trunk``: the top layer's
    cdef const float* trunk(self, int count) noexcept
    cdef int gather_row(self, const float* x) noexcept
    cdef int gather_kernel(self, Kernel k, int player) noexcept
    cdef void head_value(self, float* values) noexcept
    cdef void forward(self, int count, float* logits, float* values) noexcept
    cdef void evaluate(self, Kernel k, int player, float* logits, float* values) noexcept
    cdef void evaluate_legal(self, Kernel k, int player, const int* actions, int count,
                             float* logits, float* values) noexcept
    cdef void evaluate_value(self, Kernel k, int player, float* values) noexcept
