"""The arena engine (``web/tournaments/arena.py``): points with lichess's streak counted here
another way (by the wins just before each game), a wave that pairs as many free players as can
be paired without an immediate rematch or two players who must both take one seat, and with
the least difference of points among those (checked against every possible pairing of small
waves), and seats that keep first moves within two of following ones and no seat three times
running, after every game of a whole arena."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from boardplay.web.tournaments.arena import last_opponent, pair_wave, sheet, standings
from boardplay.web.tournaments.records import Table

RESULTS = [(1, 2), (2, 1), (1, 1)]


def wins_before(results: Sequence[str], index: int) -> int:
    """How many wins in a row came just before game ``index``."""
    count = 0
    for earlier in reversed(results[:index]):
        if earlier != "W":
            break
        count += 1
    return count


def points_by_hand(results: Sequence[str]) -> int:
    total = 0
    for i, result in enumerate(results):
        doubled = 2 if wins_before(results, i) >= 2 else 1
        total += {"W": 2, "D": 1, "L": 0}[result] * doubled
    return total


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from("WDL"), max_size=14))
def test_points_double_after_two_wins_until_a_game_is_not_won(results: list[str]) -> None:
    tables = []
    for i, result in enumerate(results):
        places = {"W": (1, 2), "D": (1, 1), "L": (2, 1)}[result]
        tables.append(Table(i + 1, (7, 8 + i), places, ended=float(i)))
    points, letters, fire = sheet(tables, 7)
    assert points == points_by_hand(results)
    assert letters.upper() == "".join(results)
    assert fire == (wins_before(results, len(results)) >= 2)


def test_a_streak_in_words() -> None:
    results = list("WWWWDWL")
    assert points_by_hand(results) == 2 + 2 + 4 + 4 + 2 + 2 + 0


def matchings(nodes: Sequence[int]) -> Iterator[list[tuple[int, int]]]:
    """Every matching of ``nodes``, any of them left out."""
    if len(nodes) < 2:
        yield []
        return
    first, rest = nodes[0], nodes[1:]
    yield from matchings(rest)  # first waits
    for i, other in enumerate(rest):
        for more in matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *more]


def run_arena(players: int, waves: int, seed: int, check: bool) -> tuple[list[int], list[Table]]:
    """An arena where each wave a random part of the field is free (the others still playing or
    paused), every game ending before the next wave."""
    rng = random.Random(seed)
    seeds = list(range(1, players + 1))
    tables: list[Table] = []
    for wave in range(1, waves + 1):
        free = [p for p in seeds if rng.random() < 0.8]
        pairs = pair_wave(seeds, free, tables)
        if check:
            check_wave(seeds, free, tables, pairs)
        for pair in pairs:
            tables.append(Table(wave, pair, rng.choice(RESULTS), ended=wave + rng.random()))
    return seeds, tables


def check_wave(
    seeds: list[int], free: list[int], tables: list[Table], pairs: list[tuple[int, int]]
) -> None:
    everyone = [p for pair in pairs for p in pair]
    assert len(everyone) == len(set(everyone)) and set(everyone) <= set(free)
    points = {p: sheet(tables, p)[0] for p in seeds}

    def must_take(player: int) -> int | None:
        """The seat ``player`` must take next to stay within the bounds, if any."""
        mine = sorted((t for t in tables if player in t.players), key=lambda t: t.round)
        seats = [t.players.index(player) for t in mine]
        level = seats.count(0) - seats.count(1)
        if level <= -2 or seats[-2:] == [1, 1]:
            return 0
        if level >= 2 or seats[-2:] == [0, 0]:
            return 1
        return None

    def allowed(pair: tuple[int, int]) -> bool:
        a, b = pair
        clash = must_take(a) is not None and must_take(a) == must_take(b)
        return last_opponent(tables, a) != b and last_opponent(tables, b) != a and not clash

    assert all(allowed(pair) for pair in pairs), "an immediate rematch, or a seat clash"
    options = [m for m in matchings(sorted(free)) if all(allowed(pair) for pair in m)]
    most = max(len(m) for m in options)
    assert len(pairs) == most, "someone free was left waiting who could have played"
    spread = min(sum(abs(points[a] - points[b]) for a, b in m) for m in options if len(m) == most)
    assert sum(abs(points[a] - points[b]) for a, b in pairs) == spread


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 8), st.integers(1, 6), st.integers(0, 2**32))
def test_each_wave_pairs_most_players_by_nearest_points_without_immediate_rematch(
    players: int, waves: int, seed: int
) -> None:
    run_arena(players, waves, seed, check=True)


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 16), st.integers(1, 12), st.integers(0, 2**32))
def test_seats_stay_balanced_and_standings_are_by_points(
    players: int, waves: int, seed: int
) -> None:
    seeds, tables = run_arena(players, waves, seed, check=False)
    for player in seeds:
        check_seats(tables, player)
    lines = standings(seeds, tables)
    assert [line.rank for line in lines] == list(range(1, players + 1))
    assert [line.points for line in lines] == sorted((line.points for line in lines), reverse=True)
    assert sum(line.games for line in lines) == 2 * len(tables)


def check_seats(tables: Sequence[Table], player: int) -> None:
    """The seat bounds the arena keeps, after every game of ``player``'s: a balance of first
    moves within two, and no seat three games running."""
    mine = sorted((t for t in tables if player in t.players), key=lambda t: t.round)
    seats = [t.players.index(player) for t in mine]
    for played in range(1, len(seats) + 1):
        so_far = seats[:played]
        assert abs(so_far.count(0) - so_far.count(1)) <= 2, so_far
        assert so_far[-3:] not in ([0, 0, 0], [1, 1, 1]), so_far


Wave = Callable[[list[int], list[Table], list[tuple[int, int]]], None]
"""A check of one wave: its free players, every table so far, and the pairs it made."""


def staggered_arena(players: int, seed: int, most: int, check: Wave | None = None) -> list[Table]:
    """An arena of ``players`` whose games end at different times (each lasts one to three
    waves), every free player paired at each wave, until ``most`` games have been played;
    ``check`` looks at each wave."""
    rng = random.Random(seed)
    seeds = list(range(1, players + 1))
    done: list[Table] = []
    playing: list[tuple[int, Table]] = []
    wave = 0
    while len(done) < most:
        wave += 1
        for _, table in [p for p in playing if p[0] <= wave]:
            done.append(Table(table.round, table.players, rng.choice(RESULTS), ended=wave))
        playing = [p for p in playing if p[0] > wave]
        busy = {p for _, t in playing for p in t.players}
        free = [p for p in seeds if p not in busy and rng.random() < 0.9]
        everything = done + [t for _, t in playing]
        pairs = pair_wave(seeds, free, everything)
        if check is not None:
            check(free, everything, pairs)
        for pair in pairs:
            playing.append((wave + rng.randint(1, 3), Table(wave, pair)))
    return done


def test_no_arena_player_breaks_the_seat_bounds_over_300_games() -> None:
    # Two players who must both take one seat are never paired (the Swiss's criterion 2): in
    # 300 games of two arenas of seven, nobody takes a seat three times running or reaches a
    # balance of three (pairing by points and rank alone breaks the bounds 6 times in them).
    for seed in range(2):
        tables = staggered_arena(7, seed, 150)
        for player in range(1, 8):
            check_seats(tables, player)


def test_two_players_who_must_both_start_wait_for_other_partners() -> None:
    # 1 and 2 both followed in their last two games: each must start next, so they are not
    # paired together; each is paired with someone who may follow instead.
    tables = [
        Table(1, (3, 1), (1, 2), ended=1.0),
        Table(1, (4, 2), (1, 2), ended=1.0),
        Table(2, (5, 1), (1, 2), ended=2.0),
        Table(2, (6, 2), (1, 2), ended=2.0),
    ]
    seeds = [1, 2, 3, 4, 5, 6]
    assert pair_wave(seeds, [1, 2], tables) == []
    pairs = pair_wave(seeds, [1, 2, 3, 4], tables)
    assert sorted(pairs) == [(1, 4), (2, 3)] or sorted(pairs) == [(1, 3), (2, 4)]


def test_two_players_who_just_met_wait_for_someone_else() -> None:
    tables = [Table(1, (1, 2), (1, 2), ended=1.0)]
    assert pair_wave([1, 2, 3], [1, 2], tables) == []
    assert len(pair_wave([1, 2, 3], [1, 2, 3], tables)) == 1
    assert set(pair_wave([1, 2, 3], [1, 2, 3], tables)[0]) != {1, 2}
