"""Proteus kernel, part: the movement phase's geometry (spec §5-§6). The move, trade and line
tables and the cell counts, built once per process, and what a movement action does to a
``Position`` before it is applied: the actions the active MOVE and TRADE rules allow, the tiles
it activates, and the position it leads to (for the repetition filter). Included by
``kernel.pyx``; every function reads one ``Position`` and nothing else, a direct C call."""

cdef int MOVE_MASK[3][9]
"""``MOVE_MASK[move tile][cell]``: bit mask of the cells the MOVE rule reaches (§6.2)."""
cdef int MOVE_ACTION[9][9]
cdef int MOVE_FROM[72]
cdef int MOVE_TO[72]
cdef int TRADE_I[36]
cdef int TRADE_J[36]
cdef int TRADE_ACTION[9][9]
cdef int ABOVE[9]
"""``ABOVE[cell]``: bit mask of the cells after ``cell`` (a trade's second cell)."""
cdef int LINE_CELLS[8]
"""The eight lines as cell bit masks: the 3-IN-LINE goal's target triples (``encode.pxi``)."""
cdef char IS_LINE[512]
cdef unsigned char BITS[512]
"""``BITS[mask]``: how many cells a cell mask holds (``encode.pxi``, ``feasibility.pxi``). A
table, because ``__builtin_popcount`` compiles to a libgcc call unless the C compiler may assume
the POPCNT instruction, and it was 13% of a compiled Proteus search's instructions."""


cdef void _build_tables():
    cdef int rule, cell, target, k, mask
    for rule in range(3):
        for cell in range(9):
            mask = 0
            for target in tables.MOVE_TARGETS[rule][cell]:
                mask |= 1 << target
            MOVE_MASK[rule][cell] = mask
    for cell in range(9):
        for target in range(9):
            MOVE_ACTION[cell][target] = tables.MOVE_ID[cell][target]
            if cell != target:
                k = tables.MOVE_ID[cell][target] - MOVE_BASE
                MOVE_FROM[k] = cell
                MOVE_TO[k] = target
    for k in range(36):
        TRADE_I[k] = tables.TRADE_PAIRS[k][0]
        TRADE_J[k] = tables.TRADE_PAIRS[k][1]
        TRADE_ACTION[TRADE_I[k]][TRADE_J[k]] = TRADE_BASE + k
    for cell in range(9):
        ABOVE[cell] = 511 & ~((2 << cell) - 1)
    for k in range(8):
        mask = 0
        for cell in tables.LINES[k]:
            mask |= 1 << cell
        LINE_CELLS[k] = mask
        IS_LINE[mask] = 1
    for mask in range(512):
        BITS[mask] = BITS[mask >> 1] + (mask & 1)


_build_tables()


cdef void derive_masks(Position* b) noexcept nogil:
    """The bit masks of ``Position`` from its arrays (a loaded board; ``apply`` keeps them)."""
    cdef int cell, tile, piece
    b.empty = b.vacant = b.pool = b.vacant_tiles = 0
    b.owned[0] = b.owned[1] = 0
    b.hand[0] = b.hand[1] = 0
    for cell in range(3):
        b.colour_cells[cell] = b.shape_cells[cell] = 0
    for cell in range(9):
        tile = b.tiles[cell]
        if tile < 0:
            b.empty |= 1 << cell
            continue
        b.colour_cells[tile // 3] |= 1 << cell
        b.shape_cells[tile % 3] |= 1 << cell
        if b.pieces[cell] < 0:
            b.vacant |= 1 << cell
            b.vacant_tiles |= 1 << tile
    for tile in range(9):
        if b.tile_cell[tile] < 0:
            b.pool |= 1 << tile
    for piece in range(6):
        if b.where[piece] < 0:
            b.hand[piece // 3] |= 1 << (piece % 3)
        else:
            b.owned[piece // 3] |= 1 << b.where[piece]


cdef inline int missing_cells(const Position* b) noexcept nogil:
    """The cells of the tiles whose colour has no active tile."""
    cdef int cells = 0
    if b.active[0] < 0:
        cells = b.colour_cells[0]
    if b.active[1] < 0:
        cells |= b.colour_cells[1]
    if b.active[2] < 0:
        cells |= b.colour_cells[2]
    return cells


cdef inline int trade_partners(const Position* b, int trade_tile, int i) noexcept nogil:
    """The cells above ``i`` the active TRADE rule lets it trade with (movement phase: every
    cell holds a tile): across owners (POLARITY), or within its tile's colour or shape."""
    if trade_tile == POLARITY:
        if b.owned[0] >> i & 1:
            return b.owned[1] & ABOVE[i]
        if b.owned[1] >> i & 1:
            return b.owned[0] & ABOVE[i]
        return 0
    if b.tiles[i] < 0:  # (placement: ``movement_candidates`` only)
        return 0
    if trade_tile == POLARITY + 1:  # COLOR groups tiles by colour, SHAPE by shape
        return b.colour_cells[b.tiles[i] // 3] & ABOVE[i]
    return b.shape_cells[b.tiles[i] % 3] & ABOVE[i]


cdef int movement_into(const Position* b, int* out) noexcept:
    """Piece moves under the active MOVE rule (§6.2) and trades under the active TRADE rule
    (§6.3), before the repetition filter and forcing; ascending ids (moves by source then
    destination cell, then trades by their first then second cell)."""
    cdef int count = 0, src, dst, targets, i, j, partners
    cdef int move_tile = b.active[RED]
    cdef int trade_tile = b.active[BLUE]
    cdef int occupied = b.owned[0] | b.owned[1]
    if move_tile >= 0:
        partners = b.owned[b.mover]
        while partners:
            src = ctz(partners)
            partners &= partners - 1
            targets = MOVE_MASK[move_tile][src] & ~occupied
            while targets:
                dst = ctz(targets)
                targets &= targets - 1
                out[count] = MOVE_ACTION[src][dst]
                count += 1
    if trade_tile < 0:
        return count
    for i in range(8):
        partners = trade_partners(b, trade_tile, i)
        while partners:
            j = ctz(partners)
            partners &= partners - 1
            out[count] = TRADE_ACTION[i][j]
            count += 1
    return count


cdef bint has_move(const Position* b) noexcept nogil:
    """Whether the mover has a piece move under the active MOVE rule."""
    cdef int move_tile = b.active[RED], partners, src
    cdef int occupied = b.owned[0] | b.owned[1]
    if move_tile < 0:
        return False
    partners = b.owned[b.mover]
    while partners:
        src = ctz(partners)
        partners &= partners - 1
        if MOVE_MASK[move_tile][src] & ~occupied:
            return True
    return False


cdef int activations(const Position* b, int action, int* found) noexcept:
    """The tiles a movement action activates (§5.2): new matches on tiles that are not
    already active; two such matches of one colour cancel. Computed before applying."""
    cdef int src, dst, tile, i, j, piece, count = 0
    if action < TRADE_BASE:
        src = MOVE_FROM[action - MOVE_BASE]
        dst = MOVE_TO[action - MOVE_BASE]
        tile = b.tiles[dst]
        if b.pieces[src] % 3 == tile % 3 and b.active[tile // 3] != tile:
            found[0] = tile
            return 1
        return 0
    i = TRADE_I[action - TRADE_BASE]
    j = TRADE_J[action - TRADE_BASE]
    tile = b.tiles[j]
    piece = b.pieces[i]
    if piece >= 0 and piece % 3 == tile % 3 and b.active[tile // 3] != tile:
        found[count] = tile
        count += 1
    tile = b.tiles[i]
    piece = b.pieces[j]
    if piece >= 0 and piece % 3 == tile % 3 and b.active[tile // 3] != tile:
        found[count] = tile
        count += 1
    if count == 2 and found[0] // 3 == found[1] // 3:
        return 0
    return count


cdef bint activates_missing(const Position* b, int action) noexcept:
    """Whether ``action`` is *activating* (§4.3, D9): it gives a colour that is missing now
    an active tile. No-flip placements and cancelled double matches are not."""
    cdef int found[2]
    cdef int shape, cell, tile, count, k
    if action < PIECE_BASE or action == PASS:
        return False
    if action < MOVE_BASE:
        shape = (action - PIECE_BASE) // 9
        cell = (action - PIECE_BASE) % 9
        tile = b.tiles[cell]
        return tile >= 0 and tile % 3 == shape and b.active[tile // 3] < 0
    count = activations(b, action, found)
    for k in range(count):
        if b.active[found[k] // 3] < 0:
            return True
    return False


cdef uint64_t key_after(const Position* b, int action) noexcept:
    """The packed key of the position a movement action leads to, for the repetition filter."""
    cdef int tiles[9]
    cdef int where[6]
    cdef int active[3]
    cdef int found[2]
    cdef int count = activations(b, action, found), k, i, j, tile
    memcpy(tiles, b.tiles, sizeof(tiles))
    memcpy(where, b.where, sizeof(where))
    memcpy(active, b.active, sizeof(active))
    if action < TRADE_BASE:
        where[b.pieces[MOVE_FROM[action - MOVE_BASE]]] = MOVE_TO[action - MOVE_BASE]
    else:
        i = TRADE_I[action - TRADE_BASE]
        j = TRADE_J[action - TRADE_BASE]
        tile = tiles[i]
        tiles[i] = tiles[j]
        tiles[j] = tile
    for k in range(count):
        active[found[k] // 3] = found[k]
    return pack_key(tiles, where, active, 1 - b.mover)
