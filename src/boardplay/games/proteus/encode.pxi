"""Proteus kernel, part: the position as numbers, written straight from the kernel's
``Position`` into caller memory: the observation tensor for learners (layout in
``observation.py``) and the feature vector the AI's evaluation weighs (``Feature`` in
``layout.pxd``). Included by ``kernel.pyx``, whose ``observe_into`` / ``features_into`` call
these directly; the lines' cell masks (``LINE_CELLS``) are ``movement.pxi``'s."""


cdef void observe_position(const Position* board, int player, float* out) noexcept nogil:
    """Flat encoding from ``player``'s view (``OBSERVATION_SIZE`` floats)."""
    cdef int i, cell, tile, piece, plane
    for i in range(OBSERVATION_SIZE):
        out[i] = 0.0
    for cell in range(9):
        tile = board.tiles[cell]
        if tile >= 0:
            out[tile * 9 + cell] = 1.0
            if board.active[tile // 3] == tile:
                out[81 + cell] = 1.0
        piece = board.pieces[cell]
        if piece >= 0:
            plane = piece % 3 if piece // 3 == player else 3 + piece % 3
            out[90 + plane * 9 + cell] = 1.0
    for tile in range(9):
        if board.tile_cell[tile] < 0:
            out[144 + tile] = 1.0
    for piece in range(6):
        if board.where[piece] < 0:
            out[153 + (piece % 3 if piece // 3 == player else 3 + piece % 3)] = 1.0
    for i in range(3):
        if board.active[i] < 0:
            out[159 + i] = 1.0
    out[162] = 1.0 if board.unplaced == 0 else 0.0
    out[163] = 1.0 if board.outcome == ONGOING and board.mover == player else 0.0
    out[164] = <float>board.passes


cdef inline int _triple(const Position* board, int first, int step) noexcept nogil:
    """Cell mask of the tiles ``first``, ``first + step``, ``first + 2 * step`` when all three
    are on the board, else 0 (a COLOR or SHAPE goal's target triple)."""
    cdef int a = board.tile_cell[first], b = board.tile_cell[first + step]
    cdef int c = board.tile_cell[first + 2 * step]
    if a < 0 or b < 0 or c < 0:
        return 0
    return (1 << a) | (1 << b) | (1 << c)


cdef inline double _closeness(int mine, int theirs, int triple, double best) noexcept nogil:
    """The better of ``best`` and the seat's closeness to ``triple`` (its pieces there minus
    half a point per opponent piece); an absent triple (0) changes nothing."""
    cdef double value
    if triple:
        value = BITS[mine & triple] - 0.5 * BITS[theirs & triple]
        if value > best:
            return value
    return best


cdef void position_features(const Position* board, double* out) noexcept nogil:
    """Per seat its closeness to the best target triple of each goal (3-IN-LINE, COLOR,
    SHAPE; at least 0), then the active goal (0, 1, 2 or -1) and the seat to move."""
    cdef int seat, mine, theirs, k, at
    cdef int cells[2]
    cdef double best
    cells[0] = cells[1] = 0
    for k in range(6):
        if board.where[k] >= 0:
            cells[k // 3] |= 1 << board.where[k]
    for seat in range(2):
        mine = cells[seat]
        theirs = cells[1 - seat]
        at = (WHITE_LINE - BLACK_LINE) * seat
        best = 0.0
        for k in range(8):
            best = _closeness(mine, theirs, LINE_CELLS[k], best)
        out[BLACK_LINE + at] = best
        best = 0.0
        for k in range(3):
            best = _closeness(mine, theirs, _triple(board, 3 * k, 1), best)  # a colour
        out[BLACK_COLOR + at] = best
        best = 0.0
        for k in range(3):
            best = _closeness(mine, theirs, _triple(board, k, 3), best)  # a shape
        out[BLACK_SHAPE + at] = best
    out[<int>ACTIVE_GOAL] = board.active[YELLOW] - 6 if board.active[YELLOW] >= 0 else -1
    out[<int>TO_MOVE] = board.mover
