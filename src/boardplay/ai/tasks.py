"""The arena's units of work: a game to play (``GameTask``) and how it went (``GameResult``, with
each seat's ``Thinking``). Plain data, apart from the arena, so that whatever runs the games (a
local process pool, or Ray in ``cluster.py``) takes them without importing the arena."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class GameTask:
    """One game to play: who sits where (``seats`` holds agent indices) and its seed."""

    index: int
    seats: tuple[int, ...]
    seed: int
    max_actions: int | None = None
    """Adjudicate the game a draw once this many actions (chance outcomes included) have been
    played. Proteus and Passtally have no length limit of their own; their specs leave the bound
    to the harness, which must record it (``meta.arena.max_actions``)."""
    opening: int = 0
    """Decisions played uniformly at random (from the game seed) before the agents choose
    (``meta.arena.opening``): a search that plays the same game from the same position every
    time, as ``az`` with an iteration budget does, meets varied positions."""


@dataclass
class Thinking:
    """An agent's decisions and the time it spent on them (forced moves included), and for a
    search agent its searches and their simulations, so a run shows whether a level keeps to its
    time per move and how much search a time budget bought on the machine that ran it."""

    moves: int = 0
    seconds: float = 0.0
    longest: float = 0.0
    searches: int = 0
    iterations: int = 0

    def add(self, seconds: float, iterations: int) -> None:
        self.moves += 1
        self.seconds += seconds
        self.longest = max(self.longest, seconds)
        if iterations:
            self.searches += 1
            self.iterations += iterations

    def merge(self, other: Thinking) -> None:
        self.moves += other.moves
        self.seconds += other.seconds
        self.longest = max(self.longest, other.longest)
        self.searches += other.searches
        self.iterations += other.iterations

    def to_row(self) -> list[float]:
        return [self.moves, round(self.seconds, 4), round(self.longest, 4)] + (
            [self.searches, self.iterations] if self.searches else []
        )

    @classmethod
    def from_row(cls, row: Sequence[float]) -> Thinking:
        moves, seconds, longest, *search = row
        searches, iterations = search if search else (0, 0)
        return cls(int(moves), float(seconds), float(longest), int(searches), int(iterations))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "moves": self.moves,
            "seconds_per_move": round(self.seconds / self.moves, 4) if self.moves else 0.0,
            "max_seconds": round(self.longest, 4),
        }
        if self.searches:
            out["simulations_per_search"] = round(self.iterations / self.searches)
        return out


@dataclass(frozen=True)
class GameResult:
    index: int
    seats: tuple[int, ...]
    returns: tuple[float, ...]
    scores: tuple[float, ...] | None
    length: int
    seconds: float
    record: dict[str, Any] | None
    first_player: int = 0
    """The seat that took the first decision (after opening chance events)."""
    thinking: tuple[Thinking, ...] = ()
    """Per seat: how long its agent took over its decisions."""
    adjudicated: bool = False
    """The game reached its task's ``max_actions`` and was scored as a draw."""
