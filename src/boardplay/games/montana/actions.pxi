"""Montana kernel, part: the main actions (rules spec §5-§9): recruit (push, wild, return),
the cattle trade, the production right part, the city auction and building. Included by
``kernel.pyx``; each function takes the kernel as ``self``, as the methods they were."""


# ----- main actions -------------------------------------------------------------------
cdef void _apply_main(MontanaKernel self, int action) noexcept:
    cdef Tables t = self.t
    cdef int p = self.s.active, space, ms, cell, area, sp, c
    if action == RECRUIT:
        self.s.main = M_RECRUIT
        self.s.stage = SPIN
        self.s.decider = CHANCE
    elif action == CITY:
        self.s.main = M_CITY
        _take_goods(self, p, PUMPKIN_GOOD, 1)
        for c in range(4):
            self.s.out[c] = 0
        self.s.opp = self.s.chain = self.s.cursor = 0
        self.s.stage = PLACE_STAGE
        self.s.decider = p
    elif WORK_BANK <= action < WORK_PROD:
        space = (action - WORK_BANK) // WORKER_SET_COUNT
        ms = (action - WORK_BANK) % WORKER_SET_COUNT
        self.s.main = M_BANK
        _pay_workers(self, p, ms)
        _fill_slot(self, space, ms)
        self.s.silver[p] += t.bank_silver[space]
        _end_turn(self)
    elif WORK_PROD <= action < BUILD:
        cell = (action - WORK_PROD) // PART_SET_COUNT
        ms = (action - WORK_PROD) % PART_SET_COUNT
        area = cell // MAX_AREA_SPACES
        sp = cell % MAX_AREA_SPACES
        self.s.main = M_PRODUCTION
        _pay_workers(self, p, ms)
        self.s.silver[p] -= t.space_cost[area][sp]
        _fill_slot(self, t.area_slot[area] + 2 * sp, ms)
        _take_goods(self, p, t.area_good[area], t.space_yield[area][sp])
        self.s.prod_area = area
        self.s.prod_space = sp
        if _count_workers(self, p) >= 2 or self.s.workers[p][t.area_colour[area]] >= 1:
            self.s.stage = RIGHT_STAGE
            self.s.decider = p
        else:
            _end_turn(self)
    else:
        self.s.main = M_BUILD
        self.s.builds_paid = 0
        _build_step(self, action)


cdef void _pay_workers(MontanaKernel self, int p, int ms) noexcept:
    cdef int c
    for c in range(4):
        self.s.workers[p][c] -= SET_W[ms][c]


# ----- recruit ------------------------------------------------------------------------
cdef void _apply_push(MontanaKernel self, int steps) noexcept:
    cdef Tables t = self.t
    cdef int p = self.s.active, paid = steps * t.grain_per_push, final, c
    self.s.push = steps
    self.s.goods[p][GRAIN_GOOD] -= paid
    self.s.supply_goods[GRAIN_GOOD] += paid
    final = (self.s.spin + steps) % t.wheel_n
    for c in range(4):
        self.s.received[c] = t.wheel_fixed[final][c]
    self.s.wilds = t.wheel_wilds[final]
    if t.additional and steps >= 1:
        for c in range(4):
            self.s.received[c] += t.wheel_fixed[self.s.spin][c]
        self.s.wilds += t.wheel_wilds[self.s.spin]
    if self.s.wilds:
        self.s.stage = WILD_STAGE
        self.s.decider = p
    else:
        _receive_recruit(self)


cdef void _add_received(MontanaKernel self, int ms) noexcept:
    cdef int c
    for c in range(4):
        self.s.received[c] += SET_W[ms][c]


cdef void _receive_recruit(MontanaKernel self) noexcept:
    cdef int p = self.s.active, c
    for c in range(4):
        if self.s.received[c]:
            _take_workers(self, p, c, self.s.received[c])
        self.s.received[c] = 0
    self.s.wilds = 0
    _check_cap(self, TURN_END)


cdef void _check_cap(MontanaKernel self, int resume) noexcept:
    cdef int p = self.s.active, excess = _count_workers(self, p) - self.t.worker_cap
    if excess > 0:
        self.s.excess = excess
        self.s.after_overflow = resume
        self.s.stage = OVERFLOW
        self.s.decider = p
    elif resume == TURN_END:
        _end_turn(self)


cdef void _apply_return(MontanaKernel self, int ms) noexcept:
    cdef int p = self.s.active, c, resume = self.s.after_overflow
    _pay_workers(self, p, ms)
    for c in range(4):
        self.s.supply_workers[c] += SET_W[ms][c]
    self.s.excess = 0
    self.s.after_overflow = TURN_END
    if resume == TURN_END:
        _end_turn(self)
    else:
        self.s.stage = resume
        self.s.decider = p


# ----- cattle trade, production right part --------------------------------------------
cdef void _trade(MontanaKernel self, int kind) noexcept:
    cdef int p = self.s.active
    self.s.cattle[p] -= 1
    self.s.supply_cattle += 1
    if kind < TRADE_SILVER:
        _take_goods(self, p, kind, 1)
    elif kind == TRADE_SILVER:
        self.s.silver[p] += self.t.trade_silver
    else:
        _take_workers(self, p, kind - TRADE_SILVER - 1, 1)
        _check_cap(self, self.s.stage)


cdef void _apply_right(MontanaKernel self, int action) noexcept:
    cdef int p = self.s.active, ms, c, area = self.s.prod_area
    if action != RIGHT_NONE:
        ms = action - RIGHT
        _pay_workers(self, p, ms)
        _fill_slot(self, self.t.area_slot[area] + 2 * self.s.prod_space + 1, ms)
        _take_goods(self, p, self.t.area_good[area], self.t.area_right[area])
    _end_turn(self)


# ----- city auction -------------------------------------------------------------------
cdef void _apply_place(MontanaKernel self, int action) noexcept:
    cdef int p = self.s.decider, row, col, holder
    if action == PASS:
        self.s.contractor[p] = HOME
        self.s.out[p] = 1
        _advance_auction(self)
        return
    row = (action - PLACE) // MAX_COLUMNS
    col = (action - PLACE) % MAX_COLUMNS
    holder = _row_holder(self, row)
    self.s.contractor[p] = row * self.t.ncols + col
    if holder >= 0:
        self.s.contractor[holder] = HOME
        self.s.chain = 1
        self.s.decider = holder
    else:
        _advance_auction(self)


cdef void _advance_auction(MontanaKernel self) noexcept:
    self.s.chain = 0
    self.s.opp += 1
    if self.s.opp < self.t.n:
        self.s.decider = (self.s.active + self.s.opp) % self.t.n
        self.s.stage = PLACE_STAGE
        return
    self.s.cursor = 0
    _next_reward(self)


cdef void _next_reward(MontanaKernel self) noexcept:
    """Resolve the store clockwise from the active player: pay the column, then declare."""
    cdef int n = self.t.n, p, spot, cost
    while self.s.cursor < n:
        p = (self.s.active + self.s.cursor) % n
        spot = self.s.contractor[p]
        if spot != HOME:
            cost = self.t.column_cost[spot % self.t.ncols]
            if self.s.goods[p][PUMPKIN_GOOD] >= cost:
                self.s.goods[p][PUMPKIN_GOOD] -= cost
                self.s.supply_goods[PUMPKIN_GOOD] += cost
                self.s.stage = REWARD
                self.s.decider = p
                return
            self.s.contractor[p] = HOME
        self.s.cursor += 1
    for p in range(4):
        self.s.contractor[p] = HOME
        self.s.out[p] = 0
    self.s.opp = 0
    _end_turn(self)


cdef void _apply_reward(MontanaKernel self, int action) noexcept:
    cdef Tables t = self.t
    cdef int p = self.s.decider, row = self.s.contractor[p] // t.ncols, k, i, got, need
    if t.row_cattle[row]:
        need = t.row_cattle[row]
        _take(self, &self.s.supply_cattle, &self.s.cattle[0], 1, p, need)
    self.s.silver[p] += t.row_silver[row]
    if action >= REWARD_PICK:
        for k in range(6):
            if PICK_G[action - REWARD_PICK][k]:
                _take_goods(self, p, k, PICK_G[action - REWARD_PICK][k])
    else:
        for i in range(t.nup):
            need = PAIR[action - REWARD_UP][i]
            if need:
                got = _take_goods(self, p, t.up_large[i], need)
                self.s.goods[p][t.up_small[i]] -= got
                self.s.supply_goods[t.up_small[i]] += got
    self.s.cursor += 1
    _next_reward(self)


# ----- build --------------------------------------------------------------------------
cdef void _build_step(MontanaKernel self, int action) noexcept:
    """Pay, place one tile and take the hex's effects: cattle, adjacent canteens, the
    double hex and the straight-line bonus (spec §4.4); free tiles never exceed the
    tiles left."""
    cdef int p = self.s.active, cell = _cell_of_action(self, action), k, d, nb, extra
    for k in range(6):
        self.s.goods[p][k] -= self.b.cost[cell][k]
        self.s.supply_goods[k] += self.b.cost[cell][k]
    self.s.owner[cell] = p
    if self.b.quick:
        self.s.settled |= <uint64_t>1 << self.b.pindex[cell]
        self.s.mine[p] |= <uint64_t>1 << self.b.pindex[cell]
    self.s.hex_tiles[cell] = 1
    self.s.tiles[p] -= 1
    self.s.builds_paid += 1
    if self.s.hex_cattle[cell]:
        self.s.hex_cattle[cell] = 0
        self.s.cattle[p] += 1
    for d in range(6):
        nb = cell + self.t.step[d]
        if self.s.canteen_on[nb]:
            self.s.canteen_on[nb] = 0
            self.s.canteens[p] += 1
    extra = 1 if self.b.dbl[cell] else 0
    if _line_bonus(self, p, cell):
        extra += 1
    if extra > self.s.tiles[p]:
        extra = self.s.tiles[p]
    self.s.hex_tiles[cell] += extra
    self.s.tiles[p] -= extra
    _plane_build(self, p, cell)
    if self.s.tiles[p] == 0 and self.s.trigger_by < 0:
        self.s.trigger_by = p
    if self.s.tiles[p] == 0 or self.s.builds_paid >= self.t.max_builds:
        _finish_build(self)
    else:
        self.s.stage = BUILD_NEXT
        self.s.decider = p


cdef void _plane_build(MontanaKernel self, int p, int cell) noexcept:
    """The compact row's hex planes (``Position.planes``) after ``p`` built on ``cell``: its
    settlement and tiles set, its cattle and the canteens of the lakes around it gone."""
    cdef int g = GRID_OF[cell], d, nb, tiles = self.s.hex_tiles[cell]
    cdef int w = g >> 6
    cdef uint64_t bit = <uint64_t>1 << (g & 63)
    self.s.planes[p][w] |= bit
    self.s.planes[4][w] = (self.s.planes[4][w] & ~bit) | (bit if tiles & 1 else 0)
    self.s.planes[5][w] = (self.s.planes[5][w] & ~bit) | (bit if tiles & 2 else 0)
    self.s.planes[6][w] &= ~bit
    for d in range(6):
        nb = cell + self.t.step[d]
        g = GRID_OF[nb]
        if g >= 0:
            self.s.planes[7][g >> 6] &= ~(<uint64_t>1 << (g & 63))


cdef int _cell_of_action(MontanaKernel self, int action) noexcept:
    cdef int g = action - BUILD
    return (g // 15 + 1) * PW + g % 15 + 1


cdef bint _line_bonus(MontanaKernel self, int p, int cell) noexcept:
    """Spec §4.4.1: a run of at least line_length of ``p``'s hexes through ``cell`` on an
    axis, none of them in a line already rewarded on that axis; every such run counts."""
    cdef int axis, j, cur, length, low, bit
    cdef bint found = False, fresh
    for axis in range(3):
        length = 1
        low = cell
        for j in range(2):
            cur = cell + self.t.step[AXIS_DIR[axis][j]]
            while self.s.owner[cur] == p:
                length += 1
                if cur < low:
                    low = cur
                cur += self.t.step[AXIS_DIR[axis][j]]
        if length < self.t.line_length:
            continue
        bit = 1 << (3 * p + axis)
        fresh = True
        cur = low
        for j in range(length):
            if self.s.lined[cur] & bit:
                fresh = False
            cur += self.t.step[AXIS_UP[axis]]
        if not fresh:
            continue
        self._record_line(p, axis, low, length)
        found = True
    return found


cdef void _finish_build(MontanaKernel self) noexcept:
    cdef int p = self.s.active
    self.s.silver[p] += (self.t.max_builds - self.s.builds_paid) * self.t.silver_per_skip
    _end_turn(self)
