"""The observation tensor (documented in ``docs/formats/potlatch.md``, "Observation tensor").

Shape ``(17, 23, 23)``: planes over a 23 x 23 window of axial coordinates
``q, r in -11..11`` (row = r + 11, column = q + 11). Every hex a game from either layout can
reach lies inside it: at most 11 tiles are added one step at a time, so tiles stay within hex
distance 10 of the origin and the blank spaces next to a pawn within 11. Hexes outside the
window (only possible in hand-made positions) are not encoded.

The view is *relative to the player*: "own" and "opponent" planes are swapped for Blue, and for
Blue the board is also turned by the layout's 180° symmetry, so both seats see their start in
the same place.
"""

from __future__ import annotations

from array import array

from boardplay.games.potlatch.layout import NUM_PLANES, OBSERVATION_SIZE, SIDE
from boardplay.games.potlatch.state import PotlatchState

# The planes' names, in the order the kernel writes them (``layout.pxd`` declares the window).
PLANES = (
    "tile",
    "height>=1",
    "height>=2",
    "height==3",
    "own stack",
    "opponent stack",
    "own pawn",
    "opponent pawn",
    "visited this turn",
    "own turn",
    "done/actions",
    "run open",
    "actions==3",
    "stock/12",
    "own stacks/3",
    "opponent stacks/3",
    "neutral supply/36",
)
OBSERVATION_SHAPE = (NUM_PLANES, SIDE, SIDE)


def observe_into(state: PotlatchState, player: int, out: object) -> None:
    """Write ``player``'s tensor into ``out``, any writable float32 buffer of at least
    ``17 * 23 * 23`` floats (a NumPy row, an ``array("f")``): the kernel writes it directly."""
    if player not in (0, 1):
        raise ValueError(f"player must be 0 or 1, got {player!r}")
    state.kernel.observe(player, out)


def observe(state: PotlatchState, player: int) -> list[float]:
    """Flat list of ``17 * 23 * 23`` floats (float32 values), plane-major (see the module
    docstring)."""
    out = array("f", bytes(4 * OBSERVATION_SIZE))
    observe_into(state, player, out)
    return out.tolist()
