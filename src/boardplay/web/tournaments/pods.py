"""Pods: the round-based format of the games for three or four (Passtally for three, Montana for
three or four). Each round the players sit at tables formed by score; with exactly one table's
worth of players it is a round-robin in which the same table meets every round.

- **Tables by score**: the players are ranked by points, then seed, and cut in that order into
  tables, the larger tables first. The sizes are the format's (``sizes``: Montana's 3 and 4,
  Passtally's 3): as many players seated as any mix of sizes can seat, then as few tables as
  possible (so Montana seats seven as a four and a three, six as two threes).
- **Byes**: whoever cannot be seated (five players for tables of four; two for threes) sits the
  round out with a bye, the lowest ranked first among those who have had the fewest byes. A bye
  is worth the average table: ``size - 1`` half-points at tables of ``size`` (1½ points in a
  game of four, 1 in a game of three), since the player neither won nor lost a table.
- **Points by place** (``records.Table.halves``): one point for every player placed below, a
  half for every player level: 3, 2, 1, 0 at a table of four; 2, 1, 0 at three; equal places
  share.
- **Seats rotated**: at each table, a player who has started fewest games sits first, and the
  seats go to those who have sat in them least often (``seat_table``); at one table that meets
  every round, each player sits in each seat once in every ``size`` rounds.
- **Standings**: ``standings.py`` (points, Buchholz, Sonneborn–Berger with each opponent at a
  table counted as a game, seed)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from itertools import permutations

from boardplay.web.tournaments.records import Bye, Table
from boardplay.web.tournaments.standings import scores


@dataclass(frozen=True)
class PodRound:
    """A round's tables (each in seat order) and its byes."""

    number: int
    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...]


def bye_halves(sizes: Collection[int]) -> int:
    """A pod bye's half-points: the average of a table of the largest size."""
    return max(sizes) - 1


def table_sizes(count: int, sizes: Collection[int]) -> list[int]:
    """The sizes of the tables ``count`` players sit at, largest first: as many seated as
    possible, then as few tables as possible."""
    best: tuple[int, int, list[int]] = (0, 0, [])
    allowed = sorted(set(sizes), reverse=True)

    def search(left: int, chosen: list[int], start: int) -> None:
        nonlocal best
        seated = count - left
        key = (seated, -len(chosen))
        if key > best[:2]:
            best = (seated, -len(chosen), list(chosen))
        for i in range(start, len(allowed)):
            if allowed[i] <= left:
                chosen.append(allowed[i])
                search(left - allowed[i], chosen, i)
                chosen.pop()

    if min(allowed) <= 0:
        raise ValueError("table sizes must be positive")
    search(count, [], 0)
    return best[2]


def pair_pods(
    seeds: Sequence[int],
    active: Collection[int],
    tables: Sequence[Table],
    byes: Sequence[Bye],
    number: int,
    sizes: Collection[int],
) -> PodRound:
    """Round ``number``'s tables of the ``active`` players (see the module's docstring)."""
    halves = scores(tables, byes, bye_halves(sizes))
    seed_of = {p: i for i, p in enumerate(seeds)}
    order = sorted(active, key=lambda p: (-halves.get(p, 0), seed_of[p]))
    plan = table_sizes(len(order), sizes)
    out = len(order) - sum(plan)
    bye_count = {p: sum(1 for b in byes if b.player == p) for p in order}
    # The lowest ranked of those with the fewest byes sit out.
    sitting_out = sorted(order, key=lambda p: (bye_count[p], -order.index(p)))[:out]
    seated = [p for p in order if p not in sitting_out]
    formed = []
    start = 0
    for size in plan:
        members = seated[start : start + size]
        start += size
        formed.append(seat_table(members, tables, order))
    return PodRound(number, tuple(formed), tuple(sorted(sitting_out, key=order.index)))


def seat_table(
    members: Sequence[int], tables: Sequence[Table], order: Sequence[int]
) -> tuple[int, ...]:
    """The seat order of a table's ``members``: of every order, the one whose first seat goes
    to a player who started fewest games, then whose players have sat least often in the seats
    they get (an assignment over at most 4! orders), then by rank (``order``). At a table that
    meets every round this is a Latin square: in every ``size`` rounds each player sits in each
    seat once (a Latin rectangle can always be completed, so the least total is always one
    that repeats no seat)."""
    sat = {p: [0] * len(members) for p in members}
    for table in tables:
        for seat, player in enumerate(table.players):
            if player in sat and seat < len(members):
                sat[player][seat] += 1

    def key(seating: tuple[int, ...]) -> tuple[int, int, list[int]]:
        return (
            sat[seating[0]][0],
            sum(sat[p][seat] for seat, p in enumerate(seating)),
            [order.index(p) for p in seating],
        )

    return min(permutations(members), key=key)
