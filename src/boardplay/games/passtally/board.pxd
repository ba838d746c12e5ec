# cython: language_level=3
"""The C layout of one Passtally position, shared by the kernel and its compiled helpers
(``ring.pxd``, ``tensor.pxd``, ``fields.pyx``): the constants, the position struct and ``ctz``.
Declarations only (no ``board.pyx``); each cimports them from here, so the helpers the kernel
cimports never cimport the kernel back."""

cdef extern from *:
    # The index of the lowest set bit of a non-zero word (a single instruction).
    int ctz "__builtin_ctz" (unsigned int x) noexcept nogil

# The board and component counts, action ids, end codes and observation size are declared in
# layout.pxd; passed on from here.
from boardplay.games.passtally.layout cimport (
    ACTIONS_PER_TURN, CELL_PLANES, END_FINAL_ROUND, END_MAX_TURNS, END_NO_PLACEMENT, END_NONE,
    FINAL_ROUND_SCORE, MAX_SEATS, MOVE_BASE, NUM_ACTIONS, NUM_CELLS, NUM_DESIGNS, NUM_PILES,
    NUM_SLOTS, OBSERVATION_SIZE, PLACE_BASE, PLACE_PER_PILE, SIZE, TILES_PER_DESIGN,
    TILES_PER_PILE, TOTAL_TILES,
)

cdef enum:
    NUM_OFFSETS = 144
    FEATURE_SIZE = 10

cdef enum:
    # The orientation bits of ``Position.orient``: bit k for orientation k (E, S, W, N).
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
    # per anchor, the orientations whose footprint meets support rules 3-4 (BIT_E...); the
    # number of legal footprints (each counted once: an E or S spelling); per board row, the
    # spellings of all its anchors (``row_all``) and their E/S spellings (``row_canon``).
    unsigned char orient[NUM_CELLS]
    int footprints
    unsigned char row_all[SIZE]
    unsigned char row_canon[SIZE]
    # Per seat, its markers' slots (bit s) and how many there are.
    unsigned int seat_slots[MAX_SEATS]
    int seat_markers[MAX_SEATS]
    # ``through[key]``: where a line entering at face key (cell * 4 + face) enters next under
    # the cell's present shape (``LINE_NEXT``), or -1 - slot where it leaves the board; kept
    # for every cell, so tracing a line waits on one look-up per cell.
    short through[NUM_OFFSETS]
    # The lines traced so far: for slot s with bit s of ``lines_known`` set, the line entering
    # at s ends at ``line_end[s]`` with ``line_passes[s]`` passes. ``line_at[cell * 4 + face]``
    # is a slot whose line was last traced entering the cell by that face (every cell a line
    # crosses, it enters by one of its faces), so a placement forgets exactly the known lines
    # through its two cells (a stale entry only forgets a line needlessly).
    signed char line_end[NUM_SLOTS]
    int line_passes[NUM_SLOTS]
    signed char line_at[NUM_OFFSETS]
    unsigned int lines_known
