# cython: language_level=3
"""The Passtally kernel's declarations: the class with its fields and C methods (defined in
``kernel.pyx``). The constants and the ``Position`` struct it works on are in ``board.pxd``."""

cimport cython
from boardplay.core.kernel cimport Kernel, Rng
from boardplay.games.passtally.board cimport Position


@cython.final
cdef class PasstallyKernel(Kernel):
    cdef Position p
    cdef int n
    cdef bint jump_step
    cdef bint continuous
    cdef bint finish_turn
    cdef int max_turns
    """-1 without the ``max_turns`` guard."""

    cdef void _set_sizes(self) noexcept
    cdef void _reset(self) noexcept
    cdef void _derive(self) noexcept
    # board (the footprints themselves: footprints.pxi)
    cdef bint any_placement(self) noexcept
    cdef int count_legal(self, int* per_pile, int* scratch) noexcept
    cdef int nth_legal(self, int r, int* per_pile, int* scratch) noexcept
    cdef bint pile_exhausted(self, int pile) noexcept
    # scoring (the lines themselves: lines.pxi)
    cdef int trace(self, int slot, int* passes, signed char* line_at) noexcept
    cdef int turn_score(self, int seat) noexcept
    cdef bint breaks_lines(self, int action, unsigned int mine) noexcept
    # actions and the turn
    cdef void reveal(self, int design) noexcept
    cdef void place_marker(self, int slot) noexcept
    cdef void place_tile(self, int action) noexcept
    cdef void move_marker(self, int action) noexcept
    cdef void after_action(self, bint placed) noexcept
    cdef void end_turn(self) noexcept
    cdef void finish(self, int reason) noexcept
    cdef int winner(self) noexcept
