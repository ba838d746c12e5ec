"""Montana kernel, part: setup spins, the start of a turn, cleanup, the end of a turn and
of the game (rules spec §4, §10, §11). Included by ``kernel.pyx``; each function takes the
kernel as ``self``, as the methods they were."""


# ----- turns --------------------------------------------------------------------------
cdef void _begin_turn(MontanaKernel self, int player, bint extra) noexcept:
    self.s.active = player
    self.s.extra_turn = extra
    self.s.turn_number += 1
    if not extra:
        self.s.regular_turns[player] += 1
    self.s.main = 0
    self.s.builds_paid = 0
    self.s.stage = MAIN
    self.s.decider = player


cdef int _next_main_seat(MontanaKernel self) noexcept:
    """The seat whose main action comes next (the feature ``next_main_seat``): the active seat
    until it has taken its main action this turn (trades and a worker return at stage ``MAIN``
    come before it), then the next seat, whose turn follows once this one ends (the rest of the
    turn, the City auction's placements and rewards and the end of the turn included); -1 in
    setup, at the end, and once the game's last turn has had its main action (the final round's
    last seat, or the turn cap). A canteen's extra turn is not foreseen: at the end of a turn the
    next seat has the tempo, and taking the extra turn takes it back."""
    cdef int p = self.s.active, n = self.t.n, stage = self.s.stage
    if p < 0 or stage == OVER:
        return -1
    if (self.s.main == M_NONE and stage != END_STAGE
            and not (stage == OVERFLOW and self.s.after_overflow == END_STAGE)):
        return p
    if self.s.turn_number >= self.t.max_turns:
        return -1
    if self.s.trigger_by >= 0 and p == (self.s.start_player - 1 + n) % n:
        return -1
    return (p + 1) % n


cdef void _clear_slot(MontanaKernel self, int slot) noexcept:
    cdef int c
    for c in range(4):
        self.s.supply_workers[c] += self.s.slots[slot][c]
        self.s.slots[slot][c] = 0
    slot_nibbles(self, slot)


cdef void _fill_slot(MontanaKernel self, int slot, int ms) noexcept:
    """Workers of multiset ``ms`` on a worker-board part (bank space or production side)."""
    cdef int c
    for c in range(4):
        self.s.slots[slot][c] = SET_W[ms][c]
    slot_nibbles(self, slot)


cdef void _cleanup(MontanaKernel self) noexcept:
    """Clear the bank, and every area, once all its (left) spaces are taken (spec §4.1)."""
    cdef Tables t = self.t
    cdef int b, a, sp, slot
    cdef bint full = True
    for b in range(t.nbank):
        if not _slot_used(self, b):
            full = False
    if full:
        for b in range(t.nbank):
            _clear_slot(self, b)
    for a in range(4):
        full = True
        for sp in range(t.area_n[a]):
            if not _slot_used(self, t.area_slot[a] + 2 * sp):
                full = False
        if full:
            for slot in range(t.area_slot[a], t.area_slot[a] + 2 * t.area_n[a]):
                _clear_slot(self, slot)


cdef void _end_turn(MontanaKernel self) noexcept:
    """Steps 2–5 of spec §4.1 (an auction has already been resolved)."""
    cdef int p = self.s.active, n = self.t.n
    cdef bint capped = self.s.turn_number >= self.t.max_turns
    _cleanup(self)
    self.s.main = 0
    self.s.spin = self.s.push = self.s.prod_area = self.s.prod_space = -1
    self.s.builds_paid = 0
    if self.s.trigger_by >= 0 and p == (self.s.start_player - 1 + n) % n:
        # The final round is over; with canteen_after_final the last seat may still use a
        # canteen, but never past the turn cap.
        if self.t.canteen_after_final and self.s.canteens[p] > 0 and not capped:
            self.s.final_pending = True
            self.s.stage = END_STAGE
            self.s.decider = p
            return
        _finish(self, BY_TRIGGER)
        return
    if capped:
        _finish(self, BY_MAX_TURNS)
        return
    if self.s.cattle[p] > 0 or self.s.canteens[p] > 0:
        self.s.stage = END_STAGE
        self.s.decider = p
        return
    _begin_turn(self, (p + 1) % n, False)


cdef void _apply_end(MontanaKernel self, int action) noexcept:
    cdef int p = self.s.active
    if action == CANTEEN:
        self.s.canteens[p] -= 1
        self.s.canteens_used += 1
        self.s.final_pending = False
        _begin_turn(self, p, True)
    elif self.s.final_pending:
        self.s.final_pending = False
        _finish(self, BY_TRIGGER)
    else:
        _begin_turn(self, (p + 1) % self.t.n, False)


cdef void _finish(MontanaKernel self, int reason) noexcept:
    self.s.ended_by = reason
    self.s.stage = OVER
    self.s.decider = self.s.active  # the seat whose turn it was: the contract's to_move
    self.s.won = self._winners()


cdef void _setup_spin(MontanaKernel self, int segment) noexcept:
    cdef int c
    self.s.spin = segment
    for c in range(4):
        self.s.received[c] = self.t.wheel_fixed[segment][c]
    self.s.wilds = self.t.wheel_wilds[segment]
    if self.s.wilds:
        self.s.stage = SETUP_WILD
        self.s.decider = self.s.setup_seat
    else:
        _setup_receive(self)


cdef void _setup_receive(MontanaKernel self) noexcept:
    cdef int seat = self.s.setup_seat, c
    for c in range(4):
        if self.s.received[c]:
            _take_workers(self, seat, c, self.s.received[c])
        self.s.received[c] = 0
    self.s.wilds = 0
    self.s.spin = -1
    self.s.setup_spin_no += 1
    if self.s.setup_spin_no == self.t.setup_spins:
        self.s.setup_spin_no = 0
        self.s.setup_seat += 1
    if self.s.setup_seat == self.t.n:
        _after_setup_spins(self)
    else:
        self.s.stage = SETUP_SPIN
        self.s.decider = CHANCE


cdef void _after_setup_spins(MontanaKernel self) noexcept:
    self.s.setup_seat = self.t.n
    if self.t.fixed_start >= 0:
        _start_game(self, self.t.fixed_start)
    else:
        self.s.stage = START
        self.s.decider = CHANCE


cdef void _start_game(MontanaKernel self, int seat) noexcept:
    cdef int i, n = self.t.n
    self.s.start_player = seat
    for i in range(n):
        self.s.silver[(seat + i) % n] = self.t.start_silver[i]
    _begin_turn(self, seat, False)
