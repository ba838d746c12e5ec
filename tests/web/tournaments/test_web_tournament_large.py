"""Swiss rounds and arena waves of up to a thousand players (issue 66), paired a piece at a time
(``matching.matching_by_pieces``), held to the properties the small fields' tests hold them to:
every player paired once or given the one bye each round, no pair repeated, a bye at most once
and to the lowest ranked of the lowest score group that can have it, first moves within two of
second moves and no seat three times running; in the arena never the last opponent again, never
two who must both take one seat, and no more than one free player left waiting. ``make test``
runs a few fields of a thousand; ``make soak`` many more, of every size and longer."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_web_tournament_arena import staggered_arena

from boardplay.web.tournaments.arena import last_opponent
from boardplay.web.tournaments.records import Bye, Table, must_both_take, preference
from boardplay.web.tournaments.standings import scores
from boardplay.web.tournaments.swiss import pair_round

RESULTS = [(1, 2), (2, 1), (1, 1)]
"""A game's places per seat: the first seat won, the second won, a draw."""


def seats_of(tables: Sequence[Table]) -> dict[int, list[int]]:
    """Each player's seats in the order their games were made."""
    seats: dict[int, list[int]] = {}
    for table in sorted(tables, key=lambda t: t.round):
        for seat, player in enumerate(table.players):
            seats.setdefault(player, []).append(seat)
    return seats


def check_seat_bounds(tables: Sequence[Table]) -> None:
    """After every game: first moves within two of second moves, no seat three times running."""
    for player, seats in seats_of(tables).items():
        for played in range(1, len(seats) + 1):
            so_far = seats[:played]
            assert abs(so_far.count(0) - so_far.count(1)) <= 2, (player, so_far)
            assert so_far[-3:] not in ([0, 0, 0], [1, 1, 1]), (player, so_far)


def play_swiss(players: int, rounds: int, seed: int) -> None:
    """A Swiss of ``players`` over ``rounds`` with random results and a few withdrawals, each
    round checked."""
    rng = random.Random(seed)
    seeds = list(range(1, players + 1))
    active = set(seeds)
    tables: list[Table] = []
    byes: list[Bye] = []
    met: set[frozenset[int]] = set()
    for number in range(1, rounds + 1):
        active -= set(rng.sample(sorted(active), rng.randint(0, 3)))
        paired = pair_round(seeds, active, tables, byes, number)
        seen = [p for pair in paired.pairs for p in pair]
        if paired.bye is not None:
            seen.append(paired.bye)
        assert sorted(seen) == sorted(active), "someone paired twice or not at all"
        assert (paired.bye is None) == (len(active) % 2 == 0)
        if paired.bye is not None:
            assert paired.bye not in {b.player for b in byes}, "a second bye"
            halves = scores(tables, byes)
            can = [p for p in active if p not in {b.player for b in byes}]
            lowest = min(halves.get(p, 0) for p in can)
            group = sorted((p for p in can if halves.get(p, 0) == lowest), key=seeds.index)
            assert paired.bye == group[-1], "the bye not to the lowest ranked of its group"
            byes.append(Bye(number, paired.bye))
        for pair in paired.pairs:
            assert frozenset(pair) not in met, f"{pair} paired twice"
            met.add(frozenset(pair))
            tables.append(Table(number, pair, rng.choice(RESULTS)))
    check_seat_bounds(tables)


@settings(max_examples=3, deadline=None)
@given(st.integers(990, 1000), st.integers(0, 2**32))
def test_a_swiss_of_a_thousand_keeps_every_pairing_property(players: int, seed: int) -> None:
    play_swiss(players, 5, seed)


@pytest.mark.soak
@settings(max_examples=40, deadline=None)
@given(st.integers(65, 1000), st.integers(1, 12), st.integers(0, 2**32))
def test_swisses_of_every_size_keep_every_pairing_property(
    players: int, rounds: int, seed: int
) -> None:
    play_swiss(players, rounds, seed)


def check_wave(free: list[int], everything: list[Table], pairs: list[tuple[int, int]]) -> None:
    """One wave of a large arena: everyone free is paired but at most one, nobody twice, never
    the last opponent again, never two who must both take one seat."""
    paired = [p for pair in pairs for p in pair]
    assert len(paired) == len(set(paired)) and set(paired) <= set(free)
    assert len(free) - len(paired) <= 1, f"{len(free) - len(paired)} left waiting"
    seats = seats_of(everything)
    mine: dict[int, list[Table]] = {}
    for table in everything:
        for player in table.players:
            mine.setdefault(player, []).append(table)
    for a, b in pairs:
        assert last_opponent(mine.get(a, []), a) != b, f"{a} meets {b} again at once"
        assert last_opponent(mine.get(b, []), b) != a, f"{b} meets {a} again at once"
        wants = [preference(seats.get(p, [])) for p in (a, b)]
        assert not must_both_take(*wants), f"{a} and {b} must both take one seat"


def play_arena(players: int, games: int, seed: int) -> None:
    """An arena of ``players`` whose games last one to three waves, most free players coming
    back each wave, until ``games`` games have ended; each wave checked."""
    check_seat_bounds(staggered_arena(players, seed, games, check_wave))


@settings(max_examples=2, deadline=None)
@given(st.integers(990, 1000), st.integers(0, 2**32))
def test_an_arena_of_a_thousand_keeps_every_pairing_property(players: int, seed: int) -> None:
    play_arena(players, 3 * players, seed)


@pytest.mark.soak
@settings(max_examples=30, deadline=None)
@given(st.integers(33, 1000), st.integers(0, 2**32))
def test_arenas_of_every_size_keep_every_pairing_property(players: int, seed: int) -> None:
    play_arena(players, 5 * players, seed)
