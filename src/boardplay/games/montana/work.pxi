"""Montana kernel, part: the player's holdings and the legal-move enumerators (rules spec
§5-§9): which trades, work placements, build sites, store spots and rewards the decider may
choose now. Included by ``kernel.pyx``; each function takes the kernel as ``self``, as the
methods they were, and is a direct C call (no vtable)."""


# ----- helpers ------------------------------------------------------------------------
cdef int _count_workers(MontanaKernel self, int p) noexcept:
    cdef int* w = self.s.workers[p]
    return w[0] + w[1] + w[2] + w[3]


cdef bint _holds(MontanaKernel self, int p, int i) noexcept:
    cdef int* w = self.s.workers[p]
    return (w[0] >= SET_W[i][0] and w[1] >= SET_W[i][1] and w[2] >= SET_W[i][2]
            and w[3] >= SET_W[i][3])


cdef bint _part_ok(MontanaKernel self, int p, int i, int colour) noexcept:
    """A production part takes 1 worker of the area's colour or any 2 (spec §4.3)."""
    return (SET_SIZE[i] == 2 or SET_W[i][colour] == 1) and _holds(self, p, i)


cdef int _take(MontanaKernel self, int* supply, int* hand, int stride, int player,
               int need) noexcept:
    """Take ``need`` pieces with the shortage rule (spec §6): while the supply is short,
    every holder returns one, round after round. ``hand`` is seat 0's count of the kind,
    ``stride`` the distance between seats."""
    cdef int p, got
    cdef bint returned
    while supply[0] < need:
        returned = False
        for p in range(self.t.n):
            if hand[p * stride] > 0:
                hand[p * stride] -= 1
                supply[0] += 1
                returned = True
        if not returned:
            break
    got = need if need <= supply[0] else supply[0]
    supply[0] -= got
    hand[player * stride] += got
    return got


cdef int _take_goods(MontanaKernel self, int player, int kind, int need) noexcept:
    return _take(self, &self.s.supply_goods[kind], &self.s.goods[0][kind], 6, player, need)


cdef int _take_workers(MontanaKernel self, int player, int colour, int need) noexcept:
    return _take(self, &self.s.supply_workers[colour], &self.s.workers[0][colour], 4, player,
                      need)


cdef bint _afford(MontanaKernel self, int p, int cell) noexcept:
    cdef int k
    for k in range(6):
        if self.s.goods[p][k] < self.b.cost[cell][k]:
            return False
    return True


cdef int _row_holder(MontanaKernel self, int row) noexcept:
    cdef int p, c
    for p in range(self.t.n):
        c = self.s.contractor[p]
        if c != HOME and c // self.t.ncols == row:
            return p
    return -1


# ----- legal actions ------------------------------------------------------------------
cdef int _trades(MontanaKernel self, int* out, int k) noexcept:
    cdef int p = self.s.decider, i
    if p != self.s.active or self.s.cattle[p] < 1:
        return k
    for i in range(self.t.ntrade):
        out[k] = TRADE + self.t.trade_goods[i]
        k += 1
    for i in range(5):
        out[k] = TRADE + TRADE_SILVER + i
        k += 1
    return k


cdef extern from *:
    int lowest_bit "__builtin_ctzll"(unsigned long long) noexcept nogil


cdef uint64_t HELD[4][5][2]
"""Bit i (word i // 64) of ``HELD[c][v]``: worker multiset i takes at most v of colour c. A
seat holding ``w`` workers holds exactly the multisets of the AND over colours of
``HELD[c][min(w[c], 4)]``, so its held sets come ascending from the bits (``_held``)."""
cdef uint64_t OF_SIZE[5][2]
"""The worker multisets of each size, as bits."""
cdef uint64_t PARTS_OF[4]
"""The production parts an area of each colour takes (``_part_ok`` without the hand): its
colour's single worker or any pair (part set ids are below 64)."""
cdef int PICKS_OF_SIZE[4][PICK_SET_COUNT]
"""The pick multisets of each size (1..MAX_PICKS), ascending; ``PICKS_N`` counts them."""
cdef int PICKS_N[4]
cdef int PICK_KINDS[PICK_SET_COUNT]
"""Bit g: the pick multiset takes good g."""
cdef int SPOT_AT[MAX_COLUMNS + 1][MAX_ROWS * MAX_COLUMNS]
"""A contractor spot's cell, row * MAX_COLUMNS + column, per column count (``spot // ncols``
rows down, ``spot % ncols`` across): a lookup and divisions by a constant instead of two
divisions by ``ncols``."""
cdef unsigned char NHELD[625][5]
"""How many worker multisets of each size a hand holds, by ``_hand_index`` (the bits of
``_held`` counted once here: the build has no popcount instruction to count them fast)."""


cdef void _init_masks() noexcept:
    cdef int i, c, v, hand, size
    cdef int w[4]
    cdef uint64_t held[2]
    memset(HELD, 0, sizeof(HELD))
    memset(OF_SIZE, 0, sizeof(OF_SIZE))
    memset(PARTS_OF, 0, sizeof(PARTS_OF))
    for c in range(1, MAX_COLUMNS + 1):
        for i in range(MAX_ROWS * MAX_COLUMNS):
            SPOT_AT[c][i] = i // c * MAX_COLUMNS + i % c
    for i in range(WORKER_SET_COUNT):
        OF_SIZE[SET_SIZE[i]][i >> 6] |= <uint64_t>1 << (i & 63)
        for c in range(4):
            for v in range(SET_W[i][c], 5):
                HELD[c][v][i >> 6] |= <uint64_t>1 << (i & 63)
            if i < PART_SET_COUNT and (SET_SIZE[i] == 2 or SET_W[i][c] == 1):
                PARTS_OF[c] |= <uint64_t>1 << i
    for i in range(4):
        PICKS_N[i] = 0
    for i in range(PICK_SET_COUNT):
        PICK_KINDS[i] = 0
        for c in range(6):
            if PICK_G[i][c]:
                PICK_KINDS[i] |= 1 << c
        if 0 < PICK_SIZE[i] < 4:
            PICKS_OF_SIZE[PICK_SIZE[i]][PICKS_N[PICK_SIZE[i]]] = i
            PICKS_N[PICK_SIZE[i]] += 1
    for hand in range(625):
        w[0], w[1], w[2], w[3] = hand // 125, hand // 25 % 5, hand // 5 % 5, hand % 5
        _held(w, held)
        for size in range(5):
            NHELD[hand][size] = 0
        for i in range(WORKER_SET_COUNT):
            if (held[i >> 6] >> (i & 63)) & 1:
                NHELD[hand][SET_SIZE[i]] += 1


cdef inline int _hand_index(const int* w) noexcept:
    """The row of ``NHELD`` for a hand of ``w`` workers (4 or more of a colour count as 4)."""
    return ((w[0] if w[0] < 4 else 4) * 125 + (w[1] if w[1] < 4 else 4) * 25
            + (w[2] if w[2] < 4 else 4) * 5 + (w[3] if w[3] < 4 else 4))


cdef inline void _held(const int* w, uint64_t* held) noexcept:
    """The worker multisets a hand of ``w`` holds, as bits (``HELD``)."""
    cdef int c, v
    held[0] = held[1] = ~<uint64_t>0
    for c in range(4):
        v = w[c] if w[c] < 4 else 4
        held[0] &= HELD[c][v][0]
        held[1] &= HELD[c][v][1]


_init_masks()


cdef inline int _list_bits(uint64_t bits, int first, int* out, int k) noexcept:
    """``first`` plus each set bit's index, ascending, from ``out[k]``; the new end."""
    while bits:
        out[k] = first + lowest_bit(bits)
        k += 1
        bits &= bits - 1
    return k


cdef inline int _count_bits(uint64_t bits) noexcept:
    cdef int n = 0
    while bits:
        bits &= bits - 1
        n += 1
    return n


cdef inline int _nth_bit(uint64_t bits, int r) noexcept:
    """The index of the ``r``-th (from 0) set bit of ``bits``."""
    while r > 0:
        bits &= bits - 1
        r -= 1
    return lowest_bit(bits)


cdef inline bint _space_open(MontanaKernel self, int p, int a, int sp) noexcept:
    """Production space ``sp`` of area ``a`` is free and ``p`` has the silver for it."""
    return (not _slot_used(self, self.t.area_slot[a] + 2 * sp)
            and self.t.space_cost[a][sp] <= self.s.silver[p])


cdef int _main_work(MontanaKernel self, int p, int* out, int k) noexcept:
    """Bank and production placements, ascending: per free bank space the held worker
    multisets of its size, per open and affordable production space the parts its area
    takes (``HELD``, ``PARTS_OF``)."""
    cdef Tables t = self.t
    cdef int b, a, sp, size, first
    cdef uint64_t held[2]
    cdef uint64_t parts
    cdef int* w = self.s.workers[p]
    if w[0] + w[1] + w[2] + w[3] == 0:
        return k
    _held(w, held)
    for b in range(t.nbank):
        if _slot_used(self, b):
            continue
        size = t.bank_workers[b]
        first = WORK_BANK + b * WORKER_SET_COUNT
        k = _list_bits(held[0] & OF_SIZE[size][0], first, out, k)
        k = _list_bits(held[1] & OF_SIZE[size][1], first + 64, out, k)
    for a in range(4):
        parts = held[0] & PARTS_OF[t.area_colour[a]]
        if not parts:
            continue
        for sp in range(t.area_n[a]):
            if _space_open(self, p, a, sp):
                first = WORK_PROD + (a * MAX_AREA_SPACES + sp) * PART_SET_COUNT
                k = _list_bits(parts, first, out, k)
    return k


cdef int _sample_main(MontanaKernel self, Rng* rng, int* scratch) noexcept:
    """``legal[rng_below(count)]`` of the main decision's list (``legal_into``: recruit, city,
    trades, bank, production, build sites) without writing it: the bank's and production's
    choices counted from the held sets' bits, the build sites listed into ``scratch``."""
    cdef Tables t = self.t
    cdef int p = self.s.decider, b, a, sp, size, r, count, sites, trades = 0, spaces
    cdef int bank[MAX_BANK_SPACES]
    cdef int nparts[4]
    cdef int nspaces[4]
    cdef uint64_t held[2]
    cdef uint64_t parts[4]
    cdef int* w = self.s.workers[p]
    cdef unsigned char* nheld = NHELD[_hand_index(w)]
    count = 2
    if p == self.s.active and self.s.cattle[p] >= 1:
        trades = t.ntrade + 5
        count += trades
    _held(w, held)  # none with no workers: no bank or production choices then
    for b in range(t.nbank):
        bank[b] = 0
        if not _slot_used(self, b):
            size = t.bank_workers[b]
            bank[b] = nheld[size]
            count += bank[b]
    for a in range(4):
        parts[a] = held[0] & PARTS_OF[t.area_colour[a]]
        nparts[a] = nheld[2] + (w[t.area_colour[a]] > 0)
        spaces = 0
        if nparts[a]:
            for sp in range(t.area_n[a]):
                spaces += _space_open(self, p, a, sp)
        nspaces[a] = spaces
        count += spaces * nparts[a]
    # the build sites are the list's last ids: listed, they need no second pass
    sites = _build_options(self, p, scratch, 0)
    r = rng_below(rng, count + sites)
    if r < 2:
        return RECRUIT if r == 0 else CITY
    r -= 2
    if r < trades:
        return TRADE + (t.trade_goods[r] if r < t.ntrade else TRADE_SILVER + r - t.ntrade)
    r -= trades
    for b in range(t.nbank):
        if r < bank[b]:
            size = t.bank_workers[b]
            a = _count_bits(held[0] & OF_SIZE[size][0])
            if r < a:
                return WORK_BANK + b * WORKER_SET_COUNT + _nth_bit(held[0] & OF_SIZE[size][0], r)
            return (WORK_BANK + b * WORKER_SET_COUNT + 64
                    + _nth_bit(held[1] & OF_SIZE[size][1], r - a))
        r -= bank[b]
    for a in range(4):
        if r < nspaces[a] * nparts[a]:
            for sp in range(t.area_n[a]):
                if _space_open(self, p, a, sp):
                    if r < nparts[a]:
                        return (WORK_PROD + (a * MAX_AREA_SPACES + sp) * PART_SET_COUNT
                                + _nth_bit(parts[a], r))
                    r -= nparts[a]
        r -= nspaces[a] * nparts[a]
    return scratch[r]


cdef inline bint _slot_used(MontanaKernel self, int slot) noexcept:
    """Workers stand on the worker-board part: its four nibbles in ``Position.slot_words``
    (two lines of the position for the whole board, where ``slots`` takes fourteen)."""
    return ((self.s.slot_words[slot >> 2] >> (16 * (slot & 3))) & 0xFFFF) != 0


cdef int _build_options(MontanaKernel self, int p, int* out, int k) noexcept:
    """The build sites ``p`` may take (``_afford`` and ``_buildable``), ascending, as bit sets
    over the board's plains (tables.pxd): the AND of ``afford`` for the hand, less the settled
    plains (``Position.settled``), within the plains next to the start hex or to the
    settlements that count (``mine``, or all with build_adjacent_any)."""
    cdef int g, v
    cdef Land* land = &self.b
    cdef int* goods = self.s.goods[p]
    cdef uint64_t sites = ~<uint64_t>0, settled = self.s.settled, mine, near
    if self.s.tiles[p] == 0:
        return k
    if not land.quick or self.s.odd_owner:
        return _build_options_slow(self, p, out, k)
    for g in range(6):
        v = goods[g]
        if v < 0:
            return _build_options_slow(self, p, out, k)
        sites &= land.afford[g][v if v < AFFORD_LEVELS else AFFORD_LEVELS - 1]
    if not sites:
        return k
    mine = settled if self.t.adjacent_any else self.s.mine[p]
    near = land.near_start
    while mine:
        near |= land.near[lowest_bit(mine)]
        mine &= mine - 1
    sites &= near & ~settled
    while sites:
        out[k] = BUILD + GRID_OF[land.plains[lowest_bit(sites)]]
        k += 1
        sites &= sites - 1
    return k


cdef int _build_options_slow(MontanaKernel self, int p, int* out, int k) noexcept:
    """``_build_options`` test by test: a board without ``quick`` bit sets (a data file with
    more than 64 plains or a cost above AFFORD_LEVELS - 1), or a hand holding fewer than no
    goods, which the rules never make."""
    cdef int i, cell
    for i in range(self.b.nplains):
        cell = self.b.plains[i]
        if self.s.owner[cell] == -1 and _afford(self, p, cell) and self._buildable(p, cell):
            out[k] = BUILD + GRID_OF[cell]
            k += 1
    return k


cdef int _place_spots(MontanaKernel self, int p, int* out, int k) noexcept:
    """The contractor cells ``p`` may take: in each row, right of the contractor there (the
    row's first holder, ``_row_holder``) and within the pumpkins in hand."""
    cdef int row, col, q, spot, ncols = self.t.ncols, pumpkins = self.s.goods[p][PUMPKIN_GOOD]
    cdef int first[MAX_ROWS]  # per row, the first column open to ``p``
    for row in range(self.t.nrows):
        first[row] = 0
    for q in range(self.t.n - 1, -1, -1):  # the lowest seat last: it is the row's holder
        spot = self.s.contractor[q]
        if spot != HOME:
            spot = SPOT_AT[ncols][spot]
            first[spot // MAX_COLUMNS] = spot % MAX_COLUMNS + 1
    for row in range(self.t.nrows):
        for col in range(first[row], ncols):
            if self.t.column_cost[col] <= pumpkins:
                out[k] = PLACE + row * MAX_COLUMNS + col
                k += 1
    return k


cdef int _reward_options(MontanaKernel self, int p, int* out, int k) noexcept:
    cdef Tables t = self.t
    cdef int row = self.s.contractor[p] // t.ncols, i, j, g, most = t.row_upgrades[row]
    cdef int held0 = 0, held1 = 0, size = t.row_picks[row], barred = 0
    if size:
        for g in range(6):
            if not t.row_pick_from[row][g]:
                barred |= 1 << g
        for j in range(PICKS_N[size] if size < 4 else 0):
            i = PICKS_OF_SIZE[size][j]
            if not PICK_KINDS[i] & barred:
                out[k] = REWARD_PICK + i
                k += 1
        return k
    if t.nup > 0:
        held0 = self.s.goods[p][t.up_small[0]]
    if t.nup > 1:
        held1 = self.s.goods[p][t.up_small[1]]
    for i in range(UPGRADE_PAIR_COUNT):
        if PAIR[i][0] + PAIR[i][1] <= most and PAIR[i][0] <= held0 and PAIR[i][1] <= held1:
            out[k] = REWARD_UP + i
            k += 1
    return k
