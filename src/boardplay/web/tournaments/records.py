"""What every tournament format is computed from: the tables played (who sat where, in which
round, and how it came out) and the byes given. The engines (``swiss.py``, ``arena.py``,
``pods.py``) are pure functions of these records, so that standings can be recomputed from the
stored rows at any time, by any process, and always agree.

**Points are counted in half-points** (integers), so that a draw is exact and no float sum
depends on its order. A table's result is each seat's place (1 is best, equals share a place),
and a seat's points from it are one for every player placed below it and a half for every
player placed level with it: a two-player game is the usual 1, ½, 0; a Montana table of four
gives 3, 2, 1, 0 by place, and two players sharing first place there get 2½ each. A table is
then worth the same to every format: a win over each player beaten."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

HALF = 2
"""Half-points in a point."""


@dataclass(frozen=True)
class Table:
    """A game of a tournament: its ``players`` in seat order (seat 0 moves first), the
    ``round`` (Swiss and pods) or wave (arena) it was made in, and each seat's place once it has
    ended (``places`` None while it is played)."""

    round: int
    players: tuple[int, ...]
    places: tuple[int, ...] | None = None
    ended: float = 0.0
    """When it ended (the arena's order of a player's games; 0 while played)."""

    @property
    def finished(self) -> bool:
        return self.places is not None

    def halves(self, player: int) -> int:
        """``player``'s half-points from this finished table (see the module's docstring)."""
        assert self.places is not None
        mine = self.places[self.players.index(player)]
        below = sum(1 for p in self.places if p > mine)
        level = sum(1 for p in self.places if p == mine) - 1
        return HALF * below + level

    def opponents(self, player: int) -> tuple[int, ...]:
        return tuple(p for p in self.players if p != player)

    def seat_of(self, player: int) -> int:
        return self.players.index(player)


@dataclass(frozen=True)
class Bye:
    """A round a player sat out with a bye: worth a win (``BYE_HALVES``) and shown as one."""

    round: int
    player: int


BYE_HALVES = HALF
"""A bye is worth a win, one point (lichess's Swiss and FIDE's pairing-allocated bye alike)."""


def pairs_met(tables: Iterable[Table]) -> set[frozenset[int]]:
    """Every pair of players who have sat at one table."""
    met: set[frozenset[int]] = set()
    for table in tables:
        for i, a in enumerate(table.players):
            for b in table.players[i + 1 :]:
                met.add(frozenset((a, b)))
    return met


def firsts(tables: Iterable[Table], player: int) -> int:
    """How many of ``player``'s tables they started (sat in seat 0)."""
    return sum(1 for t in tables if t.players and t.players[0] == player)


def seat_history(tables: Sequence[Table], player: int) -> list[int]:
    """``player``'s seats at their tables, in round order."""
    mine = sorted((t for t in tables if player in t.players), key=lambda t: t.round)
    return [t.seat_of(player) for t in mine]


def tables_by_player(tables: Iterable[Table]) -> dict[int, list[Table]]:
    """Each player's tables, in the order given: read once, so that a field of a thousand
    players does not read every table once per player (each engine's per-player functions
    give the same answer on a player's own tables as on all of them)."""
    mine: dict[int, list[Table]] = {}
    for table in tables:
        for player in table.players:
            mine.setdefault(player, []).append(table)
    return mine


def balance(history: Sequence[int]) -> int:
    """First moves minus second moves over a player's seats at two-player tables."""
    return sum(1 if seat == 0 else -1 for seat in history)


def preference(history: Sequence[int]) -> tuple[int, int]:
    """The seat a player should take next (0 first, 1 second; -1 none) and how strongly (FIDE
    C.04.3 A.6): 3 absolute (a balance of two or more, or the last two seats alike), 2 strong
    (a balance of one), 1 mild (level: the other seat than last time), 0 none (no game yet)."""
    level = balance(history)
    last = history[-2:]
    if abs(level) >= 2:
        return (0 if level < 0 else 1), 3
    if len(last) == 2 and last[0] == last[1]:
        return 1 - last[0], 3
    if level != 0:
        return (0 if level < 0 else 1), 2
    return (1 - last[-1], 1) if last else (-1, 0)


ABSOLUTE = 3
"""An absolute seat preference's strength (``preference``): a player who must take that seat
next, or leave the seat bounds (a balance past two, one seat three times running)."""


def must_both_take(want_a: tuple[int, int], want_b: tuple[int, int]) -> bool:
    """Whether two players' preferences (``preference``) are absolute for the same seat: paired,
    one of them would break the seat bounds (FIDE C.04.3 C3)."""
    return want_a[1] == want_b[1] == ABSOLUTE and want_a[0] == want_b[0]


def seat_pair(
    a: int, b: int, history_a: Sequence[int], history_b: Sequence[int], a_starts_when_level: bool
) -> tuple[int, int]:
    """(first, second) of two players about to meet, from their seats so far (FIDE C.04.3
    E.1-E.5): both preferences granted when they differ; else the stronger one; else each
    alternates from the latest round in which their seats differed; else ``a`` starts if
    ``a_starts_when_level``."""
    (seat_a, strength_a), (seat_b, strength_b) = preference(history_a), preference(history_b)
    if seat_a != seat_b and -1 not in (seat_a, seat_b):
        return (a, b) if seat_a == 0 else (b, a)
    if strength_a != strength_b:
        seat, mine = (seat_a, True) if strength_a > strength_b else (seat_b, False)
        return (a, b) if (seat == 0) == mine else (b, a)
    for old_a, old_b in zip(reversed(history_a), reversed(history_b), strict=False):
        if old_a != old_b:
            return (a, b) if old_a == 1 else (b, a)
    return (a, b) if a_starts_when_level else (b, a)
