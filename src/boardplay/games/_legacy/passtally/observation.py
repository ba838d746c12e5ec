"""The observation tensor of a Passtally position: a flat list of floats, the same length for 2
and 3 players, seat-relative (the observer is always "seat 0" of the encoding), documented in
docs/formats/passtally.md under "Observation tensor".

Everything is public in Passtally (the face-down order is unknown to everyone), so the tensor is
the whole position; only the seat numbering is rotated to the observer's view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from boardplay.games._legacy.passtally.geometry import (
    NEIGHBOUR,
    NUM_CELLS,
    NUM_DESIGNS,
    NUM_PILES,
    NUM_SLOTS,
    E,
    S,
)

if TYPE_CHECKING:
    from boardplay.games._legacy.passtally.state import PasstallyState

MAX_SEATS: Final = 3
CELL_PLANES: Final = 7
"""height, tile present, shape X, shape NE, shape NW, same tile east, same tile south."""
SIZE: Final = (
    CELL_PLANES * NUM_CELLS  # board planes
    + MAX_SEATS * NUM_SLOTS  # ring planes, seat-relative
    + NUM_PILES * (NUM_DESIGNS + 1)  # face-up design one-hot + face-down count per pile
    + NUM_PILES  # pending reveal one-hot
    + NUM_DESIGNS  # unrevealed count per design
    + MAX_SEATS  # scores, seat-relative
    + MAX_SEATS  # seat to move, seat-relative one-hot
    + 1  # actions left
    + 3  # setup, final round, game over
    + 4  # pass-1 side one-hot (setup)
    + 4  # pass-3 side one-hot (setup)
)


def observation(state: PasstallyState, player: int) -> list[float]:
    n = state.num_players
    if not 0 <= player < n:
        raise ValueError(f"player must be a seat 0-{n - 1}, not {player}")
    out = [0.0] * SIZE
    height, tid, shape = state.height, state.tid, state.shape
    for cell in range(NUM_CELLS):
        h = height[cell]
        out[cell] = float(h)
        if h > 0:
            out[NUM_CELLS + cell] = 1.0
        out[(2 + shape[cell]) * NUM_CELLS + cell] = 1.0
        t = tid[cell]
        if t >= 0:
            east = NEIGHBOUR[cell * 4 + E]
            if east >= 0 and tid[east] == t:
                out[5 * NUM_CELLS + cell] = 1.0
            south = NEIGHBOUR[cell * 4 + S]
            if south >= 0 and tid[south] == t:
                out[6 * NUM_CELLS + cell] = 1.0
    base = CELL_PLANES * NUM_CELLS
    for slot, seat in enumerate(state.ring):
        if seat >= 0:
            out[base + ((seat - player) % n) * NUM_SLOTS + slot] = 1.0
    base += MAX_SEATS * NUM_SLOTS
    for p in range(NUM_PILES):
        design = state.face_up[p]
        if design >= 0:
            out[base + design] = 1.0
        out[base + NUM_DESIGNS] = float(state.hidden[p])
        base += NUM_DESIGNS + 1
    if state.pending >= 0 and not state.game_over:
        out[base + state.pending] = 1.0
    base += NUM_PILES
    for d in range(NUM_DESIGNS):
        out[base + d] = float(state.unrevealed[d])
    base += NUM_DESIGNS
    for seat in range(n):
        out[base + (seat - player) % n] = float(state.points[seat])
    base += MAX_SEATS
    if not state.game_over:
        out[base + (state.to_move - player) % n] = 1.0
    base += MAX_SEATS
    out[base] = float(state.actions_left)
    base += 1
    out[base] = float(state.setup)
    out[base + 1] = float(state.final_round)
    out[base + 2] = float(state.game_over)
    base += 3
    if state.side1 >= 0:
        out[base + state.side1] = 1.0
    base += 4
    if state.side3 >= 0:
        out[base + state.side3] = 1.0
    return out
