"""Potlatch Klone evaluation (reads only the position JSON).

A player wins with three stacks of their own colour at the start of their turn, so the
evaluation counts, per seat: own-colour stacks (the goal itself), 2-high stacks next to the
seat's pawn that a run could end on to crown (a threat for next turn, only usable when the pawn
stands high enough to step there), opponent stacks next to the pawn that the seat could stand on
and break, and the tempo of the side to move. Three own stacks while the opponent is to move are
worth almost a win: the opponent has exactly one turn to break one of them.
"""

from __future__ import annotations

from typing import Any

from boardplay.ai.evaluation import Heuristics, softmax_evaluation

COLOURS = ("R", "B")
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
TEMPERATURE = 0.5
"""One own stack of lead makes the leader about e^2 = 7 times as likely to win."""


def _cell(text: str) -> tuple[int, int]:
    q, _, r = text.partition(",")
    return int(q), int(r)


def strengths(position: dict[str, Any]) -> list[float]:
    tiles_raw = position["tiles"]
    pawns_raw = position["pawns"]
    assert isinstance(tiles_raw, dict) and isinstance(pawns_raw, list)
    tiles = {_cell(k): str(v) for k, v in tiles_raw.items()}
    to_move = position.get("to_move")
    out: list[float] = []
    for seat, colour in enumerate(COLOURS):
        other = COLOURS[1 - seat]
        own = sum(1 for chips in tiles.values() if len(chips) == 3 and chips[2] == colour)
        q, r = _cell(str(pawns_raw[seat]))
        height = len(tiles.get((q, r), ""))
        crowns = 0
        breaks = 0
        for dq, dr in DIRECTIONS:
            chips = tiles.get((q + dq, r + dr))
            if chips is None:
                continue
            if len(chips) == 2 and height >= 1:
                crowns += 1
            if len(chips) == 3 and chips[2] == other and height >= 2:
                breaks += 1
        value = own + 0.35 * min(crowns, 2) + 0.25 * min(breaks, 1)
        if to_move == seat:
            value += 0.25
        elif own >= 3:
            value += 0.8
        out.append(value)
    return out


evaluate = softmax_evaluation(strengths, TEMPERATURE)


HEURISTICS = Heuristics(
    evaluate,
    None,
    "own-colour stacks + 0.35 per crownable 2-high stack next to the pawn (max 2) + 0.25 if an "
    "opponent stack can be broken + tempo; softmax with temperature 0.5",
    cutoff=0,
)
