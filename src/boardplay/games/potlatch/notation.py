"""Hex coordinates, chip codes and action notation (spec §2.4, §10).

Hot code works on *packed* hexes: the axial pair ``(q, r)`` becomes the single int
``q * STRIDE + r``. Neighbour steps are then one addition, dict lookups hash small ints, and
a board is a ``dict[int, int]`` that copies in a few hundred nanoseconds. ``STRIDE`` leaves room
for any coordinate a loaded position may use (``|q|, |r| <= MAX_COORD``) plus the at most 12
tiles a game can still add, so packing never collides.

A stack is stored as a *chip code* rather than a string, for the same reason:

=====  =======  ======
code   chips    height
=====  =======  ======
0      ``""``   0
1      ``N``    1
2      ``NN``   2
3      ``NNN``  3 (neutral stack)
4      ``NNR``  3 (Red's stack)
5      ``NNB``  3 (Blue's stack)
=====  =======  ======

Codes 0..5 cover every reachable stack because a colour chip is only ever the 3rd chip
(spec §13 invariant 2); ``state_from_json`` rejects anything else.
"""

from __future__ import annotations

import operator
import re
from typing import Any

from boardplay.core.errors import IllegalActionError
from boardplay.games.potlatch.layout import NUM_ACTIONS

STRIDE = 1 << 16
"""Packing base: ``hex = q * STRIDE + r`` with ``-STRIDE/2 <= r < STRIDE/2``."""
MAX_COORD = 10_000
"""Largest ``|q|`` or ``|r|`` accepted in a position JSON."""

DIRECTION_NAMES: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")
DIRECTION_OFFSETS: tuple[tuple[int, int], ...] = (
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, 0),
    (-1, 1),
    (0, 1),
)
STEPS: tuple[int, ...] = tuple(dq * STRIDE + dr for dq, dr in DIRECTION_OFFSETS)
"""Packed neighbour offsets, in the spec's fixed direction order E, NE, NW, W, SW, SE."""

# Ids 0..5 are Pawn Moves, 6..11 Chip Moves, each toward ``DIRECTION_NAMES[id % 6]``.
ACTION_NAMES: tuple[str, ...] = tuple(f"P-{d}" for d in DIRECTION_NAMES) + tuple(
    f"C-{d}" for d in DIRECTION_NAMES
)
ACTION_IDS: dict[str, int] = {name: i for i, name in enumerate(ACTION_NAMES)}

CHIP_STRINGS: tuple[str, ...] = ("", "N", "NN", "NNN", "NNR", "NNB")
CHIP_CODES: dict[str, int] = {s: i for i, s in enumerate(CHIP_STRINGS)}
HEIGHT: tuple[int, ...] = (0, 1, 2, 3, 3, 3)
NEUTRAL_STACK = 3
COLOUR_STACK: tuple[int, int] = (4, 5)
"""Chip code of seat 0's (Red, ``NNR``) and seat 1's (Blue, ``NNB``) stack."""
COLOUR_LETTERS: tuple[str, str] = ("R", "B")

Snapshot = tuple[tuple[int, int], ...]
"""A repetition snapshot (spec §8.2) as a hashable tuple of ``(packed hex, chip code)`` pairs,
sorted by hex. The full-state variant lists every tile (empty ones too) and then appends
``(red pawn hex, -1)`` and ``(blue pawn hex, -2)``."""

_HEX_TEXT = re.compile(r"(0|-?[1-9][0-9]*),(0|-?[1-9][0-9]*)")


def pack(q: int, r: int) -> int:
    """The packed form of axial ``(q, r)``."""
    return q * STRIDE + r


def unpack(key: int) -> tuple[int, int]:
    """Axial ``(q, r)`` of a packed hex."""
    r = (key + STRIDE // 2) % STRIDE - STRIDE // 2
    return (key - r) // STRIDE, r


def hex_text(key: int) -> str:
    """Notation ``"q,r"`` of a packed hex (spec §10: integers, no spaces)."""
    q, r = unpack(key)
    return f"{q},{r}"


def parse_hex(text: object) -> int | None:
    """Packed hex for ``"q,r"`` in canonical form (no spaces, no ``+``, no ``-0``, no leading
    zeros) within ``MAX_COORD``; None for anything else, so callers can name their field."""
    if not isinstance(text, str):
        return None
    match = _HEX_TEXT.fullmatch(text)
    if match is None:
        return None
    q, r = int(match.group(1)), int(match.group(2))
    if abs(q) > MAX_COORD or abs(r) > MAX_COORD:
        return None
    return pack(q, r)


def hex_distance(a: int, b: int) -> int:
    """Hex distance between two packed hexes."""
    aq, ar = unpack(a)
    bq, br = unpack(b)
    dq, dr = aq - bq, ar - br
    return max(abs(dq), abs(dr), abs(dq + dr))


def action_id(action: object) -> int:
    """``action`` as a plain int id (numpy integers from adapters are accepted), or
    ``IllegalActionError`` naming the id range."""
    try:
        value = operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        value = -1
    if isinstance(action, bool) or not 0 <= value < NUM_ACTIONS:
        raise IllegalActionError(
            f"{action!r} is not a Potlatch Klone action id; ids are 0..11 "
            f"({', '.join(ACTION_NAMES)})"
        )
    return value


def action_to_string(action: int) -> str:
    """Notation of an action id, e.g. ``0 -> "P-E"``, ``11 -> "C-SE"``."""
    return ACTION_NAMES[action_id(action)]


FORMS = "P-<direction> moves the pawn, C-<direction> a chip; directions E, NE, NW, W, SW, SE"
"""How a move is written (``NotationError`` says it)."""


def parse(text: str) -> int | None:
    """The action id of a move in notation (``"P-E"``, ``"C-SE"``), legal or not; None when
    ``text`` is not one."""
    return ACTION_IDS.get(text.strip())


def snapshot_to_json(snapshot: Snapshot, full: bool) -> dict[str, Any]:
    """The JSON form of a snapshot (§11 ``"snapshots"``): ``{"q,r": chips}`` for a stack
    snapshot, ``{"tiles": {...}, "pawns": [red, blue]}`` for a full-state one."""
    if not full:
        return {hex_text(key): CHIP_STRINGS[code] for key, code in snapshot}
    tiles = {hex_text(key): CHIP_STRINGS[code] for key, code in snapshot if code >= 0}
    pawns = [hex_text(key) for key, code in snapshot if code < 0]
    return {"tiles": tiles, "pawns": pawns}
