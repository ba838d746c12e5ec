"""Montana kernel, part: the observation tensor (``observe_into``) and the build readiness
behind the feature vector the AI weighs (``features_into``). Included by ``kernel.pyx``."""


cdef int _build_sites(MontanaKernel self, short* sites, int* seats) noexcept:
    """The empty plains (start hex aside) someone may build on, in ascending order, each with
    the set of seats (bit p) it is open to; their count. One pass over the settlements marks
    their neighbours for every seat at once (what ``_buildable`` says seat by seat)."""
    cdef unsigned char near[PCELLS]
    cdef int count = 0, i, d, cell, o
    cdef unsigned char everyone = (1 << self.t.n) - 1, seats_here
    memset(near, 0, PCELLS)
    for i in range(self.b.count):
        cell = self.b.cells[i]
        o = self.s.owner[cell]
        if o >= 0:
            seats_here = everyone if self.t.adjacent_any else 1 << o
            for d in range(6):
                near[cell + self.t.step[d]] |= seats_here
    for d in range(6):
        near[self.b.start + self.t.step[d]] = everyone
    for i in range(self.b.nplains):
        cell = self.b.plains[i]
        if near[cell] and self.s.owner[cell] == -1:
            sites[count] = cell
            seats[count] = near[cell]
            count += 1
    return count


cdef void _readiness(MontanaKernel self, int p, short* open_sites, int* open_seats, int nopen,
                     double* out) noexcept:
    """Settlements the goods in hand pay for (at most 3 and the tiles left), taking the
    build sites (``_build_sites`` open to ``p``) by (shortfall, cost) ascending, stably, each
    paid from what the earlier ones left; then the first site the rest cannot pay: its cost
    covered and its cost."""
    cdef int sites[MAX_HEX]
    cdef int key1[MAX_HEX]
    cdef int key2[MAX_HEX]
    cdef int goods[6]
    cdef int count = 0, i, j, k, cell, c1, c2, short, total, ready = 0, jokers, most
    cdef int left = self.s.tiles[p]
    if left <= 0:
        return
    for k in range(6):
        goods[k] = self.s.goods[p][k]
    for i in range(nopen):
        if not (open_seats[i] >> p) & 1:
            continue
        cell = open_sites[i]
        c1 = c2 = 0
        for k in range(6):
            c2 += self.b.cost[cell][k]
            if self.b.cost[cell][k] > goods[k]:
                c1 += self.b.cost[cell][k] - goods[k]
        j = count
        while j > 0 and (key1[j - 1] > c1 or (key1[j - 1] == c1 and key2[j - 1] > c2)):
            sites[j], key1[j], key2[j] = sites[j - 1], key1[j - 1], key2[j - 1]
            j -= 1
        sites[j], key1[j], key2[j] = cell, c1, c2
        count += 1
    jokers = self.s.cattle[p]
    most = 3 if left > 3 else left
    for i in range(count):
        if ready == most:
            break
        cell = sites[i]
        short = total = 0
        for k in range(6):
            total += self.b.cost[cell][k]
            if self.b.cost[cell][k] > goods[k]:
                short += self.b.cost[cell][k] - goods[k]
        if short > jokers:
            out[1] = total - short + jokers
            out[2] = total
            break
        jokers -= short
        for k in range(6):
            goods[k] = goods[k] - self.b.cost[cell][k] if goods[k] > self.b.cost[cell][k] else 0
        ready += 1
    out[0] = ready


cdef void _observe(MontanaKernel self, int player, float* out) noexcept:
    """The tensor of observation.py's layout (docs/formats/montana.md), every number
    computed in double and rounded once to float32."""
    cdef Tables t = self.t
    cdef int n = t.n, i, c, k, p, base, spot, off, canteens = 0
    for i in range(OBSERVATION_SIZE):
        out[i] = 0.0
    for i in range(self.b.count):
        c = self.b.cells[i]
        base = GRID_OF[c] * HEX_FEATURES
        if self.s.owner[c] >= 0:
            out[base + (self.s.owner[c] - player + n) % n] = 1.0
            out[base + 4] = <float>(self.s.hex_tiles[c] / 3.0)
        out[base + 4 + self.b.kind[c]] = 1.0
        out[base + 8] = 1.0 if c == self.b.start else 0.0
        out[base + 9] = 1.0 if self.b.dbl[c] else 0.0
        out[base + 10] = self.s.hex_cattle[c]
        out[base + 11] = self.s.canteen_on[c]
        canteens += self.s.canteen_on[c]
        for k in range(6):
            out[base + 12 + k] = <float>(self.b.cost[c][k] / 2.0)
    off = MAX_HEX * HEX_FEATURES
    for p in range(n):
        base = off + (p - player + n) % n * PLAYER_FEATURES
        out[base] = <float>(self.s.silver[p] / 20.0)
        for k in range(6):
            out[base + 1 + k] = <float>(self.s.goods[p][k] / 5.0)
        out[base + 7] = <float>(self.s.cattle[p] / 3.0)
        out[base + 8] = <float>(self.s.canteens[p] / 2.0)
        for k in range(4):
            out[base + 9 + k] = <float>(self.s.workers[p][k] / 4.0)
        out[base + 13] = <float>(self.s.tiles[p] / 12.0)
        out[base + 14] = <float>(self.s.regular_turns[p] / 100.0)
        out[base + 15] = 1.0
    off += 4 * PLAYER_FEATURES
    for i in range(t.num_slots):
        for k in range(4):
            out[off + 4 * i + k] = <float>(self.s.slots[i][k] / 2.0)
    off += MAX_SLOTS * 4
    for p in range(n):
        base = off + (p - player + n) % n * CONTRACTOR_FEATURES
        spot = self.s.contractor[p]
        if spot == HOME:
            out[base + CONTRACTOR_FEATURES - 1] = 1.0
        else:
            out[base + spot // t.ncols * MAX_COLUMNS + spot % t.ncols] = 1.0
    off += 4 * CONTRACTOR_FEATURES
    out[off + self.s.stage] = 1.0
    off += OVER + 1
    if self.s.decider >= 0 and self.s.stage != OVER:
        out[off + (self.s.decider - player + n) % n] = 1.0
    if self.s.active >= 0:
        out[off + 4 + (self.s.active - player + n) % n] = 1.0
    off += 8
    if self.s.spin >= 0:
        out[off + self.s.spin] = 1.0
    off += MAX_WHEEL
    out[off] = <float>(self.s.push / 7.0) if self.s.push >= 0 else 0.0
    out[off + 1] = <float>(self.s.wilds / 4.0)
    out[off + 2] = <float>(self.s.excess / 4.0)
    out[off + 3] = <float>(self.s.builds_paid / 3.0)
    out[off + 4] = 1.0 if self.s.extra_turn else 0.0
    out[off + 5] = 1.0 if self.s.trigger_by >= 0 else 0.0
    out[off + 6] = <float>(<double>self.s.turn_number / t.max_turns)
    out[off + 7] = 1.0 if self.s.chain else 0.0
    off += 8
    for k in range(4):
        out[off + k] = <float>(self.s.supply_workers[k] / 18.0)
    for k in range(6):
        out[off + 4 + k] = <float>(self.s.supply_goods[k] / 20.0)
    out[off + 10] = <float>(self.s.supply_cattle / 24.0)
    out[off + 11] = <float>(self.s.canteens_used / 6.0)
    out[off + 12] = <float>(canteens / 6.0)
    if self.s.start_player >= 0:
        out[off + 13] = <float>((self.s.start_player - player + n) % n / 3.0)
    if self.s.trigger_by >= 0 and self.s.trigger_by == player:
        out[off + 14] = 1.0
