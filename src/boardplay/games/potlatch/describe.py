"""Potlatch Klone moves as structured data and in plain English.

Built only on the public contract, so it survives any rewrite of the engine: the position JSON
before and after the move (rules spec §11) and the move's notation (§10). Nothing here imports
the engine, and nothing in the engine imports this module.

``describe`` returns ``(struct, sentence)``. The struct is JSON-ready and is what a board indexes
its legal moves by: ``kind`` ("pawn" or "chip"), ``seat``, ``dir``, ``from`` and ``to`` (hexes
``"q,r"``), ``new_tile`` (the destination was blank, so a tile came from the stock) and
``heights`` (every stack whose height the move changed, with its new height).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

Position = Mapping[str, Any]
Names = Sequence[str]
Said = tuple[dict[str, Any], str]

DIRECTIONS = {
    "E": ((1, 0), "east"),
    "NE": ((1, -1), "north-east"),
    "NW": ((0, -1), "north-west"),
    "W": ((-1, 0), "west"),
    "SW": ((-1, 1), "south-west"),
    "SE": ((0, 1), "south-east"),
}
"""Axial steps of the six directions (§10) and their words."""

COLOUR_CHIPS = {"R": 0, "B": 1}
"""The player-colour chip letters and their owners' seats (§2.2)."""


def _step(hex_: str, direction: str) -> str:
    q, r = (int(v) for v in hex_.split(","))
    dq, dr = DIRECTIONS[direction][0]
    return f"{q + dq},{r + dr}"


def _stack_words(chips: str) -> str:
    height = len(chips)
    if height == 0:
        return "an empty tile"
    return f"a stack of {height}"


def describe(before: Position, move: str, after: Position | None, seat: int, names: Names) -> Said:
    """The words and struct of Potlatch move ``move`` (notation §10) made by ``seat``.
    ``after`` is the position it leads to (None when unknown); bad notation raises ValueError."""
    kind_letter, _, direction = move.partition("-")
    if kind_letter not in ("P", "C") or direction not in DIRECTIONS:
        raise ValueError(f"{move!r} is not a Potlatch Klone move")
    who = names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"
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
            "onto a new tile from the stock" if new_tile else f"onto {_stack_words(tiles[target])}"
        )
        sentence = f"{who} moves the pawn {way} {onto}"
        grown = heights.get(target)
        if grown:
            # The run ended with this move: its Chip Increase (§7) landed here.
            sentence += f"; the stack there rises to {grown}"
            top = str(after.get("tiles", {}).get(target, ""))[-1:] if after is not None else ""
            if grown == 3 and COLOUR_CHIPS.get(top) == seat:
                sentence += f" and becomes {who}'s stack"
        return struct, sentence + "."
    chips = tiles.get(origin, "")
    top = chips[-1:] if chips else ""
    sentence = f"{who} moves a chip {way}"
    if top in COLOUR_CHIPS:
        owner = COLOUR_CHIPS[top]
        whose = "their own" if owner == seat else f"{names[owner]}'s" if owner < len(names) else "a"
        sentence += f", breaking {whose} stack (the coloured chip goes home)"
    if new_tile:
        sentence += ", onto a new tile from the stock"
    else:
        grown = heights.get(target, len(tiles[target]) + 1)
        sentence += f"; the stack there rises to {grown}"
    return struct, sentence + "."
