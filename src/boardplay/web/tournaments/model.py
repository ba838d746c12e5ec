"""What a tournament is, as its service, its steps and its store speak of it: its kinds and
statuses, the tournament, an entrant, a stored table, everything one step reads (``Snapshot``),
and how a finished game's result counts in a tournament. Pure values; stored by ``store.py``."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from boardplay.web.tournaments.records import Bye, Table

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
    """Raised by every change its page shows (``store._bump``): what a poll compares."""

    @property
    def ends(self) -> float | None:
        """When an arena stops pairing."""
        return None if self.minutes is None else self.starts + 60 * self.minutes

    def to_json(self) -> dict[str, Any]:
        """As the API shows it: every field but who made it and when."""
        shown = dataclasses.asdict(self)
        del shown["creator"], shown["created"]
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


@dataclass
class Snapshot:
    """Everything a step of one tournament reads, in one transaction."""

    tournament: Tournament
    entrants: list[Entrant] = field(default_factory=list)
    boards: list[Board] = field(default_factory=list)
    byes: list[Bye] = field(default_factory=list)

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
