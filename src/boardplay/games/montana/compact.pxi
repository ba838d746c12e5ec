"""Montana kernel, part: the compact observation (docs/adapters.md, "Compact observations"):
``observe_into``'s tensor in bytes, in two parts. Included by ``kernel.pyx``, whose
``compact_into`` (both parts), ``compact_dynamic_into`` (the first) and ``expand_into`` call
these.

Most of the tensor is the board's 225 hexes, and most of a hex's entries (its kind, the start
hex, the double hex, its six costs) are fixed by the deal for the whole game. So the row puts
what changes first (``COMPACT_DYNAMIC`` bytes: the hexes' eight planes and the worker board's
nibbles, both kept as words in the position and copied out, then the rest of the tensor as
bit-planes and counts, ``core/compact.pxd``) and what the deal fixes after it; the batched env
writes the second part when a game starts and only the first at its other steps
(``Kernel.compact_dynamic``)."""

from libc.stdint cimport uint64_t

from boardplay.core.compact cimport (
    C_BIT, C_INT, C_WIDE, compact_expand, compact_layout, compact_put,
)
from boardplay.games.montana.layout cimport (
    CONTRACTOR_FEATURES, GRID_CELLS, HEX_FEATURES, HOME, MAX_COLUMNS, MAX_SLOTS, MAX_WHEEL,
    OBSERVATION_SIZE, OVER, PLAYER_FEATURES,
)

cdef enum:
    _HEX_ENTRIES = GRID_CELLS * HEX_FEATURES   # the tensor's hex entries; the rest follow
    _TAIL = OBSERVATION_SIZE - _HEX_ENTRIES    # entries after them (players, board, stage...)
    _PLANE_BYTES = 32                          # a plane: 256 bits, the 225 cells' and 31 zeros
    _HEX_BYTES = 8 * _PLANE_BYTES
    _SLOT_BYTES = MAX_SLOTS * 4 // 2           # a nibble per worker-board part and colour
    _TAIL_AT = _HEX_BYTES + _SLOT_BYTES        # where the tail's bits begin
    # Where the tail's entries lie, counted from its first entry.
    _SLOTS = 4 * PLAYER_FEATURES
    _CONTRACTORS = _SLOTS + MAX_SLOTS * 4
    _STAGE = _CONTRACTORS + 4 * CONTRACTOR_FEATURES
    _COUNTERS = _STAGE + OVER + 1 + 8 + MAX_WHEEL
    _TURN = _COUNTERS + 6
    _GLOBAL = _COUNTERS + 8

cdef unsigned char TAIL_KIND[_TAIL]
cdef int TAIL_SLOT[_TAIL]
cdef double TAIL_DENOM[_TAIL]


cdef void _kind(int i, int kind, double denom) noexcept:
    TAIL_KIND[i] = kind
    TAIL_DENOM[i] = denom


cdef int _tail_tables() noexcept:
    """The kinds of the tail's entries; return the tail's bytes. The turn number's
    denominator is the game's ``max_turns`` (1 here; ``expand`` divides by the kernel's)."""
    cdef int i, k, base
    for i in range(_TAIL):
        _kind(i, C_BIT, 1.0)
    for i in range(4):
        base = i * PLAYER_FEATURES
        _kind(base, C_WIDE, 20.0)
        for k in range(6):
            _kind(base + 1 + k, C_INT, 5.0)
        _kind(base + 7, C_INT, 3.0)
        _kind(base + 8, C_INT, 2.0)
        for k in range(4):
            _kind(base + 9 + k, C_INT, 4.0)
        _kind(base + 13, C_INT, 12.0)
        _kind(base + 14, C_WIDE, 100.0)
    for i in range(MAX_SLOTS * 4):
        _kind(_SLOTS + i, C_BIT, 2.0)  # no byte: in the nibbles before the tail, bit left 0
    _kind(_COUNTERS, C_INT, 7.0)
    _kind(_COUNTERS + 1, C_INT, 4.0)
    _kind(_COUNTERS + 2, C_INT, 4.0)
    _kind(_COUNTERS + 3, C_INT, 3.0)
    _kind(_TURN, C_WIDE, 1.0)
    for k in range(4):
        _kind(_GLOBAL + k, C_INT, 18.0)
    for k in range(6):
        _kind(_GLOBAL + 4 + k, C_INT, 20.0)
    _kind(_GLOBAL + 10, C_INT, 24.0)
    _kind(_GLOBAL + 11, C_INT, 6.0)
    _kind(_GLOBAL + 12, C_INT, 6.0)
    _kind(_GLOBAL + 13, C_INT, 3.0)
    return compact_layout(TAIL_KIND, TAIL_SLOT, _TAIL)


cdef int COMPACT_DYNAMIC = _TAIL_AT + _tail_tables()
cdef int COMPACT_SIZE = COMPACT_DYNAMIC + 7 * GRID_CELLS   # + a byte per cell, 6 costs per cell


cdef int _check_words() except -1:
    cdef uint64_t one = 1
    cdef int p, base
    assert (<unsigned char*>&one)[0] == 1, "the compact writer's planes are little-endian words"
    for p in range(4):  # a seat's counts lie together in this order (write_dynamic's block)
        base = p * PLAYER_FEATURES
        assert TAIL_SLOT[base + 1] == TAIL_SLOT[base] + 2
        assert TAIL_SLOT[base + 13] == TAIL_SLOT[base] + 14
        assert TAIL_SLOT[base + 14] == TAIL_SLOT[base] + 15
    return 0


_check_words()


def compact_tables():
    """The tail's entries (the tensor's from ``TAIL_ENTRY`` on): each one's kind and
    denominator; then the dynamic part's and the whole row's bytes. For tests and docs (the
    turn number's denominator, tensor entry ``TURN_ENTRY``, is the game's ``max_turns``)."""
    return ([TAIL_KIND[i] for i in range(_TAIL)], [TAIL_DENOM[i] for i in range(_TAIL)],
            COMPACT_DYNAMIC, COMPACT_SIZE)


TAIL_ENTRY = _HEX_ENTRIES
TURN_ENTRY = _HEX_ENTRIES + _TURN
SLOT_ENTRY = _HEX_ENTRIES + _SLOTS
HEX_BYTES = _HEX_BYTES
TAIL_AT = _TAIL_AT


cdef inline uint64_t _nibble(int count) noexcept nogil:
    return 15 if count > 15 else (0 if count < 0 else count)


cdef void slot_nibbles(MontanaKernel self, int slot) noexcept:
    """``Position.slot_words``' part for worker-board part ``slot`` from ``slots``: wherever
    the workers on it change (``_fill_slot``, ``_clear_slot``, turns.pxi; a load). A count
    is at most 4 in play; a loaded one is held to 0..15, so the part reads used
    (``_slot_used``, work.pxi) exactly when a count is above 0."""
    cdef int* m = self.s.slots[slot]
    cdef int shift = 16 * (slot & 3)
    cdef uint64_t value = (_nibble(m[0]) | _nibble(m[1]) << 4 | _nibble(m[2]) << 8
                           | _nibble(m[3]) << 12)
    self.s.slot_words[slot >> 2] = (
        (self.s.slot_words[slot >> 2] & ~(<uint64_t>0xFFFF << shift)) | value << shift
    )


cdef void hex_planes(MontanaKernel self) noexcept:
    """``Position.planes`` from the hexes, after they were dealt or loaded (in play
    ``_build_step`` keeps them, actions.pxi), and the worker board's nibbles."""
    cdef int i, c, g, o, w
    cdef uint64_t bit
    for i in range(MAX_SLOTS):
        slot_nibbles(self, i)
    memset(self.s.planes, 0, sizeof(self.s.planes))
    for i in range(self.b.count):
        c = self.b.cells[i]
        g = GRID_OF[c]
        w = g >> 6
        bit = <uint64_t>1 << (g & 63)
        o = self.s.owner[c]
        if 0 <= o < 4:
            self.s.planes[o][w] |= bit
            if self.s.hex_tiles[c] & 1:
                self.s.planes[4][w] |= bit
            if self.s.hex_tiles[c] & 2:
                self.s.planes[5][w] |= bit
        if self.s.hex_cattle[c]:
            self.s.planes[6][w] |= bit
        if self.s.canteen_on[c]:
            self.s.planes[7][w] |= bit


cdef inline int _seen(int seat, int player, int n) noexcept nogil:
    """``seat`` counted from ``player`` (0..n-1), without a division."""
    seat -= player
    return seat + n if seat < 0 else seat


cdef inline void _bit(unsigned char* out, int i) noexcept nogil:
    out[i >> 3] |= <unsigned char>(1 << (i & 7))


cdef inline void _put(unsigned char* out, int i, int value) noexcept nogil:
    compact_put(out, TAIL_KIND, TAIL_SLOT, i, value)


cdef inline int _ones(uint64_t word) noexcept nogil:
    """Set bits of a word with few of them (the build has no popcount instruction)."""
    cdef int count = 0
    while word:
        word &= word - 1
        count += 1
    return count


cdef void write_dynamic(MontanaKernel self, int player, unsigned char* out) noexcept:
    """The row's first ``COMPACT_DYNAMIC`` bytes from ``player``'s view: the hex planes (the
    seats' turned to the viewer: plane r is the seat r after the viewer), then the tail's bits
    and numerators."""
    cdef Tables t = self.t
    cdef int n = t.n, i, k, p, base, spot, r, canteens = 0
    cdef unsigned char* tail = out + _TAIL_AT
    cdef unsigned char* q
    for r in range(4):
        p = player + r
        if p >= n:
            p -= n
        if r < n:
            memcpy(out + r * _PLANE_BYTES, self.s.planes[p], _PLANE_BYTES)
        else:
            memset(out + r * _PLANE_BYTES, 0, _PLANE_BYTES)
    memcpy(out + 4 * _PLANE_BYTES, self.s.planes[4], 4 * _PLANE_BYTES)
    memcpy(out + _HEX_BYTES, self.s.slot_words, _SLOT_BYTES)
    for k in range(4):
        canteens += _ones(self.s.planes[7][k])
    memset(tail, 0, COMPACT_DYNAMIC - _TAIL_AT)
    for r in range(n):
        p = player + r
        if p >= n:
            p -= n
        base = r * PLAYER_FEATURES
        q = tail + TAIL_SLOT[base]  # silver (2 B), goods, cattle, canteens, workers, tiles, turns
        q[0] = <unsigned char>self.s.silver[p]
        q[1] = <unsigned char>(self.s.silver[p] >> 8)
        for k in range(6):
            q[2 + k] = <unsigned char>self.s.goods[p][k]
        q[8] = <unsigned char>self.s.cattle[p]
        q[9] = <unsigned char>self.s.canteens[p]
        for k in range(4):
            q[10 + k] = <unsigned char>self.s.workers[p][k]
        q[14] = <unsigned char>self.s.tiles[p]
        q[15] = <unsigned char>self.s.regular_turns[p]
        q[16] = <unsigned char>(self.s.regular_turns[p] >> 8)
        _bit(tail, base + 15)
    for p in range(n):
        base = _CONTRACTORS + _seen(p, player, n) * CONTRACTOR_FEATURES
        spot = self.s.contractor[p]
        if spot == HOME:
            _bit(tail, base + CONTRACTOR_FEATURES - 1)
        else:
            _bit(tail, base + SPOT_AT[t.ncols][spot])  # work.pxi's table
    base = _STAGE
    _bit(tail, base + self.s.stage)
    base += OVER + 1
    if self.s.decider >= 0 and self.s.stage != OVER:
        _bit(tail, base + _seen(self.s.decider, player, n))
    if self.s.active >= 0:
        _bit(tail, base + 4 + _seen(self.s.active, player, n))
    base += 8
    if self.s.spin >= 0:
        _bit(tail, base + self.s.spin)
    base = _COUNTERS
    if self.s.push >= 0:
        _put(tail, base, self.s.push)
    _put(tail, base + 1, self.s.wilds)
    _put(tail, base + 2, self.s.excess)
    _put(tail, base + 3, self.s.builds_paid)
    if self.s.extra_turn:
        _bit(tail, base + 4)
    if self.s.trigger_by >= 0:
        _bit(tail, base + 5)
    _put(tail, _TURN, self.s.turn_number)
    if self.s.chain:
        _bit(tail, base + 7)
    base = _GLOBAL
    for k in range(4):
        _put(tail, base + k, self.s.supply_workers[k])
    for k in range(6):
        _put(tail, base + 4 + k, self.s.supply_goods[k])
    _put(tail, base + 10, self.s.supply_cattle)
    _put(tail, base + 11, self.s.canteens_used)
    _put(tail, base + 12, canteens)
    if self.s.start_player >= 0:
        _put(tail, base + 13, _seen(self.s.start_player, player, n))
    if self.s.trigger_by >= 0 and self.s.trigger_by == player:
        _bit(tail, base + 14)


cdef void write_static(MontanaKernel self, unsigned char* out) noexcept:
    """The row's part after ``COMPACT_DYNAMIC``, the same for every seat and fixed once the
    board is dealt: a byte per grid cell (its kind 0-3, bit 2 the start hex, bit 3 the double
    hex), then each cell's six costs."""
    cdef unsigned char* cells = out + COMPACT_DYNAMIC
    cdef unsigned char* costs = cells + GRID_CELLS
    cdef int i, c, g, k
    memset(cells, 0, 7 * GRID_CELLS)
    for i in range(self.b.count):
        c = self.b.cells[i]
        g = GRID_OF[c]
        cells[g] = <unsigned char>(self.b.kind[c] | (4 if c == self.b.start else 0)
                                   | (8 if self.b.dbl[c] else 0))
        for k in range(6):
            costs[6 * g + k] = <unsigned char>self.b.cost[c][k]


cdef inline int _plane_bit(const unsigned char* row, int plane, int g) noexcept nogil:
    return (row[plane * _PLANE_BYTES + (g >> 3)] >> (g & 7)) & 1


cdef void expand_compact(MontanaKernel self, const unsigned char* compact, float* out) noexcept:
    """The tensor a compact row stands for (the turn number over this game's ``max_turns``),
    every number divided in double and rounded once to float32 as ``observe_into`` does."""
    cdef const unsigned char* cells = compact + COMPACT_DYNAMIC
    cdef const unsigned char* costs = cells + GRID_CELLS
    cdef int g, j, k, base, turn
    for g in range(GRID_CELLS):
        base = g * HEX_FEATURES
        for j in range(4):
            out[base + j] = _plane_bit(compact, j, g)
        out[base + 4] = <float>((_plane_bit(compact, 4, g) + 2 * _plane_bit(compact, 5, g)) / 3.0)
        for j in range(1, 4):
            out[base + 4 + j] = 1.0 if (cells[g] & 3) == j else 0.0
        out[base + 8] = (cells[g] >> 2) & 1
        out[base + 9] = (cells[g] >> 3) & 1
        out[base + 10] = _plane_bit(compact, 6, g)
        out[base + 11] = _plane_bit(compact, 7, g)
        for k in range(6):
            out[base + 12 + k] = <float>(costs[6 * g + k] / 2.0)
    compact_expand(compact + _TAIL_AT, out + _HEX_ENTRIES, TAIL_KIND, TAIL_SLOT, TAIL_DENOM,
                   _TAIL)
    for j in range(MAX_SLOTS * 4):
        out[_HEX_ENTRIES + _SLOTS + j] = <float>(
            ((compact[_HEX_BYTES + (j >> 1)] >> (4 * (j & 1))) & 15) / 2.0
        )
    k = _TAIL_AT + TAIL_SLOT[_TURN]
    turn = compact[k] | (compact[k + 1] << 8)
    out[_HEX_ENTRIES + _TURN] = <float>(<double>turn / self.t.max_turns)
