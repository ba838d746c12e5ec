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
    cdef int cell, tile, shape, r, tiles, empty = 0, vacant = 0, pool = 0, hand = 0
    for cell in range(9):
        if b.tiles[cell] < 0:
            empty |= 1 << cell
        elif b.pieces[cell] < 0:
            vacant |= 1 << cell
    for tile in range(9):
        if b.tile_cell[tile] < 0:
            pool |= 1 << tile
    for shape in range(3):
        if b.where[3 * b.mover + shape] < 0:
            hand |= 1 << shape
    tiles = BITS[pool] * BITS[empty]
    if tiles + BITS[hand] * BITS[vacant] == 0:
        return -1
    r = rng_below(rng, tiles + BITS[hand] * BITS[vacant])
    if r < tiles:
        return nth_bit(pool, r // BITS[empty]) * 9 + nth_bit(empty, r % BITS[empty])
    r -= tiles
    return PIECE_BASE + nth_bit(hand, r // BITS[vacant]) * 9 + nth_bit(vacant, r % BITS[vacant])


cdef int movement_sample(const Position* b, Rng* rng) noexcept nogil:
    """``movement_into``'s list (the mover's piece moves under the active MOVE rule, by source
    cell; then the trades under the active TRADE rule, by first cell), drawn from; -1 (no
    draw) when it is empty."""
    cdef int count = 0, moves = 0, src, i, partners, k, cell, r
    cdef int move_tile = b.active[RED]
    cdef int trade_tile = b.active[BLUE]
    cdef int owned[2]
    cdef int groups[3]
    cdef int sources[3]
    cdef int targets[3]
    cdef int trades[8]
    owned[0] = owned[1] = 0
    for k in range(6):
        cell = b.where[k]
        if cell >= 0:
            owned[k // 3] |= 1 << cell
    if move_tile >= 0:
        partners = owned[b.mover]
        while partners:
            src = ctz(partners)
            partners &= partners - 1
            sources[moves] = src
            targets[moves] = MOVE_MASK[move_tile][src] & ~(owned[0] | owned[1])
            count += BITS[targets[moves]]
            moves += 1
    for i in range(8):
        trades[i] = 0
    if trade_tile >= 0:
        if trade_tile != POLARITY:
            groups[0] = groups[1] = groups[2] = 0
            for k in range(9):
                cell = b.tile_cell[k]
                if cell >= 0:
                    groups[k // 3 if trade_tile == POLARITY + 1 else k % 3] |= 1 << cell
        for i in range(8):
            if trade_tile == POLARITY:
                if owned[0] >> i & 1:
                    partners = owned[1]
                elif owned[1] >> i & 1:
                    partners = owned[0]
                else:
                    continue
            elif b.tiles[i] < 0:
                continue
            elif trade_tile == POLARITY + 1:
                partners = groups[b.tiles[i] // 3]
            else:
                partners = groups[b.tiles[i] % 3]
            trades[i] = partners & ABOVE[i]
            count += BITS[trades[i]]
    if count == 0:
        return -1
    r = rng_below(rng, count)
    for k in range(moves):
        if r < BITS[targets[k]]:
            return MOVE_ACTION[sources[k]][nth_bit(targets[k], r)]
        r -= BITS[targets[k]]
    for i in range(8):
        if r < BITS[trades[i]]:
            return TRADE_ACTION[i][nth_bit(trades[i], r)]
        r -= BITS[trades[i]]
    return -1  # not reached: r < count
