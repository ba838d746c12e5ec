# cython: language_level=3
"""C declarations of the Potlatch Klone kernel (``kernel.pyx`` holds the rules and says why
the board is a set of slots). Declared here so other compiled code can ``cimport`` the kernel
and read its fields directly."""

cimport cython

from boardplay.core.kernel cimport Kernel
from boardplay.games.potlatch.layout cimport CELLS, NUM_ACTIONS, RADIUS, SIDE

cdef enum:
    MAX_SLOTS = 32
    SNAP_NONE = 0
    SNAP_KNOWN = 1
    SNAP_NEVER = 2


cdef struct Board:
    signed char code[MAX_SLOTS]
    signed char nb[MAX_SLOTS][6]
    short q[MAX_SLOTS]
    short r[MAX_SLOTS]
    signed char order[MAX_SLOTS]   # tile slots in the order the tiles appeared (export order)
    signed char path[4]            # the mover's visited hexes this turn, in order
    unsigned int tiles             # bit per slot holding a tile (a phantom slot has none yet)
    unsigned int visited           # bit per slot the mover's pawn occupied this turn
    int nslots
    int ntiles
    int npath
    int stock
    int pawn[2]
    int mover
    int run_open
    int blank_free
    int colour[2]                  # own-colour stacks on the board, per seat
    int increases                  # runs ended since setup (each resolves one increase)


cdef struct Snap:
    signed char code[MAX_SLOTS]
    unsigned int tiles             # full-state snapshots only, else 0
    int pawn[2]                    # full-state snapshots only, else -1
    int status


cdef struct Position:
    # The whole position in one struct, options included, so a copy is one block
    # (``core/kernel.pyx``'s ``copy``/``copy_from``) and a save one byte string.
    Board b
    Snap snaps[2]                  # per seat, the snapshot its next condition-3 check uses
    Snap turn_start                # the current turn's start snapshot
    int done                       # actions already taken this turn
    int n_actions                  # actions per turn (the position's; the option by default)
    int turns_played               # completed turns since setup (the turn_limit guard)
    int winner                     # the winner, -1 on a draw
    int condition                  # the end condition, 0 while the game runs
    int legal[NUM_ACTIONS]         # the legal list of the current position
    int nlegal
    # The options, fixed for a game (``n_actions`` and ``b.blank_free`` above are options too):
    int turn_limit                 # the engine's turn-limit guard
    int full                       # repetition_compares_full_state
    int filter_dead_ends
    int centre                     # the layout's rotation centre (observations)


@cython.final
cdef class PotlatchKernel(Kernel):
    cdef Position s

    cdef void compute_legal(self) noexcept
    cdef void finish(self, int winner, int condition) noexcept
    cdef int stack_leader(self) noexcept
    cdef void take_snapshot(self, Snap* s) noexcept
    cdef void begin_turn(self) noexcept
    cdef int cell(self, int s, int turn) noexcept
    cdef int load_snapshot(self, Snap* snap, object raw) except -1
