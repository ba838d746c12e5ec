"""Passtally evaluation (position JSON plus the state's public ``turn_score``).

Victory points are the whole game, and a player's completed lines score again at the end of
every one of their turns. So each seat's standing is its VP plus what its current lines are worth
per turn (``PasstallyState.turn_score(seat)``, the VP those lines would convert to now) times the
turns they can still be expected to pay, capped because opponents break lines with their tiles.
The softmax temperature is proportional to the square root of the turns left, estimated from the
smallest pile (one exhausted pile starts the final round): a lead of 5 VP with most of the game
to play is far from decisive, at the end any lead is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from boardplay.ai.evaluation import Heuristics, softmax
from boardplay.core.game import State

VP_SPREAD_PER_TURN = 2.5
"""How much the VP difference between two players can swing per turn (a rough measured scale)."""
LINE_TURNS = 2.0
"""Further turns a completed line is expected to score before it is broken or the game ends."""


def turns_left(position: dict[str, Any]) -> float:
    piles = position["piles"]
    left = min(int(p["hidden"]) + (1 if p["face_up"] else 0) for p in piles)
    # Each turn places up to two tiles from three piles: the smallest pile shrinks about every
    # other turn of the table, so about 2 * left / players turns remain per player.
    return max(1.0, 2.0 * left / len(position["scores"]))


def strengths(state: State, position: dict[str, Any]) -> list[float]:
    scores = [float(s) for s in position["scores"]]
    turn_score: Callable[[int], int] | None = getattr(state, "turn_score", None)
    if turn_score is None:
        return scores
    pays = min(LINE_TURNS, turns_left(position))
    return [score + pays * turn_score(seat) for seat, score in enumerate(scores)]


def evaluate(state: State) -> list[float]:
    if state.is_terminal():
        return state.returns()
    position = state.to_json()
    temperature = 1.0 + VP_SPREAD_PER_TURN * turns_left(position) ** 0.5
    return softmax(strengths(state, position), temperature)


HEURISTICS = Heuristics(
    evaluate,
    None,
    "VP + 2 × the VP the seat's current lines score per turn (turn_score); softmax with a "
    "temperature that shrinks with the tiles left in the smallest pile",
    cutoff=0,
    exploration=0.3,
)
