# cython: language_level=3
"""C declarations of Montana's kernel (kernel.pyx), so the facade's field accessors
(fields.pyx) read and write the position at C speed."""

cimport cython
from libc.stdint cimport uint64_t

from boardplay.core.kernel cimport Kernel
from boardplay.games.montana.layout cimport MAX_SLOTS
from boardplay.games.montana.tables cimport MAX_LINES, PCELLS, Land, Tables


cdef struct Position:
    int stage, decider, main, setup_seat, setup_spin_no, spin, push, wilds, excess
    int after_overflow, prod_area, prod_space, builds_paid, opp, chain, cursor
    int start_player, active, turn_number, extra_turn, trigger_by, final_pending
    int won            # -1 while the game runs, else the winners as a bit set (0: a draw)
    int ended_by       # 0, BY_TRIGGER or BY_MAX_TURNS
    int supply_cattle, canteens_used, canteens_box
    int received[4]
    int out[4]
    int regular_turns[4]
    int supply_workers[4]
    int supply_goods[6]
    int aside_goods[6]
    int silver[4]
    int goods[4][6]
    int cattle[4]
    int canteens[4]
    int workers[4][4]
    int tiles[4]
    int contractor[4]
    # The hexes as planes over the 15x15 grid of build cells (bit g of a plane: word g >> 6,
    # bit g & 63), the compact row's first 256 bytes (compact.pxi): planes 0-3 each seat's
    # settlements, 4 and 5 the low and high bit of a settlement's tiles, 6 the hexes still
    # holding their cattle, 7 the lakes still holding their canteen. Kept with the hexes
    # (``_build_step``, ``setup_board``, ``_clear_hexes``, and ``_settle_masks`` after a load).
    uint64_t planes[8][4]
    # ``slots`` as nibbles (slot i's colour c: bits 4 * (4 * i + c) of the words as one
    # little-endian run), the row's next 112 bytes; kept by ``slot_nibbles`` (compact.pxi).
    uint64_t slot_words[MAX_SLOTS >> 2]
    int slots[MAX_SLOTS][4]
    int nlines[4]
    signed char line_axis[4][MAX_LINES]
    short line_first[4][MAX_LINES]   # the line's lowest cell; it runs along E, SW or SE from it
    short line_len[4][MAX_LINES]
    signed char owner[PCELLS]
    signed char hex_tiles[PCELLS]
    signed char hex_cattle[PCELLS]
    signed char canteen_on[PCELLS]
    unsigned short lined[PCELLS]   # bit 3*player+axis: the hex lies in a rewarded line
    # The settled plains as bit sets over ``Land.plains`` (bit i: plains[i]), all and per
    # seat, kept while the board is ``quick`` (tables.pxd) for the build sites' test;
    # ``odd_owner``: a loaded position owns a hex outside them (the test then reads ``owner``).
    uint64_t settled
    uint64_t mine[4]
    int odd_owner


@cython.final
cdef class MontanaKernel(Kernel):
    # The batch's two looks at one decision, kept outside the position (a copy starts without
    # them): ``mask_into`` lists the legal actions for the mask and keeps up to 64 of them with
    # the count of actions applied so far (``applied``), and ``sample_legal`` on the same
    # position (``applied`` unchanged) draws from that list instead of listing again. The
    # counters first, beside the kernel's sizes (core/kernel.pxd) that the batch's calls read
    # anyway, rather than past the 5.8 KB board.
    cdef unsigned long long applied
    cdef unsigned long long listed_at
    cdef int listed_n
    cdef Tables t
    cdef Position s
    cdef Land b
    cdef int listed[64]

    cdef void _clear_hexes(self) noexcept
    cdef void _settle_masks(self) noexcept
    cdef bint _buildable(self, int p, int cell) noexcept
    cdef int _tiebreak_two(self, int p) noexcept
    cdef int _winners(self) noexcept
    cdef void _record_line(self, int p, int axis, int low, int length) noexcept
    cdef void setup_board(self, int seed) noexcept
