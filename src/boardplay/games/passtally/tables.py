"""Passtally's fixed geometry, precomputed once at import (rules spec §2, §11).

Everything the hot paths need is a flat tuple indexed by small integers, so tracing a line or
listing placements is a few tuple look-ups per cell and the state itself holds only the
position (heights, top tiles, shapes, markers, piles, scores).

Conventions (the spec's): rows 0-5 top to bottom, columns 0-5 left to right, cell index
``row * 6 + col``; faces N=0, E=1, S=2, W=3 (so the opposite face is ``face ^ 2``); half shapes
X=0, NE=1, NW=2; orientations E=0, S=1, W=2, N=3 (the side of half a on which half b lies);
slots 0-23 clockwise from the top-left (N side 0-5, E 6-11, S 12-17, W 18-23).
"""

from __future__ import annotations

from typing import Final

from boardplay.games.passtally.layout import (
    MOVE_BASE,
    NUM_CELLS,
    NUM_SLOTS,
    PLACE_BASE,
    PLACE_PER_PILE,
    SIZE,
)

PILE_NAMES: Final = "ABC"

# ----- faces and half shapes ------------------------------------------------------------------
N, E, S, W = 0, 1, 2, 3
FACE_NAMES: Final = "NESW"
X, NE, NW = 0, 1, 2
SHAPE_NAMES: Final = ("X", "NE", "NW")

PARTNER: Final[tuple[int, ...]] = (
    # X: N-S, E-W (straight through; also every bare cell)
    2, 3, 0, 1,
    # NE: N-E, S-W
    1, 0, 3, 2,
    # NW: N-W, S-E
    3, 2, 1, 0,
)  # fmt: skip
"""``PARTNER[shape * 4 + entry face]`` = the exit face: each half joins its four side
midpoints in two disjoint pairs, so a line never branches or dead-ends."""

# ----- the six designs ------------------------------------------------------------------------
DESIGNS: Final = ("XX", "XNE", "XNW", "NENE", "NWNW", "NENW")
"""Design ids 0-5 in the spec's order; these are also the chance outcome ids."""
DESIGN_INDEX: Final = {name: i for i, name in enumerate(DESIGNS)}
DESIGN_HALVES: Final = ((X, X), (X, NE), (X, NW), (NE, NE), (NW, NW), (NE, NW))
"""Canonical (horizontal, half a west) shapes of the two halves of each design."""
SYMMETRIC: Final = tuple(a == b for a, b in DESIGN_HALVES)
"""XX, NENE and NWNW look the same after a half turn: only E/S spellings are canonical."""

ORIENT_NAMES: Final = "ESWN"
ORIENT_FACE: Final = (E, S, W, N)
"""The face of cell a through which cell b is reached, per orientation."""
_DR = {N: -1, E: 0, S: 1, W: 0}
_DC = {N: 0, E: 1, S: 0, W: -1}


def _swap_curves(shape: int) -> int:
    """A quarter turn exchanges NE and NW and keeps X."""
    return {X: X, NE: NW, NW: NE}[shape]


PLACED_SHAPES: Final[tuple[tuple[int, int], ...]] = tuple(
    (a, b) if k % 2 == 0 else (_swap_curves(a), _swap_curves(b))
    for a, b in DESIGN_HALVES
    for k in range(4)
)
"""``PLACED_SHAPES[design * 4 + orientation]`` = (shape on cell a, shape on cell b): in
orientations E and W each half keeps its canonical shape; in S and N NE and NW swap."""


# ----- cells ----------------------------------------------------------------------------------
def cell_name(cell: int) -> str:
    """``a1`` is the top-left cell, ``f6`` the bottom-right."""
    return "abcdef"[cell % SIZE] + str(cell // SIZE + 1)


CELL_NAMES: Final = tuple(cell_name(c) for c in range(NUM_CELLS))
CELL_INDEX: Final = {name: i for i, name in enumerate(CELL_NAMES)}


def _neighbour(cell: int, face: int) -> int:
    r, c = divmod(cell, SIZE)
    r2, c2 = r + _DR[face], c + _DC[face]
    if 0 <= r2 < SIZE and 0 <= c2 < SIZE:
        return r2 * SIZE + c2
    return -1


NEIGHBOUR: Final = tuple(_neighbour(cell, f) for cell in range(NUM_CELLS) for f in range(4))
"""``NEIGHBOUR[cell * 4 + face]`` = the cell across that face, or -1 off the board."""

OTHER_CELL: Final = tuple(
    NEIGHBOUR[cell * 4 + ORIENT_FACE[k]] for cell in range(NUM_CELLS) for k in range(4)
)
"""``OTHER_CELL[anchor * 4 + orientation]`` = cell b of a tile anchored there, or -1."""


# ----- the marker ring ------------------------------------------------------------------------
def _slot_cell_face(slot: int) -> tuple[int, int]:
    side, i = divmod(slot, SIZE)
    if side == 0:
        return i, N
    if side == 1:
        return i * SIZE + (SIZE - 1), E
    if side == 2:
        return (SIZE - 1) * SIZE + (SIZE - 1 - i), S
    return (SIZE - 1 - i) * SIZE, W


SLOT_CELL: Final = tuple(_slot_cell_face(s)[0] for s in range(NUM_SLOTS))
SLOT_FACE: Final = tuple(_slot_cell_face(s)[1] for s in range(NUM_SLOTS))
_EDGE = {_slot_cell_face(s): s for s in range(NUM_SLOTS)}
EDGE_SLOT: Final = tuple(_EDGE.get((cell, f), -1) for cell in range(NUM_CELLS) for f in range(4))
"""``EDGE_SLOT[cell * 4 + face]`` = the slot where a line leaving that face ends, or -1."""
SIDE_NAMES: Final = "NESW"

# ----- footprints -----------------------------------------------------------------------------
FOOTPRINTS: Final[tuple[tuple[int, int, int], ...]] = tuple(
    (a, OTHER_CELL[a * 4 + k], k)
    for a in range(NUM_CELLS)
    for k in (0, 1)
    if OTHER_CELL[a * 4 + k] >= 0
)
"""Every unordered pair of adjacent cells as (west/north cell, other cell, E or S): 60."""

CANONICAL_OFFSETS: Final = tuple(a * 4 + k for a, _, k in FOOTPRINTS)
"""Per footprint, ``anchor * 4 + orientation`` of its canonical (E/S) spelling; ascending."""
_ALL_SPELLINGS = sorted(
    [(a * 4 + k, i) for i, (a, _, k) in enumerate(FOOTPRINTS)]
    + [(b * 4 + k + 2, i) for i, (_, b, k) in enumerate(FOOTPRINTS)]
)
ALL_OFFSETS: Final = tuple(offset for offset, _ in _ALL_SPELLINGS)
"""Both spellings of every footprint (for asymmetric designs), ascending."""
ALL_FOOTPRINT: Final = tuple(i for _, i in _ALL_SPELLINGS)
"""The footprint index of each entry of ``ALL_OFFSETS``."""

# ----- action ids (the id ranges are ``layout.pxd``'s) -----------------------------------------
MOVE_STEPS: Final = ((1, 1), (1, 2), (-1, 1), (-1, 2))
"""Marker move j of ``MOVE_BASE + slot * 4 + j``: ``+1``, ``+2``, ``-1``, ``-2`` slots."""


def place_id(pile: int, anchor: int, orientation: int) -> int:
    return PLACE_BASE + pile * PLACE_PER_PILE + anchor * 4 + orientation


def move_id(slot: int, direction: int, distance: int) -> int:
    return MOVE_BASE + slot * 4 + MOVE_STEPS.index((direction, distance))


# ----- scoring --------------------------------------------------------------------------------
VP_THRESHOLDS: Final = (
    (56, 15), (46, 10), (37, 9), (29, 8), (22, 7), (16, 6),
    (11, 5), (7, 4), (4, 3), (2, 2), (1, 1), (0, 0),
)  # fmt: skip
"""(minimum passes, VP), highest first (spec §7.3; 37-45 is 9 VP, decision D1)."""
_VP_SMALL: Final = tuple(
    next(vp for lo, vp in VP_THRESHOLDS if passes >= lo) for passes in range(57)
)


def vp_for_passes(passes: int) -> int:
    """Convert a turn's total passes (both lines summed) to victory points, once."""
    return _VP_SMALL[passes] if passes < 56 else 15


# ----- the kernel's flat tables (copied into C arrays by kernel.pyx) --------------------------
EAST_VALID: Final = tuple(int(OTHER_CELL[cell * 4] >= 0) for cell in range(NUM_CELLS))
SOUTH_VALID: Final = tuple(int(OTHER_CELL[cell * 4 + 1] >= 0) for cell in range(NUM_CELLS))
"""1 where the cell has a neighbour to the east (south): where an E (S) footprint starts."""
SPELLING_COUNT: Final = tuple(bin(mask).count("1") for mask in range(16))
SPELLINGS: Final = tuple(
    ([k for k in range(4) if mask >> k & 1] + [0, 0, 0, 0])[i]
    for mask in range(16)
    for i in range(4)
)
"""For a 4-bit mask of legal orientations at one anchor (bit k = orientation k): how many there
are, and ``SPELLINGS[mask * 4 + i]`` the i-th in ascending order (padded with 0)."""
LINE_START: Final = tuple(SLOT_CELL[s] * 4 + SLOT_FACE[s] for s in range(NUM_SLOTS))
LINE_EXIT: Final = tuple(
    key - key % 4 + PARTNER[shape * 4 + key % 4]
    for shape in range(3)
    for key in range(NUM_CELLS * 4)
)
LINE_ENTER: Final = tuple(
    NEIGHBOUR[key] * 4 + (key % 4 ^ 2) if NEIGHBOUR[key] >= 0 else -1 - EDGE_SLOT[key]
    for key in range(NUM_CELLS * 4)
)
"""A line as a walk over ``cell * 4 + face`` keys: it enters the board at ``LINE_START[slot]``;
on a cell of shape x it leaves by ``LINE_EXIT[x * 144 + key]``; from there it enters the next
cell at ``LINE_ENTER[exit]``, or ends at the slot ``-1 - LINE_ENTER[exit]``."""
PLACED_A: Final = tuple(a for a, _ in PLACED_SHAPES)
PLACED_B: Final = tuple(b for _, b in PLACED_SHAPES)
VP_TABLE: Final = tuple(vp_for_passes(passes) for passes in range(57))
