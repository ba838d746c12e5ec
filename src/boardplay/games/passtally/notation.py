"""Passtally notation (spec §11): ``@7`` setup placements, ``A:b3E`` tile placements,
``m7+2`` marker moves and ``A=XNE`` reveals.

Printing is by action id alone (a placement's notation names the pile, not the design), so a
record stays readable whatever tile a pile showed. Parsing accepts, besides the printed form,
any letter case and spaces, and the other spelling of a symmetric design's placement
(``A:c3W`` for ``A:b3E`` when pile A shows XX, NENE or NWNW), normalised to the canonical id.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from boardplay.games.passtally.layout import (
    MOVE_BASE,
    NUM_ACTIONS,
    NUM_DESIGNS,
    NUM_SLOTS,
    PLACE_BASE,
    PLACE_PER_PILE,
)
from boardplay.games.passtally.tables import (
    CELL_INDEX,
    CELL_NAMES,
    DESIGN_INDEX,
    DESIGNS,
    MOVE_STEPS,
    ORIENT_NAMES,
    OTHER_CELL,
    PILE_NAMES,
    SYMMETRIC,
    place_id,
)


def place_to_string(pile: int, anchor: int, orientation: int) -> str:
    return f"{PILE_NAMES[pile]}:{CELL_NAMES[anchor]}{ORIENT_NAMES[orientation]}"


def action_to_string(action: int) -> str:
    """Notation of a player action id (setup placement, tile placement or marker move)."""
    if 0 <= action < PLACE_BASE:
        return f"@{action}"
    if PLACE_BASE <= action < MOVE_BASE:
        pile, rest = divmod(action - PLACE_BASE, PLACE_PER_PILE)
        anchor, orientation = divmod(rest, 4)
        return place_to_string(pile, anchor, orientation)
    if MOVE_BASE <= action < NUM_ACTIONS:
        slot, j = divmod(action - MOVE_BASE, 4)
        step, distance = MOVE_STEPS[j]
        return f"m{slot}{'+' if step > 0 else '-'}{distance}"
    return f"#{action}"


def chance_to_string(pile: int, outcome: int) -> str:
    if 0 <= outcome < NUM_DESIGNS:
        return f"{PILE_NAMES[pile]}={DESIGNS[outcome]}"
    return f"{PILE_NAMES[pile]}=#{outcome}"


_SETUP = re.compile(r"@\s*(\d{1,2})")
_PLACE = re.compile(r"([abc])\s*:\s*([a-f][1-6])\s*([eswn])")
_MOVE = re.compile(r"m\s*(\d{1,2})\s*([+-])\s*([12])")
_REVEAL = re.compile(r"([abc])\s*=\s*([a-z]+)")


FORMS = (
    "@<slot> places a setup marker (@7), <pile>:<cell><side> lays a tile (A:b3E), "
    "m<slot>+<steps> or m<slot>-<steps> moves a marker (m7+2), <pile>=<design> is a reveal"
)
"""How a move is written (``NotationError`` says it)."""


def parse(pending: int, face_up: Sequence[int], text: str) -> int | None:
    """The action id ``text`` names, legal or not: the printed spelling and the accepted
    others (any letter case and spaces, a symmetric design's other anchor); None when it is
    none of them. ``pending`` is the pile being revealed (or -1; then ``text`` must be that
    pile's reveal) and ``face_up`` the piles' face-up designs. The caller
    (``State.string_to_action``) checks that the id is legal."""
    low = text.strip().lower()
    if pending >= 0:
        match = _REVEAL.fullmatch(low)
        if match is None or PILE_NAMES.lower().index(match.group(1)) != pending:
            return None
        return DESIGN_INDEX.get(match.group(2).upper())
    match = _SETUP.fullmatch(low)
    if match is not None:
        slot = int(match.group(1))
        return slot if slot < NUM_SLOTS else None
    match = _MOVE.fullmatch(low)
    if match is not None:
        slot = int(match.group(1))
        if slot >= NUM_SLOTS:
            return None
        step = 1 if match.group(2) == "+" else -1
        return MOVE_BASE + slot * 4 + MOVE_STEPS.index((step, int(match.group(3))))
    match = _PLACE.fullmatch(low)
    if match is not None:
        pile = PILE_NAMES.lower().index(match.group(1))
        anchor = CELL_INDEX[match.group(2)]
        orientation = ORIENT_NAMES.lower().index(match.group(3))
        design = face_up[pile]
        if design >= 0 and SYMMETRIC[design] and orientation >= 2:
            other = OTHER_CELL[anchor * 4 + orientation]
            if other < 0:
                return place_id(pile, anchor, orientation)  # illegal: off the board
            # The same board result anchored on the west/north cell (canonical spelling).
            return place_id(pile, other, orientation - 2)
        return place_id(pile, anchor, orientation)
    return None


__all__ = ["DESIGNS", "FORMS", "action_to_string", "chance_to_string", "parse"]
