"""The kadon exactly-one-per-colour feasibility rule (spec §4.4).

Under ``rules="kadon"`` a piece placement is legal only if the remaining pieces (of both
players, owners do not matter) can still be put on distinct open tiles (vacant board tiles plus
pool tiles) so that every missing colour gets exactly one matching piece and every other piece
lands on a tile of a different shape. The arguments are tiny (three shape counts, a 9-bit tile
mask, a 3-bit colour mask), so the search is memoised over all of them once per process.
"""

from __future__ import annotations

from functools import cache


@cache
def feasible(counts: tuple[int, int, int], open_tiles: int, missing: int) -> bool:
    """Whether pieces with shape counts ``counts`` (circle, square, triangle) can be assigned to
    distinct tiles of ``open_tiles`` (bit ``t`` = tile id ``t`` is open) so that each colour in
    ``missing`` (bit = colour) receives exactly one match and no other piece matches."""
    shape = 0
    while shape < 3 and counts[shape] == 0:
        shape += 1
    if shape == 3:
        return missing == 0
    if sum(counts) < missing.bit_count():
        return False
    rest = list(counts)
    rest[shape] -= 1
    smaller = (rest[0], rest[1], rest[2])
    for tile in range(9):
        bit = 1 << tile
        if not open_tiles & bit:
            continue
        if tile % 3 == shape:
            colour = 1 << (tile // 3)
            if missing & colour and feasible(smaller, open_tiles & ~bit, missing & ~colour):
                return True
        elif feasible(smaller, open_tiles & ~bit, missing):
            return True
    return False


@cache
def placeable_tiles(counts: tuple[int, int, int], open_tiles: int, missing: int, shape: int) -> int:
    """Bit mask of the open tiles a piece of ``shape`` (one of ``counts``) may go on under §4.4:
    not a match on an active colour, and the rest still feasible afterwards. Depends only on
    these arguments, so it is memoised as a whole (the hot path of kadon placement)."""
    rest = list(counts)
    rest[shape] -= 1
    smaller = (rest[0], rest[1], rest[2])
    allowed = 0
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
        if feasible(smaller, open_tiles & ~bit, left):
            allowed |= bit
    return allowed
