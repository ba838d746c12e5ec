"""A room's clock keeping: whose clock runs, the clock after a change, taking in a clock just
stored, starting one when the table fills, and letting a held one run once its players came
(or its grace ran out). The rules of time are ``clocks.py`` (pure); the
timers that flag a fallen clock are ``clockwatch.py``; this is what a ``Room`` does with them
(it is one: ``class Room(RoomClock, ...)``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Collection
from collections.abc import Set as AbstractSet

from boardplay.core.game import State
from boardplay.web.table import storage as st
from boardplay.web.table.appended import Appended
from boardplay.web.table.clocks import Clock, TimeControl, control_of, next_clock
from boardplay.web.table.host import RoomHost


class RoomClock:
    """The clock of the room it is part of (which provides these attributes)."""

    host: RoomHost
    row: st.GameRow
    state: State
    news: list[int | None]
    appended: Appended | None

    @property
    def settled(self) -> bool:
        raise NotImplementedError

    def _touch(self) -> None:
        raise NotImplementedError

    async def _decide(self, change: Callable[[], Awaitable[None]]) -> None:
        raise NotImplementedError

    @property
    def control(self) -> TimeControl | None:
        """The game's time control (None: untimed)."""
        return control_of(self.row.clock)

    @property
    def clock(self) -> Clock | None:
        control = self.control
        if control is None:
            return None
        return Clock.from_json(self.row.clock_state, control, len(self.row.seats))

    def clock_runner(self, state: State, gone: AbstractSet[int] = frozenset()) -> int | None:
        """The seat whose clock runs in ``state``: a person's seat that must decide, once every
        seat is taken and the clock is not held for a player still to come (``gone``: seats
        about to be handed to the AI)."""
        clock = self.clock
        if clock is not None and clock.waits(self.host.now()):
            return None
        return self._runner(state, gone)

    def _runner(self, state: State, gone: AbstractSet[int] = frozenset()) -> int | None:
        if self.control is None or state.is_terminal() or self.settled:
            return None
        current = state.current_player()
        if current < 0 or current in gone or not all(s.claimed for s in self.row.seats):
            return None
        return current if self.row.seats[current].kind != st.AI else None

    def clock_after(
        self, before: State | None, after: State, gone: AbstractSet[int] = frozenset()
    ) -> Clock | None:
        """The clock once the game goes from ``before`` (None: no move was made) to ``after``,
        as of now (None for an untimed game)."""
        control, clock = self.control, self.clock
        if control is None or clock is None:
            return None
        ended = (before.turn(), after.turn()) if before is not None else None
        runner = self.clock_runner(after, gone)
        return next_clock(control, clock, self.host.now(), ended, runner)

    def set_clock(self, clock: Clock | None) -> None:
        """Take in a clock just stored (a seat whose clock starts now is told, ``changed``)."""
        if clock is not None:
            if clock.seat is not None and clock.seat != (self.row.clock_state or {}).get("seat"):
                self.news.append(clock.seat)
            self.row.clock_state = clock.to_json()
            self.row.deadline = clock.wake

    async def start_clock(self) -> None:
        """Start the clock of a timed game whose table just filled (or that a process left
        unstarted): the seat to move begins to think now. Call with the lock held."""
        clock = self.clock
        if clock is None or clock.seat is not None or self.clock_runner(self.state) is None:
            return
        started = self.clock_after(None, self.state)
        await self._store_clock(started)

    def awaits(self, seats: Collection[int]) -> bool:
        """Whether a held clock waits for one of ``seats``, or its grace has run out: what a
        player's coming or the sweep changes (``release_clock``)."""
        clock = self.clock
        if clock is None or not clock.waiting or self.row.status != st.ACTIVE:
            return False
        return bool(set(seats) & set(clock.waiting)) or not clock.waits(self.host.now())

    async def came(self, seats: Collection[int]) -> None:
        """The players of ``seats`` are at the table (their page's socket said who they are,
        their bot's game stream opened, a request or a move with their seat's token): a clock
        held for them stops waiting for them, and runs once nobody is awaited. Nothing is
        stored when the clock waits for none of them (every later visit)."""
        if not self.awaits(seats):
            return

        async def change() -> None:
            await self.release_clock(seats)

        await self._decide(change)

    async def release_clock(self, arrived: Collection[int] = ()) -> bool:
        """Store a held clock without the seats of ``arrived``; once none is awaited, or its
        ``start_by`` has come, it is held no more and the seat to move begins to think now (the
        grace ran out: whoever is missing loses time from then). True if a clock was stored.
        Call with the lock held."""
        control, clock = self.control, self.clock
        if control is None or clock is None or not self.awaits(arrived):
            return False
        now = self.host.now()
        waiting = [seat for seat in clock.waiting if seat not in arrived]
        if waiting and clock.waits(now):
            released = dataclasses.replace(clock, waiting=waiting)
        else:
            free = dataclasses.replace(clock, waiting=[], start_by=None)
            released = next_clock(control, free, now, None, self._runner(self.state))
        await self._store_clock(released)
        return True

    async def _store_clock(self, clock: Clock | None) -> None:
        """Store ``clock`` as the game's next revision and take it in; the other processes are
        sent it as a step with no moves (``appended.py``), so their copies take it in too
        rather than read the game back (two bots' streams opening started and released a
        clock in every game of an arena)."""
        self.row.revision = await self.host.set_clock(self.row.id, self.row.revision, clock)
        self.set_clock(clock)
        self._touch()
        self.appended = Appended.of(self.row, len(self.row.moves), ())
