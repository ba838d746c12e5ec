"""AI turns as jobs that any server process can take, so a process that dies mid-think never
strands a game.

A game whose AI seat is to move is marked in the database (``ai_seat``) in the same transaction
as the move that handed over the turn. A process claims the job for a lease (a few seconds) and
renews it while the search runs; if the process dies, the lease runs out and another process's
sweeper (``Hub``) claims the job again. A job claimed too often without finishing (it crashed
its process each time) is ended with a random legal move and a note for the players. The move
is stored like any other, naming the revision the job was claimed at, so at most one process's
answer is ever accepted.

The search itself runs in this process's worker pool (``ai_worker.py``), waiting for a slot in
the pool's fair queue (``aiqueue.py``: visitors in turn, none holding every worker): the per-move
ceilings and the fairness between visitors of docs/web.md ("Security") hold on every process."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from concurrent.futures import BrokenExecutor
from typing import Protocol

from boardplay.core.records import Move
from boardplay.web import storage as st
from boardplay.web.ai_worker import choose_action
from boardplay.web.chance import chance_rng
from boardplay.web.host import RoomHost

log = logging.getLogger("boardplay.web")

MAX_ATTEMPTS = 3
"""Claims of one AI job before it is ended with a random move (each claim that did not finish
means a process died or gave up while thinking on it)."""


class AiTable(Protocol):
    """What an AI job needs of its game's room (``rooms.Room``)."""

    hub: RoomHost
    row: st.GameRow
    moves: list[Move]

    @property
    def thinking(self) -> int | None: ...

    async def play_ai(self, revision: int, seat: int, action: int | None, note: str | None) -> bool:
        """Store the AI's ``action`` if the game is still at ``revision`` (a random legal one
        if it is None or not legal, with ``note`` for the players); False if it moved on."""
        ...

    async def changed(self, publish: bool = True) -> None: ...


class AiJob:
    """The AI turn of one room, when this process holds it."""

    def __init__(self, room: AiTable) -> None:
        self.room = room
        self.task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done()

    def start(self) -> None:
        """Try to take the job (in the background); nothing happens if another process holds
        it or this one already runs it."""
        if not self.running:
            self.task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Cancel a running job; its lease is given back so another process takes it at once."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task

    async def _run(self) -> None:
        room = self.room
        hub = room.hub
        seat = room.thinking
        revision = room.row.revision
        if seat is None:
            return
        attempts = await hub.db(
            hub.storage.claim_ai, room.row.id, revision, hub.epoch, hub.ai_lease
        )
        if attempts is None:
            return  # another process holds it, or the game changed meanwhile
        hub.ai_running += 1
        renewing = asyncio.get_running_loop().create_task(self._keep_lease())
        try:
            action, error = await self._think(seat, attempts)
        except asyncio.CancelledError:
            # Shutting down: given back at once (on the loop: the storage threads may be
            # stopping too), so another process takes it without waiting for the lease.
            hub.storage.release_ai(room.row.id, hub.epoch)
            raise
        finally:
            renewing.cancel()
            hub.ai_running -= 1
        if not await room.play_ai(revision, seat, action, error):
            return  # someone else moved (an undo, a move taken over by another process)
        self.task = None  # this task is finishing: let changed() start the next AI turn
        await room.changed()

    async def _think(self, seat: int, attempts: int) -> tuple[int | None, str | None]:
        """The AI's action (None if it failed) and a note for the players if it did not choose."""
        room = self.room
        hub = room.hub
        spec = room.row.seats[seat].spec or "random"
        if attempts > MAX_ATTEMPTS:
            log.warning("AI %s of game %s never finished; playing randomly", spec, room.row.id)
            return None, (
                f"the AI ({spec}) did not finish its move in {MAX_ATTEMPTS} tries; "
                "it played a random legal move instead"
            )
        seed = chance_rng(room.row.seed, len(room.moves)).randrange(2**31)
        job = functools.partial(
            choose_action,
            hub.catalogue_ref,
            hub.data_dir,
            room.row.game,
            room.row.options,
            room.row.start_position,
            [m.action for m in room.moves],
            spec,
            seed,
            hub.limits.ai_max_time,
        )
        loop = asyncio.get_running_loop()
        try:
            async with hub.ai_queue.slot(room.row.owner or ""):
                try:
                    action: int = await loop.run_in_executor(hub.executor, job)
                except BrokenExecutor:
                    # A worker process died (killed, out of memory): a fresh pool, once more.
                    log.warning("AI worker pool broke; starting a new one")
                    hub.renew_executor()
                    action = await loop.run_in_executor(hub.executor, job)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a failing agent must not stop the game
            log.exception("AI %s failed in game %s", spec, room.row.id)
            return None, f"the AI ({spec}) failed ({exc}); it played a random legal move instead"
        return action, None

    async def _keep_lease(self) -> None:
        """Renew the lease while the job runs (waiting in the pool's queue included)."""
        hub = self.room.hub
        while True:
            await asyncio.sleep(hub.ai_lease / 3)
            if not await hub.db(hub.storage.renew_ai, self.room.row.id, hub.epoch, hub.ai_lease):
                return
