"""What pairing a large field costs (``boardplay bench --pairing``, issue 66): a Swiss round
and an arena wave of a given field, in CPU seconds of the pairing alone, after earlier rounds
or waves with random results. Printed, never asserted (the acceptance's targets are a Swiss
round of 1,000 within 2 CPU-s and an arena wave of 1,000 within 1)."""

from __future__ import annotations

import random
import time

from boardplay.web.tournaments.arena import pair_wave
from boardplay.web.tournaments.records import Bye, Table
from boardplay.web.tournaments.swiss import pair_round

RESULTS = [(1, 2), (2, 1), (1, 1)]
"""A game's places per seat: the first seat won, the second won, a draw."""
FIELDS = (128, 256, 500, 1000)
"""The fields measured: the old ceiling, twice it, the Swiss's and the arena's targets."""


def swiss_field(players: int, rounds: int, seed: int) -> tuple[list[int], list[Table], list[Bye]]:
    """A Swiss of ``players`` after ``rounds`` rounds of random results (each round paired by
    ``pair_round``)."""
    rng = random.Random(seed)
    seeds = list(range(1, players + 1))
    tables: list[Table] = []
    byes: list[Bye] = []
    for number in range(1, rounds + 1):
        paired = pair_round(seeds, seeds, tables, byes, number)
        tables += [Table(number, pair, rng.choice(RESULTS)) for pair in paired.pairs]
        if paired.bye is not None:
            byes.append(Bye(number, paired.bye))
    return seeds, tables, byes


def arena_field(players: int, waves: int, seed: int) -> tuple[list[int], list[Table]]:
    """An arena of ``players`` after ``waves`` waves in which everyone was free, each game
    ending with a random result before the next wave."""
    rng = random.Random(seed)
    seeds = list(range(1, players + 1))
    tables: list[Table] = []
    for wave in range(1, waves + 1):
        for pair in pair_wave(seeds, seeds, tables):
            tables.append(Table(wave, pair, rng.choice(RESULTS), ended=wave + rng.random()))
    return seeds, tables


def swiss_round_seconds(players: int, number: int = 5, seed: int = 0) -> float:
    """CPU seconds to pair round ``number`` of a Swiss of ``players``."""
    seeds, tables, byes = swiss_field(players, number - 1, seed)
    start = time.process_time()
    pair_round(seeds, seeds, tables, byes, number)
    return time.process_time() - start


def arena_wave_seconds(players: int, wave: int = 5, seed: int = 0) -> float:
    """CPU seconds to pair wave ``wave`` of an arena of ``players``, everyone free."""
    seeds, tables = arena_field(players, wave - 1, seed)
    start = time.process_time()
    pair_wave(seeds, seeds, tables)
    return time.process_time() - start


if __name__ == "__main__":  # the figures before a change: python -m ...pairingbench 128 256
    import sys

    for field in map(int, sys.argv[1:] or FIELDS):
        print(f"{field}: swiss round 5 {swiss_round_seconds(field):.2f} CPU-s", flush=True)
        print(f"{field}: arena wave 5 {arena_wave_seconds(field):.2f} CPU-s", flush=True)
