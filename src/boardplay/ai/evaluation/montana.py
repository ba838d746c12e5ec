"""Montana evaluation (reads each player's counted holdings, ``MontanaState.holdings``).

Montana is a race: the first player to place every settlement triggers the end, and only players
who placed all of theirs can win. Progress is therefore measured in settlements placed, plus what
the player holds that will turn into settlements soon: goods (the building cost), silver (bank
and contractor income converts to goods), workers on the player board (future production), and
cattle and canteens (flexible trades and the first tie-break). The weights express those holdings
in settlements: a build costs roughly three to five goods, so one good is worth about a quarter of
a settlement. The softmax temperature of one settlement says a one-settlement lead is a clear but
not decisive edge.
"""

from __future__ import annotations

from typing import cast

from boardplay.ai.evaluation import Heuristics, softmax
from boardplay.core.game import State
from boardplay.games.montana.state import Holdings, MontanaState

SETTLEMENTS = {2: 12, 3: 10, 4: 8}
GOOD_WEIGHT = 0.22
SILVER_WEIGHT = 0.05
WORKER_WEIGHT = 0.15
CATTLE_WEIGHT = 0.2
TEMPERATURE = 1.0


def strengths(players: list[Holdings]) -> list[float]:
    total = SETTLEMENTS.get(len(players), 12)
    return [
        total
        - held.settlements_left
        + GOOD_WEIGHT * held.goods
        + SILVER_WEIGHT * held.silver
        + WORKER_WEIGHT * held.workers
        + CATTLE_WEIGHT * (held.cattle + held.canteens)
        for held in players
    ]


def evaluate(state: State) -> list[float]:
    """The result at the end, otherwise the softmax of the players' strengths."""
    if state.is_terminal():
        return state.returns()
    montana = cast(MontanaState, state)
    return softmax(strengths([montana.holdings(p) for p in range(montana.n)]), TEMPERATURE)


HEURISTICS = Heuristics(
    evaluate,
    None,
    "settlements placed + 0.22/good + 0.05/silver + 0.15/worker + 0.2/(cattle+canteen); "
    "softmax with temperature 1 settlement",
    cutoff=0,
)
