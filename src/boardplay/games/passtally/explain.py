"""Why an action is illegal, in the sentence the rules would use (cold code).

``KernelState.apply_action`` checks legality against the kernel's legal list; only when that
check fails does it ask for an explanation, so this module may be slow and wordy. It reads the
kernel's fields (``snapshot``) and never changes them. Each branch names the rule that forbids
the action: the reveal's design, the setup side, the support rules of a placement (§5), the
owner and the destination of a marker move (§6).
"""

from __future__ import annotations

from typing import Any, cast

from boardplay.core.game import State
from boardplay.games.passtally import notation
from boardplay.games.passtally.fields import marker_destination, marker_slots, snapshot
from boardplay.games.passtally.kernel import PasstallyKernel
from boardplay.games.passtally.layout import (
    MOVE_BASE,
    NUM_ACTIONS,
    NUM_DESIGNS,
    NUM_SLOTS,
    PLACE_BASE,
    PLACE_PER_PILE,
    SIZE,
)
from boardplay.games.passtally.tables import (
    DESIGNS,
    OTHER_CELL,
    PILE_NAMES,
    SIDE_NAMES,
    SYMMETRIC,
    cell_name,
)


def explain_illegal(state: State, action: object) -> str:
    """The reason ``action`` cannot be applied to ``state`` (a facade; the reasons read its
    kernel) now."""
    kernel = cast(PasstallyKernel, state.kernel)
    if isinstance(action, bool) or not isinstance(action, int):
        return f"an action must be an integer id, not {action!r}"
    values = snapshot(kernel)
    if values["game_over"]:
        return "the game is over: no action is possible"
    if values["pending"] >= 0:
        return _reveal(values, action)
    if values["setup"]:
        return _setup(kernel, values, action)
    if PLACE_BASE <= action < MOVE_BASE:
        pile, rest = divmod(action - PLACE_BASE, PLACE_PER_PILE)
        anchor, orientation = divmod(rest, 4)
        problem = placement_problem(values, pile, anchor, orientation)
        text = notation.place_to_string(pile, anchor, orientation)
        return f"{text} is illegal: {problem or 'not a legal placement here'}"
    if MOVE_BASE <= action < NUM_ACTIONS:
        return _move(kernel, values, action)
    what = "a setup placement" if 0 <= action < PLACE_BASE else "not an action id"
    return (
        f"action {action} is {what}; during play the actions are tile placements "
        f"({PLACE_BASE}-{MOVE_BASE - 1}) and marker moves ({MOVE_BASE}-{NUM_ACTIONS - 1})"
    )


def _reveal(fields: dict[str, Any], outcome: int) -> str:
    name = PILE_NAMES[fields["pending"]]
    if not 0 <= outcome < NUM_DESIGNS:
        return f"pile {name} is being revealed: the outcome must be a design id 0-5, not {outcome}"
    return f"{name}={DESIGNS[outcome]} is impossible: no {DESIGNS[outcome]} tile is left unrevealed"


def _setup(kernel: PasstallyKernel, fields: dict[str, Any], action: int) -> str:
    if not 0 <= action < NUM_SLOTS:
        shown = notation.action_to_string(action) if 0 <= action < NUM_ACTIONS else action
        return f"setup is in progress: the only actions are marker placements @0-@23, not {shown}"
    if fields["ring"][action] >= 0:
        why = f"slot {action} is occupied"
    else:
        sides = sorted({s // SIZE for s in marker_slots(kernel)})
        names = " or ".join(SIDE_NAMES[s] for s in sides)
        why = (
            f"this marker must go on the {names} side (slot {action} is on the "
            f"{SIDE_NAMES[action // SIZE]} side)"
        )
    return f"@{action} is illegal: {why}"


def placement_problem(
    fields: dict[str, Any], pile: int, anchor: int, orientation: int
) -> str | None:
    """Why placing pile's face-up tile there is illegal, or None when it is legal."""
    face_up, height, tid = fields["face_up"], fields["height"], fields["tid"]
    if face_up[pile] < 0:
        if fields["hidden"][pile] == 0:
            return f"pile {PILE_NAMES[pile]} is exhausted"
        return f"pile {PILE_NAMES[pile]} has no face-up tile"
    other = OTHER_CELL[anchor * 4 + orientation]
    if other < 0:
        return "part of the tile would be off the board"
    ha, hb = height[anchor], height[other]
    if ha != hb:
        return (
            f"the halves would rest on different heights ({cell_name(anchor)} is {ha}, "
            f"{cell_name(other)} is {hb})"
        )
    if ha > 0 and tid[anchor] == tid[other]:
        return (
            f"it would rest exactly on one tile (tile {tid[anchor]} covers both "
            f"{cell_name(anchor)} and {cell_name(other)})"
        )
    if SYMMETRIC[face_up[pile]] and orientation >= 2:
        canonical = notation.place_to_string(pile, other, orientation - 2)
        return f"{DESIGNS[face_up[pile]]} is symmetric: this placement is written {canonical}"
    return None


def _move(kernel: PasstallyKernel, fields: dict[str, Any], action: int) -> str:
    slot, j = divmod(action - MOVE_BASE, 4)
    text = notation.action_to_string(action)
    owner = fields["ring"][slot]
    to_move = fields["to_move"]
    if owner != to_move:
        who = "no marker" if owner < 0 else f"a marker of Player {owner + 1}"
        return (
            f"{text} is illegal: slot {slot} holds {who}; "
            f"Player {to_move + 1} may move only their own markers"
        )
    if marker_destination(kernel, slot, j) < 0:
        return f"{text} is illegal: that marker has no such destination"
    return f"{text} is illegal: not a legal move here"
