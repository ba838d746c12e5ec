"""Montana evaluation: settlements placed, how close the goods in hand are to the next builds,
and the economy that produces goods.

Montana is a race: the first player to place every settlement triggers the end, and only players
who placed all of theirs can win. A good is worth something only if it pays for a hex the player
can build on, so goods are judged against the costs of the player's build sites
(``MontanaState.build_sites``): up to three sites the goods in hand (with cattle as jokers, one
good each) already pay for count almost as much as placed settlements (a build places up to
three), and the cheapest site not yet paid for counts by the fraction of its cost in hand. Goods
beyond that, workers (future production), silver (pays for production) and canteens (extra
turns) add small amounts. Valuing goods in general instead (an earlier version) made search
agents hoard goods that pay for nothing: MCTS self-play ran into the 400-turn cap in every game.
The softmax temperature of one settlement says a one-settlement lead is a clear but not decisive
edge.

Every number comes from the kernel's typed feature vector (``MontanaKernel.features_into``,
layout in ``games/montana/state.py``): the holdings and the readiness counts, which the kernel
computes exactly as ``readiness`` below describes (the differential test checks the values
against the pre-kernel evaluation), so search never builds the position JSON.
"""

from __future__ import annotations

from boardplay.ai.evaluation import Heuristics, softmax
from boardplay.core.game import State
from boardplay.games.montana.state import (
    F_MAIN_SEAT,
    F_PARTIAL_COST,
    F_PARTIAL_HAVE,
    F_READY,
    SEAT_FEATURES,
    Holdings,
)

SETTLEMENTS = {2: 12, 3: 10, 4: 8}
READY_WEIGHT = 0.7
"""A settlement whose goods are in hand (one build action away)."""
PARTIAL_WEIGHT = 0.3
"""Times the fraction of the cheapest unpaid site's cost in hand."""
GOOD_WEIGHT = 0.03
SILVER_WEIGHT = 0.03
WORKER_WEIGHT = 0.12
CATTLE_WEIGHT = 0.15
TEMPO = 0.4
"""For the player whose main action is still to come: search leaves lie at different points of
the turn order, and this keeps a line in which the opponent has not yet acted from looking
better than one in which it has. Not yet confirmed by measurement: without it, 50-simulation
self-play scored 25 / 40 against the shipped weights (inconclusive at that sample size)."""
TEMPERATURE = 1.0


def readiness(goods: list[int], jokers: int, sites: list[tuple[int, ...]], left: int) -> float:
    """Settlements the goods in hand pay for (at most three, one build action, and at most the
    settlements left), plus the fraction of the cheapest remaining site's cost in hand. Sites are
    taken cheapest shortfall first, each paid from what the previous ones left."""
    if not sites or left <= 0:
        return 0.0
    ready = 0
    remaining = sorted(sites, key=lambda cost: (_shortfall(goods, cost), sum(cost)))
    for cost in remaining:
        if ready == min(3, left):
            return READY_WEIGHT * ready
        short = _shortfall(goods, cost)
        if short > jokers:
            total = sum(cost)
            return READY_WEIGHT * ready + PARTIAL_WEIGHT * (total - short + jokers) / total
        jokers -= short
        goods = [max(0, have - need) for have, need in zip(goods, cost, strict=True)]
        ready += 1
    return READY_WEIGHT * ready


def _shortfall(goods: list[int], cost: tuple[int, ...]) -> int:
    return sum(need - have for have, need in zip(goods, cost, strict=True) if need > have)


def strength(held: Holdings, goods: list[int], sites: list[tuple[int, ...]], total: int) -> float:
    return (
        total
        - held.settlements_left
        + readiness(goods, held.cattle, sites, held.settlements_left)
        + GOOD_WEIGHT * held.goods
        + SILVER_WEIGHT * held.silver
        + WORKER_WEIGHT * held.workers
        + CATTLE_WEIGHT * (held.cattle + held.canteens)
    )


def ready_value(ready: float, have: float, cost: float) -> float:
    """``readiness`` from the kernel's counts: sites paid for, and the next site's cost in hand
    out of its whole cost (cost 0: no partly paid site)."""
    if cost:
        return READY_WEIGHT * ready + PARTIAL_WEIGHT * have / cost
    return READY_WEIGHT * ready


def evaluate(state: State) -> list[float]:
    """The result at the end, otherwise the softmax of the players' strengths."""
    if state.is_terminal():
        return state.returns()
    assert state.kernel is not None
    features = state.kernel.features()
    n = state.game.num_players
    total = SETTLEMENTS.get(n, 12)
    values = []
    for p in range(n):
        f = features[SEAT_FEATURES * p : SEAT_FEATURES * (p + 1)]
        left, goods, silver, workers, cattle, canteens = f[:6]
        values.append(
            total
            - left
            + ready_value(f[F_READY], f[F_PARTIAL_HAVE], f[F_PARTIAL_COST])
            + GOOD_WEIGHT * goods
            + SILVER_WEIGHT * silver
            + WORKER_WEIGHT * workers
            + CATTLE_WEIGHT * (cattle + canteens)
        )
    seat = int(features[F_MAIN_SEAT])
    if seat >= 0:
        values[seat] += TEMPO
    return softmax(values, TEMPERATURE)


HEURISTICS = Heuristics(
    evaluate,
    None,
    "settlements placed + 0.7 per settlement the goods in hand pay for (cheapest build sites, "
    "cattle as jokers, at most 3) + 0.3 x the share of the next site's cost in hand + "
    "0.03/good + 0.03/silver + 0.12/worker + 0.15/(cattle+canteen); softmax with temperature "
    "1 settlement",
    cutoff=0,
)
