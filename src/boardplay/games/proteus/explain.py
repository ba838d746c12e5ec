"""Why a Proteus action is illegal, in a sentence that names the rule (spec §4-§6, §5.5).

Cold code: it runs only when an action is rejected. It reads the position through the
kernel's accessors, so it sits below the facade (``state.py`` imports it) and the facade needs
no import from above.
"""

from __future__ import annotations

from typing import cast

from boardplay.core.game import State
from boardplay.games.proteus.fields import FACE
from boardplay.games.proteus.kernel import ProteusKernel
from boardplay.games.proteus.layout import (
    BLUE,
    MOVE_BASE,
    NUM_ACTIONS,
    PASS,
    PIECE_BASE,
    RED,
    TRADE_BASE,
)
from boardplay.games.proteus.notation import ACTION_NAMES
from boardplay.games.proteus.tables import (
    CELLS,
    COLOUR_WORDS,
    MOVE_OF,
    MOVE_TARGETS,
    PLAYER_WORDS,
    RULE_NAMES,
    SHAPE_WORDS,
    TILES,
    TRADE_PAIRS,
)


def explain_illegal(state: State, action: object) -> str:
    """The message of the ``IllegalActionError`` for ``action`` in ``state`` (a facade; the
    reasons read its kernel)."""
    kernel = cast(ProteusKernel, state.kernel)
    if isinstance(action, bool) or not isinstance(action, int):
        return f"{action!r} is not a Proteus action id (an integer 0..{NUM_ACTIONS - 1})"
    if not 0 <= action < NUM_ACTIONS:
        return f"action id {action} is outside Proteus's action space 0..{NUM_ACTIONS - 1}"
    name = ACTION_NAMES[action]
    outcome = FACE.get(kernel, "outcome")
    if outcome != "ongoing":
        return f"{name} is not possible: the game is over ({outcome})"
    reason = _basic_reason(kernel, action)
    if (
        reason is None
        and FACE.get(kernel, "unplaced") == 0
        and action != PASS
        and kernel.repeats(action)
    ):
        reason = "it would recreate a position that has already occurred (repetition=forbid)"
    if reason is None:
        reason = (
            "the forcing rule requires an action that activates a missing colour "
            f"({_missing_text(kernel)}); legal now: {_legal_text(kernel)}"
        )
    return f"{name} is illegal: {reason}"


def _legal_text(kernel: ProteusKernel) -> str:
    legal = kernel.legal_actions()
    shown = ", ".join(ACTION_NAMES[a] for a in legal[:30])
    return shown + (f" (and {len(legal) - 30} more)" if len(legal) > 30 else "")


def _missing_text(kernel: ProteusKernel) -> str:
    missing = [COLOUR_WORDS[k] for k in range(3) if kernel.active_tile(k) < 0]
    return "missing: " + ", ".join(missing)


def _basic_reason(kernel: ProteusKernel, action: int) -> str | None:
    """Why ``action`` is not even a candidate (§5.5 step 1), or None if it is one."""
    if action == PASS:
        legal = _legal_text(kernel)
        return f"a pass is allowed only when no other action is legal; legal now: {legal}"
    if action < PIECE_BASE:
        return _tile_placement_reason(kernel, action)
    if action < MOVE_BASE:
        return _piece_placement_reason(kernel, action)
    if FACE.get(kernel, "unplaced") > 0:
        return "pieces move and tiles trade only in the movement phase, after all placements"
    if action < TRADE_BASE:
        return _move_reason(kernel, action)
    return _trade_reason(kernel, action)


def _placed(kernel: ProteusKernel, kind: str, name: str, at: int, complete: str) -> str | None:
    """Why a tile or a piece (``kind``, called ``name``, on cell ``at`` or -1) cannot be placed
    on any cell: every one is placed once, in the placement phase (``complete`` says why that
    phase is over)."""
    if FACE.get(kernel, "unplaced") == 0:
        return f"{kind}s are placed only in the placement phase; {complete}"
    if at >= 0:
        return f"{name} is already on the board at {CELLS[at]}"
    return None


def _tile_placement_reason(kernel: ProteusKernel, action: int) -> str | None:
    tile, cell = divmod(action, 9)
    at = kernel.cell_of_tile(tile)
    placed = _placed(kernel, "tile", f"tile {TILES[tile]}", at, "the board is complete")
    if placed is not None:
        return placed
    held = kernel.tile_at(cell)
    if held >= 0:
        return f"{CELLS[cell]} already holds tile {TILES[held]}; tiles go only on empty cells"
    return None


def _piece_placement_reason(kernel: ProteusKernel, action: int) -> str | None:
    shape, cell = divmod(action - PIECE_BASE, 9)
    mover = FACE.get(kernel, "to_move")
    piece = 3 * mover + shape
    who = f"{PLAYER_WORDS[mover]}'s {SHAPE_WORDS[shape]}"
    at = kernel.cell_of_piece(piece)
    placed = _placed(kernel, "piece", who, at, "all pieces are on the board")
    if placed is not None:
        return placed
    tile = kernel.tile_at(cell)
    if tile < 0:
        return f"{CELLS[cell]} has no tile; a piece goes only on a vacant tile"
    if kernel.piece_at(cell) >= 0:
        return f"the tile at {CELLS[cell]} already holds a piece"
    if FACE.get(kernel, "kadon"):
        colour = tile // 3
        active = kernel.active_tile(colour)
        if tile % 3 == shape and active >= 0:
            return (
                f"under rules=kadon a {SHAPE_WORDS[shape]} may not go on {TILES[tile]}: "
                f"{COLOUR_WORDS[colour]} already has an active tile ({TILES[active]})"
            )
        if not kernel.kadon_allows(shape, cell):
            return (
                "under rules=kadon it would make it impossible to activate exactly one "
                "tile of each colour by the end of the placement phase"
            )
    return None


def _move_reason(kernel: ProteusKernel, action: int) -> str | None:
    src, dst = MOVE_OF[action]
    mover = FACE.get(kernel, "to_move")
    piece = kernel.piece_at(src)
    if piece < 0 or piece // 3 != mover:
        return f"there is no {PLAYER_WORDS[mover]} piece on {CELLS[src]}"
    move_tile = kernel.active_tile(RED)
    if move_tile < 0:
        return "no MOVE tile is active, so no piece can move"
    if kernel.piece_at(dst) >= 0:
        return f"{CELLS[dst]} is occupied; a piece moves only to a vacant tile"
    if dst not in MOVE_TARGETS[move_tile][src]:
        rule = RULE_NAMES[move_tile]
        return f"the MOVE rule {rule} does not go from {CELLS[src]} to {CELLS[dst]}"
    return None


def _trade_reason(kernel: ProteusKernel, action: int) -> str | None:
    i, j = TRADE_PAIRS[action - TRADE_BASE]
    trade_tile = kernel.active_tile(BLUE)
    if trade_tile < 0:
        return "no TRADE tile is active, so no tiles can be traded"
    if action not in kernel.movement_candidates():
        ti, tj = kernel.tile_at(i), kernel.tile_at(j)
        return (
            f"the TRADE rule {RULE_NAMES[trade_tile]} does not allow swapping "
            f"{TILES[ti]} at {CELLS[i]} with {TILES[tj]} at {CELLS[j]}"
        )
    return None
