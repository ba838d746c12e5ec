"""Montana's observation tensor: a fixed-size flat float list from one player's view.

Seats are rotated so that the observer is always seat 0 of the encoding; everything is public,
so the tensor holds the whole position. Sizes are fixed for every option set (4 seats, the
15x15 axial hex window, the data bounds), so one network fits all player counts. Layout in
docs/formats/montana.md ("Observation tensor").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardplay.games._legacy.montana.board import GRID_CELLS
from boardplay.games._legacy.montana.data import (
    MAX_AREA_SPACES,
    MAX_BANK_SPACES,
    MAX_COLUMNS,
    MAX_ROWS,
    MAX_WHEEL,
)
from boardplay.games._legacy.montana.state import HOME, STAGE_NAMES

if TYPE_CHECKING:
    from boardplay.games._legacy.montana.state import MontanaState

SEATS = 4
HEX_FEATURES = (
    4 + 1 + 3 + 1 + 1 + 1 + 1 + 6
)  # owner(rel) tiles kind(3) start D K-cattle canteen cost
PLAYER_FEATURES = (
    1 + 6 + 1 + 1 + 4 + 1 + 1 + 1
)  # silver goods cattle canteens workers tiles turns present
SLOTS = MAX_BANK_SPACES + 4 * MAX_AREA_SPACES * 2
CONTRACTOR_FEATURES = MAX_ROWS * MAX_COLUMNS + 1
STAGE_FEATURES = len(STAGE_NAMES) + SEATS + SEATS + MAX_WHEEL + 8
GLOBAL_FEATURES = 4 + 6 + 1 + 2 + 2
OBSERVATION_SIZE = (
    GRID_CELLS * HEX_FEATURES
    + SEATS * PLAYER_FEATURES
    + SLOTS * 4
    + SEATS * CONTRACTOR_FEATURES
    + STAGE_FEATURES
    + GLOBAL_FEATURES
)


def observation(state: MontanaState, player: int) -> list[float]:
    n = state.n
    out = [0.0] * OBSERVATION_SIZE

    def rel(seat: int) -> int:
        return (seat - player) % n

    board = state.board
    if board is not None:
        for h, spec in enumerate(board.specs):
            base = board.grid_of[h] * HEX_FEATURES
            owner = state.hex_owner[h]
            if owner >= 0:
                out[base + rel(owner)] = 1.0
                out[base + 4] = state.hex_tiles[h] / 3.0
            out[base + 5 + ("plain", "mountain", "lake").index(spec.kind)] = 1.0
            out[base + 8] = 1.0 if h == board.start else 0.0
            out[base + 9] = 1.0 if spec.double else 0.0
            out[base + 10] = float(state.hex_cattle[h])
            out[base + 11] = float(state.lake_canteen[h])
            for k in range(6):
                out[base + 12 + k] = spec.cost[k] / 2.0
    offset = GRID_CELLS * HEX_FEATURES
    for p in range(n):
        base = offset + rel(p) * PLAYER_FEATURES
        out[base] = state.silver[p] / 20.0
        for k in range(6):
            out[base + 1 + k] = state.goods[6 * p + k] / 5.0
        out[base + 7] = state.cattle[p] / 3.0
        out[base + 8] = state.canteens[p] / 2.0
        for c in range(4):
            out[base + 9 + c] = state.workers[4 * p + c] / 4.0
        out[base + 13] = state.tiles[p] / 12.0
        out[base + 14] = state.regular_turns[p] / 100.0
        out[base + 15] = 1.0
    offset += SEATS * PLAYER_FEATURES
    for slot, ms in enumerate(state.slots[:SLOTS]):
        for c in range(4):
            out[offset + 4 * slot + c] = ms[c] / 2.0
    offset += SLOTS * 4
    cols = len(state.data.column_cost)
    for p in range(n):
        base = offset + rel(p) * CONTRACTOR_FEATURES
        spot = state.contractor[p]
        if spot == HOME:
            out[base + MAX_ROWS * MAX_COLUMNS] = 1.0
        else:
            out[base + (spot // cols) * MAX_COLUMNS + spot % cols] = 1.0
    offset += SEATS * CONTRACTOR_FEATURES
    out[offset + state.stage] = 1.0
    offset += len(STAGE_NAMES)
    if state.decider >= 0:
        out[offset + rel(state.decider)] = 1.0
    if state.active >= 0:
        out[offset + SEATS + rel(state.active)] = 1.0
    offset += 2 * SEATS
    if state.spin >= 0:
        out[offset + state.spin] = 1.0
    offset += MAX_WHEEL
    extras = (
        state.push / 7.0 if state.push >= 0 else 0.0,
        state.wilds / 4.0,
        state.excess / 4.0,
        state.builds_paid / 3.0,
        1.0 if state.extra_turn else 0.0,
        1.0 if state.trigger_by >= 0 else 0.0,
        state.turn_number / state.game.max_turns,
        1.0 if state.chain else 0.0,
    )
    for i, v in enumerate(extras):
        out[offset + i] = v
    offset += 8
    for c in range(4):
        out[offset + c] = state.supply_workers[c] / 18.0
    for k in range(6):
        out[offset + 4 + k] = state.supply_goods[k] / 20.0
    out[offset + 10] = state.supply_cattle / 24.0
    out[offset + 11] = state.canteens_used / 6.0
    out[offset + 12] = sum(state.lake_canteen) / 6.0
    out[offset + 13] = rel(state.start_player) / 3.0 if state.start_player >= 0 else 0.0
    out[offset + 14] = 1.0 if state.trigger_by >= 0 and rel(state.trigger_by) == 0 else 0.0
    return out
