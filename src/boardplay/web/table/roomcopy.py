"""A room's copy of its game: the position rebuilt from the stored moves, and the copy brought
up to the database's whenever another process (or this one, by another path) changed the game —
reading it again, taking in a seat key just stored, or applying the moves another process's
notice carries (``appended.py``). The rules of each change are ``rooms.py``'s; this keeps the
copy they are decided on (a ``Room`` is one: ``class Room(RoomCopy, ...)``)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import replace

from boardplay.core.errors import BoardplayError
from boardplay.core.game import Game, State
from boardplay.core.records import Move
from boardplay.web.table import storage as st
from boardplay.web.table.appended import Appended
from boardplay.web.table.host import RoomHost

log = logging.getLogger("boardplay.web")


class RoomCopy:
    """The copy of the room it is part of (which provides these attributes)."""

    host: RoomHost
    row: st.GameRow
    lock: asyncio.Lock
    game: Game
    state: State
    moves: list[Move]
    broken: str | None

    def _quarantine(self, why: str) -> None:
        raise NotImplementedError

    def _touch(self) -> None:
        raise NotImplementedError

    def _initial(self) -> State:
        if self.row.start_position is None:
            return self.game.new_initial_state()
        return self.game.state_from_json(self.row.start_position)

    def _replay(self, moves: Sequence[Move], state: State | None = None) -> State:
        """The position after ``moves`` (from ``state``, already after some of them, if given)."""
        done = 0 if state is None else len(state.history())
        state = self._initial() if state is None else state
        for index, move in enumerate(moves[done:], start=done + 1):
            if move.action not in state.legal_actions():
                raise BoardplayError(f"stored move {index} ({move.notation!r}) is not legal")
            state.apply_action(move.action)
        return state

    async def refresh(self, revision: int | None = None) -> bool:
        """Bring this copy up to the database's (whose revision is ``revision`` if the caller
        just read it); True if anything changed."""
        async with self.lock:
            return await self._refresh(revision)

    async def _refresh(self, revision: int | None = None) -> bool:
        """``refresh`` with the lock already held. Moves appended elsewhere are applied to the
        current state; an undo elsewhere replays from the start."""
        storage = self.host.storage
        if revision is None:
            revision = await self.host.revision(self.row.id)
        if revision is None or revision <= self.row.revision:
            return False
        row = await self.host.db(storage.get_game, self.row.id)
        if row is None or row.revision <= self.row.revision:
            return False
        old_moves, old_state = self.moves, (None if self.broken else self.state)
        self.row = row
        self.moves = list(row.moves)
        if self.broken is None:
            extends = self.moves[: len(old_moves)] == old_moves
            start = old_state.clone() if extends and old_state is not None else None
            try:
                self.state = self._replay(self.moves, start)
            except BoardplayError as exc:
                self._quarantine(f"this game cannot be resumed on this server: {exc}")
            except Exception:
                log.exception("game %s cannot be replayed; it is shown frozen", self.row.id)
                self._quarantine("this game cannot be resumed on this server")
        self._touch()
        return True

    async def keyed(self, seats: Sequence[int], digest: str, revision: int | None) -> None:
        """A token whose hash is ``digest`` was stored for ``seats`` (``SeatStore.seat_key``),
        raising the game to ``revision``: taken into this copy as it is when that was the very
        next revision (nothing else changed meanwhile), else the copy is read again (a browser
        of the account opening the game, ``POST /api/account/games/{id}/token``)."""
        async with self.lock:
            if revision is None or revision != self.row.revision + 1:
                await self._refresh()
                return
            self.row.seats = [
                replace(seat, keys=(*seat.keys, digest)) if seat.seat in seats else seat
                for seat in self.row.seats
            ]
            self.row.revision = revision
            self._touch()

    async def follow(self, revision: int, step_text: str) -> bool:
        """Apply the moves another process stored as ``revision``, as its notice tells them
        (``appended.py``), if they lead on from this copy; False if the copy must reload."""
        try:
            step = Appended.from_text(step_text) if step_text else None
        except (TypeError, ValueError):
            return False
        async with self.lock:
            if self.broken is not None or step is None or not step.follows(self.row, revision):
                return False
            if step.moves:
                try:
                    state = self._replay([*self.moves, *step.moves], self.state.clone())
                except BoardplayError:
                    return False  # the reload finds out why
                self.state = state
            step.apply(self.row)
            self.moves = list(self.row.moves)
            self._touch()
            return True
