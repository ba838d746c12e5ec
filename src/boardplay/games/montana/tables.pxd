# cython: language_level=3
"""C declarations shared by Montana's tables and kernel: the padded hex window, the kernel's
limits, the component tables of one game and a generated landscape (see tables.pyx)."""

from libc.stdint cimport uint64_t

from boardplay.games.montana.layout cimport GRID_CELLS, GRID_RADIUS


cdef enum:
    # The padded axial window: the hex window (``layout.pxd``) with a border of one hex, so
    # every neighbour of a hex is inside it.
    PAD = GRID_RADIUS + 1
    PW = 2 * PAD + 1
    PCELLS = PW * PW
    MAX_HEX = GRID_CELLS
    # Kernel limits, checked when a data file is loaded (Tables).
    MAX_LINES = 48
    MAX_TILES = 256
    MAX_LAYOUT = 64
    MAX_TRADES = 64
    # ``Land.afford``: a hand's goods are clamped to this many of each kind.
    AFFORD_LEVELS = 8
    # Hex kinds.
    K_NONE = 0
    K_PLAIN = 1
    K_MOUNTAIN = 2
    K_LAKE = 3


cdef struct Land:
    int seed            # -1: not generated yet
    int attempts
    int count
    int start
    int nplains
    int ncattle
    int nlakes
    short cells[MAX_HEX]       # padded cells of the landscape, ascending (= local index order)
    short plains[MAX_HEX]      # plains other than the start hex, ascending
    short local[PCELLS]        # local index of a padded cell, -1 off the landscape
    signed char kind[PCELLS]
    signed char dbl[PCELLS]
    signed char cattle[PCELLS]   # K icon
    signed char canteen[PCELLS]  # a lake showing the canteen icon
    signed char cost[PCELLS][6]
    short tile[MAX_LAYOUT]
    signed char rot[MAX_LAYOUT]
    # The build sites' tests as bit sets over ``plains`` (bit i: plains[i]), when there are
    # at most 64 plains and no cost above AFFORD_LEVELS - 1 (``quick``, else 0): bit i of
    # ``afford[g][v]`` is set when plains[i] costs at most v of good g; ``near[i]`` holds the
    # plains next to plains[i], ``near_start`` those next to the start hex.
    int quick
    uint64_t afford[6][AFFORD_LEVELS]
    uint64_t near[64]
    uint64_t near_start
    signed char pindex[PCELLS]   # a padded cell's index in ``plains``, -1 for none


cdef struct Deal:
    uint64_t state     # the board generator's state when the accepted deal began
    int attempts       # 0: not dealt yet


cdef class Tables:
    cdef readonly int n
    cdef Deal* deals
    """Per board seed below BOARD_OUTCOMES, how ``make_land`` dealt it (allocated at the first
    deal, 16 bytes a seed): a seed dealt again starts from its accepted deal, not its first."""
    cdef object args                # (data, players, options): how to build these again
    cdef int settlements, worker_cap, per_colour, start_cattle, cattle_total, canteens_total
    cdef int start_silver[4]
    cdef int goods_supply[6]
    cdef int start_goods[6]
    cdef int goods_box[6]
    cdef int nbank, num_slots
    cdef int bank_workers[8]
    cdef int bank_silver[8]
    cdef int area_colour[4]
    cdef int area_good[4]
    cdef int area_right[4]
    cdef int area_n[4]
    cdef int area_slot[4]
    cdef int space_cost[4][6]
    cdef int space_yield[4][6]
    cdef int ncols, nrows, nup
    cdef int column_cost[6]
    cdef int row_cattle[6]
    cdef int row_silver[6]
    cdef int row_upgrades[6]
    cdef int row_picks[6]
    cdef int row_pick_from[6][6]
    cdef int up_small[2]
    cdef int up_large[2]
    cdef int wheel_n
    cdef int wheel_fixed[16][4]
    cdef int wheel_wilds[16]
    cdef int max_push, grain_per_push, setup_spins, trade_silver, ntrade
    cdef int trade_goods[MAX_TRADES]
    cdef int max_builds, silver_per_skip, line_length
    cdef int ntiles, nlayout, min_plain
    cdef signed char tile_kind[MAX_TILES][7]
    cdef signed char tile_cost[MAX_TILES][7][6]
    cdef signed char tile_flag[MAX_TILES][7]
    cdef int layout_q[MAX_LAYOUT]
    cdef int layout_r[MAX_LAYOUT]
    cdef bint adjacent_any, additional, canteen_after_final, coins
    cdef int max_turns, fixed_seed, fixed_start
    cdef int step[6]
    """Padded-cell offsets of the directions E, NE, NW, W, SW, SE (board.DIRS)."""

    cdef void make_land(self, int seed, Land* land) noexcept
