"""A matching of two or three players (``matching.best_matching``) taken without the blossom
algorithm gives what the blossom algorithm gives: an arena's usual wave after one game's end
is its two players."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from boardplay.web.tournaments.matching import _blossom, _one_pair, best_matching

MAXIMA = (1, 3, 50)
"""Three criteria, most important first (a repeat, a colour's streak, a rank distance)."""

edge = st.one_of(st.none(), st.tuples(*(st.integers(0, most) for most in MAXIMA)))


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 3), st.lists(edge, min_size=3, max_size=3))
def test_a_small_matching_is_the_blossom_algorithms_where_its_best_pair_is_alone(
    size: int, edges: list[tuple[int, ...] | None]
) -> None:
    nodes = list("abc"[:size])
    where = {("a", "b"): 0, ("a", "c"): 1, ("b", "c"): 2}

    def cost(x: str, y: str) -> tuple[int, ...] | None:
        return edges[where[(x, y)]]

    quick = _one_pair(nodes, cost)
    slow = _blossom(nodes, cost, MAXIMA)
    if quick is not None:
        assert quick == slow
    assert best_matching(nodes, cost, MAXIMA) == (slow if quick is None else quick)
    allowed = [pair for pair in where if pair[1] in nodes and edges[where[pair]] is not None]
    if allowed and size >= 2:
        assert len(slow) == 1  # a maximum-cardinality matching of at most three nodes


def test_two_tied_pairs_are_left_to_the_blossom_algorithm() -> None:
    same = (0, 1, 2)
    assert _one_pair(["a", "b", "c"], lambda x, y: same) is None
    assert _one_pair(["a", "b"], lambda x, y: None) == []
    assert _one_pair(["a", "b", "c"], lambda x, y: (0, 0, 5) if x == "b" else (0, 0, 9)) == [
        ("b", "c")
    ]
