"""What a tournament is, as its service, its steps and its store speak of it: its kinds and
statuses, the tournament, an entrant, a stored table, everything one step reads (``Snapshot``),
and how a finished game's result counts in a tournament. Pure values; stored by ``store.py``."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from boardplay.web.tournaments.records import Bye, Table

T = TypeVar("T")
KINDS = ("arena", "swiss", "pods")
CREATED, STARTED, DONE, CANCELLED = "created", "started", "finished", "cancelled"
ACTIVE, PAUSED, WITHDRAWN = "active", "paused", "withdrawn"


class Ended(Protocol):
    """What a tournament reads of a game that ended (the table's rows have it)."""

    @property
    def result(self) -> dict[str, Any] | None: ...
    @property
    def resigned(self) -> Sequence[int] | None: ...


@dataclass
class Tournament:
    id: str
    name: str
    kind: str
    game: str
    options: dict[str, Any]
    sizes: list[int]
    clock: dict[str, Any]
    rated: bool
    starts: float
    minutes: int | None
    rounds: int | None
    status: str
    round: int
    creator: int | None
    created: float
    finished: float | None = None
    bots: bool = False
    revision: int = 0
    """Raised by every change its page shows (``rows.bump``): what a poll compares."""
    entrants_revision: int = 0
    """Raised by every change of its entrants (``rows.bump``): when a process's copy of them
    is no longer theirs."""

    @property
    def ends(self) -> float | None:
        """When an arena stops pairing."""
        return None if self.minutes is None else self.starts + 60 * self.minutes

    def to_json(self) -> dict[str, Any]:
        """As the API shows it: every field but who made it and when."""
        shown = dataclasses.asdict(self)
        del shown["creator"], shown["created"], shown["entrants_revision"]
        return shown


@dataclass(frozen=True)
class Entrant:
    account_id: int
    name: str
    rating: float
    joined: float
    status: str


@dataclass(frozen=True)
class Board:
    """A stored table of a tournament: its place in the round and its game."""

    round: int
    board: int
    game_id: str
    made: bool
    table: Table


@dataclass(frozen=True)
class Settled:
    """A tournament's tables of rounds 1 to ``upto``, every one of them ended and its places
    stored: they can no longer change, so the store reads only the rounds after
    (``store.TournamentStore``), and the rules derive what they need of them once
    (``derive``)."""

    upto: int
    boards: tuple[Board, ...]
    derived: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """What ``derive`` computed of these boards, by name; and under ``BEFORE`` the settled
    rounds this was read after (their boards a prefix of these), until a derivation used it."""

    def derive(self, name: str, compute: Callable[[Sequence[Board], Any | None], T]) -> T:
        """``compute(boards, before)``, once: ``before`` is what it gave for the settled rounds
        this grew from (a prefix of ``boards``), or None, so it need only go on from there."""
        if name not in self.derived:
            before = self.derived.get(BEFORE)
            previous = None if before is None else before.derived.get(name)
            self.derived[name] = compute(self.boards, previous)
            self.derived.pop(BEFORE, None)
        found: T = self.derived[name]
        return found

    @staticmethod
    def reach(snap: Snapshot, known: Settled | None) -> int:
        """The last round ``snap`` (read whole, tables in round order, ``known``'s first)
        settles: the one before its first table still in play, and none after the
        tournament's round counter (a round is stored whole with the counter, so the rounds up
        to it were read whole)."""
        upto = snap.tournament.round
        for board in snap.boards[0 if known is None else len(known.boards) :]:
            if board.table.places is None or not board.made:
                return min(upto, board.round - 1)
        return upto

    def grown(self, upto: int, boards: tuple[Board, ...]) -> Settled:
        """The settled rounds up to ``upto`` (``boards``, these first), which derive from these:
        only one step back is kept, so a chain of them never holds the rounds twice."""
        self.derived.pop(BEFORE, None)
        return Settled(upto, boards, {BEFORE: self})


BEFORE = "before"


@dataclass
class Snapshot:
    """Everything a step of one tournament reads, in one transaction."""

    tournament: Tournament
    entrants: list[Entrant] = field(default_factory=list)
    boards: list[Board] = field(default_factory=list)
    byes: list[Bye] = field(default_factory=list)
    settled: Settled | None = field(default=None, compare=False, repr=False)
    """The settled rounds its first boards are (``Settled``), when the store knows them."""

    @property
    def seeds(self) -> list[int]:
        """Every entrant in seed order: rating, then who joined first."""
        ordered = sorted(self.entrants, key=lambda e: (-e.rating, e.joined, e.account_id))
        return [e.account_id for e in ordered]

    @property
    def tables(self) -> list[Table]:
        return [b.table for b in self.boards]

    def status_of(self, account_id: int) -> str | None:
        for entrant in self.entrants:
            if entrant.account_id == account_id:
                return entrant.status
        return None


class Full(Exception):
    """A ceiling is reached: the players of a tournament, or a creator's open tournaments."""

    def __init__(self, most: int) -> None:
        super().__init__(most)
        self.most = most


class StepLost(Exception):
    """Another process took this step of the tournament first."""


def tournament_result(
    result: dict[str, Any] | None, resigned: Sequence[int] | None
) -> dict[str, Any]:
    """A finished game's result as a tournament counts it: its resignations (a seat that gave
    up, ran out of time or left places after every other), and an aborted game (a player left,
    or let their clock run out, before their first move) lost by the one who left: a
    tournament game has no abort, its pairing stands."""
    counted = dict(result or {})
    counted["resigned"] = list(resigned or [])
    left = counted.get("left")
    if (
        counted.get("ended") == "aborted"
        and isinstance(left, int)
        and left not in counted["resigned"]
    ):
        counted["resigned"].append(left)
    return counted
