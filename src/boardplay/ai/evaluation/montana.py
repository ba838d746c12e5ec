"""Montana evaluation: settlements placed, how close the goods in hand are to the next builds,
and the economy that produces goods.

Montana is a race: the first player to place every settlement triggers the end, and only players
who placed all of theirs can win. A good is worth something only if it pays for a hex the player
can build on, so goods are judged against the costs of the player's build sites
(``MontanaState.build_sites``): up to three sites the goods in hand (with cattle as jokers, one
good each) already pay for count almost as much as placed settlements (a build places up to
three), and the cheapest site not yet paid for counts by the fraction of its cost in hand. Goods
beyond that, workers (future production), silver (pays for production) and canteens (extra
turns) add small amounts. Valuing goods in general instead makes search agents hoard goods that
pay for nothing: with 0.22 a good, MCTS self-play ran into the 400-turn cap in all of 9 games.
The softmax temperature of one settlement says a one-settlement lead is a clear but not decisive
edge.

The weights are data (``weights/montana/<set>.json``, ``boardplay.ai.evaluation.weightsets``):
``hand`` holds the numbers above, and a set fitted from self-play (``boardplay.ai.fit``) may add
the ``*_early`` terms, each a term times the share of the game left (the fewest settlements any
player has left, out of all), which let workers and silver count more early than late.

Every number comes from the kernel's typed feature vector (``MontanaKernel.features_into``, laid
out as ``Feature`` in ``games/montana/layout.pxd`` and read here by name, ``FEATURE_NAMES``
resolved to indices once, at import): the holdings and the readiness counts, which the kernel
computes exactly as ``readiness`` below describes (the differential test checks the values
against the pre-kernel evaluation), so search never builds the position JSON.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from boardplay.ai.evaluation import weightsets
from boardplay.core.game import State
from boardplay.core.heuristics import Evaluation, Heuristics, softmax
from boardplay.games.montana.layout import FEATURE_NAMES
from boardplay.games.montana.state import Holdings

TERMS = (
    "placed",
    "ready",
    "partial",
    "goods",
    "silver",
    "workers",
    "cattle",
    "tempo",
    "placed_early",
    "ready_early",
    "goods_early",
    "silver_early",
    "workers_early",
    "cattle_early",
)
"""The terms of a seat's strength, in the order of ``terms``: settlements placed; settlements
the goods in hand pay for (``readiness``); the share of the next site's cost in hand; goods;
silver; workers; cattle plus canteens; the player's share of the tempo (``tempo_share``: 1
for the player whose main action comes next, the kernel's ``next_main_seat``, which is the
active player until it takes its main action, then the next player, also while the rest of the
active player's turn is played; with three or four players less by an equal step for each turn
a player waits, 0 for the player who has just taken its own); then six of those times the
share of the game left.

Search leaves lie at different points of the turn order, and the tempo keeps a line in which
the opponent has not yet acted from looking better than one in which it has. It passes with the
main action, not with the turn. Were it held only by a player at stage ``MAIN``, a position
after the main action and before the turn's end (the recruit's push and wilds, the production's
right part, the end of the turn) would have no tempo anywhere and rate its mover about 0.4
settlements above the turn's end it leads to; the search would prefer the moves whose own turn
goes on longest, the more so the deeper it searched (measured so: ten times the simulations
scored 28% over 200 two-player games; docs/journal/ai.md, "Montana: tempo passes with the main
action"). With three or four players the whole tempo on the next player alone would make every
other waiting player's evaluation jump when a turn passes, so a leaf one turn deep would rate
its mover above one two or three turns deep; the shares make each turn's gain and the tempo
coming nearer to everyone else match."""

DEFAULT_WEIGHTS = "fitted"
"""The set the game's evaluation uses with two players when a spec names none: ``fitted``
(refitted from self-play against ``hand``) beat ``hand`` in 200-game runs at equal search and at
0.005 s per move, the time ``mcts(iterations=100,c=0.3,weights=hand)`` takes (docs/journal/ai.md,
"Evaluations fitted from self-play: Montana and Passtally")."""

TABLE_WEIGHTS = {3: "phaseless", 4: "phaseless"}
"""The default set of a table of three or four players: ``phaseless``, ``fitted`` without its
``*_early`` terms. Those were fitted on two-player games; they weigh a settlement placed
``1 - 1.0035 * phase`` (nothing at the start) and the goods that pay for one ``0.7 - 0.64 *
phase``, the phase being the fewest settlements any seat has left. With three and four players a
search that looked further then built less and finished fewer settlements: ten times the
simulations scored 47% and 43.5% against one time over 200 games (docs/journal/ai.md,
"Montana: three and four players without the phase terms")."""


TABLE_CUTOFF = 10
"""MCTS's default rollout with three and four players: ten uniform actions before the
evaluation (two players: none, cutoff 0). A leaf evaluated where it stands is as sharp as the
evaluation, while a subtree the search has explored is the mean over its leaves under the tree's
own play, in which the other seats' many moves are tried almost evenly: its values lie nearer
the even share, for the leader lower, for the seats behind higher. Visits then follow how deep
a move has been explored rather than how good it is, and the more so the more seats' turns lie
between two of one's own. After ten random actions every leaf is scored the same way. 20,000
simulations against 2,000 over 200 games (``phaseless``): with cutoff 0 61.5% (three players)
and 47.0% (four), with 10 63.5% and 68.5% (docs/journal/ai.md, "Montana: three and four players
without the phase terms")."""

TABLE_SPREAD = (3, 4)
"""The tables whose searches scale the exploration term by the spread of each node's returns
(MCTS's ``spread``; two players: plain UCT). A seat's returns after ten random actions scatter
by about 0.1 of win chance early in a game and by a few thousandths for a seat far behind, so
UCT's bonus, sized for returns spread over all of [0, 1], spread the visits of the seats'
moves almost evenly and the tree modelled the others as playing at random. Scaled, a
20,000-simulation search scored 65.2% against the plain one with three players and 70.2% with
four (200 games, seed 1); 20,000 against 2,000 simulations 66.2% and 69.2% (docs/journal/ai.md,
"Montana: three players, the exploration term sized by the returns' spread")."""


def default_weights(players: int) -> str:
    """The weight set a table of ``players`` seats evaluates with when a spec names none."""
    return TABLE_WEIGHTS.get(players, DEFAULT_WEIGHTS)


HAND = weightsets.load("montana", "hand")
READY_WEIGHT = HAND.weights["ready"]
"""A settlement whose goods are in hand (one build action away)."""
PARTIAL_WEIGHT = HAND.weights["partial"]
"""Times the fraction of the cheapest unpaid site's cost in hand."""
GOOD_WEIGHT = HAND.weights["goods"]
SILVER_WEIGHT = HAND.weights["silver"]
WORKER_WEIGHT = HAND.weights["workers"]
CATTLE_WEIGHT = HAND.weights["cattle"]

SEAT_FEATURES = FEATURE_NAMES.index("settlements_left_seat1")
"""The stride of the per-seat blocks: seat p's features are ``name_seat0``'s index plus p times
this."""
LEFT, GOODS, SILVER, WORKERS, CATTLE, CANTEENS, READY, PARTIAL_HAVE, PARTIAL_COST = (
    FEATURE_NAMES.index(f"{name}_seat0")
    for name in (
        "settlements_left",
        "goods",
        "silver",
        "workers",
        "cattle",
        "canteens",
        "ready",
        "partial_have",
        "partial_cost",
    )
)
"""The indices of a seat's features within its block."""
NEXT_MAIN_SEAT = FEATURE_NAMES.index("next_main_seat")
SETTLEMENTS = FEATURE_NAMES.index("settlements")
"""The seat whose main action comes next (-1: none), and the settlements each player starts
with (the data file's count for this table)."""


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


def tempo_share(seat: int, tempo: int, players: int) -> float:
    """``seat``'s share of the tempo when ``tempo`` is the seat whose main action comes next: 1
    for that seat, then less by ``1 / (players - 1)`` per turn a seat waits for its main action,
    0 for the seat that has just taken its own (with two players: 1 and 0). A main action moves
    every seat one step nearer, and the mover from 1 to 0; when the action gains the mover
    ``players / (players - 1)`` times the tempo weight, everyone's evaluation stays put."""
    return (players - 1 - (seat - tempo) % players) / (players - 1)


def phase_left(features: Sequence[float], players: int) -> float:
    """The share of the game left: the fewest settlements any player has left, out of all (the
    first player to place every settlement triggers the end)."""
    left = min(features[LEFT + SEAT_FEATURES * p] for p in range(players))
    return left / features[SETTLEMENTS]


def terms(
    features: Sequence[float], players: int, weights: weightsets.WeightSet
) -> list[list[float]]:
    """Each seat's term values (``TERMS`` order), which the fit weighs (no shape number of
    ``weights`` changes them: the signature is the one every fitted game has)."""
    total = features[SETTLEMENTS]
    phase = phase_left(features, players)
    tempo = int(features[NEXT_MAIN_SEAT])
    rows = []
    for p in range(players):
        f = features[SEAT_FEATURES * p : SEAT_FEATURES * (p + 1)]
        cost = f[PARTIAL_COST]
        base = [
            total - f[LEFT],
            f[READY],
            f[PARTIAL_HAVE] / cost if cost else 0.0,
            f[GOODS],
            f[SILVER],
            f[WORKERS],
            f[CATTLE] + f[CANTEENS],
        ]
        early = [base[0], base[1], base[3], base[4], base[5], base[6]]
        share = tempo_share(p, tempo, players) if tempo >= 0 else 0.0
        rows.append([*base, share, *(phase * x for x in early)])
    return rows


def temperature(features: Sequence[float], weights: weightsets.WeightSet) -> float:
    """The softmax temperature (fixed by the set's shape: one settlement for ``hand``)."""
    return weights.shaped("temperature")


@cache
def evaluation(name: str | None) -> Evaluation:
    """The evaluation with the weight set ``name`` (``OptionError`` for an unknown one; None:
    each table's default, ``default_weights``).

    The sums run in the order the hand-set evaluation always used, and a term weighing 0 adds
    exactly 0, so ``hand`` gives the values it gave before its numbers became data."""
    if name is None:
        by_table = {n: evaluation(default_weights(n)) for n in (2, 3, 4)}

        def by_players(state: State) -> list[float]:
            """The evaluation of the state's table's default set."""
            return by_table[state.game.num_players](state)

        return by_players
    weight_set = weightsets.load("montana", name)
    (placed, ready, partial, goods, silver, workers, cattle, tempo, *early) = weight_set.vector(
        TERMS
    )
    t = weight_set.shaped("temperature")

    def evaluate(state: State) -> list[float]:
        """The result at the end, otherwise the softmax of the players' strengths."""
        if state.is_terminal():
            return state.returns()
        assert state.kernel is not None
        features = state.kernel.features()
        n = state.game.num_players
        total = features[SETTLEMENTS]
        phase = phase_left(features, n)
        values = []
        for p in range(n):
            f = features[SEAT_FEATURES * p : SEAT_FEATURES * (p + 1)]
            left, held_goods, held_silver = f[LEFT], f[GOODS], f[SILVER]
            held_workers, held_cattle, canteens = f[WORKERS], f[CATTLE], f[CANTEENS]
            cost = f[PARTIAL_COST]
            paid = ready * f[READY]
            if cost:
                paid = paid + partial * f[PARTIAL_HAVE] / cost
            value = (
                placed * (total - left)
                + paid
                + goods * held_goods
                + silver * held_silver
                + workers * held_workers
                + cattle * (held_cattle + canteens)
            )
            value += phase * (
                early[0] * (total - left)
                + early[1] * f[READY]
                + early[2] * held_goods
                + early[3] * held_silver
                + early[4] * held_workers
                + early[5] * (held_cattle + canteens)
            )
            values.append(value)
        seat = int(features[NEXT_MAIN_SEAT])
        if seat >= 0:
            for p in range(n):
                values[p] += tempo * tempo_share(p, seat, n)
        return softmax(values, t)

    return evaluate


HEURISTICS = Heuristics(
    evaluation(None),
    None,
    "settlements placed + settlements the goods in hand pay for (cheapest build sites, cattle "
    "as jokers, at most 3) + the share of the next site's cost in hand + goods, silver, workers, "
    "cattle and canteens, some also times the share of the game left, weighted by the set "
    "'fitted' (fitted from self-play; 'weights=hand' is the hand-set evaluation of before); "
    "softmax with temperature 1 settlement (three and four players: 'phaseless', the set "
    "'fitted' without the terms times the share of the game left, after 10 random actions)",
    cutoff=0,
    table_cutoffs=((3, TABLE_CUTOFF), (4, TABLE_CUTOFF)),
    table_spread=TABLE_SPREAD,
    weighted=evaluation,
    compiled="boardplay.ai.evaluation.montana_leaf:MontanaEvaluation",
)
