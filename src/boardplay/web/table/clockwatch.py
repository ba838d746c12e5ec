"""The clocks a server process watches: an exact timer for each game whose running clock falls
within the hour on a process whose sockets watch it (the sweep, every ``sweep_interval``,
catches every other: ``House.sweep``), and the flag stored when it falls (``timeouts.flag``, in
one transaction naming the revision it was decided on, so exactly one process stores it).

The rules of time (whose clock runs, the increment, a correspondence allowance) are
``clocks.py``; a room keeps its clock with every change (``Room.set_clock``); this module only
keeps time."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from boardplay.web.errors import ApiError
from boardplay.web.table.rooms import Room
from boardplay.web.table.timeouts import flag
from boardplay.web.tasks import cancel_and_wait

log = logging.getLogger("boardplay.web")

TIMER_HORIZON = 3600.0
"""Clocks falling within this many seconds get an exact timer on a process whose sockets
watch the game; the sweep (every ``sweep_interval``) catches every other."""
TIMER_SLACK = 0.005
"""Seconds a timer waits past the deadline, so the clock it reads has surely fallen."""


class ClockWatch:
    """This process's timers on games' clocks (``RoomHost.watch_clock``)."""

    def __init__(self, room: Callable[[str], Awaitable[Room]], now: Callable[[], float]) -> None:
        self.room = room
        self.now = now
        self._timers: dict[str, tuple[float, asyncio.TimerHandle]] = {}
        self._background: set[asyncio.Task[bool]] = set()

    def watch_clock(self, game_id: str, deadline: float | None) -> None:
        """Flag the game at ``deadline`` exactly, if it falls within ``TIMER_HORIZON`` (later
        ones, and games no socket here watches, are found by ``House.sweep``)."""
        known = self._timers.get(game_id)
        if known is not None and known[0] == deadline:
            return
        if known is not None:
            known[1].cancel()
            del self._timers[game_id]
        if deadline is None:
            return
        delay = deadline - self.now()
        if delay > TIMER_HORIZON:
            return
        handle = asyncio.get_running_loop().call_later(
            max(0.0, delay) + TIMER_SLACK, lambda: self._flag_soon(game_id)
        )
        self._timers[game_id] = (deadline, handle)

    def _flag_soon(self, game_id: str) -> None:
        self._timers.pop(game_id, None)
        task = asyncio.get_running_loop().create_task(self.flag_game(game_id))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def flag_game(self, game_id: str) -> bool:
        """Store the flag of the game if its running clock has fallen; True if this process
        stored it."""
        try:
            room = await self.room(game_id)
            return await flag(room)
        except ApiError:
            return False
        except Exception:  # one game's trouble must not stop the others' clocks
            log.exception("could not flag game %s; the next sweep tries again", game_id)
            return False

    async def close(self) -> None:
        """Cancel every timer and the flags being stored."""
        for _, handle in self._timers.values():
            handle.cancel()
        await cancel_and_wait(self._background)  # a cancelled flag: the sweep stores it
