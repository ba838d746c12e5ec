"""Passtally kernel, part: where a tile may go (spec §5). The legal footprints are two boards,
``Position.east`` and ``Position.south`` (bit ``GRID[a]`` for the pair of cell a and its east or
south neighbour), over the heights kept in a bordered grid (``Position.grid``), so a placement
re-decides its two cells' pairs from their neighbours' heights in registers, and a uniform draw
finds the r-th legal placement from byte-wise counts of the boards without listing them; and
``through``, each cell's line paths under its present shape (lines.pxi walks them). Included by
``kernel.pyx`` after the tables; every function takes the ``Position`` alone."""


from libc.stdint cimport uint64_t
from libc.string cimport memcpy, memset

cdef enum:
    # The bordered grid: cell (row, col) at bit/byte 8 * (row + 1) + col + 1 of an 8 x 8
    # square, so every cell's four neighbours are +-1 and +-8, and the border (height -1)
    # matches no stack: a placement needs no test for the board's edge.
    GRID_SIZE = 64
    GRID_ROW = 8

cdef uint64_t ONES = 0x0101010101010101ULL
cdef uint64_t HIGHS = 0x8080808080808080ULL
cdef int GRID[NUM_CELLS]
"""``GRID[a]``: cell a's place in the bordered grid (and its bit in the footprint boards)."""
cdef uint64_t SPREAD[64]
"""``SPREAD[m]``: bit i of the 6-bit m as byte i, so adding four of them counts a row's
spellings per anchor in bytes."""
cdef unsigned int ORIENT_BYTES[16]
"""Per orientation mask m, four bytes (in memory order) whose k-th is bit k of m: an
anchor's four placement ids as mask entries, written in one 4-byte store."""


cdef int _footprint_tables() noexcept:
    cdef int m, k, a
    cdef unsigned char* b
    for m in range(16):
        b = <unsigned char*>&ORIENT_BYTES[m]
        for k in range(4):
            b[k] = (m >> k) & 1
    for m in range(64):
        SPREAD[m] = 0
        for k in range(6):
            SPREAD[m] |= (<uint64_t>((m >> k) & 1)) << (8 * k)
    for a in range(NUM_CELLS):
        GRID[a] = GRID_ROW * (a // SIZE + 1) + a % SIZE + 1
    return 0


assert SIZE == 6, "the footprint boards are laid out for a 6 x 6 board in an 8 x 8 grid"
_footprint_tables()


cdef inline uint64_t byte_counts(uint64_t v) noexcept:
    """Each byte of v replaced by its number of set bits (a population count per byte)."""
    v = v - ((v >> 1) & 0x5555555555555555ULL)
    v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL)
    return (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0FULL


cdef inline int bytes_at_most(uint64_t prefix, int r) noexcept:
    """How many bytes of ``prefix`` (each below 128) are at most r (0 <= r < 127): each byte's
    top bit, set in ``prefix | HIGHS`` less r + 1, stays set where the byte exceeds r."""
    cdef uint64_t above = ((prefix | HIGHS) - <uint64_t>(r + 1) * ONES) & HIGHS
    return 8 - <int>(((above >> 7) * ONES) >> 56)


cdef inline bint footprint_legal(Position* p, int a, int b) noexcept:
    """Support rules 3-4 of §5: equal heights, and a raised tile straddles two tiles."""
    cdef int h = p.height[a]
    return (h == p.height[b]) & ((h == 0) | (p.tid[a] != p.tid[b]))


cdef void derive_footprints(Position* p) noexcept:
    """The grid and both boards from the heights and tiles (a reset or a loaded position)."""
    cdef int a
    cdef uint64_t east = 0, south = 0
    memset(p.grid, -1, GRID_SIZE)
    for a in range(NUM_CELLS):
        p.grid[GRID[a]] = p.height[a]
        if EAST_VALID[a]:
            east |= (<uint64_t>footprint_legal(p, a, a + 1)) << GRID[a]
        if SOUTH_VALID[a]:
            south |= (<uint64_t>footprint_legal(p, a, a + SIZE)) << GRID[a]
    p.east = east
    p.south = south
    p.footprints = <int>(((byte_counts(east) + byte_counts(south)) * ONES) >> 56)


cdef inline void cover_cells(Position* p, int a, int b) noexcept:
    """Raise cells a and b in the grid under a new tile and re-decide the footprints through
    them (``height`` is the caller's). A pair of one of them with another cell is legal exactly
    when the heights match: the new tile's id is on no other cell, and its height is at least
    1; the pair of a and b is the tile itself, never legal. Branch-free, in registers: which
    pairs change is a coin toss to the CPU."""
    cdef int x = GRID[a], y = GRID[b], h
    cdef int low = x if x < y else y
    cdef uint64_t east = p.east, south = p.south, across
    cdef signed char* grid = p.grid
    grid[x] += 1
    grid[y] += 1
    h = grid[x]
    east = (east & ~((<uint64_t>3) << (x - 1))) \
        | ((<uint64_t>(grid[x - 1] == h)) << (x - 1)) | ((<uint64_t>(grid[x + 1] == h)) << x)
    south = (south & ~(((<uint64_t>1) << (x - GRID_ROW)) | ((<uint64_t>1) << x))) \
        | ((<uint64_t>(grid[x - GRID_ROW] == h)) << (x - GRID_ROW)) \
        | ((<uint64_t>(grid[x + GRID_ROW] == h)) << x)
    h = grid[y]
    east = (east & ~((<uint64_t>3) << (y - 1))) \
        | ((<uint64_t>(grid[y - 1] == h)) << (y - 1)) | ((<uint64_t>(grid[y + 1] == h)) << y)
    south = (south & ~(((<uint64_t>1) << (y - GRID_ROW)) | ((<uint64_t>1) << y))) \
        | ((<uint64_t>(grid[y - GRID_ROW] == h)) << (y - GRID_ROW)) \
        | ((<uint64_t>(grid[y + GRID_ROW] == h)) << y)
    across = (<uint64_t>((x - y == 1) | (y - x == 1))) << low  # the tile lies east-west
    east &= ~across
    south &= ~(((<uint64_t>1) << low) ^ across)
    p.east = east
    p.south = south
    p.footprints = <int>(((byte_counts(east) + byte_counts(south)) * ONES) >> 56)


cdef inline int orient_of(const Position* p, int a) noexcept:
    """Anchor a's legal orientations (BIT_E...): its own east and south pairs, and the pairs
    of its west and north neighbours read from the other end."""
    cdef int x = GRID[a]
    return <int>(((p.east >> x) & 1) | (((p.south >> x) & 1) << 1)
                 | (((p.east >> (x - 1)) & 1) << 2) | (((p.south >> (x - GRID_ROW)) & 1) << 3))


cdef inline void set_through(Position* p, int cell) noexcept:
    """``through`` for the four faces of ``cell`` after its shape changed."""
    cdef int key = cell * 4
    memcpy(&p.through[key], &LINE_NEXT[p.shape[cell] * NUM_OFFSETS + key], 4 * sizeof(short))


cdef int nth_placement(const Position* p, int r, int mask) noexcept:
    """The offset (anchor * 4 + orientation) of the r-th legal placement in id order, of a
    design whose spellings are ``mask`` (15, or 3 for a symmetric design: E and S only).
    Without branches (where r falls is a coin toss to the CPU): the spellings per grid row as
    bytes (an anchor's W spelling is the east pair of its row, its N spelling the south pair of
    the row above), their running totals by one multiply, the row as the number of totals at
    or below r; then the same within the row, one byte per anchor."""
    cdef uint64_t keep = 0 - <uint64_t>(mask == 15)
    cdef uint64_t east = p.east, south = p.south
    cdef uint64_t per_east = byte_counts(east), per_south = byte_counts(south)
    cdef uint64_t prefix = (per_east + per_south + ((per_east + (per_south << 8)) & keep)) * ONES
    cdef int row = bytes_at_most(prefix, r), shift = GRID_ROW * row, col, bits
    cdef int e, s, w, n
    r -= <int>((prefix >> (shift - GRID_ROW)) & 0xFF)
    e = <int>((east >> (shift + 1)) & 63)
    s = <int>((south >> (shift + 1)) & 63)
    w = <int>((east >> shift) & 63 & keep)
    n = <int>((south >> (shift - GRID_ROW + 1)) & 63 & keep)
    prefix = (SPREAD[e] + SPREAD[s] + SPREAD[w] + SPREAD[n]) * ONES
    col = bytes_at_most(prefix, r)
    r -= <int>(((prefix << 8) >> (8 * col)) & 0xFF)
    bits = ((e >> col) & 1) | (((s >> col) & 1) << 1) | (((w >> col) & 1) << 2) \
        | (((n >> col) & 1) << 3)
    return ((row - 1) * SIZE + col) * 4 + SPELLINGS[bits * 4 + r]


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
        mask = orient_of(p, a)
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
    cdef unsigned char orient[NUM_CELLS]
    cdef signed char* out
    for a in range(NUM_CELLS):
        orient[a] = orient_of(p, a)
    for pile in range(NUM_PILES):
        d = p.face_up[pile]
        out = mask + PLACE_BASE + pile * PLACE_PER_PILE
        if d < 0:
            memset(out, 0, PLACE_PER_PILE)
            continue
        spellings = 3 if SYMMETRIC[d] else 15
        for a in range(NUM_CELLS):
            memcpy(out + a * 4, &ORIENT_BYTES[orient[a] & spellings], 4)
