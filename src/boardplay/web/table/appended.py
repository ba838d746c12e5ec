"""A stored move as another process takes it in without reading the game back.

When a process stores moves (``Room._commit``), its broker notice carries, beside the public
view, what the write changed in the game: the plies appended and the columns a stored move sets
(``MoveWrite.values``), with the revision they were stored on. A process whose copy is at
that very revision applies them to its copy and has what the storing process holds, as surely as
by reading the game back: every stored change raises the revision by one, so the copy at the base
revision plus this change is the game at the next one. Without it, a process serving a table's
other sockets read the whole game back from the database for every move of it; that reload was
half the CPU of a process serving spectators in ``make bench-web`` (docs/deploy.md).

Any other copy (older, or one that missed a notice, or a notice that does not parse) reloads from
the database as before, so a step can spare work and never makes a copy wrong. Steps travel
between the processes of one deployment only (Redis is not open to visitors)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from boardplay.core.records import Move
from boardplay.web.table.storage import GameRow


@dataclass(frozen=True, slots=True)
class Appended:
    base: int
    """The revision the moves were stored on (the stored game is now at ``base + 1``)."""
    ply: int
    """The first appended ply (the number of plies before them)."""
    moves: tuple[Move, ...]
    status: str
    result: dict[str, Any] | None
    ai_seat: int | None
    ai_error: str | None
    clock_state: dict[str, Any] | None
    """The clock as stored with the moves; None for a game without one."""
    deadline: float | None

    @classmethod
    def of(cls, row: GameRow, ply: int, moves: Sequence[Move]) -> Appended:
        """The step that brought ``row``, just stored, to its revision by appending ``moves``
        as plies ``ply, ply + 1, ...``."""
        return cls(
            row.revision - 1,
            ply,
            tuple(moves),
            row.status,
            row.result,
            row.ai_seat,
            row.ai_error,
            row.clock_state,
            row.deadline,
        )

    def to_text(self) -> str:
        return orjson.dumps(
            [
                self.base,
                self.ply,
                [[m.action, m.notation, m.player] for m in self.moves],
                self.status,
                self.result,
                self.ai_seat,
                self.ai_error,
                self.clock_state,
                self.deadline,
            ]
        ).decode()

    @classmethod
    def from_text(cls, text: str) -> Appended:
        """The step ``to_text`` wrote (``ValueError`` or ``TypeError`` if it is not one)."""
        base, ply, moves, status, result, ai_seat, ai_error, clock_state, deadline = orjson.loads(
            text
        )
        return cls(
            int(base),
            int(ply),
            tuple(Move(int(a), str(n), int(p)) for a, n, p in moves),
            str(status),
            result,
            ai_seat,
            ai_error,
            clock_state,
            deadline,
        )

    def follows(self, row: GameRow, revision: int) -> bool:
        """Whether this step, announced as ``revision``, leads on from the copy ``row``."""
        return (
            row.revision == self.base and revision == self.base + 1 and len(row.moves) == self.ply
        )

    def apply(self, row: GameRow) -> None:
        """Make ``row`` (a copy at ``base``, see ``follows``) the stored game at ``base + 1``."""
        row.moves = [*row.moves, *self.moves]
        row.status = self.status
        row.result = self.result
        row.revision = self.base + 1
        row.ai_seat = self.ai_seat
        row.ai_error = self.ai_error
        if self.clock_state is not None:
            row.clock_state = self.clock_state
            row.deadline = self.deadline
