"""Passtally kernel, part: the compact observation (``core/compact.pxd``; docs/adapters.md,
"Compact observations"): ``tensor.pxi``'s tensor as bit-planes for its 0/1 entries and bytes
for its counts (heights, face-down tiles per pile, unrevealed designs, actions left; the points
on two bytes). Included by ``kernel.pyx``, whose ``compact_into`` / ``expand_into`` call these.
"""

from boardplay.core.compact cimport (
    C_BIT, C_INT, C_WIDE, compact_expand, compact_layout, compact_put,
)

from libc.string cimport memset

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


cdef inline void _bit(unsigned char* out, int i) noexcept nogil:
    out[i >> 3] |= <unsigned char>(1 << (i & 7))


cdef void write_compact(Position* p, int n, int player, unsigned char* out) noexcept:
    """``write_observation``'s entries, bits set and counts written (``compact_put``)."""
    cdef int cell, h, t, slot, seat, pile, d, base, rel
    memset(out, 0, COMPACT_SIZE)
    for cell in range(NUM_CELLS):
        h = p.height[cell]
        out[COMPACT_SLOT[cell]] = <unsigned char>h
        if h > 0:
            _bit(out, NUM_CELLS + cell)
        _bit(out, (2 + p.shape[cell]) * NUM_CELLS + cell)
        t = p.tid[cell]
        if t >= 0:
            if cell % SIZE < SIZE - 1 and p.tid[cell + 1] == t:
                _bit(out, 5 * NUM_CELLS + cell)
            if p.tid[cell + SIZE] == t:  # (the padding row reads -1)
                _bit(out, 6 * NUM_CELLS + cell)
    base = _RING
    for slot in range(NUM_SLOTS):
        seat = p.ring[slot]
        if seat >= 0:
            rel = seat - player  # the seat relative to the observer, without a division
            if rel < 0:
                rel += n
            _bit(out, base + rel * NUM_SLOTS + slot)
    base = _PILES
    for pile in range(NUM_PILES):
        d = p.face_up[pile]
        if d >= 0:
            _bit(out, base + d)
        compact_put(out, COMPACT_KIND, COMPACT_SLOT, base + NUM_DESIGNS, p.hidden[pile])
        base += NUM_DESIGNS + 1
    if p.pending >= 0 and not p.game_over:
        _bit(out, _PENDING + p.pending)
    for d in range(NUM_DESIGNS):
        compact_put(out, COMPACT_KIND, COMPACT_SLOT, _UNREVEALED + d, p.unrevealed[d])
    for seat in range(n):
        compact_put(out, COMPACT_KIND, COMPACT_SLOT, _POINTS + (seat - player + n) % n,
                    p.points[seat])
    if not p.game_over:
        _bit(out, _TO_MOVE + (p.to_move - player + n) % n)
    base = _ACTIONS_LEFT
    compact_put(out, COMPACT_KIND, COMPACT_SLOT, base, p.actions_left)
    base += 1
    if p.setup:
        _bit(out, base)
    if p.final_round:
        _bit(out, base + 1)
    if p.game_over:
        _bit(out, base + 2)
    base += 3
    if p.side1 >= 0:
        _bit(out, base + p.side1)
    base += 4
    if p.side3 >= 0:
        _bit(out, base + p.side3)


cdef inline void expand_compact(const unsigned char* compact, float* out) noexcept nogil:
    compact_expand(compact, out, COMPACT_KIND, COMPACT_SLOT, COMPACT_DENOM, OBSERVATION_SIZE)
