"""Potlatch Klone moves as structured data and in words (English here, Japanese in the browser).

Built only on the public contract, so it survives any rewrite of the engine: the position JSON
before and after the move (rules spec §11) and the move's notation (§10). Nothing here imports
the engine, and nothing in the engine imports this module.

``describe`` returns ``(struct, sentence)``; the sentence is a ``boardplay.i18n.phrase.Sentence``,
whose English is ``str(sentence)`` and whose parts the browser translates. The struct is
JSON-ready and is what a board indexes
its legal moves by: ``kind`` ("pawn" or "chip"), ``seat``, ``dir``, ``from`` and ``to`` (hexes
``"q,r"``), ``new_tile`` (the destination was blank, so a tile came from the stock) and
``heights`` (every stack whose height the move changed, with its new height).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boardplay.i18n.phrase import Phrase, SeatName, Sentence, say

Position = Mapping[str, Any]
Names = Sequence[str]
Said = tuple[dict[str, Any], Sentence]

DIRECTIONS = {
    "E": ((1, 0), say("east")),
    "NE": ((1, -1), say("north-east")),
    "NW": ((0, -1), say("north-west")),
    "W": ((-1, 0), say("west")),
    "SW": ((-1, 1), say("south-west")),
    "SE": ((0, 1), say("south-east")),
}
"""Axial steps of the six directions (§10) and their words."""

COLOUR_CHIPS = {"R": 0, "B": 1}
"""The player-colour chip letters and their owners' seats (§2.2)."""


def _step(hex_: str, direction: str) -> str:
    q, r = (int(v) for v in hex_.split(","))
    dq, dr = DIRECTIONS[direction][0]
    return f"{q + dq},{r + dr}"


def _stack_words(chips: str) -> Phrase:
    height = len(chips)
    if height == 0:
        return say("an empty tile")
    return say("a stack of {height}", height=height)


def describe(before: Position, move: str, after: Position | None, seat: int, names: Names) -> Said:
    """The words and struct of Potlatch move ``move`` (notation §10) made by ``seat``.
    ``after`` is the position it leads to (None when unknown); bad notation raises ValueError."""
    kind_letter, _, direction = move.partition("-")
    if kind_letter not in ("P", "C") or direction not in DIRECTIONS:
        raise ValueError(f"{move!r} is not a Potlatch Klone move")
    who: SeatName | Phrase = (
        SeatName(names[seat]) if 0 <= seat < len(names) else say("Seat {n}", n=seat + 1)
    )
    tiles: Mapping[str, str] = before.get("tiles", {})
    origin = str(before["pawns"][seat])
    target = _step(origin, direction)
    new_tile = target not in tiles
    heights: dict[str, int] = {}
    if after is not None:
        later: Mapping[str, str] = after.get("tiles", {})
        for hex_ in sorted(set(tiles) | set(later)):
            if hex_ in later and len(later[hex_]) != len(tiles.get(hex_, "")):
                heights[hex_] = len(later[hex_])
    way = DIRECTIONS[direction][1]
    struct: dict[str, Any] = {
        "kind": "pawn" if kind_letter == "P" else "chip",
        "seat": seat,
        "dir": direction,
        "from": origin,
        "to": target,
        "new_tile": new_tile,
        "heights": heights,
    }
    if kind_letter == "P":
        onto = (
            say("onto a new tile from the stock")
            if new_tile
            else say("onto {stack}", stack=_stack_words(tiles[target]))
        )
        sentence = Sentence([say("{who} moves the pawn {way} {onto}", who=who, way=way, onto=onto)])
        grown = heights.get(target)
        if grown:
            # The run ended with this move: its Chip Increase (§7) landed here.
            sentence.add(say("; the stack there rises to {height}", height=grown))
            top = str(after.get("tiles", {}).get(target, ""))[-1:] if after is not None else ""
            if grown == 3 and COLOUR_CHIPS.get(top) == seat:
                sentence.add(say(" and becomes {who}'s stack", who=who))
        return struct, sentence.add(say("."))
    chips = tiles.get(origin, "")
    top = chips[-1:] if chips else ""
    sentence = Sentence([say("{who} moves a chip {way}", who=who, way=way)])
    if top in COLOUR_CHIPS:
        owner = COLOUR_CHIPS[top]
        if owner == seat:
            sentence.add(say(", breaking their own stack (the coloured chip goes home)"))
        elif owner < len(names):
            sentence.add(
                say(
                    ", breaking {owner}'s stack (the coloured chip goes home)",
                    owner=SeatName(names[owner]),
                )
            )
        else:
            sentence.add(say(", breaking a stack (the coloured chip goes home)"))
    if new_tile:
        sentence.add(say(", onto a new tile from the stock"))
    else:
        grown = heights.get(target, len(tiles[target]) + 1)
        sentence.add(say("; the stack there rises to {height}", height=grown))
    return struct, sentence.add(say("."))
