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


cdef int _main_work(MontanaKernel self, int p, int* out, int k) noexcept:
    """Bank and production placements. Which worker multisets ``p`` holds is worked out once
    per size (the bank's spaces and the production parts ask the same sizes again), and an
    area's parts only when one of its spaces is open and affordable."""
    cdef Tables t = self.t
    cdef int b, i, j, a, sp, base, first, nparts, size, colour, workers
    cdef int held[5][WORKER_SET_COUNT]
    cdef int nheld[5]
    cdef int parts[PART_SET_COUNT]
    cdef int* w = self.s.workers[p]
    workers = w[0] + w[1] + w[2] + w[3]
    if workers == 0:
        return k
    for size in range(5):
        nheld[size] = -1  # not worked out yet
    for b in range(t.nbank):
        if self.s.slots[b][0] + self.s.slots[b][1] + self.s.slots[b][2] + self.s.slots[b][3]:
            continue
        size = t.bank_workers[b]
        if size > workers:
            continue
        _held_of_size(self, p, size, held[size], nheld)
        first = WORK_BANK + b * WORKER_SET_COUNT
        for j in range(nheld[size]):
            out[k] = first + held[size][j]
            k += 1
    for a in range(4):
        base = t.area_slot[a]
        nparts = -1
        for sp in range(t.area_n[a]):
            if _slot_used(self, base + 2 * sp) or t.space_cost[a][sp] > self.s.silver[p]:
                continue
            if nparts < 0:
                nparts = _parts_for(self, p, t.area_colour[a], held, nheld, parts)
            if nparts == 0:
                break
            first = WORK_PROD + (a * MAX_AREA_SPACES + sp) * PART_SET_COUNT
            for j in range(nparts):
                out[k] = first + parts[j]
                k += 1
    return k


cdef inline void _held_of_size(MontanaKernel self, int p, int size, int* held,
                               int* nheld) noexcept:
    """The worker multisets of ``size`` that ``p`` holds, ascending, into ``held`` (once:
    ``nheld[size]`` is -1 until then)."""
    cdef int j, i, n = 0
    if nheld[size] >= 0:
        return
    for j in range(BY_SIZE_N[size]):
        i = BY_SIZE[size][j]
        if _holds(self, p, i):
            held[n] = i
            n += 1
    nheld[size] = n


cdef int _parts_for(MontanaKernel self, int p, int colour, int held[5][WORKER_SET_COUNT],
                    int* nheld, int* parts) noexcept:
    """The production parts ``p`` may place in an area of ``colour`` (``_part_ok``),
    ascending: merged from the held multisets of sizes 1 and 2."""
    cdef int one = 0, two = 0, n = 0, i
    _held_of_size(self, p, 1, held[1], nheld)
    _held_of_size(self, p, 2, held[2], nheld)
    while one < nheld[1] or two < nheld[2]:
        if two >= nheld[2] or (one < nheld[1] and held[1][one] < held[2][two]):
            i = held[1][one]
            one += 1
            if SET_W[i][colour] != 1:
                continue
        else:
            i = held[2][two]
            two += 1
        parts[n] = i
        n += 1
    return n


cdef bint _slot_used(MontanaKernel self, int slot) noexcept:
    cdef int* m = self.s.slots[slot]
    return m[0] + m[1] + m[2] + m[3] > 0


cdef int _build_options(MontanaKernel self, int p, int* out, int k) noexcept:
    """The build sites ``p`` may take (``_afford`` and ``_buildable``), ascending. The goods
    test is one 64-bit subtraction per site: each good in hand plus 128 in its own byte, less
    the site's cost (0..127) in that byte, keeps the byte's top bit exactly when the hand
    covers the cost, and never borrows from the next byte."""
    cdef int i, cell, g, d, nb, o, start = self.b.start
    cdef int* step = self.t.step
    cdef bint anyone = self.t.adjacent_any
    cdef signed char* owner = self.s.owner
    cdef uint64_t hand = TOP_BITS, cost
    cdef uint32_t low
    cdef uint16_t high
    if self.s.tiles[p] == 0:
        return k
    for g in range(6):
        if self.s.goods[p][g] < 0:
            return _build_options_slow(self, p, out, k)
        hand += <uint64_t>(self.s.goods[p][g] if self.s.goods[p][g] < 127 else 127) << (8 * g)
    for i in range(self.b.nplains):
        cell = self.b.plains[i]
        if owner[cell] != -1:
            continue
        memcpy(&low, &self.b.cost[cell][0], 4)  # two loads, not one 8-byte read of a
        memcpy(&high, &self.b.cost[cell][4], 2)  # 6-byte copy (a stalled store forward)
        cost = low | (<uint64_t>high << 32)
        if (hand - cost) & TOP_BITS != TOP_BITS:
            continue
        for d in range(6):
            nb = cell + step[d]
            o = owner[nb]
            if nb == start or o == p or (anyone and o >= 0):
                out[k] = BUILD + GRID_OF[cell]
                k += 1
                break
    return k


cdef int _build_options_slow(MontanaKernel self, int p, int* out, int k) noexcept:
    """``_build_options`` test by test (a hand holding fewer than no goods, which the rules
    never make: kept so the fast path's byte arithmetic need not assume it)."""
    cdef int i, cell
    for i in range(self.b.nplains):
        cell = self.b.plains[i]
        if self.s.owner[cell] == -1 and _afford(self, p, cell) and self._buildable(p, cell):
            out[k] = BUILD + GRID_OF[cell]
            k += 1
    return k


cdef int _place_spots(MontanaKernel self, int p, int* out, int k) noexcept:
    cdef int row, col, holder, lo, pumpkins = self.s.goods[p][PUMPKIN_GOOD]
    for row in range(self.t.nrows):
        holder = _row_holder(self, row)
        lo = 0 if holder < 0 else self.s.contractor[holder] % self.t.ncols + 1
        for col in range(lo, self.t.ncols):
            if self.t.column_cost[col] <= pumpkins:
                out[k] = PLACE + row * MAX_COLUMNS + col
                k += 1
    return k


cdef int _reward_options(MontanaKernel self, int p, int* out, int k) noexcept:
    cdef Tables t = self.t
    cdef int row = self.s.contractor[p] // t.ncols, i, g, most = t.row_upgrades[row]
    cdef int held0 = 0, held1 = 0
    cdef bint ok
    if t.row_picks[row]:
        for i in range(PICK_SET_COUNT):
            if PICK_SIZE[i] != t.row_picks[row]:
                continue
            ok = True
            for g in range(6):
                if PICK_G[i][g] and not t.row_pick_from[row][g]:
                    ok = False
            if ok:
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
