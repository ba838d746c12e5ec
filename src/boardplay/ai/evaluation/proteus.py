"""Proteus evaluation (reads only the position JSON).

The active yellow tile is the goal: 3-IN-LINE (one of the 8 lines), COLOR (the three tiles of
one colour) or SHAPE (the three tiles of one shape). For each seat and each goal the evaluation
finds the target triple of cells the seat is closest to: its pieces already on the triple, minus
half a point per opponent piece sitting there (it has to be moved or traded away). The active goal
counts fully; the other two goals count 0.3, because a single placement or move can flip the
goal. The side to move gets a small tempo bonus: it is the one that can complete a triple first.
"""

from __future__ import annotations

from typing import Any

from boardplay.ai.evaluation import Heuristics, softmax_evaluation

CELLS = ("a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3")
LINES = (
    ("a1", "b1", "c1"),
    ("a2", "b2", "c2"),
    ("a3", "b3", "c3"),
    ("a1", "a2", "a3"),
    ("b1", "b2", "b3"),
    ("c1", "c2", "c3"),
    ("a1", "b2", "c3"),
    ("c1", "b2", "a3"),
)
PLAYER_LETTERS = ("X", "O")
TEMPERATURE = 0.5
OTHER_GOAL_WEIGHT = 0.3


def _triples(tiles: dict[str, str], goal: str) -> list[tuple[str, ...]]:
    """Target cell triples of a goal tile (``Yc``, ``Ys`` or ``Yt``) on this board."""
    if goal == "Yc":
        return list(LINES)
    index = 0 if goal == "Ys" else 1  # COLOR groups by the tile's colour, SHAPE by its shape
    groups: dict[str, list[str]] = {}
    for cell, tile in tiles.items():
        groups.setdefault(tile[index], []).append(cell)
    return [tuple(cells) for cells in groups.values() if len(cells) == 3]


def _closeness(triples: list[tuple[str, ...]], mine: set[str], theirs: set[str]) -> float:
    best = 0.0
    for triple in triples:
        value = sum(1.0 for c in triple if c in mine) - 0.5 * sum(1 for c in triple if c in theirs)
        best = max(best, value)
    return best


def strengths(position: dict[str, Any]) -> list[float]:
    board = position["board"]
    assert isinstance(board, dict)
    tiles: dict[str, str] = {}
    pieces: tuple[set[str], set[str]] = (set(), set())
    active_goal: str | None = None
    for cell, raw in board.items():
        text = str(raw)
        tile = text[:2]
        tiles[cell] = tile
        rest = text[2:]
        if rest.startswith("*"):
            rest = rest[1:]
            if tile[0] == "Y":
                active_goal = tile
        if rest:
            pieces[PLAYER_LETTERS.index(rest[0])].add(cell)
    out: list[float] = []
    for seat in (0, 1):
        mine, theirs = pieces[seat], pieces[1 - seat]
        value = 0.0
        for goal in ("Yc", "Ys", "Yt"):
            weight = 1.0 if goal == active_goal else OTHER_GOAL_WEIGHT
            value += weight * _closeness(_triples(tiles, goal), mine, theirs)
        if position.get("to_move") == seat:
            value += 0.3
        out.append(value)
    return out


evaluate = softmax_evaluation(strengths, TEMPERATURE)


HEURISTICS = Heuristics(
    evaluate,
    None,
    "closeness to the active goal's best target triple (own pieces on it minus half per "
    "opponent piece) + 0.3 × the same for the inactive goals + tempo; softmax, temperature 0.5",
    cutoff=0,
)
