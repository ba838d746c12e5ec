"""Pods for the games of three and four (``web/tournaments/pods.py``): every player seated once
or given a bye each round, tables cut from the ranking in order, byes spread (nobody a second
before everyone a first), seats rotated so that at a table meeting every round each player
starts once in every ``size`` rounds and sits in every seat, points by place, and standings and
tie-breaks equal to a crosstable computed here with fractions, each opponent at a table a
game of its own."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from boardplay.web.tournaments.pods import PodRound, bye_halves, pair_pods, table_sizes
from boardplay.web.tournaments.records import Bye, Table
from boardplay.web.tournaments.standings import scores, standings

SIZES = [(4,), (3,), (3, 4)]


def random_places(rng: random.Random, size: int) -> tuple[int, ...]:
    """Places of a finished table, ties included (1 best; equal scores share)."""
    points = [rng.randint(0, 3) for _ in range(size)]
    return tuple(1 + sum(1 for q in points if q > p) for p in points)


def run(
    players: int, rounds: int, sizes: tuple[int, ...], seed: int
) -> tuple[list[int], list[Table], list[Bye], list[PodRound]]:
    rng = random.Random(seed)
    seeds = list(range(10, 10 + players))
    tables: list[Table] = []
    byes: list[Bye] = []
    made = []
    for number in range(1, rounds + 1):
        before = scores(tables, byes, bye_halves(sizes))
        made_round = pair_pods(seeds, seeds, tables, byes, number, sizes)
        seated = [p for t in made_round.tables for p in t]
        assert sorted(seated + list(made_round.byes)) == seeds
        assert all(len(t) in sizes for t in made_round.tables)
        # Tables are cut from the ranking: nobody sits below a table of lower scores.
        for upper, lower in zip(made_round.tables, made_round.tables[1:], strict=False):
            assert min(before.get(p, 0) for p in upper) >= max(before.get(p, 0) for p in lower)
        made.append(made_round)
        for members in made_round.tables:
            tables.append(Table(number, members, random_places(rng, len(members))))
        byes.extend(Bye(number, p) for p in made_round.byes)
    return seeds, tables, byes, made


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 13), st.integers(1, 6), st.sampled_from(SIZES), st.integers(0, 2**32))
def test_every_round_seats_everyone_once_by_score_with_byes_spread(
    players: int, rounds: int, sizes: tuple[int, ...], seed: int
) -> None:
    seeds, tables, byes, made = run(players, rounds, sizes, seed)
    counts = [sum(1 for b in byes if b.player == p) for p in seeds]
    assert max(counts) - min(counts) <= 1
    for made_round in made:
        assert len(made_round.byes) == players - sum(table_sizes(players, sizes))
    for table in tables:
        starts = {
            p: sum(1 for t in tables if t.round < table.round and t.players[0] == p)
            for p in table.players
        }
        assert starts[table.players[0]] == min(starts.values())


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([3, 4]), st.integers(1, 12), st.integers(0, 2**32))
def test_one_table_rotates_every_seat_among_its_players(size: int, rounds: int, seed: int) -> None:
    seeds, tables, _, _ = run(size, rounds, (size,), seed)
    starts = [sum(1 for t in tables if t.players[0] == p) for p in seeds]
    assert max(starts) - min(starts) <= 1
    for cycle in range(rounds // size):
        block = tables[cycle * size : (cycle + 1) * size]
        for p in seeds:
            assert sorted(t.players.index(p) for t in block) == list(range(size))


def test_table_sizes_seat_the_most_at_the_fewest_tables() -> None:
    assert [table_sizes(n, (3, 4)) for n in range(3, 12)] == [
        [3],
        [4],
        [4],
        [3, 3],
        [4, 3],
        [4, 4],
        [3, 3, 3],
        [4, 3, 3],
        [4, 4, 3],
    ]
    assert table_sizes(5, (4,)) == [4]
    assert table_sizes(8, (3,)) == [3, 3]


def test_points_by_place_share_ties() -> None:
    table = Table(1, (1, 2, 3, 4), (1, 1, 3, 4))
    assert [table.halves(p) / 2 for p in (1, 2, 3, 4)] == [2.5, 2.5, 1.0, 0.0]
    assert [Table(1, (1, 2, 3), (2, 1, 3)).halves(p) for p in (1, 2, 3)] == [2, 4, 0]
    assert bye_halves((3, 4)) == 3 and bye_halves((3,)) == 2


def crosstable(
    seeds: list[int], tables: list[Table], byes: list[Bye], bye_points: Fraction
) -> list[tuple[int, Fraction, Fraction, Fraction]]:
    """Each table as a game between every two of its players (1 above, ½ level, 0 below)."""
    games: dict[int, list[tuple[int, Fraction]]] = {p: [] for p in seeds}
    for t in tables:
        assert t.places is not None
        for p, mine in zip(t.players, t.places, strict=True):
            for q, theirs in zip(t.players, t.places, strict=True):
                if p != q:
                    result = Fraction(1) if mine < theirs else Fraction(mine == theirs, 2)
                    games[p].append((q, result))
    points = {p: sum((r for _, r in games[p]), Fraction(0)) for p in seeds}
    for bye in byes:
        points[bye.player] += bye_points
    buchholz = {p: sum((points[o] for o, _ in games[p]), Fraction(0)) for p in seeds}
    berger = {p: sum((points[o] * r for o, r in games[p]), Fraction(0)) for p in seeds}
    rows = [(p, points[p], buchholz[p], berger[p]) for p in seeds]
    rows.sort(key=lambda row: (row[1], row[2], row[3], -seeds.index(row[0])), reverse=True)
    return rows


@settings(max_examples=30, deadline=None)
@given(st.integers(3, 11), st.integers(1, 5), st.sampled_from(SIZES), st.integers(0, 2**32))
def test_standings_and_tie_breaks_equal_a_crosstable(
    players: int, rounds: int, sizes: tuple[int, ...], seed: int
) -> None:
    seeds, tables, byes, _ = run(players, rounds, sizes, seed)
    bye_points = Fraction(max(sizes) - 1, 2)
    expected = crosstable(seeds, tables, byes, bye_points)
    lines = standings(seeds, tables, byes, bye_halves(sizes))
    assert [(x.player, x.halves, x.buchholz, x.sonneborn_berger) for x in lines] == [
        (p, int(2 * pts), int(2 * bh), int(4 * sb)) for p, pts, bh, sb in expected
    ]
