"""Proteus kernel, part: the kadon exactly-one-per-colour feasibility rule (spec §4.4).

Under ``rules="kadon"`` a piece placement is legal only if the remaining pieces (of both
players, owners do not matter) can still be put on distinct open tiles (vacant board tiles plus
pool tiles) so that every missing colour gets exactly one matching piece and every other piece
lands on a tile of a different shape. The inputs are tiny (three shape counts of 0..2, a 9-bit
tile mask, a 3-bit colour mask), so both answers are memoised in C tables over all of them, once
per process: the search runs at most once per distinct input. Included by ``kernel.pyx``, whose
placement (``placement_into``) calls ``placeable`` directly; ``feasible`` is the search for
Python (tests).
"""

cdef signed char FEASIBLE[27 * 512 * 8]
"""Memo of the search: index ((counts * 512) + open tiles) * 8 + missing; -1 unknown."""
cdef short PLACEABLE[27 * 512 * 8 * 3]
"""Memo of the tiles a piece of one shape may go on: (feasible index) * 3 + shape; -1 unknown."""
memset(FEASIBLE, -1, sizeof(FEASIBLE))
memset(PLACEABLE, -1, sizeof(PLACEABLE))


cdef bint can_fill(int c0, int c1, int c2, int open_tiles, int missing) noexcept nogil:
    """Whether pieces with shape counts ``c0 c1 c2`` (circle, square, triangle; each 0..2) can
    go on distinct tiles of ``open_tiles`` (bit = tile id) so that every colour in ``missing``
    (bit = colour) gets exactly one match and no other piece matches."""
    cdef int index = (((c0 * 9 + c1 * 3 + c2) * 512) + open_tiles) * 8 + missing
    cdef signed char known = FEASIBLE[index]
    if known >= 0:
        return known
    cdef bint found = _feasible_search(c0, c1, c2, open_tiles, missing)
    FEASIBLE[index] = found
    return found


cdef bint _feasible_search(int c0, int c1, int c2, int open_tiles, int missing) noexcept nogil:
    cdef int shape, tile, bit, colour
    if c0 > 0:
        shape = 0
        c0 -= 1
    elif c1 > 0:
        shape = 1
        c1 -= 1
    elif c2 > 0:
        shape = 2
        c2 -= 1
    else:
        return missing == 0
    if c0 + c1 + c2 + 1 < BITS[missing]:
        return False
    for tile in range(9):
        bit = 1 << tile
        if not open_tiles & bit:
            continue
        if tile % 3 == shape:
            colour = 1 << (tile // 3)
            if missing & colour and can_fill(c0, c1, c2, open_tiles & ~bit, missing & ~colour):
                return True
        elif can_fill(c0, c1, c2, open_tiles & ~bit, missing):
            return True
    return False


cdef int placeable(int c0, int c1, int c2, int open_tiles, int missing, int shape) noexcept nogil:
    """Bit mask of the open tiles a piece of ``shape`` (one of the counts) may go on under
    §4.4: not a match on an active colour, and the rest still feasible afterwards."""
    cdef int index = ((((c0 * 9 + c1 * 3 + c2) * 512) + open_tiles) * 8 + missing) * 3 + shape
    cdef int allowed = PLACEABLE[index]
    if allowed >= 0:
        return allowed
    if shape == 0:
        c0 -= 1
    elif shape == 1:
        c1 -= 1
    else:
        c2 -= 1
    allowed = 0
    cdef int tile, bit, left, colour
    for tile in range(9):
        bit = 1 << tile
        if not open_tiles & bit:
            continue
        left = missing
        if tile % 3 == shape:
            colour = 1 << (tile // 3)
            if not missing & colour:
                continue
            left = missing & ~colour
        if can_fill(c0, c1, c2, open_tiles & ~bit, left):
            allowed |= bit
    PLACEABLE[index] = <short>allowed
    return allowed


def feasible(counts, int open_tiles, int missing) -> bool:
    """The §4.4 search for Python callers: ``counts`` = pieces in hand per shape (circle,
    square, triangle; each 0..2), ``open_tiles`` a 9-bit tile mask, ``missing`` a 3-bit colour
    mask."""
    cdef int c0 = counts[0], c1 = counts[1], c2 = counts[2]
    if not (0 <= c0 <= 2 and 0 <= c1 <= 2 and 0 <= c2 <= 2):
        raise ValueError(f"shape counts must be 0..2, got {tuple(counts)!r}")
    if not (0 <= open_tiles < 512 and 0 <= missing < 8):
        raise ValueError("open_tiles is a 9-bit mask and missing a 3-bit mask")
    return can_fill(c0, c1, c2, open_tiles, missing)
