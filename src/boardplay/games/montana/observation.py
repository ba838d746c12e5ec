"""Montana's observation tensor: a fixed-size flat float list from one player's view.

The kernel writes it (``MontanaKernel.observe_into``); this module names its size and layout.
Seats are rotated so that the observer is always seat 0 of the encoding; everything is public,
so the tensor holds the whole position. Sizes are fixed for every option set (4 seats, the
15x15 axial hex window, the data bounds), so one network fits all player counts. Layout in
docs/formats/montana.md ("Observation tensor").
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from boardplay.games.montana.board import GRID_CELLS
from boardplay.games.montana.data import (
    MAX_AREA_SPACES,
    MAX_BANK_SPACES,
    MAX_COLUMNS,
    MAX_ROWS,
    MAX_WHEEL,
)
from boardplay.games.montana.layout import STAGE_NAMES
from boardplay.games.montana.state import MontanaState

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


def observe_into(state: MontanaState, player: int, out: npt.NDArray[np.float32]) -> None:
    """Write ``player``'s tensor into a float32 buffer of ``OBSERVATION_SIZE`` (the kernel
    fills it; no Python per feature)."""
    state.kernel.observe(player, out)


def observe(state: MontanaState, player: int) -> list[float]:
    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    observe_into(state, player, out)
    values: list[float] = out.tolist()
    return values
