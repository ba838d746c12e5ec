"""Action id <-> notation (spec §9): ``Rc@b2``, ``s@b2``, ``b2-c3``, ``a1~c3``, ``pass``.

Notation never depends on the position (actions do not name the player), so both directions
are plain table look-ups built once at import.
"""

from __future__ import annotations

from typing import Final

from boardplay.games.proteus.layout import NUM_ACTIONS, PASS, PIECE_BASE, TRADE_BASE
from boardplay.games.proteus.tables import CELLS, MOVE_OF, SHAPES, TILES, TRADE_ID, TRADE_PAIRS


def _name(action: int) -> str:
    if action < PIECE_BASE:
        tile, cell = divmod(action, 9)
        return f"{TILES[tile]}@{CELLS[cell]}"
    if action < MOVE_OF_START:
        shape, cell = divmod(action - PIECE_BASE, 9)
        return f"{SHAPES[shape]}@{CELLS[cell]}"
    if action < TRADE_BASE:
        src, dst = MOVE_OF[action]
        return f"{CELLS[src]}-{CELLS[dst]}"
    if action < PASS:
        i, j = TRADE_PAIRS[action - TRADE_BASE]
        return f"{CELLS[i]}~{CELLS[j]}"
    return "pass"


MOVE_OF_START: Final = min(MOVE_OF)
ACTION_NAMES: Final = tuple(_name(a) for a in range(NUM_ACTIONS))
"""The canonical notation of every action id."""
ACTION_BY_NAME: Final = {name: a for a, name in enumerate(ACTION_NAMES)}
REVERSED_TRADES: Final = {f"{CELLS[j]}~{CELLS[i]}": TRADE_ID[i][j] for i, j in TRADE_PAIRS}
"""Trades written with their cells in non-canonical order; accepted on input only (§9)."""


def action_to_string(action: int) -> str:
    """Canonical notation; raises ``IndexError`` for an id outside the action space."""
    if not 0 <= action < NUM_ACTIONS:
        raise IndexError(f"action id {action} is outside 0..{NUM_ACTIONS - 1}")
    return ACTION_NAMES[action]


FORMS: Final = (
    "a tile placement (Rc@b2), a piece placement (s@b2), a move (b2-c3), a trade of two "
    "different cells (a1~c3) or pass"
)
"""How a move is written (``NotationError`` says it)."""


def parse(text: str) -> int | None:
    """The action id a notation string denotes (a reversed trade included), or None."""
    text = text.strip()
    found = ACTION_BY_NAME.get(text)
    if found is None:
        found = REVERSED_TRADES.get(text)
    return found
