"""Passtally evaluation (reads only the position JSON).

Victory points are the whole game, and lines keep scoring every turn, so the score difference
is a good guide whose meaning grows as the game nears its end: the temperature of the softmax is
proportional to the turns left, estimated from the face-down tiles (the game's final round starts
when one pile runs out, so the smallest pile sets the pace). A lead of 5 VP with most of the game
to play is far from decisive; at the end any lead is.
"""

from __future__ import annotations

from boardplay.ai.evaluation import Heuristics, softmax
from boardplay.core.game import State

VP_PER_TURN = 2.5
"""Rough VP a player adds per turn in play between competent players (measured on playouts)."""


def evaluate(state: State) -> list[float]:
    if state.is_terminal():
        return state.returns()
    position = state.to_json()
    scores = [float(s) for s in position["scores"]]
    piles = position["piles"]
    left = min(int(p["hidden"]) + (1 if p["face_up"] else 0) for p in piles)
    players = len(scores)
    # Each turn places up to two tiles from three piles: a pile shrinks about every other turn
    # of the table, so about 2 * left / players turns remain per player.
    turns_left = max(1.0, 2.0 * left / players)
    return softmax(scores, 1.0 + VP_PER_TURN * turns_left**0.5)


HEURISTICS = Heuristics(
    evaluate,
    None,
    "softmax over VP with a temperature that shrinks with the tiles left in the smallest pile",
)
