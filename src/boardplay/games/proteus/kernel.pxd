# cython: language_level=3
"""C declarations of the Proteus kernel (``kernel.pyx`` holds the rules, with its parts
``movement.pxi``, ``feasibility.pxi``, ``repetition.pxi`` and ``encode.pxi``): the position
struct, the repetition key set and the kernel class. Declared here, as every game's kernel is, so
other compiled code (its field table, ``fields.pyx``) can ``cimport`` the kernel and read its
fields directly."""

cimport cython
from libc.stdint cimport uint64_t

from boardplay.core.kernel cimport Kernel


cdef struct Position:
    # cell -> tile id (-1 empty), cell -> piece id (-1 none), tile -> cell (-1 in the pool),
    # piece -> cell (-1 in its owner's hand), colour -> active tile id (-1 missing). The
    # active flag is kept per colour as a tile id, not per cell, so it travels with its tile
    # when a trade moves it (spec §5.1, I21).
    int tiles[9]
    int pieces[9]
    int tile_cell[9]
    int where[6]
    int active[3]
    # The seat whose turn it is (kept at the last mover once the game is over, as the position
    # JSON's to_move); the pass counter; turns since the start or the loaded position; U = pool
    # tiles plus pieces in hand (placement lasts while U > 0); -1 ongoing, 0 or 1 the winner,
    # 2 a draw.
    # The board as bit masks, kept up to date by ``apply`` (``set_position`` derives them):
    # cells without a tile, cells whose tile holds no piece, tiles in the pool, the tiles on
    # those vacant cells (bit = tile id), each seat's piece cells and shapes in hand, and the
    # cells of the tiles of each colour and of each shape.
    int empty
    int vacant
    int pool
    int vacant_tiles
    int owned[2]
    int hand[2]
    int colour_cells[3]
    int shape_cells[3]
    int mover
    int passes
    int turns
    int unplaced
    int outcome
    # The options, fixed for a game: rules=kadon, repetition=forbid, the turn cap (0 for none).
    int kadon
    int forbid
    int max_turns


cdef struct KeySet:
    # The movement-phase positions met (``repetition.pxi``). Open addressing with linear
    # probing; 0 marks an empty slot (no key is 0). ``capacity`` is a power of two, at least
    # twice ``count`` (0 before the first key).
    uint64_t* slots
    int capacity
    int count


@cython.final
cdef class ProteusKernel(Kernel):
    cdef Position b
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
