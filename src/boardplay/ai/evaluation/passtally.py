"""Passtally evaluation, from the kernel's typed feature vector (never the position JSON).

Victory points are the whole game, and a player's completed lines score again at the end of
every one of their turns. So each seat's standing is its VP plus what its current lines are worth
per turn (the VP those lines would convert to now) times the turns they can still be expected to
pay, capped because opponents break lines with their tiles. The softmax temperature is
proportional to the square root of the turns left, estimated from the smallest pile (one
exhausted pile starts the final round): a lead of 5 VP with most of the game to play is far from
decisive, at the end any lead is.

The features (``PasstallyKernel.features()``, laid out as ``Feature`` in the game's
``layout.pxd``) are read by name (``FEATURE_NAMES``, resolved to indices once, at import): each
seat's VP, the VP each seat's complete lines would score now, the tiles left in each pile
(face-up one included), the number of players.

The numbers are data (``weights/passtally/<set>.json``, ``boardplay.ai.evaluation.weightsets``):
``hand`` holds the ones above; a set fitted from self-play (``boardplay.ai.fit``) weighs the same
terms and may add the line VP on its own or times the turns left (uncapped), all divided by the
same temperature.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from boardplay.ai.evaluation import Evaluation, Heuristics, softmax, weightsets
from boardplay.core.game import State
from boardplay.games.passtally.layout import FEATURE_NAMES

TERMS = ("vp", "line_vp_paid", "line_vp", "line_vp_turns")
"""The terms of a seat's strength, in the order of ``terms``: its VP; the VP its complete lines
would score now times the turns they can be expected to pay (at most the shape's
``line_turns``); that line VP alone; and times the turns left."""

DEFAULT_WEIGHTS = "hand"
"""The set the game's evaluation uses when a spec names none (the runs: docs/journal/ai.md,
"Evaluations fitted from self-play: Montana and Passtally")."""

HAND = weightsets.load("passtally", "hand")
VP_SPREAD_PER_TURN = HAND.shaped("temperature_per_sqrt_turn")
"""How much the VP difference between two players can swing per turn (a rough measured scale)."""
LINE_TURNS = HAND.shaped("line_turns")
"""Further turns a completed line is expected to score before it is broken or the game ends."""

VP = tuple(FEATURE_NAMES.index(f"vp_seat{seat}") for seat in range(3))
LINE_VP = tuple(FEATURE_NAMES.index(f"line_vp_seat{seat}") for seat in range(3))
PILES = tuple(FEATURE_NAMES.index(f"tiles_pile_{pile}") for pile in "abc")
PLAYERS = FEATURE_NAMES.index("players")
"""The feature indices of each seat's VP and line VP, each pile's tiles and the player count."""


def turns_left(features: Sequence[float]) -> float:
    players = int(features[PLAYERS])
    left = min(int(features[pile]) for pile in PILES)
    # Each turn places up to two tiles from three piles: the smallest pile shrinks about every
    # other turn of the table, so about 2 * left / players turns remain per player.
    return max(1.0, 2.0 * left / players)


def terms(
    features: Sequence[float], players: int, weights: weightsets.WeightSet
) -> list[list[float]]:
    """Each seat's term values (``TERMS`` order, with the line cap of ``weights``' shape), which
    the fit weighs."""
    turns = turns_left(features)
    pays = min(weights.shaped("line_turns"), turns)
    rows = []
    for seat in range(players):
        lines = int(features[LINE_VP[seat]])
        rows.append([float(features[VP[seat]]), pays * lines, float(lines), lines * turns])
    return rows


def temperature(features: Sequence[float], weights: weightsets.WeightSet) -> float:
    """The softmax temperature: the shape's base plus its spread times sqrt(turns left)."""
    root: float = turns_left(features) ** 0.5
    return weights.shaped("temperature") + weights.shaped("temperature_per_sqrt_turn") * root


@cache
def evaluation(name: str) -> Evaluation:
    """The evaluation with the weight set ``name`` (``OptionError`` for an unknown one).

    The sums run in the order the hand-set evaluation always used, and a term weighing 0 adds
    exactly 0, so ``hand`` gives the values it gave before its numbers became data."""
    weight_set = weightsets.load("passtally", name)
    vp, paid, line_vp, line_vp_turns = weight_set.vector(TERMS)
    cap = weight_set.shaped("line_turns")

    def evaluate(state: State) -> list[float]:
        if state.is_terminal():
            return state.returns()
        if state.kernel is None:
            raise TypeError("the Passtally evaluation reads the compiled kernel's features")
        features = state.kernel.features()
        players = int(features[PLAYERS])
        turns = turns_left(features)
        pays = min(cap, turns)
        strengths = []
        for seat in range(players):
            lines = int(features[LINE_VP[seat]])
            value = vp * float(features[VP[seat]]) + paid * (pays * lines)
            value += line_vp * lines + line_vp_turns * (lines * turns)
            strengths.append(value)
        return softmax(strengths, temperature(features, weight_set))

    return evaluate


HEURISTICS = Heuristics(
    evaluation(DEFAULT_WEIGHTS),
    None,
    "VP + 2 × the VP the seat's current lines score per turn (turn_score); softmax with a "
    "temperature that shrinks with the tiles left in the smallest pile (weight set 'hand'; "
    "'weights=NAME' chooses another)",
    cutoff=0,
    exploration=0.3,
    kernel_playouts=True,
    weighted=evaluation,
    compiled="boardplay.ai.evaluation.passtally_leaf:PasstallyEvaluation",
)
