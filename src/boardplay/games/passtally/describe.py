"""Passtally moves as structured data and in words (English here, Japanese in the browser).

Built only on the public contract: the position JSON before and after the move (rules spec §12)
and the move's notation (§11). Nothing here imports the engine, and nothing in the engine
imports this module.

``describe`` returns ``(struct, sentence)``, the sentence a ``boardplay.i18n.phrase.Sentence``
(English by ``str()``, translated part by part in the browser). The struct is JSON-ready and is what
the board indexes its legal moves by. Its ``kind`` is one of "setup" (``slot``), "place" (``pile``,
``design``, ``anchor``, ``orient`` and ``cells``, the two cells the tile covers, anchor first),
"marker" (``from`` and ``to`` slots, ``dir`` "cw"/"ccw", ``steps``) or "reveal" (chance: ``pile``,
``design``); every struct has ``seat`` and ``scored`` (the points the mover gained). Placements and
marker moves also carry ``lines``: the mover's complete lines after the move (two of the mover's
markers joined, §7.2), each with its end slots, its passes and its path ``[[cell, entry face, exit
face], …]`` so a board can trace it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from boardplay.i18n.phrase import Phrase, SeatName, Sentence, say

Position = Mapping[str, Any]
Names = Sequence[str]
Said = tuple[dict[str, Any], Sentence]

PILES = "ABC"
STEP = {"E": (0, 1), "S": (1, 0), "W": (0, -1), "N": (-1, 0)}
"""Orientation → (row, column) step from half a to half b (§11)."""

_PLACE = re.compile(r"^([ABC]):([a-f])([1-6])([ESWN])$")
_MARKER = re.compile(r"^m(\d+)([+-])([12])$")
_SETUP = re.compile(r"^@(\d+)$")
_REVEAL = re.compile(r"^([ABC])=([A-Z]+)$")


def covered(anchor: str, orient: str) -> list[str]:
    """The two cells a tile anchored on ``anchor`` with ``orient`` covers, anchor first."""
    row, col = int(anchor[1]) - 1, "abcdef".index(anchor[0])
    dr, dc = STEP[orient]
    return [anchor, f"{'abcdef'[col + dc]}{row + dr + 1}"]


HALVES = {
    "XX": ("X", "X"),
    "XNE": ("X", "NE"),
    "XNW": ("X", "NW"),
    "NENE": ("NE", "NE"),
    "NWNW": ("NW", "NW"),
    "NENW": ("NE", "NW"),
}
"""Each design's halves a and b in the canonical orientation (§2.3)."""
PAIRS = {
    "X": {"N": "S", "S": "N", "E": "W", "W": "E"},
    "NE": {"N": "E", "E": "N", "S": "W", "W": "S"},
    "NW": {"N": "W", "W": "N", "S": "E", "E": "S"},
}
"""Which face each entry face leaves by, per half shape (§2.3; a bare cell is an X)."""
TURNED = {"NE": "NW", "NW": "NE"}
"""A quarter turn swaps the two curve shapes (§2.3)."""
FACE_STEP = {"N": (-1, 0), "S": (1, 0), "E": (0, 1), "W": (0, -1)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
Top = dict[tuple[int, int], tuple[int, str, int]]


def _tops(position: Mapping[str, Any] | None) -> Top:
    """(row, column) → (tile id, top half's shape, height) after every placement in order; a
    quarter turn (orientation S or N) swaps NE and NW (§2.3). Shared: never change it."""
    placements = (position or {}).get("placements", [])
    return _tops_after(tuple(tuple(placement) for placement in placements))


@lru_cache(maxsize=512)
def _tops_after(placements: tuple[tuple[Any, ...], ...]) -> Top:
    """``_tops`` of ``placements``, from the tops before the last one: the positions after each
    legal move of a position share all placements but their last, so a page's legal moves in
    words build the board once, not once per move."""
    if not placements:
        return {}
    top = dict(_tops_after(placements[:-1]))
    design, anchor, orient = placements[-1]
    a, b = HALVES[str(design)]
    if orient in ("S", "N"):
        a, b = (TURNED.get(a, a), TURNED.get(b, b))
    for cell, shape in zip(covered(str(anchor), str(orient)), (a, b), strict=True):
        key = _key(cell)
        top[key] = (len(placements) - 1, shape, top.get(key, (0, "", 0))[2] + 1)
    return top


def _key(cell: str) -> tuple[int, int]:
    """A cell's name ("b3") as (row, column)."""
    return int(cell[1]) - 1, "abcdef".index(cell[0])


def _slot_cell(slot: int) -> tuple[int, int, str]:
    """The cell and face a slot faces (§2.2)."""
    side, i = divmod(slot, 6)
    return [(0, i, "N"), (i, 5, "E"), (5, 5 - i, "S"), (5 - i, 0, "W")][side]


def _slot_of(row: int, col: int, face: str) -> int:
    return {"N": col, "E": 6 + row, "S": 12 + 5 - col, "W": 18 + 5 - row}[face]


def trace(top: Top, slot: int) -> tuple[int, int, list[list[str]]]:
    """Follow the line from ``slot`` (§7.1): (end slot, passes, path of [cell, in, out])."""
    row, col, face = _slot_cell(slot)
    previous: int | None = None
    passes = 0
    path: list[list[str]] = []
    while True:
        tile, shape, height = top.get((row, col), (-1, "X", 0))
        if height and tile != previous:
            passes += height
        previous = tile if height else None
        leave = PAIRS[shape][face]
        path.append([f"{'abcdef'[col]}{row + 1}", face, leave])
        dr, dc = FACE_STEP[leave]
        if not (0 <= row + dr < 6 and 0 <= col + dc < 6):
            return _slot_of(row, col, leave), passes, path
        row, col, face = row + dr, col + dc, OPPOSITE[leave]


def lines_of(position: Mapping[str, Any], seat: int) -> list[dict[str, Any]]:
    """The seat's complete lines: a line from one of its markers ending on another (§7.2)."""
    top = _tops(position)
    mine = sorted(int(k) for k, v in position.get("markers", {}).items() if v == seat)
    found: list[dict[str, Any]] = []
    for start in mine:
        end, passes, path = trace(top, start)
        if end in mine and start < end:
            found.append({"from": start, "to": end, "passes": passes, "path": path})
    return found


def describe(before: Position, move: str, after: Position | None, seat: int, names: Names) -> Said:
    """The words and struct of Passtally move ``move`` (notation §11) by ``seat`` (or chance).
    ``after`` is the position it leads to (None when unknown); bad notation raises ValueError."""
    who: SeatName | Phrase = SeatName(names[seat]) if 0 <= seat < len(names) else say("Chance")
    scored = 0
    if after is not None and 0 <= seat < len(before.get("scores", [])):
        scored = int(after["scores"][seat]) - int(before["scores"][seat])
    struct: dict[str, Any] = {"seat": seat, "scored": scored}
    if match := _REVEAL.match(move):
        struct.update(kind="reveal", pile=match.group(1), design=match.group(2))
        return struct, Sentence(
            [
                # The design is drawn on the pile; its code ("NENE") is notation, not words.
                say("Pile {pile} turns up a new tile.", pile=match.group(1))
            ]
        )
    if match := _SETUP.match(move):
        struct.update(kind="setup", slot=int(match.group(1)))
        return struct, Sentence(
            [say("{who} puts a marker on slot {slot}.", who=who, slot=match.group(1))]
        )
    if match := _PLACE.match(move):
        pile, orient = match.group(1), match.group(4)
        anchor = match.group(2) + match.group(3)
        cells = covered(anchor, orient)
        design = (before.get("piles") or [{}] * 3)[PILES.index(pile)].get("face_up")
        struct.update(
            kind="place", pile=pile, design=design, anchor=anchor, orient=orient, cells=cells
        )
        struct["lines"] = lines_of(after, seat) if after is not None else []
        sentence = Sentence(
            [
                say(
                    "{who} lays the tile from pile {pile} on {a} and {b}",
                    who=who,
                    pile=pile,
                    a=cells[0],
                    b=cells[1],
                )
            ]
        )
        if after is not None:
            top = _tops(after)
            levels = sorted({top.get(_key(c), (0, "", 0))[2] for c in cells})
            sentence.add(
                say(" (now {height} high)", height=levels[0])
                if len(levels) == 1
                else say(" (now {low} and {high} high)", low=levels[0], high=levels[1])
            )
    elif match := _MARKER.match(move):
        origin = int(match.group(1))
        forward = match.group(2) == "+"
        steps = int(match.group(3))
        old = {int(k) for k, v in before.get("markers", {}).items() if v == seat}
        new = {int(k) for k, v in (after or {}).get("markers", {}).items() if v == seat}
        landed = sorted(new - old)
        target = landed[0] if landed else None
        struct.update(
            {"kind": "marker", "from": origin, "to": target, "dir": "cw" if forward else "ccw"},
            steps=steps,
        )
        struct["lines"] = lines_of(after, seat) if after is not None else []
        way = say("clockwise") if forward else say("counter-clockwise")
        sentence = Sentence(
            [say("{who} moves a marker {way} from slot {slot}", who=who, way=way, slot=origin)]
        )
        if target is not None:
            sentence.add(say(" to slot {slot}", slot=target))
    else:
        raise ValueError(f"{move!r} is not a Passtally move")
    if scored == 1:
        sentence.add(say(", and scores 1 point"))
    elif scored:
        sentence.add(say(", and scores {n} points", n=scored))
    return struct, sentence.add(say("."))
