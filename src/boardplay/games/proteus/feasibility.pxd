"""The kadon exactly-one-per-colour feasibility rule (spec §4.4), for the kernel's placement."""

cdef bint can_fill(int c0, int c1, int c2, int open_tiles, int missing) noexcept nogil
cdef int placeable(int c0, int c1, int c2, int open_tiles, int missing, int shape) noexcept nogil
