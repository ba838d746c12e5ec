"""Why an action is illegal, in a sentence that names the rule (spec §5, §6, §8.3).

Cold code: it runs only when someone offers an illegal action, so it reads the kernel through
its Python accessors and never slows the hot path. It sits between the kernel and the facade
(it needs nothing of the facade), so ``state.py`` can call it without an upward import.
"""

from __future__ import annotations

from typing import cast

from boardplay.core.errors import IllegalActionError
from boardplay.core.game import State
from boardplay.games.potlatch.fields import FACE
from boardplay.games.potlatch.kernel import PotlatchKernel
from boardplay.games.potlatch.layout import PAWN_MOVES
from boardplay.games.potlatch.notation import (
    ACTION_NAMES,
    HEIGHT,
    STEPS,
    action_id,
    action_to_string,
    hex_text,
    pack,
)


def describe(action: object) -> str:
    """The notation of ``action`` when it is an id, else its ``repr``."""
    try:
        return action_to_string(action)  # type: ignore[arg-type]
    except IllegalActionError:
        return repr(action)


def explain_illegal(state: State, action: object) -> str:
    """The message ``apply_action`` raises for ``action``, which is not legal in ``state`` (a
    facade: its kernel, and its result once the game is over)."""
    kernel = cast(PotlatchKernel, state.kernel)
    if kernel.current_player() < 0:
        return f"{describe(action)} is not possible: the game is over ({state.result_text()})"
    try:
        return illegal_message(kernel, action_id(action))
    except IllegalActionError as error:
        return str(error)


def illegal_message(kernel: PotlatchKernel, action: int) -> str:
    """``"<action> is not legal here: <rule> (legal actions: ...)"``."""
    legal = ", ".join(ACTION_NAMES[a] for a in kernel.legal_actions()) or "none"
    reason = _reason(kernel, action)
    return f"{ACTION_NAMES[action]} is not legal here: {reason} (legal actions: {legal})"


def _reason(kernel: PotlatchKernel, action: int) -> str:
    """A sentence naming the rule that forbids ``action`` (called only when it is illegal)."""
    return blocked(kernel, action)[1]


def blocked(kernel: PotlatchKernel, action: int) -> tuple[str, str]:
    """Which rule forbids ``action`` (called only when it is illegal): a stable code (what the
    end of a game is explained by, ``describe.describe_end``) and the sentence that names it.

    Codes: ``pawn`` (the other pawn stands there), ``visited`` (been there this turn),
    ``no_stock`` (no tile there and none left), ``height`` (a step of more than 1, a blank
    included), ``no_chip`` (nothing to move under the pawn), ``full`` (already 3 high),
    ``dead_end`` (the turn could not be finished after it)."""
    tiles = {pack(q, r): code for q, r, code in kernel.tiles()}
    pawns = [pack(q, r) for q, r in kernel.pawns()]
    fields = FACE.snapshot(kernel)
    mover = fields["to_move"]
    here = pawns[mover]
    if action < PAWN_MOVES:
        dest = here + STEPS[action]
        where = hex_text(dest)
        if dest == pawns[1 - mover]:
            return "pawn", f"{where} holds the opponent's pawn"
        if dest in {pack(q, r) for q, r in kernel.visited()}:
            return "visited", f"the pawn has already been on {where} this turn"
        h_here = HEIGHT[tiles[here]]
        if dest not in tiles:
            if fields["stock"] == 0:
                return "no_stock", f"{where} has no tile and the tile stock is empty"
            if not fields["blank_free"] and h_here > 1:
                return "height", (
                    f"{where} has no tile (height 0) and the pawn stands {h_here} high; "
                    "a pawn may only step up or down by 1"
                )
        else:
            diff = HEIGHT[tiles[dest]] - h_here
            if abs(diff) > 1:
                return "height", (
                    f"the height difference to {where} is {diff:+d}; "
                    "a pawn may only step up or down by 1"
                )
    else:
        dest = here + STEPS[action - PAWN_MOVES]
        where = hex_text(dest)
        if HEIGHT[tiles[here]] == 0 and not fields["run_open"]:
            return "no_chip", f"the pawn's hex {hex_text(here)} has no chip to move"
        if dest not in tiles and fields["stock"] == 0:
            return "no_stock", f"{where} has no tile and the tile stock is empty"
        if dest in tiles and HEIGHT[tiles[dest]] == 3:
            return "full", f"{where} is already 3 high"
    # Every rule of §5 and §6 is named above, so only the dead-end filter is left.
    return "dead_end", "the turn could not be completed after it (option filter_dead_ends)"
