"""Proteus kernel, part: the compact observation (``core/compact.pxd``; docs/adapters.md,
"Compact observations"): ``encode.pxi``'s tensor as 21 bytes of bit-planes and one byte, the
passes in a row. Included by ``kernel.pyx``, whose ``compact_into`` / ``expand_into`` call these.
"""

from boardplay.core.compact cimport C_BIT, C_INT, compact_expand, compact_layout, compact_put

cdef unsigned char COMPACT_KIND[OBSERVATION_SIZE]
cdef int COMPACT_SLOT[OBSERVATION_SIZE]
cdef double COMPACT_DENOM[OBSERVATION_SIZE]


cdef int _compact_tables() noexcept:
    """Every entry a bit but the last (the passes, an integer); return the row's bytes."""
    cdef int i
    for i in range(OBSERVATION_SIZE):
        COMPACT_KIND[i] = C_BIT
        COMPACT_DENOM[i] = 1.0
    COMPACT_KIND[164] = C_INT
    return compact_layout(COMPACT_KIND, COMPACT_SLOT, OBSERVATION_SIZE)


cdef int COMPACT_SIZE = _compact_tables()


def compact_tables():
    """(kind, denominator) of each tensor entry and the row's bytes, for tests and docs."""
    return ([COMPACT_KIND[i] for i in range(OBSERVATION_SIZE)],
            [COMPACT_DENOM[i] for i in range(OBSERVATION_SIZE)], COMPACT_SIZE)


cdef void compact_position(const Position* board, int player, unsigned char* out) noexcept nogil:
    """``observe_position``'s entries, each written with ``compact_put``."""
    cdef int i, cell, tile, piece, plane
    memset(out, 0, COMPACT_SIZE)
    for cell in range(9):
        tile = board.tiles[cell]
        if tile >= 0:
            out[(tile * 9 + cell) >> 3] |= 1 << ((tile * 9 + cell) & 7)
            if board.active[tile // 3] == tile:
                out[(81 + cell) >> 3] |= 1 << ((81 + cell) & 7)
        piece = board.pieces[cell]
        if piece >= 0:
            plane = piece % 3 if piece // 3 == player else 3 + piece % 3
            i = 90 + plane * 9 + cell
            out[i >> 3] |= 1 << (i & 7)
    for tile in range(9):
        if board.tile_cell[tile] < 0:
            out[(144 + tile) >> 3] |= 1 << ((144 + tile) & 7)
    for piece in range(6):
        if board.where[piece] < 0:
            i = 153 + (piece % 3 if piece // 3 == player else 3 + piece % 3)
            out[i >> 3] |= 1 << (i & 7)
    for i in range(3):
        if board.active[i] < 0:
            out[(159 + i) >> 3] |= 1 << ((159 + i) & 7)
    if board.unplaced == 0:
        out[162 >> 3] |= 1 << (162 & 7)
    if board.outcome == ONGOING and board.mover == player:
        out[163 >> 3] |= 1 << (163 & 7)
    compact_put(out, COMPACT_KIND, COMPACT_SLOT, 164, board.passes)


cdef inline void expand_position(const unsigned char* compact, float* out) noexcept nogil:
    compact_expand(compact, out, COMPACT_KIND, COMPACT_SLOT, COMPACT_DENOM, OBSERVATION_SIZE)
