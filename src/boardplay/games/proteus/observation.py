"""The observation tensor of a Proteus position (written by the kernel's ``observe_into``).

Layout of the 165 floats, from ``player``'s view (also docs/formats/proteus.md): 0-80 tile id
t at cell c (t*9+c); 81-89 active flag per cell; 90-143 pieces: planes own circle/square/
triangle then the opponent's (plane*9+cell); 144-152 pool tiles; 153-158 own hand c/s/t then
the opponent's; 159-161 colour missing (red, blue, yellow); 162 movement phase; 163 ``player``
is to move; 164 the pass counter.
"""

from __future__ import annotations

from array import array

from boardplay.games.proteus.layout import OBSERVATION_SIZE
from boardplay.games.proteus.state import ProteusState


def observe_into(state: ProteusState, player: int, out: object) -> None:
    """Write ``player``'s tensor into ``out``: any writable C-contiguous float32 buffer of 165
    or more (a NumPy row, an ``array("f")``), so batch tools fill their own memory."""
    if player not in (0, 1):
        raise ValueError(f"player must be 0 (Black) or 1 (White), got {player!r}")
    state.kernel.observe(player, out)


def observe(state: ProteusState, player: int) -> list[float]:
    """``player``'s tensor as a list (``State.observation_tensor``)."""
    out = array("f", bytes(4 * OBSERVATION_SIZE))
    observe_into(state, player, out)
    return out.tolist()
