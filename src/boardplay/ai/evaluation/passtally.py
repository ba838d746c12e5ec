"""Passtally evaluation, from the kernel's typed feature vector (never the position JSON).

Victory points are the whole game, and a player's completed lines score again at the end of
every one of their turns. So each seat's standing is its VP plus what its current lines are worth
per turn (the VP those lines would convert to now) times the turns they can still be expected to
pay, capped because opponents break lines with their tiles. The softmax temperature is
proportional to the square root of the turns left, estimated from the smallest pile (one
exhausted pile starts the final round): a lead of 5 VP with most of the game to play is far from
decisive, at the end any lead is.

The features (``PasstallyKernel.features()``, documented in the game's ``tables.FEATURE_NAMES``):
0-2 VP per seat, 3-5 the VP each seat's complete lines would score now, 6-8 the tiles left in
each pile (face-up one included), 9 the number of players.
"""

from __future__ import annotations

from collections.abc import Sequence

from boardplay.ai.evaluation import Heuristics, softmax
from boardplay.core.game import State

VP_SPREAD_PER_TURN = 2.5
"""How much the VP difference between two players can swing per turn (a rough measured scale)."""
LINE_TURNS = 2.0
"""Further turns a completed line is expected to score before it is broken or the game ends."""

_POINTS, _LINES, _PILES, _PLAYERS = 0, 3, 6, 9
"""Where each group starts in the feature vector."""


def turns_left(features: Sequence[float]) -> float:
    players = int(features[_PLAYERS])
    left = min(int(features[_PILES + p]) for p in range(3))
    # Each turn places up to two tiles from three piles: the smallest pile shrinks about every
    # other turn of the table, so about 2 * left / players turns remain per player.
    return max(1.0, 2.0 * left / players)


def strengths(features: Sequence[float]) -> list[float]:
    players = int(features[_PLAYERS])
    pays = min(LINE_TURNS, turns_left(features))
    return [
        float(features[_POINTS + seat]) + pays * int(features[_LINES + seat])
        for seat in range(players)
    ]


def evaluate(state: State) -> list[float]:
    if state.is_terminal():
        return state.returns()
    if state.kernel is None:
        raise TypeError("the Passtally evaluation reads the compiled kernel's features")
    features = state.kernel.features()
    temperature = 1.0 + VP_SPREAD_PER_TURN * turns_left(features) ** 0.5
    return softmax(strengths(features), temperature)


HEURISTICS = Heuristics(
    evaluate,
    None,
    "VP + 2 × the VP the seat's current lines score per turn (turn_score); softmax with a "
    "temperature that shrinks with the tiles left in the smallest pile",
    cutoff=0,
    exploration=0.3,
)
