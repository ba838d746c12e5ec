"""Proteus moves as structured data and in words (English here, Japanese in the browser).

Built only on the public contract: the position JSON before and after the move (rules spec §10)
and the move's notation (§9). Nothing here imports the engine, and nothing in the engine imports
this module.

``describe`` returns ``(struct, sentence)``, the sentence a ``boardplay.i18n.phrase.Sentence``
(English by ``str()``, translated part by part in the browser). The struct is JSON-ready and is what
the board indexes its legal moves by. Its ``kind`` is one of "tile" (a pool tile placed: ``tile``,
``to``), "piece" (a piece from the hand placed: ``shape``, ``to``), "move" (``from``, ``to``),
"trade" (``cells``, the two cells whose tiles swap) or "pass"; every struct has ``seat`` and
``activated`` (the cells whose tile the move turned face up).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from boardplay.i18n.phrase import Phrase, SeatName, Sentence, say

Position = Mapping[str, Any]
Names = Sequence[str]
Said = tuple[dict[str, Any], Sentence]

COLOURS = {"R": say("red"), "B": say("blue"), "Y": say("yellow")}
KINDS = {"R": say("move"), "B": say("trade"), "Y": say("goal")}
SHAPES = {"c": say("circle"), "s": say("square"), "t": say("triangle")}
RULES = {
    "Rc": say("KING"),
    "Rs": say("ROOK"),
    "Rt": say("BISHOP/KNIGHT"),
    "Bc": say("POLARITY"),
    "Bs": say("COLOR trade"),
    "Bt": say("SHAPE trade"),
    "Yc": say("3-IN-LINE"),
    "Ys": say("COLOR goal"),
    "Yt": say("SHAPE goal"),
}
"""The rule each tile stands for (§6.1)."""

_CELL = re.compile(r"^([RBY][cst])(\*)?([XO][cst])?$")
_FORMS = {
    "tile": re.compile(r"^([RBY][cst])@([abc][123])$"),
    "piece": re.compile(r"^([cst])@([abc][123])$"),
    "move": re.compile(r"^([abc][123])-([abc][123])$"),
    "trade": re.compile(r"^([abc][123])~([abc][123])$"),
}


def tile_words(tile: str) -> Phrase:
    """``Rc`` → "the red circle tile (move: KING)"."""
    return say(
        "the {colour} {shape} tile ({kind}: {rule})",
        colour=COLOURS[tile[0]],
        shape=SHAPES[tile[1]],
        kind=KINDS[tile[0]],
        rule=RULES[tile],
    )


def _cells(position: Mapping[str, Any] | None) -> dict[str, tuple[str, bool, str | None]]:
    """cell → (tile, face up, piece or None)."""
    out: dict[str, tuple[str, bool, str | None]] = {}
    for cell, value in (position or {}).get("board", {}).items():
        match = _CELL.match(str(value))
        if match:
            out[cell] = (match.group(1), bool(match.group(2)), match.group(3))
    return out


def describe(before: Position, move: str, after: Position | None, seat: int, names: Names) -> Said:
    """The words and struct of Proteus move ``move`` (notation §9) made by ``seat``.
    ``after`` is the position it leads to (None when unknown); bad notation raises ValueError."""
    who: SeatName | Phrase = (
        SeatName(names[seat]) if 0 <= seat < len(names) else say("Seat {n}", n=seat + 1)
    )
    now, later = _cells(before), _cells(after)
    # By tile, not by cell: a trade moves face-up tiles without turning any.
    was_up = {tile for tile, up, _piece in now.values() if up}
    activated = sorted(c for c, (tile, up, _p) in later.items() if up and tile not in was_up)
    struct: dict[str, Any] = {"seat": seat, "activated": activated}
    if move == "pass":
        struct["kind"] = "pass"
        return struct, Sentence([say("{who} passes (no other move is possible).", who=who)])
    kind, match = next(((k, f.match(move)) for k, f in _FORMS.items() if f.match(move)), ("", None))
    if match is None:
        raise ValueError(f"{move!r} is not a Proteus move")
    struct["kind"] = kind
    first, second = match.group(1), match.group(2)
    if kind == "tile":
        struct.update(tile=first, to=second)
        part = say(
            "{who} places {tile} face down on {cell}", who=who, tile=tile_words(first), cell=second
        )
    elif kind == "piece":
        struct.update(shape=first, to=second)
        part = say("{who} puts a {shape} on {cell}", who=who, shape=SHAPES[first], cell=second)
    elif kind == "move":
        piece = now[first][2] if first in now else None
        shape = SHAPES.get(piece[1], say("piece")) if piece else say("piece")
        struct.update({"from": first, "to": second})
        part = say(
            "{who} moves the {shape} from {origin} to {cell}",
            who=who,
            shape=shape,
            origin=first,
            cell=second,
        )
    else:
        struct.update(cells=[first, second])
        part = say("{who} swaps the tiles of {a} and {b}", who=who, a=first, b=second)
    sentence = Sentence([part])
    for cell in activated:
        sentence.add(say(", turning {tile} face up", tile=tile_words(later[cell][0])))
    return struct, sentence.add(say("."))
