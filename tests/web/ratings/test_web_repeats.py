"""How much a rated result counts (``boardplay.web.ratings.repeats``): a first result between
two players is Glicko-2 in full, checked against an independent Glicko-2 (``glickoref.py``);
a repeated one counts ½, ¼ ... of its move against that opponent; and, over any sequence of
results between a pair (with games against others between them), no 24 hours move either
rating through that pair by ``PAIR_BOUND`` or more. Then the store: it counts a pair's results
within the day, across tables of three, not after the day, the same again on a recompute, and
lists the pairs that played each other most."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

import glickoref
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardplay.web.accounts.store import AccountStore
from boardplay.web.ratings import repeats
from boardplay.web.ratings.maths import Rating
from boardplay.web.ratings.repeats import (
    MOVE_CEILING,
    PAIR_BOUND,
    REPEAT_RATIO,
    REPEAT_WINDOW,
    rate,
    weight,
)
from boardplay.web.ratings.store import RatingStore
from boardplay.web.table.storage import HUMAN, GameRow, SeatRow, Storage

ratings = st.builds(
    Rating,
    st.floats(1000, 2400),
    st.floats(40, 350),
    st.floats(0.04, 0.09),
)


def triple(rating: Rating) -> tuple[float, float, float]:
    return (rating.rating, rating.deviation, rating.volatility)


def never(count: int) -> list[list[int]]:
    return [[0] * count for _ in range(count)]


@settings(max_examples=200, deadline=None)
@given(
    st.integers(2, 4).flatmap(
        lambda n: st.tuples(
            st.lists(ratings, min_size=n, max_size=n),
            st.lists(st.integers(1, n), min_size=n, max_size=n),
        )
    )
)
def test_a_first_result_between_players_is_glicko2_in_full(
    game: tuple[list[Rating], list[int]],
) -> None:
    players, places = game
    expected = glickoref.game([triple(p) for p in players], places)
    for before, outcome, (rating, deviation, volatility) in zip(
        players, rate(players, places, never(len(players))), expected, strict=True
    ):
        assert outcome.weight == 1.0
        assert outcome.rating.rating == pytest.approx(rating, abs=1e-4)
        assert outcome.rating.deviation == pytest.approx(deviation, abs=1e-4)
        assert outcome.rating.volatility == pytest.approx(volatility, abs=1e-4)
        assert outcome.change == pytest.approx(rating - before.rating, abs=1e-4)


def test_two_new_players_first_decisive_game_moves_each_162_points() -> None:
    winner, loser = rate([Rating(), Rating()], [1, 2], never(2))
    assert round(winner.change, 1) == 162.3 and round(loser.change, 1) == -162.3


@given(ratings, ratings, st.sampled_from([(1, 2), (2, 1), (1, 1)]), st.integers(1, 12))
def test_a_repeated_result_counts_its_weight_of_the_move(
    a: Rating, b: Rating, places: tuple[int, int], earlier: int
) -> None:
    full = glickoref.game([triple(a), triple(b)], places)
    counts = [[0, earlier], [earlier, 0]]
    share = REPEAT_RATIO**earlier
    for before, outcome, (rating, deviation, volatility) in zip(
        (a, b), rate([a, b], list(places), counts), full, strict=True
    ):
        assert outcome.weight == share == weight(earlier)
        assert outcome.change == pytest.approx(share * (rating - before.rating), abs=1e-4)
        assert outcome.rating.deviation == pytest.approx(
            before.deviation + share * (deviation - before.deviation), abs=1e-4
        )
        assert outcome.rating.volatility == pytest.approx(
            before.volatility + share * (volatility - before.volatility), abs=1e-6
        )


def share_of(after: tuple[float, float, float], me: Rating, other: Rating, score: float) -> float:
    """Glicko-2's term for one opponent (step 7), from the reference's new deviation."""
    phi_new = after[1] / glickoref.SCALE
    mu, mu_j = (me.rating - 1500) / glickoref.SCALE, (other.rating - 1500) / glickoref.SCALE
    phi_j = other.deviation / glickoref.SCALE
    g = 1 / math.sqrt(1 + 3 * phi_j**2 / math.pi**2)
    expected = 1 / (1 + math.exp(-g * (mu - mu_j)))
    return phi_new**2 * g * (score - expected) * glickoref.SCALE


@given(st.lists(ratings, min_size=3, max_size=3), st.integers(1, 6))
def test_at_a_table_of_three_only_the_repeated_opponents_share_counts_less(
    players: list[Rating], earlier: int
) -> None:
    # A (placed first) and B (second) met before today; C (third) met nobody.
    places = [1, 2, 3]
    counts = [[0, earlier, 0], [earlier, 0, 0], [0, 0, 0]]
    full = glickoref.game([triple(p) for p in players], places)
    a, b, c = rate(players, places, counts)
    w = weight(earlier)
    moved_b = share_of(full[0], players[0], players[1], 1.0)
    assert a.change == pytest.approx(full[0][0] - players[0].rating - (1 - w) * moved_b, abs=1e-4)
    assert a.weight == b.weight == pytest.approx((w + 1) / 2)
    assert c.weight == 1.0 and c.rating.rating == pytest.approx(full[2][0], abs=1e-4)


def test_no_result_moves_a_rating_more_than_the_ceiling_against_one_opponent() -> None:
    # A volatility no honest history reaches, and the greatest upset there is.
    wild = Rating(500.0, 350.0, 3.0)
    master = Rating(3000.0, 30.0, 0.06)
    upset = glickoref.game([triple(wild), triple(master)], [1, 2])
    assert upset[0][0] - wild.rating > MOVE_CEILING  # Glicko-2 alone would go past it
    outcome, _ = rate([wild, master], [1, 2], never(2))
    assert outcome.change == MOVE_CEILING


# ----- the bound over any sequence of results between a pair -------------------------------------
results = st.sampled_from([(1, 2), (2, 1), (1, 1)])
steps = st.tuples(
    st.one_of(st.floats(0, 600), st.floats(0, 2 * REPEAT_WINDOW)),  # seconds since the last
    st.booleans(),  # a game between the pair (else each plays someone else)
    results,
)
starts = st.builds(Rating, st.floats(300, 2700), st.floats(30, 350), st.floats(0.03, 0.5))


@settings(max_examples=150, deadline=None)
@given(starts, starts, starts, st.lists(steps, min_size=1, max_size=40))
def test_no_day_of_results_between_two_players_moves_a_rating_by_the_bound(
    a: Rating, b: Rating, stranger: Rating, sequence: list[tuple[float, bool, tuple[int, int]]]
) -> None:
    now = 0.0
    pair_times: list[float] = []
    moved: dict[str, list[tuple[float, float]]] = {"a": [], "b": []}
    for gap, between, places in sequence:
        now += gap
        if between:
            earlier = sum(1 for t in pair_times if t > now - REPEAT_WINDOW)
            first, second = rate([a, b], list(places), [[0, earlier], [earlier, 0]])
            if earlier == 0:
                assert first.weight == second.weight == 1.0
            a, b = first.rating, second.rating
            pair_times.append(now)
            moved["a"].append((now, first.change))
            moved["b"].append((now, second.change))
        else:  # each against a stranger: their ratings and deviations move on their own
            a = rate([a, stranger], list(places), never(2))[0].rating
            b = rate([stranger, b], list(places), never(2))[1].rating
    for changes in moved.values():
        for start, _ in changes:
            day = [c for t, c in changes if start <= t < start + REPEAT_WINDOW]
            assert sum(abs(c) for c in day) < PAIR_BOUND
            assert abs(sum(day)) < PAIR_BOUND


def test_the_bound_is_the_ceiling_over_the_weights() -> None:
    assert PAIR_BOUND == MOVE_CEILING / (1 - REPEAT_RATIO) == 1440.0
    assert [weight(k) for k in range(4)] == [1.0, 0.5, 0.25, 0.125]
    with pytest.raises(ValueError):
        weight(-1)


def test_ten_quick_wins_between_two_new_players_move_them_as_the_docs_say() -> None:
    a = b = Rating()
    changes = []
    for k in range(10):
        first, second = rate([a, b], [1, 2], [[0, k], [k, 0]])
        a, b = first.rating, second.rating
        changes.append(first.change)
    assert (round(a.rating), round(b.rating)) == (1712, 1288)  # repeats.py's docstring
    assert round(changes[0], 1) == 162.3 and round(sum(changes[1:])) == 50


# ----- the store counts the pair's results --------------------------------------------------------
class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def stored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Storage, Clock]]:
    storage = Storage(f"sqlite:///{tmp_path / 'ratings.sqlite3'}")
    clock = Clock()
    monkeypatch.setattr("boardplay.web.ratings.store.time.time", clock)
    yield storage, clock
    storage.close()


def seat(storage: Storage, game_id: str, accounts: list[int]) -> None:
    storage.create_game(
        GameRow(
            id=game_id,
            game="tiny",
            options={},
            seed=None,
            seats=[SeatRow(i, HUMAN, f"p{a}", account=a) for i, a in enumerate(accounts)],
            rated=True,
        )
    )


def weights_of(store: RatingStore, account: int) -> list[float]:
    return [h["weight"] for h in store.history_of(account, 100)["tiny"]]


def test_the_store_counts_a_pairs_results_within_the_day(stored: tuple[Storage, Clock]) -> None:
    storage, clock = stored
    people = AccountStore(storage.engine)
    ann, ben, cho = (people.create(n, n.lower(), None, f"h-{n}").id for n in ("Ann", "Ben", "Cho"))
    store = RatingStore(storage.engine)

    def play(game_id: str, places: list[tuple[int, int]], after: float) -> None:
        clock.now += after
        seat(storage, game_id, [a for a, _ in places])
        assert store.settle(game_id, "tiny", places)

    play("g1", [(ann, 1), (ben, 2)], 0)
    play("g2", [(ann, 1), (ben, 2)], 60)  # a minute later: counts half
    play("g3", [(ann, 2), (cho, 1)], 60)  # another opponent: in full
    play("g4", [(ben, 1), (ann, 2)], 60)  # the pair's third today: a quarter
    play("g5", [(ann, 1), (ben, 2), (cho, 3)], 60)  # a table of three
    play("g6", [(ann, 1), (ben, 2)], REPEAT_WINDOW - 4 * 60 + 1)  # g1 a day old: g2, g4, g5 count
    play("g7", [(ann, 1), (ben, 2)], REPEAT_WINDOW)  # a day after g6: nothing within the day
    seat(storage, "early", [ann, ben])  # ended too early to count: settled, rating nobody
    assert store.settle("early", "tiny", [])
    assert weights_of(store, ann) == [1.0, 0.5, 1.0, 0.25, (0.125 + 0.5) / 2, 0.125, 1.0]
    assert weights_of(store, cho) == [1.0, (0.5 + 1.0) / 2]
    assert store.history_of(ann, 100)["tiny"][0]["change"] == 162.3
    before = {a: store.history_of(a, 100) for a in (ann, ben, cho)}
    assert store.recompute() == 8
    assert {a: store.history_of(a, 100) for a in (ann, ben, cho)} == before


def test_the_pairs_that_played_each_other_most_are_listed(stored: tuple[Storage, Clock]) -> None:
    storage, clock = stored
    people = AccountStore(storage.engine)
    ann, ben, cho = (people.create(n, n.lower(), None, f"h-{n}").id for n in ("Ann", "Ben", "Cho"))
    store = RatingStore(storage.engine)
    for i in range(6):
        clock.now += 30
        seat(storage, f"f{i}", [ann, ben])
        store.settle(f"f{i}", "tiny", [(ann, 1), (ben, 2)] if i else [(ann, 1), (ben, 1)])
    last = clock.now
    clock.now += 30
    seat(storage, "c", [ann, cho])
    store.settle("c", "tiny", [(cho, 1), (ann, 2)])
    pairs = store.pairs(clock.now - REPEAT_WINDOW, repeats.SUSPECT_REPEATS, 10)
    assert [p.to_json() for p in pairs] == [
        {
            "pool": "tiny",
            "players": [
                {"id": ann, "name": "Ann", "won": 5},
                {"id": ben, "name": "Ben", "won": 0},
            ],
            "games": 6,
            "drawn": 1,
            "last": last,
        }
    ]
    assert store.pairs(clock.now + 1, 1, 10) == []
    assert len(store.pairs(0, 1, 10)) == 2
