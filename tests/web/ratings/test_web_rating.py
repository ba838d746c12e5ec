"""The rating mathematics (boardplay.web.ratings.maths): Glickman's worked example, OpenSkill's own
published numbers through our scale mapping, and properties that must hold for any game."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardplay.web.ratings.maths import (
    MAX_DEVIATION,
    MIN_DEVIATION,
    NEW_DEVIATION,
    NEW_RATING,
    NEW_VOLATILITY,
    PL_MU,
    PL_SCALE,
    PROVISIONAL_DEVIATION,
    Rating,
    expected_score,
    glicko2,
    plackett_luce,
    update,
)

NEW = Rating()


def test_glickman_worked_example() -> None:
    # Mark Glickman, "Example of the Glicko-2 system", the example worked through steps 1-8.
    player = Rating(1500.0, 200.0, 0.06)
    results = [
        (Rating(1400.0, 30.0), 1.0),
        (Rating(1550.0, 100.0), 0.0),
        (Rating(1700.0, 300.0), 0.0),
    ]
    after = glicko2(player, results)
    assert after.rating == pytest.approx(1464.05, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.059996, abs=0.00001)


def test_no_results_only_widens_the_deviation() -> None:
    player = Rating(1500.0, 200.0, 0.06)
    after = glicko2(player, [])
    assert after.rating == player.rating
    assert after.volatility == player.volatility
    # Step 6: phi* = sqrt(phi^2 + sigma^2), in Glicko units 200 -> 200.2714.
    assert after.deviation == pytest.approx(200.2714, abs=0.001)
    assert glicko2(Rating(1500.0, 349.9, 0.06), []).deviation == MAX_DEVIATION


def test_plackett_luce_reproduces_openskills_published_example() -> None:
    # openskill.py documentation, "Ordinals Explained" (docs/source/ordinal.ipynb, shown on
    # openskill.me): four default players (mu 25, sigma 25/3) rated with ranks [1, 2, 3, 4]
    # come out as the (mu, sigma) below, printed to six decimals.
    published = [
        (27.795253, 8.263572),
        (26.552918, 8.179618),
        (24.689416, 8.084128),
        (20.962413, 8.084128),
    ]
    default = Rating(NEW_RATING, 25.0 / 3.0 * PL_SCALE, NEW_VOLATILITY)
    after = plackett_luce([default] * 4, [1, 2, 3, 4])
    for rating, (mu, sigma) in zip(after, published, strict=True):
        assert PL_MU + (rating.rating - NEW_RATING) / PL_SCALE == pytest.approx(mu, abs=1e-6)
        assert rating.deviation / PL_SCALE == pytest.approx(sigma, abs=1e-6)
        assert rating.volatility == NEW_VOLATILITY


def test_scale_makes_two_player_win_chances_agree() -> None:
    # For established players Plackett-Luce's 1/(1+exp(-dmu/(sqrt(2)*beta))) must equal
    # Glicko's 1/(1+10^(-dr/400)) once dr = dmu * PL_SCALE.
    beta = 25.0 / 6.0
    for dmu in (-10.0, -1.0, 0.5, 3.0, 12.0):
        luce = 1.0 / (1.0 + math.exp(-dmu / (math.sqrt(2.0) * beta)))
        glicko = 1.0 / (1.0 + 10.0 ** (-dmu * PL_SCALE / 400.0))
        assert luce == pytest.approx(glicko, rel=1e-12)
    assert abs(PL_SCALE - 29.4809) < 1e-4


def test_expected_score() -> None:
    assert expected_score(NEW, NEW) == 0.5
    # Glickman's example: E against the 1400/30 opponent is 0.639.
    assert expected_score(Rating(1500.0, 200.0), Rating(1400.0, 30.0)) == pytest.approx(
        0.639, abs=0.001
    )
    # An uncertain opponent flattens the expectation towards 0.5.
    sure = expected_score(Rating(1700.0, 50.0), Rating(1500.0, 50.0))
    unsure = expected_score(Rating(1700.0, 50.0), Rating(1500.0, 350.0))
    assert 0.5 < unsure < sure < 1.0


def test_provisional() -> None:
    assert NEW.provisional
    assert Rating(1500.0, PROVISIONAL_DEVIATION + 0.1).provisional
    assert not Rating(1500.0, PROVISIONAL_DEVIATION).provisional


@pytest.mark.parametrize("count", [2, 3, 4])
def test_winner_up_loser_down_deviations_shrink(count: int) -> None:
    before = [Rating(1500.0 + 40.0 * i, 200.0 - 20.0 * i) for i in range(count)]
    places = list(range(1, count + 1))
    after = update(before, places)
    assert after[0].rating > before[0].rating
    assert after[-1].rating < before[-1].rating
    for old, new in zip(before, after, strict=True):
        assert new.deviation < old.deviation


def test_two_player_update_is_glicko2_against_the_rating_before() -> None:
    a, b = Rating(1600.0, 80.0, 0.05), Rating(1450.0, 250.0, 0.07)
    assert update([a, b], [2, 1]) == [glicko2(a, [(b, 0.0)]), glicko2(b, [(a, 1.0)])]
    assert update([a, b], [1, 1]) == [glicko2(a, [(b, 0.5)]), glicko2(b, [(a, 0.5)])]


@pytest.mark.parametrize("count", [2, 3, 4])
def test_tie_between_equals_keeps_them_equal(count: int) -> None:
    before = [Rating(1620.0, 140.0, 0.06)] * count
    after = update(before, [1] * count)
    assert all(r == after[0] for r in after)
    assert after[0].rating == pytest.approx(1620.0, abs=1e-9)
    assert after[0].deviation < 140.0


def test_four_player_game_orders_the_updates_by_place() -> None:
    after = update([NEW] * 4, [3, 1, 4, 2])
    by_place = [after[1], after[3], after[0], after[2]]
    ratings = [r.rating for r in by_place]
    assert ratings == sorted(ratings, reverse=True)
    assert ratings[0] > NEW_RATING > ratings[-1]
    assert all(r.deviation < NEW_DEVIATION for r in after)


def test_shared_place_in_a_three_player_game() -> None:
    after = update([NEW] * 3, [1, 1, 3])
    assert after[0] == after[1]
    assert after[0].rating > NEW_RATING > after[2].rating


def test_co_winners_stay_ahead_of_the_next_finisher() -> None:
    # OpenSkill's own tie rule gives the third finisher of 1, 1, 2, 3 exactly what the two
    # co-winners get; averaging over the ways to break the tie keeps the order of the places.
    for after in (update([NEW] * 4, [1, 1, 2, 3]), plackett_luce([NEW] * 4, [1, 1, 2, 3])):
        assert after[0] == after[1]
        assert after[0].rating > after[2].rating > after[3].rating
    after = plackett_luce([NEW] * 4, [1, 1, 2, 3])
    first, second, third, fourth = plackett_luce([NEW] * 4, [1, 2, 3, 4])
    assert after[0].rating == pytest.approx((first.rating + second.rating) / 2, abs=1e-9)
    assert after[2] == third
    assert after[3] == fourth


def test_a_game_of_several_is_one_glicko2_period_against_each_other_player() -> None:
    a, b, c = Rating(1600.0, 80.0, 0.05), Rating(1450.0, 250.0, 0.07), Rating(1500.0, 120.0)
    assert update([a, b, c], [2, 1, 2]) == [
        glicko2(a, [(b, 0.0), (c, 0.5)]),
        glicko2(b, [(a, 1.0), (c, 1.0)]),
        glicko2(c, [(a, 0.5), (b, 0.0)]),
    ]


def test_extreme_inputs_stay_finite_and_clamped() -> None:
    low, high = Rating(0.0, MIN_DEVIATION), Rating(4000.0, MIN_DEVIATION)
    cases = [([low, high], [1, 2]), ([high, low], [1, 2]), ([low, high, NEW], [1, 2, 3])]
    cases += [([high, low, NEW, low], [4, 1, 2, 2]), ([low, low], [1, 1])]
    for players, places in cases:
        for r in update(players, places):
            assert math.isfinite(r.rating) and math.isfinite(r.volatility)
            assert MIN_DEVIATION <= r.deviation <= MAX_DEVIATION
    assert glicko2(low, [(high, 1.0)] * 3).rating > 0.0


def test_bad_places_are_refused() -> None:
    with pytest.raises(ValueError):
        update([NEW, NEW], [1])
    with pytest.raises(ValueError):
        update([NEW], [1])
    with pytest.raises(ValueError):
        update([NEW] * 5, [1, 2, 3, 4, 5])
    with pytest.raises(ValueError):
        update([NEW, NEW], [0, 1])


ratings = st.builds(
    Rating,
    rating=st.floats(0.0, 4000.0),
    deviation=st.floats(MIN_DEVIATION, MAX_DEVIATION),
    volatility=st.floats(0.03, 0.1),
)


@st.composite
def games(draw: st.DrawFn) -> tuple[list[Rating], list[int]]:
    count = draw(st.integers(2, 4))
    players = draw(st.lists(ratings, min_size=count, max_size=count))
    places = draw(st.lists(st.integers(1, count), min_size=count, max_size=count))
    return players, places


@settings(max_examples=300, deadline=None)
@given(games())
def test_any_game(game: tuple[list[Rating], list[int]]) -> None:
    players, places = game
    after = update(players, places)
    assert len(after) == len(players)
    for new in after:
        assert math.isfinite(new.rating) and math.isfinite(new.volatility)
        assert MIN_DEVIATION <= new.deviation <= MAX_DEVIATION
    # A sole winner never loses points and a sole last never gains any.
    best, worst = min(places), max(places)
    if best < worst:
        if places.count(best) == 1:
            i = places.index(best)
            assert after[i].rating >= players[i].rating - 1e-9
        if places.count(worst) == 1:
            i = places.index(worst)
            assert after[i].rating <= players[i].rating + 1e-9
    # Who sits where does not matter: reversing the seats reverses the results.
    for mirrored, new in zip(update(players[::-1], places[::-1]), after[::-1], strict=True):
        assert mirrored.rating == pytest.approx(new.rating, abs=1e-6)
        assert mirrored.deviation == pytest.approx(new.deviation, abs=1e-6)


@settings(max_examples=200, deadline=None)
@given(st.integers(3, 4), st.floats(1000.0, 2000.0), st.floats(60.0, 350.0), st.data())
def test_equal_players_end_ordered_by_place(
    count: int, rating: float, deviation: float, data: st.DataObject
) -> None:
    places = data.draw(st.lists(st.integers(1, count), min_size=count, max_size=count))
    for rate in (update, plackett_luce):
        ordered_by_place(rate([Rating(rating, deviation)] * count, places), places, deviation)


def ordered_by_place(after: list[Rating], places: list[int], deviation: float) -> None:
    count = len(places)
    for i in range(count):
        for j in range(count):
            if places[i] < places[j]:
                assert after[i].rating > after[j].rating
            elif places[i] == places[j]:
                assert after[i] == after[j]
        assert after[i].deviation < deviation


def test_a_four_player_game_is_glickmans_example_for_the_player_placed_third() -> None:
    """Each player's game is one Glicko-2 period against the others: the third of four, who
    finished above a 1400/30 player and below a 1550/100 and a 1700/300 one, is exactly
    Glickman's worked example (results 1, 0, 0)."""
    player = Rating(1500.0, 200.0, 0.06)
    others = [Rating(1400.0, 30.0, 0.06), Rating(1550.0, 100.0, 0.06), Rating(1700.0, 300.0, 0.06)]
    third = update([player, *others], [3, 4, 1, 2])[0]
    assert third.rating == pytest.approx(1464.05, abs=0.01)
    assert third.deviation == pytest.approx(151.52, abs=0.01)
    assert third.volatility == pytest.approx(0.059996, abs=0.00001)
