"""Arena statistics against values computed by hand."""

from __future__ import annotations

import math

import pytest

from boardplay.ai.stats import bradley_terry, openskill_ratings, wilson_interval


def test_wilson_interval_matches_the_formula() -> None:
    # p = 0.7, n = 10, z = 1.96: centre = (0.7 + 0.19208) / 1.38415 = 0.64451,
    # half = 1.96 * sqrt(0.021 + 0.0096040) / 1.38415 = 0.24774.
    low, high = wilson_interval(7, 10)
    assert low == pytest.approx(0.39678, abs=1e-4)
    assert high == pytest.approx(0.89221, abs=1e-4)


def test_wilson_interval_edges() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(0, 20)
    assert low == 0.0 and high == pytest.approx(0.16113, abs=1e-4)
    low, high = wilson_interval(20, 20)
    assert high == 1.0 and low == pytest.approx(1 - 0.16113, abs=1e-4)
    # a draw counted as half a win
    assert wilson_interval(5.5, 11)[0] == pytest.approx(1 - wilson_interval(5.5, 11)[1])


def test_bradley_terry_two_agents_by_hand() -> None:
    # A beat B 3 times out of 4: P = 0.75 = 1/(1+10^(-d/400)) gives d = 400 log10 3 = 190.85.
    # Information for d: n p (1-p) = 0.75; each rating is ±d/2, so se = sqrt(1/0.75)/2 in
    # natural units = 0.57735; 95% half-width = 1.96 * 173.72 * 0.57735 = 196.58 Elo.
    a, b = bradley_terry([[0, 3], [1, 0]], prior_games=0)
    assert a.rating - b.rating == pytest.approx(400 * math.log10(3), abs=0.01)
    assert (a.rating + b.rating) / 2 == pytest.approx(1500)
    assert a.high - a.rating == pytest.approx(196.58, abs=0.05)
    assert a.rating - a.low == pytest.approx(a.high - a.rating)


def test_bradley_terry_prior_keeps_a_clean_sweep_finite() -> None:
    # 4-0 plus one virtual draw is 4.5 of 5: d = 400 log10(4.5 / 0.5) = 381.70.
    a, b = bradley_terry([[0, 4], [0, 0]], prior_games=1)
    assert a.rating - b.rating == pytest.approx(400 * math.log10(9), abs=0.01)


def test_bradley_terry_three_agents() -> None:
    # Symmetric cycle: everybody equal. Transitive chain: ordered ratings.
    cycle = bradley_terry([[0, 3, 1], [1, 0, 3], [3, 1, 0]])
    assert [r.rating for r in cycle] == pytest.approx([1500, 1500, 1500], abs=1e-6)
    chain = bradley_terry([[0, 8, 9], [2, 0, 7], [1, 3, 0]])
    assert chain[0].rating > chain[1].rating > chain[2].rating
    # The MLE satisfies: each agent's expected wins equal its actual wins (prior included).
    wins = [[0, 8.5, 9.5], [2.5, 0, 7.5], [1.5, 3.5, 0]]
    for i in range(3):
        expected = 0.0
        for j in range(3):
            if i != j:
                d = (chain[i].rating - chain[j].rating) / 400
                expected += (wins[i][j] + wins[j][i]) / (1 + 10**-d)
        assert expected == pytest.approx(sum(wins[i]), abs=1e-6)


def test_openskill_ranks_the_winner_first() -> None:
    tables = [[(0, 1.0), (1, 0.0), (2, 0.0)]] * 5 + [[(1, 1.0), (2, 0.0)]] * 3
    ratings = openskill_ratings(tables, 3)
    assert ratings[0]["mu"] > ratings[1]["mu"] > ratings[2]["mu"]
    assert ratings[0]["ordinal"] == pytest.approx(
        ratings[0]["mu"] - 3 * ratings[0]["sigma"], abs=0.01
    )
