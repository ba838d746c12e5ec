"""The best pairing of a set of players by several criteria in strict order of importance, as one
maximum-weight matching (Edmonds' blossom algorithm, ``networkx.max_weight_matching``).

A greedy pass (pair the first with the best of the rest, and so on) can paint itself into a
corner: the last two left may have met already, or a better pairing lower down is lost to an
early choice. A matching over the whole graph cannot: among the pairings that pair the most
players, it finds the one of least total cost. The criteria are folded into one integer weight
per edge with each criterion's multiplier larger than the greatest total every less important
criterion can reach, so one step better in a more important criterion always outweighs any
amount of the less important ones (lexicographic order, exactly: Python integers do not round).
lichess pairs its arenas the same way (``WMMatching`` over rank distance, with a heavy cost on
the last opponent)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    import networkx as nx

N = TypeVar("N", bound=Hashable)

Cost = Callable[[N, N], tuple[int, ...] | None]
"""The cost of pairing two nodes, one non-negative integer per criterion, most important first;
None: the two may not be paired at all."""


def best_matching(nodes: Sequence[N], cost: Cost[N], maxima: Sequence[int]) -> list[tuple[N, N]]:
    """The pairs of a maximum-cardinality matching of ``nodes`` whose summed costs are least in
    lexicographic order (``maxima``: the greatest value each criterion takes on one edge). Each
    pair keeps the order of ``nodes`` (the earlier node first); pairs come in that order too.

    Two or three nodes, a matching of one pair at most, are answered without the blossom
    algorithm when their best pair is the only best one: an arena's wave after one game's end
    is usually its two players, and networkx took a fifth of such a step's CPU."""
    if len(nodes) <= 3:
        found = _one_pair(nodes, cost)
        if found is not None:
            return found
    return _blossom(nodes, cost, maxima)


def _blossom(nodes: Sequence[N], cost: Cost[N], maxima: Sequence[int]) -> list[tuple[N, N]]:
    """``best_matching`` by networkx's maximum-weight matching, the criteria folded into one
    weight."""
    import networkx as nx  # here, not at the top: 0.13 s of every server's start, for pairings

    pairs = len(nodes) // 2 + 1
    multipliers: list[int] = []
    reach = 0  # the greatest total the criteria below the next one can reach
    for most in reversed(maxima):
        multipliers.append(reach + 1)
        reach += (reach + 1) * most * pairs
    multipliers.reverse()
    ceiling = reach + 1
    index = {node: i for i, node in enumerate(nodes)}
    graph: nx.Graph = nx.Graph()
    graph.add_nodes_from(range(len(nodes)))
    for i, a in enumerate(nodes):
        for j in range(i + 1, len(nodes)):
            costs = cost(a, nodes[j])
            if costs is None:
                continue
            total = sum(c * m for c, m in zip(costs, multipliers, strict=True))
            graph.add_edge(i, j, weight=ceiling - total)
    found = nx.max_weight_matching(graph, maxcardinality=True, weight="weight")
    ordered = sorted(tuple(sorted(edge)) for edge in found)
    result = [(nodes[i], nodes[j]) for i, j in ordered]
    assert all(index[a] < index[b] for a, b in result)
    return result


def _one_pair(nodes: Sequence[N], cost: Cost[N]) -> list[tuple[N, N]] | None:
    """The matching of at most three nodes: no pair if none may be paired, else the pair of
    least cost in lexicographic order (tuples compare so); None when two pairs tie for it,
    which the blossom algorithm settles its own way."""
    costs = [
        (found, (a, b))
        for i, a in enumerate(nodes)
        for b in nodes[i + 1 :]
        if (found := cost(a, b)) is not None
    ]
    if not costs:
        return []
    costs.sort(key=lambda c: c[0])
    if len(costs) > 1 and costs[0][0] == costs[1][0]:
        return None
    return [costs[0][1]]


def matching_by_pieces(
    pieces: Sequence[Sequence[N]], cost: Cost[N], maxima: Sequence[int]
) -> tuple[list[tuple[N, N]], list[N]]:
    """The pairs of ``best_matching`` taken piece by piece, and the nodes left unpaired at the
    end. ``pieces`` cut the nodes in order of rank; whoever a piece cannot pair (and, when a
    piece holds an odd number, its last node) is carried to the front of the next one, as a
    bracket's floater goes down to the next score group.

    A matching over the whole field costs the cube of its size: 1,000 players would take
    minutes of one core. Pieces of a few dozen cost a few milliseconds each, so the field costs
    time in proportion to its size; what is lost is only what a pair across two pieces could
    have gained in the criteria, and the callers widen the pieces when someone is left over
    who a wider matching might have paired (lichess pairs its large arenas in groups too)."""
    pairs: list[tuple[N, N]] = []
    carried: list[N] = []
    for piece in pieces:
        nodes = [*carried, *piece]
        carried = [nodes.pop()] if len(nodes) % 2 else []
        found = best_matching(nodes, cost, maxima) if len(nodes) > 1 else []
        pairs += found
        paired = {node for pair in found for node in pair}
        carried = [node for node in nodes if node not in paired] + carried
    return pairs, carried
