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

from typing import TYPE_CHECKING

from boardplay.games._legacy.potlatch.notation import COLOUR_STACK, HEIGHT, unpack

if TYPE_CHECKING:
    from boardplay.games._legacy.potlatch.state import PotlatchState

RADIUS = 11
SIDE = 2 * RADIUS + 1
CELLS = SIDE * SIDE
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
OBSERVATION_SHAPE = (len(PLANES), SIDE, SIDE)


def _cell(key: int, turn: bool, centre: int) -> int:
    """Flat index of a hex inside one plane, or -1 outside the window."""
    q, r = unpack(key)
    if turn:
        q, r = centre - q, -r
    if -RADIUS <= q <= RADIUS and -RADIUS <= r <= RADIUS:
        return (r + RADIUS) * SIDE + (q + RADIUS)
    return -1


def observation_tensor(state: PotlatchState, player: int) -> list[float]:
    """Flat list of ``17 * 23 * 23`` floats, plane-major (see the module docstring)."""
    if player not in (0, 1):
        raise ValueError(f"player must be 0 or 1, got {player!r}")
    from boardplay.games._legacy.potlatch.game import LAYOUTS

    centre = int(LAYOUTS[state.game.layout]["centre"])
    turn = player == 1
    out = [0.0] * (len(PLANES) * CELLS)
    own_code, opp_code = COLOUR_STACK[player], COLOUR_STACK[1 - player]
    for key, code in state.tiles.items():
        cell = _cell(key, turn, centre)
        if cell < 0:
            continue
        out[cell] = 1.0
        height = HEIGHT[code]
        if height >= 1:
            out[CELLS + cell] = 1.0
        if height >= 2:
            out[2 * CELLS + cell] = 1.0
        if height == 3:
            out[3 * CELLS + cell] = 1.0
        if code == own_code:
            out[4 * CELLS + cell] = 1.0
        elif code == opp_code:
            out[5 * CELLS + cell] = 1.0
    for plane, seat in ((6, player), (7, 1 - player)):
        cell = _cell(state.pawns[seat], turn, centre)
        if cell >= 0:
            out[plane * CELLS + cell] = 1.0
    if state.result is None:
        for key in state.visited:
            cell = _cell(key, turn, centre)
            if cell >= 0:
                out[8 * CELLS + cell] = 1.0
    neutral, _, _ = state.supplies()
    scalars = (
        1.0 if state.result is None and state.to_move == player else 0.0,
        state.done / state.n_actions,
        1.0 if state.run_open else 0.0,
        1.0 if state.n_actions == 3 else 0.0,
        state.stock / 12,
        state.own_stacks(player) / 3,
        state.own_stacks(1 - player) / 3,
        neutral / 36,
    )
    for index, value in enumerate(scalars):
        if value:
            start = (9 + index) * CELLS
            out[start : start + CELLS] = [value] * CELLS
    return out
