"""Passtally evaluation, from the kernel's typed feature vector (never the position JSON).

Victory points are the whole game, and a player's completed lines score at the end of every one
of their turns. The default set (``turn_end``) rates each seat by its VP once the turn under way
has ended: the seat whose turn it is adds the VP its current lines would convert to now; the
others' lines count nothing, because the seats in between break most of them before they score
again. The ``hand`` set rates each seat by its VP plus what its current lines are worth per turn
times the turns they can still be expected to pay, capped at two; its ratings rise at every
turn's end and fall back at the next. The softmax temperature is
proportional to the square root of the turns left, estimated from the smallest pile (one
exhausted pile starts the final round): a lead of 5 VP with most of the game to play is far from
decisive, at the end any lead is.

The features (``PasstallyKernel.features()``, laid out as ``Feature`` in the game's
``layout.pxd``) are read by name (``FEATURE_NAMES``, resolved to indices once, at import): each
seat's VP, the VP each seat's complete lines would score now, the tiles left in each pile
(face-up one included), the number of players, the seat whose turn is under way.

The numbers are data (``weights/passtally/<set>.json``, ``boardplay.ai.evaluation.weightsets``):
``turn_end`` and ``hand`` hold the ones above; a set fitted from self-play (``boardplay.ai.fit``)
weighs the same terms and may add the line VP on its own or times the turns left (uncapped), all
divided by the same temperature.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from boardplay.ai.evaluation import weightsets
from boardplay.core.game import State
from boardplay.core.heuristics import Evaluation, Heuristics, softmax
from boardplay.games.passtally.layout import FEATURE_NAMES

TERMS = ("vp", "line_vp_paid", "line_vp", "line_vp_turns", "turn_vp")
"""The terms of a seat's strength, in the order of ``terms``: its VP; the VP its complete lines
would score now times the turns they can be expected to pay (at most the shape's
``line_turns``); that line VP alone; and times the turns left; and, for the seat whose turn is
under way only, its line VP again (what it scores when the turn ends)."""

DEFAULT_WEIGHTS = "turn_end"
"""The set the game's evaluation uses when a spec names none: ``turn_end``, each seat's VP once
the turn under way has ended. ``hand`` credits every seat's lines for two more turns, so each
seat's value jumps at its turn's end and falls back when the next seat breaks its lines (the
mover's win chance swings by about 0.46 a turn), and a search that evaluates leaves wherever they
stand lets its visits follow depth: with ``hand`` 20,000 simulations scored 64.5% against 2,000
over 200 two-player games, with ``turn_end`` 78.5% (docs/journal/ai.md, "Passtally: the value of
a turn that has not ended")."""

TABLE_CUTOFFS: tuple[tuple[int, int | None], ...] = ((3, None),)
"""MCTS's default rollout with three players: to the end of the game (two players: cutoff 0).
With three seats the softmax of the seats' VP hardly ranks a seat's moves (the median spread of
a node's children's means was 0.0004 of win chance), so a leaf evaluated where it stands weighs
little against the mean of an explored subtree, in which the two other seats' many moves are
tried almost evenly: the visits followed depth, and ten times the simulations bought little.
A game played to its end scores every leaf the same way, by who won. 20,000 simulations against
2,000 over 200 games: with cutoff 0 63.5% (seed 1) and 62.5% (seed 2), to the end 75.0% and
73.5%. Small searches are the other way round: at 10 and 100 simulations cutoff 0 won 87% and
90.5% against playing to the end, at 1,000 it lost 39.5%, so the levels below hard name cutoff
0 (docs/journal/ai.md, "Passtally: three players play to the end")."""

HAND = weightsets.load("passtally", "hand")
VP_SPREAD_PER_TURN = HAND.shaped("temperature_per_sqrt_turn")
"""How much the VP difference between two players can swing per turn (a rough measured scale)."""
LINE_TURNS = HAND.shaped("line_turns")
"""Further turns a completed line is expected to score before it is broken or the game ends."""

VP = tuple(FEATURE_NAMES.index(f"vp_seat{seat}") for seat in range(3))
LINE_VP = tuple(FEATURE_NAMES.index(f"line_vp_seat{seat}") for seat in range(3))
PILES = tuple(FEATURE_NAMES.index(f"tiles_pile_{pile}") for pile in "abc")
PLAYERS = FEATURE_NAMES.index("players")
TURN_SEAT = FEATURE_NAMES.index("turn_seat")
"""The feature indices of each seat's VP and line VP, each pile's tiles, the player count and
the seat whose turn is under way."""


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
    turn_seat = int(features[TURN_SEAT])
    rows = []
    for seat in range(players):
        lines = int(features[LINE_VP[seat]])
        due = float(lines) if seat == turn_seat else 0.0
        rows.append([float(features[VP[seat]]), pays * lines, float(lines), lines * turns, due])
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
    vp, paid, line_vp, line_vp_turns, turn_vp = weight_set.vector(TERMS)
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
        turn_seat = int(features[TURN_SEAT])
        strengths = []
        for seat in range(players):
            lines = int(features[LINE_VP[seat]])
            value = vp * float(features[VP[seat]]) + paid * (pays * lines)
            value += line_vp * lines + line_vp_turns * (lines * turns)
            if seat == turn_seat:
                value += turn_vp * lines
            strengths.append(value)
        return softmax(strengths, temperature(features, weight_set))

    return evaluate


HEURISTICS = Heuristics(
    evaluation(DEFAULT_WEIGHTS),
    None,
    "VP once the turn under way has ended (the seat whose turn it is adds the VP its current "
    "lines score, turn_score); softmax with a temperature that shrinks with the tiles left in "
    "the smallest pile (weight set 'turn_end'; 'hand' adds 2 × every seat's line VP; "
    "'weights=NAME' chooses another; three players: playouts to the end with the kernel's "
    "playout policy)",
    cutoff=0,
    table_cutoffs=TABLE_CUTOFFS,
    exploration=0.3,
    kernel_playouts=True,
    weighted=evaluation,
    compiled="boardplay.ai.evaluation.passtally_leaf:PasstallyEvaluation",
)
