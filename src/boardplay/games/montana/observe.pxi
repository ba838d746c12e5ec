"""Montana kernel, part: the build readiness behind the feature vector the AI weighs
(``features_into``). Included by ``kernel.pyx``."""


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
