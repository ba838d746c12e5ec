"""Position JSON (spec §10): ``{"board": {"a1": "Rc*Xc", ...}, "to_move": 0, "passes": 1}``.

Loading checks exactly the rules of §10.3 and nothing else (a position need not be reachable);
every error is a ``PositionError`` whose message names the offending field.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from boardplay.core.errors import PositionError
from boardplay.core.game import Game
from boardplay.games.proteus.kernel import ProteusKernel
from boardplay.games.proteus.state import ProteusState
from boardplay.games.proteus.tables import (
    CELL_INDEX,
    CELLS,
    COLOUR_WORDS,
    NONE,
    PIECE_INDEX,
    PIECES,
    TILE_INDEX,
    TILES,
)

CELL_VALUE = re.compile(r"^([RBY][cst])(\*)?([XO][cst])?$")
_KEYS = ("board", "to_move", "passes")


def _small_int(value: Any, field: str, meaning: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in (0, 1):
        raise PositionError(f"field {field!r} must be {meaning}, got {value!r}")
    return value


def load(game: Game, kernel: ProteusKernel, data: Mapping[str, Any]) -> ProteusState:
    """Build a state of ``game`` from a position JSON object, validating §10.3 rules 1-5, into
    ``kernel`` (a fresh kernel with the game's options)."""
    if not isinstance(data, Mapping):
        raise PositionError(f"a Proteus position must be a JSON object, got {type(data).__name__}")
    for key in data:
        if key not in _KEYS:
            raise PositionError(
                f"unknown field {key!r} in the position; allowed fields: board, to_move, passes"
            )
    if "board" not in data:
        raise PositionError("field 'board' is missing (an object mapping cells to tiles)")
    board = data["board"]
    if not isinstance(board, Mapping):
        raise PositionError(f"field 'board' must be an object, got {type(board).__name__}")
    if "to_move" not in data:
        raise PositionError("field 'to_move' is missing (0 for Black, 1 for White)")
    to_move = _small_int(data["to_move"], "to_move", "0 (Black) or 1 (White)")
    passes = _small_int(data.get("passes", 0), "passes", "0 or 1")

    tiles = [NONE] * 9
    pieces = [NONE] * 9
    active = [NONE] * 3
    tile_seen: dict[int, str] = {}
    piece_seen: dict[int, str] = {}
    for cell_name, value in board.items():
        if not isinstance(cell_name, str) or cell_name not in CELL_INDEX:
            raise PositionError(f"board key {cell_name!r} is not a cell; cells are a1..c3")
        field = f"board.{cell_name}"
        match = CELL_VALUE.fullmatch(value) if isinstance(value, str) else None
        if match is None:
            raise PositionError(
                f"field {field!r} is {value!r}; it must be a tile id, an optional '*' and an "
                "optional piece, e.g. 'Ys', 'Rc*', 'BsOt', 'Rc*Xc'"
            )
        cell = CELL_INDEX[cell_name]
        tile = TILE_INDEX[match.group(1)]
        if tile in tile_seen:
            raise PositionError(
                f"field {field!r}: tile {TILES[tile]} is also at {tile_seen[tile]}; "
                "each tile exists once"
            )
        tile_seen[tile] = cell_name
        tiles[cell] = tile
        if match.group(2):
            colour = tile // 3
            other = active[colour]
            if other != NONE:
                raise PositionError(
                    f"field {field!r}: {COLOUR_WORDS[colour]} already has an active tile "
                    f"({TILES[other]} at {tile_seen[other]}); at most one per colour"
                )
            active[colour] = tile
        if match.group(3):
            piece = PIECE_INDEX[match.group(3)]
            if piece in piece_seen:
                raise PositionError(
                    f"field {field!r}: piece {PIECES[piece]} is also at {piece_seen[piece]}; "
                    "each piece exists once"
                )
            piece_seen[piece] = cell_name
            pieces[cell] = piece
    kernel.set_position(tiles, pieces, active, to_move, passes)
    if kernel.kadon and kernel.unplaced > 0 and not kernel.kadon_feasible():
        raise PositionError(
            "field 'board' is infeasible under rules=kadon: the pieces in hand can no longer "
            "activate exactly one tile of each missing colour (spec §4.4)"
        )
    kernel.start()
    return ProteusState(game, kernel)


def export(state: ProteusState) -> dict[str, Any]:
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
