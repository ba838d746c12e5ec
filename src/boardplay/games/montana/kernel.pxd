# cython: language_level=3
"""C declarations of Montana's kernel (kernel.pyx), so the facade's field accessors
(fields.pyx) read and write the position at C speed."""

cimport cython

from boardplay.core.kernel cimport Kernel
from boardplay.games.montana.tables cimport MAX_LINES, MAX_SLOTS, PCELLS, Land, Tables


cdef struct Pos:
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
    int slots[MAX_SLOTS][4]
    int nlines[4]
    int line_axis[4][MAX_LINES]
    int line_first[4][MAX_LINES]   # the line's lowest cell; it runs along E, SW or SE from it
    int line_len[4][MAX_LINES]
    signed char owner[PCELLS]
    signed char hex_tiles[PCELLS]
    signed char hex_cattle[PCELLS]
    signed char canteen_on[PCELLS]
    unsigned short lined[PCELLS]   # bit 3*player+axis: the hex lies in a rewarded line


@cython.final
cdef class MontanaKernel(Kernel):
    cdef Tables t
    cdef Pos s
    cdef Land b

    cdef void _clear_hexes(self) noexcept
    cdef int _count_workers(self, int p) noexcept
    cdef bint _holds(self, int p, int i) noexcept
    cdef bint _part_ok(self, int p, int i, int colour) noexcept
    cdef int _take(self, int* supply, int* hand, int stride, int player, int need) noexcept
    cdef int _take_goods(self, int player, int kind, int need) noexcept
    cdef int _take_workers(self, int player, int colour, int need) noexcept
    cdef bint _afford(self, int p, int cell) noexcept
    cdef bint _buildable(self, int p, int cell) noexcept
    cdef int _row_holder(self, int row) noexcept
    cdef int _trades(self, int* out, int k) noexcept
    cdef int _main_work(self, int p, int* out, int k) noexcept
    cdef bint _slot_used(self, int slot) noexcept
    cdef int _build_options(self, int p, int* out, int k) noexcept
    cdef int _place_spots(self, int p, int* out, int k) noexcept
    cdef int _reward_options(self, int p, int* out, int k) noexcept
    cdef void _begin_turn(self, int player, bint extra) noexcept
    cdef void _clear_slot(self, int slot) noexcept
    cdef void _cleanup(self) noexcept
    cdef void _end_turn(self) noexcept
    cdef void _apply_end(self, int action) noexcept
    cdef void _finish(self, int reason) noexcept
    cdef int _tiebreak_two(self, int p) noexcept
    cdef int _winners(self) noexcept
    cdef void _apply_main(self, int action) noexcept
    cdef void _pay_workers(self, int p, int ms) noexcept
    cdef void _apply_push(self, int steps) noexcept
    cdef void _add_received(self, int ms) noexcept
    cdef void _receive_recruit(self) noexcept
    cdef void _check_cap(self, int resume) noexcept
    cdef void _apply_return(self, int ms) noexcept
    cdef void _trade(self, int kind) noexcept
    cdef void _apply_right(self, int action) noexcept
    cdef void _apply_place(self, int action) noexcept
    cdef void _advance_auction(self) noexcept
    cdef void _next_reward(self) noexcept
    cdef void _apply_reward(self, int action) noexcept
    cdef void _build_step(self, int action) noexcept
    cdef int _cell_of_action(self, int action) noexcept
    cdef bint _line_bonus(self, int p, int cell) noexcept
    cdef void _record_line(self, int p, int axis, int low, int length) noexcept
    cdef void _finish_build(self) noexcept
    cdef void setup_board(self, int seed) noexcept
    cdef void _setup_spin(self, int segment) noexcept
    cdef void _setup_receive(self) noexcept
    cdef void _after_setup_spins(self) noexcept
    cdef void _start_game(self, int seat) noexcept
    cdef void _readiness(self, int p, double* out) noexcept
