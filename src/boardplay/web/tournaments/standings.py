"""Standings of the round-based formats (Swiss, pods): points, then Buchholz, then
Sonneborn–Berger, then seed.

- **Points**: the half-points of every finished table (``records.Table.halves``) and of every
  bye (``bye_halves`` each: a win in the Swiss, the average table in pods).
- **Buchholz**: the sum of the final points of every opponent met, once per table shared with
  them; a bye meets nobody and adds nothing.
- **Sonneborn–Berger**: over the same opponents, each one's final points times one's result
  against them at that table (1 placed above them, ½ level, 0 below): at a two-player table the
  points of the opponents beaten plus half those drawn with, FIDE's definition, and at a table
  of three or four each opponent is a game of its own. A bye adds nothing.

All are exact integers: points and Buchholz in half-points, Sonneborn–Berger in quarter
points."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from boardplay.web.tournaments.records import BYE_HALVES, HALF, Bye, Table


@dataclass(frozen=True)
class Standing:
    """A player's line of the standings (half-points; Sonneborn–Berger in quarter points)."""

    player: int
    rank: int
    halves: int
    buchholz: int
    sonneborn_berger: int
    byes: int
    games: int

    @property
    def points(self) -> float:
        return self.halves / 2

    def to_json(self) -> dict[str, float | int]:
        return {
            "player": self.player,
            "rank": self.rank,
            "points": self.halves / 2,
            "buchholz": self.buchholz / 2,
            "sonneborn_berger": self.sonneborn_berger / 4,
            "byes": self.byes,
            "games": self.games,
        }


def scores(
    tables: Sequence[Table], byes: Sequence[Bye], bye_halves: int = BYE_HALVES
) -> dict[int, int]:
    """Each player's half-points from finished tables and byes."""
    halves: dict[int, int] = {}
    for table in tables:
        if table.places is None:
            continue
        for player in table.players:
            halves[player] = halves.get(player, 0) + table.halves(player)
    for bye in byes:
        halves[bye.player] = halves.get(bye.player, 0) + bye_halves
    return halves


def standings(
    seeds: Sequence[int],
    tables: Sequence[Table],
    byes: Sequence[Bye],
    bye_halves: int = BYE_HALVES,
) -> list[Standing]:
    """Every seeded player's line, best first (see the module's docstring)."""
    halves = scores(tables, byes, bye_halves)
    buchholz = dict.fromkeys(seeds, 0)
    berger = dict.fromkeys(seeds, 0)
    games = dict.fromkeys(seeds, 0)
    for table in tables:
        places = table.places
        if places is None:
            continue
        for seat, player in enumerate(table.players):
            games[player] = games.get(player, 0) + 1
            for other_seat, other in enumerate(table.players):
                if other_seat == seat:
                    continue
                theirs = halves.get(other, 0)
                buchholz[player] = buchholz.get(player, 0) + theirs
                if places[seat] < places[other_seat]:
                    berger[player] = berger.get(player, 0) + HALF * theirs
                elif places[seat] == places[other_seat]:
                    berger[player] = berger.get(player, 0) + theirs
    bye_count = dict.fromkeys(seeds, 0)
    for bye in byes:
        bye_count[bye.player] = bye_count.get(bye.player, 0) + 1
    seed_of = {p: i for i, p in enumerate(seeds)}
    ordered = sorted(seeds, key=lambda p: (-halves.get(p, 0), -buchholz[p], -berger[p], seed_of[p]))
    return [
        Standing(p, i + 1, halves.get(p, 0), buchholz[p], berger[p], bye_count[p], games[p])
        for i, p in enumerate(ordered)
    ]
