# cython: language_level=3
"""C declarations of the Proteus kernel (``kernel.pyx`` holds the rules). Declared here, as every
game's kernel is, so other compiled code (its field table, ``fields.pyx``) can ``cimport`` the
kernel and read its fields directly."""

cimport cython

from boardplay.core.kernel cimport Kernel
from boardplay.games.proteus.board cimport Board
from boardplay.games.proteus.repetition cimport KeySet


@cython.final
cdef class ProteusKernel(Kernel):
    cdef Board b
    cdef readonly bint kadon
    cdef readonly bint forbid
    cdef readonly int max_turns
    """The turn cap, 0 for none."""
    cdef KeySet seen
    """Movement-phase positions met so far (``repetition="forbid"`` only)."""

    cdef void _clear(self) noexcept
    cdef bint goal_met(self, int player) noexcept
    cdef bint any_missing(self) noexcept
    cdef int placement_into(self, int* out) noexcept
    cdef int kadon_budget(self, int* counts, int* missing) noexcept
    cdef int forced(self, int* out, int count) noexcept
    cdef int without_repeats(self, int* out, int count) noexcept
    cdef void check_stuck(self) noexcept
