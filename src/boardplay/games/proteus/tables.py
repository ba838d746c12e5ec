"""Fixed geometry and identifiers of Proteus (spec §2, §6, §9), computed once at import.

Everything here is a small integer, so the kernel's position is a few C int arrays; the kernel
builds its C tables from these at import, and the cold modules (notation, explanations,
position JSON, the picture) read the names:

* **cells** ``0..8`` in canonical order ``a1 a2 a3 b1 b2 b3 c1 c2 c3`` (index = column*3 + row);
* **tiles** ``0..8`` = colour*3 + shape, colours red/blue/yellow = 0/1/2 (MOVE/TRADE/GOAL),
  shapes circle/square/triangle = 0/1/2, so the ids follow ``Rc Rs Rt Bc Bs Bt Yc Ys Yt``;
* **pieces** ``0..5`` = player*3 + shape, Black (``X``) = 0, White (``O``) = 1.

The action space is fixed (217 ids, its ranges declared in ``layout.pxd``) and ordered so that
ascending ids list tile placements, piece placements, moves, trades and pass, each in canonical
cell order.
"""

from __future__ import annotations

from typing import Final

from boardplay.games.proteus.layout import (
    KING,
    MOVE_BASE,
    NONE,
    PIECE_BASE,
    ROOK,
    TRADE_BASE,
)

CELLS: Final = ("a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3")
CELL_INDEX: Final = {name: i for i, name in enumerate(CELLS)}

COLOURS: Final = ("R", "B", "Y")
COLOUR_WORDS: Final = ("red", "blue", "yellow")
COLOUR_ROLES: Final = ("MOVE", "TRADE", "GOAL")
SHAPES: Final = ("c", "s", "t")
SHAPE_WORDS: Final = ("circle", "square", "triangle")
PLAYERS: Final = ("X", "O")
PLAYER_WORDS: Final = ("Black", "White")

CIRCLE: Final = 0
SQUARE: Final = 1
TRIANGLE: Final = 2

TILES: Final = tuple(c + s for c in COLOURS for s in SHAPES)
TILE_INDEX: Final = {name: i for i, name in enumerate(TILES)}
PIECES: Final = tuple(p + s for p in PLAYERS for s in SHAPES)
PIECE_INDEX: Final = {name: i for i, name in enumerate(PIECES)}

# The nine rules (spec §6.1). The shape -> rule mapping is Boardspace-sourced (D2).
RULE_NAMES: Final = (
    "KING",
    "ROOK",
    "BISHOP/KNIGHT",
    "POLARITY",
    "COLOR trade",
    "SHAPE trade",
    "3-IN-LINE",
    "COLOR goal",
    "SHAPE goal",
)


def _col(cell: int) -> int:
    return cell // 3


def _row(cell: int) -> int:
    return cell % 3


def _targets(rule: int, cell: int) -> tuple[int, ...]:
    out = []
    for other in range(9):
        if other == cell:
            continue
        dc = abs(_col(other) - _col(cell))
        dr = abs(_row(other) - _row(cell))
        reached = (
            max(dc, dr) == 1
            if rule == KING
            else (dc == 0 or dr == 0)
            if rule == ROOK
            else (dc != 0 and dr != 0)
        )
        if reached:
            out.append(other)
    return tuple(out)


MOVE_TARGETS: Final = tuple(tuple(_targets(rule, cell) for cell in range(9)) for rule in range(3))
"""``MOVE_TARGETS[rule][cell]``: destination cells of the MOVE rule (tile ``Rc``/``Rs``/``Rt``)
before occupancy is considered (spec §6.2 table). KING steps; ROOK and BISHOP/KNIGHT leap."""

LINES: Final = (
    (0, 3, 6),  # row 1: a1 b1 c1
    (1, 4, 7),  # row 2
    (2, 5, 8),  # row 3
    (0, 1, 2),  # column a
    (3, 4, 5),  # column b
    (6, 7, 8),  # column c
    (0, 4, 8),  # diagonal a1 b2 c3
    (6, 4, 2),  # diagonal c1 b2 a3
)

OUTCOMES: Final = ("black-wins", "white-wins", "draw", "ongoing")
"""The kernel's ``outcome`` (0 Black won, 1 White won, 2 draw, -1 ongoing) in the scenario
vocabulary; index -1 is the last entry."""

# ----- action space (the id ranges are ``layout.pxd``'s) -----------------------------------------
MOVE_ID: Final = tuple(
    tuple(MOVE_BASE + f * 8 + (t if t < f else t - 1) if t != f else NONE for t in range(9))
    for f in range(9)
)
MOVE_OF: Final = {MOVE_ID[f][t]: (f, t) for f in range(9) for t in range(9) if f != t}

TRADE_PAIRS: Final = tuple((i, j) for i in range(9) for j in range(i + 1, 9))
TRADE_ID: Final = tuple(
    tuple(
        TRADE_BASE + TRADE_PAIRS.index((min(i, j), max(i, j))) if i != j else NONE for j in range(9)
    )
    for i in range(9)
)


def piece_placement(shape: int, cell: int) -> int:
    return PIECE_BASE + shape * 9 + cell
