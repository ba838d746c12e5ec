"""Passtally kernel, part: a uniform random step without the kernel interface's lists and
calls. ``random_game`` plays a whole random game in one function, the step the core's
``random_playouts`` would take through the vtable three times (``to_move``, ``sample_legal``
or ``chance_into`` with ``sample_chance``, then ``apply``) with the same draws from the same
generator, so a seed plays the same games; ``draw_action`` is also ``sample_legal``'s draw in
play. Included by ``kernel.pyx``; the class is declared in ``kernel.pxd``, so its (final)
methods are direct C calls here."""


cdef inline int pile_share(const Position* p, int pile) noexcept:
    """The placements face-up pile ``pile`` offers: one per legal footprint for a symmetric
    design, two (both spellings) for the others, none without a face-up tile."""
    cdef int d = p.face_up[pile]
    return 0 if d < 0 else p.footprints << (0 if SYMMETRIC[d] else 1)


cdef inline int nth_pile_placement(const Position* p, int r, int first, int second) noexcept:
    """The r-th placement (r below the three piles' shares) given the first pile's share and
    the first two's: the pile as the number of running totals at or below r, without a
    branch (which pile r picks is a coin toss to the CPU)."""
    cdef int pile = (r >= first) + (r >= second)
    r -= first * (r >= first) + (second - first) * (r >= second)
    return PLACE_BASE + pile * PLACE_PER_PILE \
        + nth_placement(p, r, 3 if SYMMETRIC[p.face_up[pile]] else 15)


cdef inline int nth_default_move(const Position* p, int r) noexcept:
    """The r-th marker move of the seat to move under the default movement rules (every
    marker has its four moves, in slot order): the marker found by dropping the lowest one
    r // 4 times, without a branch for the usual four markers."""
    cdef unsigned int left = p.seat_slots[p.to_move]
    cdef int skip = r >> 2, i
    for i in range(3):  # a seat has four markers in play...
        left &= left - <unsigned int>(i < skip)
    for i in range(3, skip):  # ...more only in a position loaded as such
        left &= left - 1
    return MOVE_BASE + ctz(left) * 4 + (r & 3)


cdef inline int draw_action(PasstallyKernel k, Rng* rng, int* scratch) noexcept:
    """``sample_legal`` in play (not setup, a reveal or the end): one ``rng_below`` over the
    legal count, then the r-th action of ``legal_into``'s list. Under the default movement
    rules the count and the r-th action come from the piles' shares in registers; under the
    variants, from ``count_legal`` and ``nth_legal`` (which list the moves)."""
    cdef Position* p = &k.p
    cdef int per_pile[NUM_PILES]
    cdef int first, second, placements, r
    if p.jump_step or not p.continuous:
        r = k.count_legal(per_pile, scratch)
        return k.nth_legal(rng_below(rng, r), per_pile, scratch)
    first = pile_share(p, 0)
    second = first + pile_share(p, 1)
    placements = second + pile_share(p, 2)
    r = rng_below(rng, placements + 4 * p.seat_markers[p.to_move])
    if r < placements:
        return nth_pile_placement(p, r, first, second)
    return nth_default_move(p, r - placements)


cdef inline int draw_design(const Position* p, Rng* rng) noexcept:
    """The design a reveal draws: ``sample_chance`` over ``chance_into``'s list, without the
    list. The running totals are the same doubles summed in the same order (a design with
    none left adds 0.0, which changes no total), so the number of totals at or below the
    point is the design's index, capped at the last design with tiles left (where the list's
    last outcome takes a point at or above the rounded sum)."""
    cdef int d, total = 0, pick = 0
    cdef unsigned int left = 0
    cdef double point, running = 0.0
    for d in range(NUM_DESIGNS):
        total += p.unrevealed[d]
        left |= (<unsigned int>(p.unrevealed[d] > 0)) << d
    point = rng_unit(rng)
    for d in range(NUM_DESIGNS - 1):
        running += SHARE[p.unrevealed[d] * (TOTAL_TILES + 1) + total]
        pick += point >= running
    d = 31 - clz(left)
    return pick if pick < d else d


cdef long random_game(Kernel kernel, Rng* rng, long max_actions, int* scratch) noexcept:
    """``RandomGame`` (core ``kernel.pxd``) for Passtally, registered below the class: the
    core's generic step (a reveal by ``sample_chance``, a setup marker from the listed
    slots, an action in play by ``sample_legal``, each then applied) with its calls made
    directly, the reveal drawn without its list and the action without ``count_legal``'s
    shares in memory: 1.09-1.11x the generic loop's games per CPU second (docs/journal/
    performance.md, Passtally's sixth pass)."""
    cdef PasstallyKernel k = <PasstallyKernel>kernel
    cdef Position* p = &k.p
    cdef long steps = 0
    cdef int action
    while not p.game_over:
        if max_actions > 0 and steps >= max_actions:
            break
        if p.pending >= 0:
            k.reveal(draw_design(p, rng))
        elif p.setup:
            k.place_marker(scratch[rng_below(rng, setup_slots_into(p, p.n, scratch))])
        else:
            action = draw_action(k, rng, scratch)
            if action < MOVE_BASE:
                k.place_tile(action)
            else:
                k.move_marker(action)
        steps += 1
    return steps
