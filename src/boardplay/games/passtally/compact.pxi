"""Passtally kernel, part: the compact observation (``core/compact.pxd``; docs/adapters.md,
"Compact observations"): ``tensor.pxi``'s tensor as bit-planes for its 0/1 entries and bytes
for its counts (heights, face-down tiles per pile, unrevealed designs, actions left; the points
on two bytes). Included by ``kernel.pyx``, whose ``compact_into`` / ``expand_into`` call these.
"""

from boardplay.core.compact cimport C_BIT, C_INT, C_WIDE, compact_expand, compact_layout

from libc.stdint cimport uint64_t
from libc.string cimport memcpy

cdef unsigned char COMPACT_KIND[OBSERVATION_SIZE]
cdef int COMPACT_SLOT[OBSERVATION_SIZE]
cdef double COMPACT_DENOM[OBSERVATION_SIZE]
# Where the counts lie (``write_observation``'s blocks).
cdef enum:
    _RING = CELL_PLANES * NUM_CELLS
    _PILES = _RING + MAX_SEATS * NUM_SLOTS
    _PENDING = _PILES + NUM_PILES * (NUM_DESIGNS + 1)
    _UNREVEALED = _PENDING + NUM_PILES
    _POINTS = _UNREVEALED + NUM_DESIGNS
    _TO_MOVE = _POINTS + MAX_SEATS
    _ACTIONS_LEFT = _TO_MOVE + MAX_SEATS


cdef int _compact_tables() noexcept:
    """The kinds of ``write_observation``'s entries; return the row's bytes."""
    cdef int i
    for i in range(OBSERVATION_SIZE):
        COMPACT_KIND[i] = C_BIT
        COMPACT_DENOM[i] = 1.0
    for i in range(NUM_CELLS):
        COMPACT_KIND[i] = C_INT
    for i in range(NUM_PILES):
        COMPACT_KIND[_PILES + i * (NUM_DESIGNS + 1) + NUM_DESIGNS] = C_INT
    for i in range(NUM_DESIGNS):
        COMPACT_KIND[_UNREVEALED + i] = C_INT
    for i in range(MAX_SEATS):
        COMPACT_KIND[_POINTS + i] = C_WIDE
    COMPACT_KIND[_ACTIONS_LEFT] = C_INT
    return compact_layout(COMPACT_KIND, COMPACT_SLOT, OBSERVATION_SIZE)


cdef int COMPACT_SIZE = _compact_tables()


def compact_tables():
    """(kind, denominator) of each tensor entry and the row's bytes, for tests and docs."""
    return ([COMPACT_KIND[i] for i in range(OBSERVATION_SIZE)],
            [COMPACT_DENOM[i] for i in range(OBSERVATION_SIZE)], COMPACT_SIZE)


cdef enum:
    # The bits' bytes (every entry has a bit, 0 for the counts), then the counts from here:
    # the heights (one byte per cell, in cell order) first.
    _BIT_BYTES = (OBSERVATION_SIZE + 7) >> 3
    _WORDS = (_BIT_BYTES + 7) >> 3


cdef int _check_layout() except -1:
    """``write_compact`` writes words and byte runs; check they are where it assumes."""
    cdef uint64_t one = 1
    cdef int cell
    assert (<unsigned char*>&one)[0] == 1, "the compact writer's words are little-endian"
    for cell in range(NUM_CELLS):
        assert COMPACT_SLOT[cell] == _BIT_BYTES + cell
    assert _PILES >= 320 and _ACTIONS_LEFT + 11 < 384  # the scalars' bits share word 5
    return 0


_check_layout()


cdef inline void _plane(uint64_t* words, int at, uint64_t bits) noexcept nogil:
    """OR ``bits`` (at most 64 - (at % 64) of them past the first word) in at bit ``at``."""
    cdef int w = at >> 6, shift = at & 63
    words[w] |= bits << shift
    if shift:
        words[w + 1] |= bits >> (64 - shift)


cdef enum:
    # ``Position.planes``, in the observation's order of its cell planes 1-6.
    PLANE_TILE = 0
    PLANE_SHAPE = 1
    PLANE_EAST = 4
    PLANE_SOUTH = 5


cdef void derive_planes(Position* p) noexcept:
    """``Position.planes`` from the cells (a new or loaded position), all tiles seen."""
    cdef uint64_t bit
    cdef int cell, i, t
    for i in range(6):
        p.planes[i] = 0
    for cell in range(NUM_CELLS):
        bit = (<uint64_t>1) << cell
        t = p.tid[cell]
        if p.height[cell] > 0:
            p.planes[PLANE_TILE] |= bit
        p.planes[PLANE_SHAPE + p.shape[cell]] |= bit
        if t >= 0 and cell % SIZE < SIZE - 1 and p.tid[cell + 1] == t:
            p.planes[PLANE_EAST] |= bit
        if t >= 0 and p.tid[cell + SIZE] == t:  # (the padding row reads -1)
            p.planes[PLANE_SOUTH] |= bit
    p.planes_placed = p.placed


cdef inline void note_tile(Position* p, int tile) noexcept:
    """``Position.planes`` after tile ``tile`` (the next one they have not seen) covered its
    two cells: both hold a tile of its shapes, and the one pair of cells with the same top
    tile through them is the tile's own (every tile id is new), the pair's west or north cell
    marked east (orientation E or W) or south (S or N)."""
    cdef int orientation = p.placed_orientation[tile], anchor = p.placed_anchor[tile]
    cdef int at = p.placed_design[tile] * 4 + orientation
    cdef int other = OTHER_CELL[anchor * 4 + orientation]
    cdef uint64_t both = ((<uint64_t>1) << anchor) | ((<uint64_t>1) << other)
    cdef int low = anchor if orientation < 2 else other
    p.planes[PLANE_TILE] |= both
    p.planes[PLANE_SHAPE] &= ~both
    p.planes[PLANE_SHAPE + 1] &= ~both
    p.planes[PLANE_SHAPE + 2] &= ~both
    p.planes[PLANE_SHAPE + PLACED_A[at]] |= (<uint64_t>1) << anchor
    p.planes[PLANE_SHAPE + PLACED_B[at]] |= (<uint64_t>1) << other
    p.planes[PLANE_EAST] &= ~(both | (both >> 1))
    p.planes[PLANE_SOUTH] &= ~(both | (both >> SIZE))
    p.planes[PLANE_EAST + (orientation & 1)] |= (<uint64_t>1) << low


cdef void write_compact(Position* p, int n, int player, unsigned char* out) noexcept:
    """``write_observation``'s entries: the bits as 64-bit words (the cell planes from the
    boards in ``Position.planes``, first brought up to date with the tiles placed since the
    last write, the ring from each seat's slot set, the scalars into the last word) copied out
    whole, then the counts as bytes."""
    cdef uint64_t words[_WORDS + 1]
    cdef uint64_t last = 0
    cdef int rel, pile, d, seat, slot
    while p.planes_placed < p.placed:
        note_tile(p, p.planes_placed)
        p.planes_placed += 1
    for d in range(_WORDS + 1):
        words[d] = 0
    for d in range(6):
        _plane(words, (1 + d) * NUM_CELLS, p.planes[d])
    seat = player
    for rel in range(n):  # the seat ``rel`` places after the observer
        _plane(words, _RING + rel * NUM_SLOTS, p.seat_slots[seat])
        seat += 1
        if seat == n:
            seat = 0
    for pile in range(NUM_PILES):
        d = p.face_up[pile]
        if d >= 0:
            last |= (<uint64_t>1) << (_PILES - 320 + pile * (NUM_DESIGNS + 1) + d)
        out[COMPACT_SLOT[_PILES + pile * (NUM_DESIGNS + 1) + NUM_DESIGNS]] = \
            <unsigned char>(p.hidden[pile] & 255)
    if p.pending >= 0 and not p.game_over:
        last |= (<uint64_t>1) << (_PENDING - 320 + p.pending)
    if not p.game_over:
        last |= (<uint64_t>1) << (_TO_MOVE - 320 + (p.to_move - player + n) % n)
    last |= (<uint64_t>p.setup) << (_ACTIONS_LEFT + 1 - 320)
    last |= (<uint64_t>p.final_round) << (_ACTIONS_LEFT + 2 - 320)
    last |= (<uint64_t>p.game_over) << (_ACTIONS_LEFT + 3 - 320)
    if p.side1 >= 0:
        last |= (<uint64_t>1) << (_ACTIONS_LEFT + 4 - 320 + p.side1)
    if p.side3 >= 0:
        last |= (<uint64_t>1) << (_ACTIONS_LEFT + 8 - 320 + p.side3)
    words[5] |= last
    memcpy(out, words, _BIT_BYTES)
    memcpy(out + _BIT_BYTES, p.height, NUM_CELLS)  # heights are never negative
    for d in range(NUM_DESIGNS):
        out[COMPACT_SLOT[_UNREVEALED + d]] = <unsigned char>(p.unrevealed[d] & 255)
    for seat in range(n):
        slot = COMPACT_SLOT[_POINTS + (seat - player + n) % n]
        out[slot] = <unsigned char>(p.points[seat] & 255)
        out[slot + 1] = <unsigned char>((p.points[seat] >> 8) & 255)
    for seat in range(n, MAX_SEATS):  # the seats the game does not have read 0
        slot = COMPACT_SLOT[_POINTS + seat]
        out[slot] = 0
        out[slot + 1] = 0
    out[COMPACT_SLOT[_ACTIONS_LEFT]] = <unsigned char>(p.actions_left & 255)


cdef inline void expand_compact(const unsigned char* compact, float* out) noexcept nogil:
    compact_expand(compact, out, COMPACT_KIND, COMPACT_SLOT, COMPACT_DENOM, OBSERVATION_SIZE)
