# cython: language_level=3
"""A small policy/value network evaluated in C (``nets.pyx`` says how), for the PUCT search."""

from boardplay.core.kernel cimport Kernel


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
    cdef float* value_w
    cdef float* value_b
    cdef float* input
    cdef float* left
    cdef float* right
    cdef unsigned char* raw
    cdef void forward(self, const float* x, float* logits, float* values) noexcept
    cdef void evaluate(self, Kernel k, int player, float* logits, float* values) noexcept
