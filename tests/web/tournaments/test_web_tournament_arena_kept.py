"""An arena's wave counts only the tables after its settled rounds (``arena.Kept``): the
standings and the wave it pairs are the ones counted from every table, however the settled
rounds grew (at once or step by step) and even when a later game was stamped as ending before
a settled one (ended times come from several processes' clocks)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from boardplay.web.tournaments.arena import Kept, keep, pair_wave, standings
from boardplay.web.tournaments.records import Table

RESULTS = [(1, 2), (2, 1), (1, 1)]


def arena_tables(seed: int, players: int, games: int, skew: float) -> list[Table]:
    """``games`` tables of an arena in the order they were paired (a round each few), each
    ended at a time that mostly grows: with ``skew``, some stamped earlier than the one before."""
    rng = random.Random(seed)
    tables, clock = [], 0.0
    for i in range(games):
        a, b = rng.sample(range(players), 2)
        clock += 1.0
        ended = clock - (rng.random() * 5 if rng.random() < skew else 0.0)
        tables.append(Table(1 + i // 3, (a, b), rng.choice(RESULTS), ended))
    return tables


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**32),
    st.integers(2, 12),
    st.integers(0, 60),
    st.sampled_from([0.0, 0.3]),
    st.lists(st.integers(0, 60), max_size=4),
)
def test_standings_and_waves_from_kept_tables_are_those_from_every_table(
    seed: int, players: int, games: int, skew: float, cuts: list[int]
) -> None:
    tables = arena_tables(seed, players, games, skew)
    seeds = list(range(players))
    kept: Kept | None = None
    for cut in sorted(min(c, games) for c in cuts):
        kept = keep(tables[:cut], kept)  # grown step by step, as the settled rounds grow
        assert kept.count == cut
        assert standings(seeds, tables, kept) == standings(seeds, tables)
        assert standings(seeds, tables, keep(tables[:cut])) == standings(seeds, tables)
        free = random.Random(seed + cut).sample(seeds, random.Random(seed).randint(0, players))
        assert pair_wave(seeds, free, tables, kept) == pair_wave(seeds, free, tables)


def test_a_later_game_stamped_before_a_kept_one_is_counted_in_the_order_they_ended() -> None:
    won, lost = (1, 2), (2, 1)
    early = [Table(1, (0, 1), won, 10.0), Table(2, (0, 2), won, 20.0)]
    late = Table(3, (0, 3), lost, 15.0)  # ended, by its stamp, between the two kept games
    tables = [*early, late]
    kept = keep(early)
    assert kept.sheets[0].letters == "WW"
    line = next(line for line in standings([0, 1, 2, 3], tables, kept) if line.player == 0)
    assert line.sheet == "WLW" and not line.fire
    assert standings([0, 1, 2, 3], tables, kept) == standings([0, 1, 2, 3], tables)
