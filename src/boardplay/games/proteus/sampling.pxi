"""Proteus kernel, part: a uniform draw among the candidate actions without writing their list,
for ``sample_legal`` (a playout's step). Each function gathers the order ``placement_into`` or
``movement_into`` lists in as a few bit masks (the empty cells and the pool's tiles, the vacant
tiles and the shapes in hand; each piece's move targets, each cell's trade partners), counts
them, draws ``r = rng_below(count)`` and returns ``list[r]`` from the masks: the action the list
would give for the same draw. Only the candidate lists: the caller takes this path when no
filter (forcing, repetitions, kadon's placement limits) applies. Included by ``kernel.pyx``
after ``movement.pxi``, whose tables it reads."""


cdef inline int nth_bit(int mask, int r) noexcept nogil:
    """The cell of the r-th set bit of ``mask``, lowest first."""
    while r > 0:
        mask &= mask - 1
        r -= 1
    return ctz(mask)


cdef int placement_sample(const Position* b, Rng* rng) noexcept nogil:
    """``placement_into``'s list without kadon's limits (tile placements: pool tiles in id
    order, each onto every empty cell; then the mover's piece placements: shapes in hand, each
    onto every vacant tile), drawn from; -1 (no draw) when it is empty."""
    cdef int r, empty = b.empty, vacant = b.vacant, pool = b.pool, hand = b.hand[b.mover]
    cdef int tiles = BITS[pool] * BITS[empty]
    if tiles + BITS[hand] * BITS[vacant] == 0:
        return -1
    r = rng_below(rng, tiles + BITS[hand] * BITS[vacant])
    if r < tiles:
        return nth_bit(pool, r // BITS[empty]) * 9 + nth_bit(empty, r % BITS[empty])
    r -= tiles
    return PIECE_BASE + nth_bit(hand, r // BITS[vacant]) * 9 + nth_bit(vacant, r % BITS[vacant])


cdef int forced_placement_sample(const Position* b, Rng* rng) noexcept nogil:
    """Seed placement under the forcing rule: the activating piece placements (a shape in hand
    onto a vacant tile of that shape whose colour is missing; by shape, then cell) drawn from,
    or ``placement_sample`` when there are none."""
    cdef int shape, r, count = 0, hand = b.hand[b.mover]
    cdef int cells = b.vacant & missing_cells(b)
    cdef int fits[3]
    for shape in range(3):
        fits[shape] = cells & b.shape_cells[shape] if hand >> shape & 1 else 0
        count += BITS[fits[shape]]
    if count == 0:
        return placement_sample(b, rng)
    r = rng_below(rng, count)
    for shape in range(3):
        if r < BITS[fits[shape]]:
            return PIECE_BASE + shape * 9 + nth_bit(fits[shape], r)
        r -= BITS[fits[shape]]
    return -1  # not reached: r < count


cdef int kadon_placement_sample(const Position* b, Rng* rng) noexcept nogil:
    """Kadon placement (``placement_into`` with §4.2 and §4.4): the tile placements, then each
    shape in hand onto the vacant tiles ``placeable`` allows, drawn from; -1 when empty."""
    cdef int shape, r, tile, allowed, count, hand = b.hand[b.mover]
    cdef int missing = (b.active[0] < 0) | (b.active[1] < 0) << 1 | (b.active[2] < 0) << 2
    cdef int c0 = (b.hand[0] & 1) + (b.hand[1] & 1)
    cdef int c1 = (b.hand[0] >> 1 & 1) + (b.hand[1] >> 1 & 1)
    cdef int c2 = (b.hand[0] >> 2) + (b.hand[1] >> 2)
    cdef int tiles = BITS[b.pool] * BITS[b.empty]
    cdef int fits[3]
    count = tiles
    for shape in range(3):
        fits[shape] = 0
        if hand >> shape & 1:
            allowed = placeable(c0, c1, c2, b.pool | b.vacant_tiles, missing, shape)
            allowed &= b.vacant_tiles
            while allowed:
                tile = ctz(allowed)
                allowed &= allowed - 1
                fits[shape] |= 1 << b.tile_cell[tile]
            count += BITS[fits[shape]]
    if count == 0:
        return -1
    r = rng_below(rng, count)
    if r < tiles:
        return nth_bit(b.pool, r // BITS[b.empty]) * 9 + nth_bit(b.empty, r % BITS[b.empty])
    r -= tiles
    for shape in range(3):
        if r < BITS[fits[shape]]:
            return PIECE_BASE + shape * 9 + nth_bit(fits[shape], r)
        r -= BITS[fits[shape]]
    return -1  # not reached: r < count


cdef int movement_sample(const Position* b, Rng* rng) noexcept nogil:
    """``movement_into``'s list (the mover's piece moves under the active MOVE rule, by source
    cell; then the trades under the active TRADE rule, by first cell), drawn from; -1 (no
    draw) when it is empty. The trades are counted without listing them: every pair across
    owners (POLARITY), or every pair within a colour or a shape group."""
    cdef int count = 0, moves = 0, src, i, partners, k, r, group
    cdef int move_tile = b.active[RED]
    cdef int trade_tile = b.active[BLUE]
    cdef int occupied = b.owned[0] | b.owned[1]
    cdef const int* groups
    cdef int sources[3]
    cdef int targets[3]
    if move_tile >= 0:
        partners = b.owned[b.mover]
        while partners:
            src = ctz(partners)
            partners &= partners - 1
            sources[moves] = src
            targets[moves] = MOVE_MASK[move_tile][src] & ~occupied
            count += BITS[targets[moves]]
            moves += 1
    if trade_tile == POLARITY:
        count += BITS[b.owned[0]] * BITS[b.owned[1]]
    elif trade_tile >= 0:
        if trade_tile == POLARITY + 1:
            groups = &b.colour_cells[0]
        else:
            groups = &b.shape_cells[0]
        for k in range(3):
            group = BITS[groups[k]]
            count += group * (group - 1) >> 1
    if count == 0:
        return -1
    r = rng_below(rng, count)
    for k in range(moves):
        if r < BITS[targets[k]]:
            return MOVE_ACTION[sources[k]][nth_bit(targets[k], r)]
        r -= BITS[targets[k]]
    for i in range(8):
        partners = trade_partners(b, trade_tile, i)
        if r < BITS[partners]:
            return TRADE_ACTION[i][nth_bit(partners, r)]
        r -= BITS[partners]
    return -1  # not reached: r < count
