"""Montana's observation tensor: a fixed-size flat float list from one player's view.

The kernel writes it (``MontanaKernel.observe_into``); its size and blocks are declared once in
``layout.pxd`` (``OBSERVATION_SIZE``, ``HEX_FEATURES``...). Seats are rotated so that the
observer is always seat 0 of the encoding; everything is public, so the tensor holds the whole
position. Sizes are fixed for every option set (4 seats, the 15x15 axial hex window, the data
limits), so one network fits all player counts. Layout in docs/formats/montana.md
("Observation tensor").
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from boardplay.games.montana.layout import OBSERVATION_SIZE
from boardplay.games.montana.state import MontanaState


def observe_into(state: MontanaState, player: int, out: npt.NDArray[np.float32]) -> None:
    """Write ``player``'s tensor into a float32 buffer of ``OBSERVATION_SIZE`` (the kernel
    fills it; no Python per feature)."""
    state.kernel.observe(player, out)


def observe(state: MontanaState, player: int) -> list[float]:
    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    observe_into(state, player, out)
    values: list[float] = out.tolist()
    return values
