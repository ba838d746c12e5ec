"""Position JSON (spec §10): ``{"board": {"a1": "Rc*Xc", ...}, "to_move": 0, "passes": 1}``.

Loading checks exactly the rules of §10.3 and nothing else (a position need not be reachable);
every error is a ``PositionError`` whose message names the offending field's path (the shared
reader ``core.fields``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from boardplay.core.errors import PositionError
from boardplay.core.fields import Field, read
from boardplay.core.game import Game
from boardplay.games.proteus import fields
from boardplay.games.proteus.layout import NONE
from boardplay.games.proteus.state import ProteusState, new_kernel
from boardplay.games.proteus.tables import (
    CELL_INDEX,
    CELLS,
    COLOUR_WORDS,
    PIECE_INDEX,
    PIECES,
    TILE_INDEX,
    TILES,
)

CELL_VALUE = re.compile(r"^([RBY][cst])(\*)?([XO][cst])?$")
_KEYS = ("board", "to_move", "passes")


def load_position(game: Game, data: Mapping[str, Any]) -> ProteusState:
    """Build a state of ``game`` from a position JSON object, validating §10.3 rules 1-5."""
    top = read(data)
    top.keys(_KEYS, required=("board", "to_move"))
    board = top.member("board")
    board.mapping()
    to_move = top.member("to_move").choice((0, 1), "0 (Black) or 1 (White)")
    passes = top.optional("passes", 0).choice((0, 1))

    tiles = [NONE] * 9
    pieces = [NONE] * 9
    active = [NONE] * 3
    tile_seen: dict[int, str] = {}
    piece_seen: dict[int, str] = {}
    for cell_name, field in board.members():
        field.require(cell_name in CELL_INDEX, "is not a cell; cells are a1..c3")
        value = field.value
        match = CELL_VALUE.fullmatch(value) if isinstance(value, str) else None
        if match is None:
            raise field.expected(
                "a tile id, an optional '*' and an optional piece, e.g. 'Ys', 'Rc*', 'BsOt', "
                "'Rc*Xc'"
            )
        cell = CELL_INDEX[cell_name]
        tile = TILE_INDEX[match.group(1)]
        _once(field, cell_name, "tile", TILES[tile], tile, tile_seen)
        tiles[cell] = tile
        if match.group(2):
            colour = tile // 3
            other = active[colour]
            if other != NONE:
                raise field.error(
                    f"{COLOUR_WORDS[colour]} already has an active tile ({TILES[other]} at "
                    f"{tile_seen[other]}); at most one per colour"
                )
            active[colour] = tile
        if match.group(3):
            piece = PIECE_INDEX[match.group(3)]
            _once(field, cell_name, "piece", PIECES[piece], piece, piece_seen)
            pieces[cell] = piece
    kernel = new_kernel(game)
    placed = sum(t >= 0 for t in tiles) + sum(p >= 0 for p in pieces)
    fields.load(
        kernel,
        {
            **fields.FACE.snapshot(kernel),  # the game's options, as new_kernel set them
            "tiles": tiles,
            "pieces": pieces,
            "active": active,
            "to_move": to_move,
            "passes": passes,
            "turns": 0,  # counted from the loaded position (the max_turns counter)
            "unplaced": 15 - placed,
            "outcome": "ongoing",  # a kadon player stuck at once draws (fields.load)
            "met": [],  # the movement positions met: from this one on
        },
    )
    kadon, unplaced = fields.FACE.get(kernel, "kadon"), fields.FACE.get(kernel, "unplaced")
    if kadon and unplaced > 0 and not kernel.kadon_feasible():
        raise PositionError(
            "field 'board' is infeasible under rules=kadon: the pieces in hand can no longer "
            "activate exactly one tile of each missing colour (spec §4.4)"
        )
    return ProteusState(game, kernel)


def _once(field: Field, cell: str, kind: str, name: str, item: int, seen: dict[int, str]) -> None:
    """§10.3: each tile and each piece exists once. ``field`` is ``cell``'s value, which holds
    ``item`` (a ``kind`` called ``name``); ``seen`` the cell of every one met so far."""
    if item in seen:
        raise field.error(f"{kind} {name} is also at {seen[item]}; each {kind} exists once")
    seen[item] = cell


def export_position(state: ProteusState) -> dict[str, Any]:
    """The position JSON of ``state``: cells in canonical order, ``passes`` only if non-zero."""
    board: dict[str, str] = {}
    for cell in range(9):
        tile = state.tile_at(cell)
        if tile < 0:
            continue
        text = TILES[tile]
        if state.is_active(tile):
            text += "*"
        piece = state.piece_at(cell)
        if piece >= 0:
            text += PIECES[piece]
        board[CELLS[cell]] = text
    out: dict[str, Any] = {"board": board, "to_move": state.to_move}
    if state.passes:
        out["passes"] = state.passes
    return out
