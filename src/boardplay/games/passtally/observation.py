"""The observation tensor of a Passtally position: a flat list of floats, the same length for 2
and 3 players, seat-relative (the observer is always "seat 0" of the encoding), documented in
docs/formats/passtally.md under "Observation tensor".

Everything is public in Passtally (the face-down order is unknown to everyone), so the tensor is
the whole position; only the seat numbering is rotated to the observer's view. The kernel writes
it (``observe_into``); this module gives it the contract's list shape, or writes it straight into
a caller's float32 buffer (a NumPy row) with ``observe_into``.
"""

from __future__ import annotations

from array import array
from typing import Final

from boardplay.games.passtally.layout import OBSERVATION_SIZE
from boardplay.games.passtally.state import PasstallyState

SIZE: Final = OBSERVATION_SIZE
"""7 board planes of 36 cells, 3 seat-relative ring planes of 24 slots, per pile a face-up
design one-hot and its face-down count (3 x 7), the pending reveal (3), the unrevealed count
per design (6), scores (3), the seat to move (3), actions left (1), the setup / final round /
game over flags (3) and the sides chosen in setup passes 1 and 3 (4 + 4)."""


def _check_player(state: PasstallyState, player: int) -> None:
    n = state.num_players
    if not 0 <= player < n:
        raise ValueError(f"player must be a seat 0-{n - 1}, not {player}")


def observe_into(state: PasstallyState, player: int, out: object) -> None:
    """Write ``player``'s tensor into ``out``, any writable float32 buffer of ``SIZE``."""
    _check_player(state, player)
    state.kernel.observe(player, out)


def observe(state: PasstallyState, player: int) -> list[float]:
    _check_player(state, player)
    buffer = array("f", bytes(4 * SIZE))
    state.kernel.observe(player, buffer)
    return buffer.tolist()
