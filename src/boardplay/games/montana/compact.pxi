"""Montana kernel, part: the compact observation (``core/compact.pxd``; docs/adapters.md,
"Compact observations"): ``observe_into``'s tensor as bit-planes for its 0/1 entries and one
byte per count, the numerator over the tensor's fixed denominator (silver, regular turns and
the turn number on two bytes). Included by ``kernel.pyx``, whose ``compact_into`` /
``expand_into`` call these."""

from boardplay.core.compact cimport (
    C_BIT, C_INT, C_WIDE, compact_expand, compact_layout, compact_put,
)
from boardplay.games.montana.layout cimport (
    CONTRACTOR_FEATURES, GRID_CELLS, HEX_FEATURES, HOME, MAX_COLUMNS, MAX_SLOTS, MAX_WHEEL,
    OBSERVATION_SIZE, OVER, PLAYER_FEATURES,
)

cdef unsigned char COMPACT_KIND[OBSERVATION_SIZE]
cdef int COMPACT_SLOT[OBSERVATION_SIZE]
cdef double COMPACT_DENOM[OBSERVATION_SIZE]
cdef enum:
    _PLAYERS = GRID_CELLS * HEX_FEATURES
    _SLOTS = _PLAYERS + 4 * PLAYER_FEATURES
    _CONTRACTORS = _SLOTS + MAX_SLOTS * 4
    _STAGE = _CONTRACTORS + 4 * CONTRACTOR_FEATURES
    _COUNTERS = _STAGE + OVER + 1 + 8 + MAX_WHEEL
    _TURN = _COUNTERS + 6
    _GLOBAL = _COUNTERS + 8


cdef void _kind(int i, int kind, double denom) noexcept:
    COMPACT_KIND[i] = kind
    COMPACT_DENOM[i] = denom


cdef int _compact_tables() noexcept:
    """The kinds of ``observe_into``'s entries; return the row's bytes. The turn number's
    denominator is the game's ``max_turns`` (1 here; ``expand`` divides by the kernel's)."""
    cdef int i, k, base
    for i in range(OBSERVATION_SIZE):
        _kind(i, C_BIT, 1.0)
    for i in range(GRID_CELLS):
        base = i * HEX_FEATURES
        _kind(base + 4, C_INT, 3.0)
        _kind(base + 10, C_INT, 1.0)
        _kind(base + 11, C_INT, 1.0)
        for k in range(6):
            _kind(base + 12 + k, C_INT, 2.0)
    for i in range(4):
        base = _PLAYERS + i * PLAYER_FEATURES
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
        _kind(_SLOTS + i, C_INT, 2.0)
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
    return compact_layout(COMPACT_KIND, COMPACT_SLOT, OBSERVATION_SIZE)


cdef int COMPACT_SIZE = _compact_tables()


def compact_tables():
    """(kind, denominator) of each tensor entry and the row's bytes, for tests and docs (the
    turn number's denominator, entry ``TURN_ENTRY``, is the game's ``max_turns``)."""
    return ([COMPACT_KIND[i] for i in range(OBSERVATION_SIZE)],
            [COMPACT_DENOM[i] for i in range(OBSERVATION_SIZE)], COMPACT_SIZE)


TURN_ENTRY = _TURN


cdef inline void _bit(unsigned char* out, int i) noexcept nogil:
    out[i >> 3] |= <unsigned char>(1 << (i & 7))


cdef inline void _put(unsigned char* out, int i, int value) noexcept nogil:
    compact_put(out, COMPACT_KIND, COMPACT_SLOT, i, value)


cdef void write_compact(MontanaKernel self, int player, unsigned char* out) noexcept:
    """``observe_into``'s entries, bits set and numerators written."""
    cdef Tables t = self.t
    cdef int n = t.n, i, c, k, p, base, spot, rel, canteens = 0
    cdef unsigned char* counts
    memset(out, 0, COMPACT_SIZE)
    for i in range(self.b.count):
        c = self.b.cells[i]
        base = GRID_OF[c] * HEX_FEATURES
        counts = out + COMPACT_SLOT[base + 4]  # the hex's 9 counts lie together, in order
        if self.s.owner[c] >= 0:
            rel = self.s.owner[c] - player  # the seat relative to the observer, no division
            if rel < 0:
                rel += n
            _bit(out, base + rel)
            counts[0] = <unsigned char>self.s.hex_tiles[c]
        _bit(out, base + 4 + self.b.kind[c])
        if c == self.b.start:
            _bit(out, base + 8)
        if self.b.dbl[c]:
            _bit(out, base + 9)
        counts[1] = <unsigned char>self.s.hex_cattle[c]
        counts[2] = <unsigned char>self.s.canteen_on[c]
        canteens += self.s.canteen_on[c]
        for k in range(6):
            counts[3 + k] = <unsigned char>self.b.cost[c][k]
    for p in range(n):
        base = _PLAYERS + (p - player + n) % n * PLAYER_FEATURES
        _put(out, base, self.s.silver[p])
        for k in range(6):
            _put(out, base + 1 + k, self.s.goods[p][k])
        _put(out, base + 7, self.s.cattle[p])
        _put(out, base + 8, self.s.canteens[p])
        for k in range(4):
            _put(out, base + 9 + k, self.s.workers[p][k])
        _put(out, base + 13, self.s.tiles[p])
        _put(out, base + 14, self.s.regular_turns[p])
        _bit(out, base + 15)
    for i in range(t.num_slots):
        for k in range(4):
            out[COMPACT_SLOT[_SLOTS] + 4 * i + k] = <unsigned char>self.s.slots[i][k]
    for p in range(n):
        base = _CONTRACTORS + (p - player + n) % n * CONTRACTOR_FEATURES
        spot = self.s.contractor[p]
        if spot == HOME:
            _bit(out, base + CONTRACTOR_FEATURES - 1)
        else:
            _bit(out, base + spot // t.ncols * MAX_COLUMNS + spot % t.ncols)
    base = _STAGE
    _bit(out, base + self.s.stage)
    base += OVER + 1
    if self.s.decider >= 0 and self.s.stage != OVER:
        _bit(out, base + (self.s.decider - player + n) % n)
    if self.s.active >= 0:
        _bit(out, base + 4 + (self.s.active - player + n) % n)
    base += 8
    if self.s.spin >= 0:
        _bit(out, base + self.s.spin)
    base = _COUNTERS
    if self.s.push >= 0:
        _put(out, base, self.s.push)
    _put(out, base + 1, self.s.wilds)
    _put(out, base + 2, self.s.excess)
    _put(out, base + 3, self.s.builds_paid)
    if self.s.extra_turn:
        _bit(out, base + 4)
    if self.s.trigger_by >= 0:
        _bit(out, base + 5)
    _put(out, _TURN, self.s.turn_number)
    if self.s.chain:
        _bit(out, base + 7)
    base = _GLOBAL
    for k in range(4):
        _put(out, base + k, self.s.supply_workers[k])
    for k in range(6):
        _put(out, base + 4 + k, self.s.supply_goods[k])
    _put(out, base + 10, self.s.supply_cattle)
    _put(out, base + 11, self.s.canteens_used)
    _put(out, base + 12, canteens)
    if self.s.start_player >= 0:
        _put(out, base + 13, (self.s.start_player - player + n) % n)
    if self.s.trigger_by >= 0 and self.s.trigger_by == player:
        _bit(out, base + 14)


cdef void expand_compact(MontanaKernel self, const unsigned char* compact, float* out) noexcept:
    """The tensor a compact row stands for (the turn number over this game's ``max_turns``)."""
    cdef int turn
    compact_expand(compact, out, COMPACT_KIND, COMPACT_SLOT, COMPACT_DENOM, OBSERVATION_SIZE)
    turn = compact[COMPACT_SLOT[_TURN]] | (compact[COMPACT_SLOT[_TURN] + 1] << 8)
    out[_TURN] = <float>(<double>turn / self.t.max_turns)
