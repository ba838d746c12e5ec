# cython: language_level=3
"""The Passtally kernel's declarations: the C layout of one position (its constants, the
``Position`` struct and ``ctz``) and the class with its fields and C methods, all defined in
``kernel.pyx`` and its parts (``ring.pxi``, ``footprints.pxi``, ``lines.pxi``, ``tensor.pxi``,
``compact.pxi``, ``playout.pxi``, ``rollout.pxi``).
``fields.pyx``, the cold face, cimports the class from here and reads its fields and methods
directly."""

cimport cython
from boardplay.core.kernel cimport Kernel, Rng
from libc.stdint cimport uint64_t
# The board and component counts, action ids, end codes and observation size are declared in
# layout.pxd; the kernel and its parts see them through this file.
from boardplay.games.passtally.layout cimport (
    ACTIONS_PER_TURN, CELL_PLANES, END_FINAL_ROUND, END_MAX_TURNS, END_NO_PLACEMENT, END_NONE,
    FEATURE_SIZE,
    FINAL_ROUND_SCORE, MAX_SEATS, MOVE_BASE, NUM_ACTIONS, NUM_CELLS, NUM_DESIGNS, NUM_PILES,
    NUM_SLOTS, OBSERVATION_SIZE, PLACE_BASE, PLACE_PER_PILE, SIZE, TILES_PER_DESIGN,
    TILES_PER_PILE, TOTAL_TILES,
)

cdef extern from *:
    # The index of the lowest set bit of a non-zero word (a single instruction).
    int ctz "__builtin_ctz" (unsigned int x) noexcept nogil
    # The number of zero bits above the highest set bit of a non-zero word.
    int clz "__builtin_clz" (unsigned int x) noexcept nogil

cdef enum:
    NUM_OFFSETS = 144

cdef enum:
    # The orientation bits of an anchor's legal placements (``orient_of``): bit k for
    # orientation k (E, S, W, N).
    BIT_E = 1
    BIT_S = 2
    BIT_W = 4
    BIT_N = 8


cdef struct Position:
    # Per cell: stack height, top tile's index in the placement list (-1 bare), top half's
    # shape with rotation applied (X when bare).
    # (height and tid carry SIZE padding cells, always 0 and -1, so a footprint test may
    # look one row past the board without a branch.)
    signed char height[NUM_CELLS + SIZE]
    signed char tid[NUM_CELLS + SIZE]
    signed char shape[NUM_CELLS]
    # Per slot: the seat whose marker stands there, or -1.
    signed char ring[NUM_SLOTS]
    # The tiles in placement order (their ids): design, anchor cell, orientation.
    signed char placed_design[TOTAL_TILES]
    signed char placed_anchor[TOTAL_TILES]
    signed char placed_orientation[TOTAL_TILES]
    int placed
    int markers
    int face_up[NUM_PILES]
    int hidden[NUM_PILES]
    int unrevealed[NUM_DESIGNS]
    int points[MAX_SEATS]
    int pending
    int to_move
    int actions_left
    int turns
    int side1
    int side3
    int end
    bint setup
    bint final_round
    bint game_over
    # Derived, kept up to date by every action (never in a snapshot; ``_derive`` rebuilds it):
    # the heights again in a bordered 8 x 8 grid (``footprints.pxi``, -1 off the board), the
    # legal footprints as two boards (bit ``GRID[a]`` set when the pair of cell a and its
    # east, resp. south, neighbour meets support rules 3-4), and how many there are.
    signed char grid[64]
    uint64_t east
    uint64_t south
    int footprints
    # Per seat, its markers' slots (bit s) and how many there are.
    unsigned int seat_slots[MAX_SEATS]
    int seat_markers[MAX_SEATS]
    # ``through[key]``: where a line entering at face key (cell * 4 + face) enters next under
    # the cell's present shape (``LINE_NEXT``), or -1 - slot where it leaves the board; kept
    # for every cell, so tracing a line waits on one look-up per cell.
    short through[NUM_OFFSETS]
    # The lines traced so far: for slot s with bit s of ``lines_known`` set, the line entering
    # at s ends at ``line_end[s]`` with ``line_passes[s]`` passes and crosses the cells of
    # ``line_cells[s]`` (bit c for cell c; both ends hold the same set), so a placement
    # forgets exactly the known lines that cross one of its two cells.
    signed char line_end[NUM_SLOTS]
    int line_passes[NUM_SLOTS]
    uint64_t line_cells[NUM_SLOTS]
    signed char line_at[NUM_OFFSETS]
    unsigned int lines_known
    # The observation's cell planes as boards (bit c for cell c) for the compact writer: a
    # tile present, shape X / NE / NW (``PLANE_SHAPE + shape``), the same tile east and south,
    # as they stood after the first ``planes_placed`` tiles; the writer catches up with the
    # tiles placed since (``compact.pxi``), so a playout never pays for them.
    uint64_t planes[6]
    int planes_placed
    # The options, fixed for a game: the players, the three rule variants and the max_turns
    # engine guard (-1 without it).
    int n
    bint jump_step
    bint continuous
    bint finish_turn
    int max_turns


@cython.final
cdef class PasstallyKernel(Kernel):
    cdef Position p

    cdef void _reset(self) noexcept
    cdef void _derive(self) noexcept
    # board (the footprints themselves: footprints.pxi)
    cdef bint any_placement(self) noexcept
    cdef int count_legal(self, int* per_pile, int* scratch) noexcept
    cdef int nth_legal(self, int r, int* per_pile, int* scratch) noexcept
    cdef bint pile_exhausted(self, int pile) noexcept
    # the ring (its walks: ring.pxi), for the cold face
    cdef int move_destination(self, int slot, int j) noexcept
    cdef int setup_slots(self, int* out) noexcept
    # scoring (the lines themselves: lines.pxi)
    cdef int trace(self, int slot, int* passes, uint64_t* cells, signed char* line_at) noexcept
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
