"""Passtally kernel, part: where a tile may go (spec §5). For every anchor cell the orientations
whose footprint meets the support rules, kept up to date cell by cell as stacks grow, with the
counts per board row that let a uniform draw pick the r-th legal placement without listing them;
and ``through``, each cell's line paths under its present shape (lines.pxi walks them). Included
by ``kernel.pyx`` after the tables; every function takes the ``Position`` alone."""


from libc.string cimport memcpy, memset

cdef unsigned int ORIENT_BYTES[16]
"""Per orientation mask m, four bytes (in memory order) whose k-th is bit k of m: an
anchor's four placement ids as mask entries, written in one 4-byte store."""


cdef int _orient_bytes() noexcept:
    cdef int m, k
    cdef unsigned char* b
    for m in range(16):
        b = <unsigned char*>&ORIENT_BYTES[m]
        for k in range(4):
            b[k] = (m >> k) & 1
    return 0


_orient_bytes()


cdef inline bint footprint_legal(Position* p, int a, int b) noexcept:
    """Support rules 3-4 of §5: equal heights, and a raised tile straddles two tiles."""
    cdef int h = p.height[a]
    return (h == p.height[b]) & ((h == 0) | (p.tid[a] != p.tid[b]))


cdef inline void set_footprint(Position* p, int a, int b, int bit_a, int bit_b, int row_a,
                               int row_b, int valid) noexcept:
    """Re-decide the footprint on cells a < b (in board rows ``row_a``, ``row_b``):
    ``bit_a`` (E or S) of anchor a and ``bit_b`` (W or N) of anchor b, and the counts of
    legal footprints; nothing changes unless ``valid`` is -1 (all bits). Written without
    branches: whether a footprint changes, or a cell has that neighbour, is a coin toss to the
    CPU, and a mispredicted branch costs more than the few stores that change nothing."""
    cdef int was = (p.orient[a] & bit_a) != 0
    cdef int change = (footprint_legal(p, a, b) - was) & valid
    cdef int flip = -(change & 1)
    p.orient[a] ^= bit_a & flip
    p.orient[b] ^= bit_b & flip
    p.footprints += change
    p.row_canon[row_a] += change
    p.row_all[row_a] += change
    p.row_all[row_b] += change


cdef inline void refresh_cell(Position* p, int cell) noexcept:
    """Re-decide the (up to four) footprints through ``cell`` after its stack changed: all four
    pairs every time, a missing neighbour standing in as ``cell`` itself with ``valid`` 0."""
    cdef int row = cell // SIZE
    cdef int west = -(cell % SIZE != 0), east = -EAST_VALID[cell]
    cdef int north = -(cell >= SIZE), south = -SOUTH_VALID[cell]
    set_footprint(p, cell + (west & -1), cell, BIT_E, BIT_W, row, row, west)
    set_footprint(p, cell, cell + (east & 1), BIT_E, BIT_W, row, row, east)
    set_footprint(p, cell + (north & -SIZE), cell, BIT_S, BIT_N, row + north, row, north)
    set_footprint(p, cell, cell + (south & SIZE), BIT_S, BIT_N, row, row - south, south)


cdef inline void set_through(Position* p, int cell) noexcept:
    """``through`` for the four faces of ``cell`` after its shape changed."""
    cdef int key = cell * 4, step = p.shape[cell] * NUM_OFFSETS + key
    p.through[key] = LINE_NEXT[step]
    p.through[key + 1] = LINE_NEXT[step + 1]
    p.through[key + 2] = LINE_NEXT[step + 2]
    p.through[key + 3] = LINE_NEXT[step + 3]


cdef int nth_placement(Position* p, int r, int mask) noexcept:
    """The offset (anchor * 4 + orientation) of the r-th legal placement in id order, of a
    design whose spellings are ``mask`` (15, or 3 for a symmetric design: E and S only).
    Without branches: the row is the number of rows whose running count stays at or below r,
    then the anchor likewise within the row (where r falls is a coin toss to the CPU)."""
    cdef int i, row = 0, below = 0, run = 0, a, bits, count
    cdef const unsigned char* rows = &p.row_canon[0] if mask == 3 else &p.row_all[0]
    for i in range(SIZE - 1):
        run += rows[i]
        row += run <= r
        below += rows[i] * (run <= r)
    r -= below
    a = row * SIZE
    below = 0
    run = 0
    for i in range(SIZE - 1):
        count = SPELLING_COUNT[p.orient[row * SIZE + i] & mask]
        run += count
        a += run <= r
        below += count * (run <= r)
    bits = p.orient[a] & mask
    return a * 4 + SPELLINGS[bits * 4 + r - below]


cdef int placements_into(const Position* p, int* out) noexcept:
    """Every face-up pile's placements in id order (the legal list's first part). Per anchor,
    its mask of legal orientations and one table look-up for its placements in id order,
    listed once for an asymmetric design and once for a symmetric one (E/S spellings only),
    then copied per pile."""
    cdef int symmetric[NUM_OFFSETS + 4]
    cdef int asymmetric[NUM_OFFSETS + 4]
    cdef int count_symmetric = 0, count_asymmetric = 0, count = 0, a, mask, corner, pile, d
    cdef int base, i
    cdef const int* spelled
    for a in range(NUM_CELLS):
        mask = p.orient[a]
        corner = a * 4
        spelled = &SPELLINGS[mask * 4]
        asymmetric[count_asymmetric] = corner + spelled[0]
        asymmetric[count_asymmetric + 1] = corner + spelled[1]
        asymmetric[count_asymmetric + 2] = corner + spelled[2]
        asymmetric[count_asymmetric + 3] = corner + spelled[3]
        count_asymmetric += SPELLING_COUNT[mask]
        mask = mask & 3
        spelled = &SPELLINGS[mask * 4]
        symmetric[count_symmetric] = corner + spelled[0]
        symmetric[count_symmetric + 1] = corner + spelled[1]
        count_symmetric += SPELLING_COUNT[mask]
    for pile in range(NUM_PILES):
        d = p.face_up[pile]
        if d < 0:
            continue
        base = PLACE_BASE + pile * PLACE_PER_PILE
        if SYMMETRIC[d]:
            for i in range(count_symmetric):
                out[count + i] = base + symmetric[i]
            count += count_symmetric
        else:
            for i in range(count_asymmetric):
                out[count + i] = base + asymmetric[i]
            count += count_asymmetric
    return count


cdef void placements_mask(const Position* p, signed char* mask) noexcept:
    """``placements_into`` as an action mask (its entries 1, the rest of the placement ids
    0): per pile and anchor, the anchor's four orientation bytes in one store from a table."""
    cdef int pile, d, a, spellings
    cdef signed char* out
    for pile in range(NUM_PILES):
        d = p.face_up[pile]
        out = mask + PLACE_BASE + pile * PLACE_PER_PILE
        if d < 0:
            memset(out, 0, PLACE_PER_PILE)
            continue
        spellings = 3 if SYMMETRIC[d] else 15
        for a in range(NUM_CELLS):
            memcpy(out + a * 4, &ORIENT_BYTES[p.orient[a] & spellings], 4)
