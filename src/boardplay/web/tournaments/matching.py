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
from typing import TypeVar

import networkx as nx

N = TypeVar("N", bound=Hashable)

Cost = Callable[[N, N], tuple[int, ...] | None]
"""The cost of pairing two nodes, one non-negative integer per criterion, most important first;
None: the two may not be paired at all."""


def best_matching(nodes: Sequence[N], cost: Cost[N], maxima: Sequence[int]) -> list[tuple[N, N]]:
    """The pairs of a maximum-cardinality matching of ``nodes`` whose summed costs are least in
    lexicographic order (``maxima``: the greatest value each criterion takes on one edge). Each
    pair keeps the order of ``nodes`` (the earlier node first); pairs come in that order too."""
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
