"""AI turns as jobs that any server process can take, so a process that dies mid-think never
strands a game.

A game whose AI seat is to move is marked in the database (``ai_seat``) in the same transaction
as the move that handed over the turn. A process claims the job for a lease (a few seconds) and
renews it while the search runs; if the process dies, the lease runs out and another process's
sweeper (``House.sweep``) claims the job again. A job claimed too often without finishing (it
crashed its process each time) is ended with a random legal move and a note for the players. The
move is stored like any other, naming the revision the job was claimed at, so at most one process's
answer is ever accepted.

The search itself runs in this process's worker pool (``workers/ai_worker.py``), waiting for a slot
in the pool's fair queue (``workers/aiqueue.py``: visitors in turn, none holding every worker): the
per-move ceilings and the fairness between visitors of docs/web.md ("Security") hold on every
process."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import BrokenExecutor, Executor, Future
from typing import Any, Protocol, TypeVar

from boardplay.core.records import Move
from boardplay.web.config import Limits
from boardplay.web.table import storage as st
from boardplay.web.table.chance import chance_rng
from boardplay.web.table.host import Database
from boardplay.web.tasks import cancel_and_wait
from boardplay.web.workers import FairQueue, Position, choose_action, run_job, stop_executor

log = logging.getLogger("boardplay.web")

MAX_ATTEMPTS = 3
"""Claims of one AI job before it is ended with a random move (each claim that did not finish
means a process died or gave up while thinking on it)."""


B = TypeVar("B")
R = TypeVar("R")

Search = Callable[[Position, B, int, float], R]
"""A search run in a worker process (``ai_worker.choose_action``, ``judging.judge_position``):
it rebuilds the position from the catalogue's address and the game's actions, then searches it
with a budget (an AI spec, or iterations) and a seed within the operator's time ceiling."""


class AiWorkers:
    """This process's AI worker pool and its books: the fair queue of its slots, the lease of
    the jobs it claims and how many it holds now. Made by the house; the AI jobs here keep the
    count (the house's sweeper only reads ``free``), and hints and reviews search through
    ``search`` too."""

    def __init__(
        self,
        database: Database,
        executor_factory: Callable[[], Executor],
        catalogue_ref: str,
        data_dir: str | None,
        limits: Limits,
        epoch: str,
        *,
        workers: int,
        lease: float,
    ) -> None:
        self.database = database
        self.executor_factory = executor_factory
        self.executor = executor_factory()
        self.catalogue_ref = catalogue_ref
        """The catalogue as ``module:attribute``, for worker processes to find the same one."""
        self.data_dir = data_dir
        self.limits = limits
        self.epoch = epoch
        """This process's id (the holder of its AI jobs and reviews)."""
        self.capacity = max(1, workers)
        self.queue = FairQueue(self.capacity)
        """The worker pool's slots, handed to visitors in turn (``workers/aiqueue.py``)."""
        self.lease = lease
        self.running = 0
        """AI jobs this process holds now (changed only by ``AiJob``)."""
        self.jobs: set[Future[Any]] = set()
        """The pool's jobs not yet done (AI moves, the analysis board's lines, judgements),
        each gone when its worker is done with it: a stopping server waits only for an idle
        pool (``stop_executor``)."""

    @property
    def free(self) -> int:
        """AI jobs this process may still claim."""
        return self.capacity - self.running

    async def search(
        self, search: Search[B, R], row: st.GameRow, actions: Sequence[int], budget: B, seed: int
    ) -> R:
        """``search`` of the position after ``actions`` in ``row``'s game, run in the pool (a
        pool broken by a dead worker process is replaced once)."""
        position = self.position(row.game, row.options, row.start_position, actions)
        return await self.search_position(search, position, budget, seed)

    def position(
        self,
        game: str,
        options: dict[str, Any],
        start: dict[str, Any] | None,
        actions: Sequence[int],
    ) -> Position:
        """The position after ``actions`` from ``start`` (None: the initial state) in a game of
        ``game`` with ``options``, as a worker process rebuilds it from this process's
        catalogue."""
        return Position(self.catalogue_ref, self.data_dir, game, options, start, list(actions))

    async def search_position(
        self, search: Search[B, R], position: Position, budget: B, seed: int
    ) -> R:
        """``search`` of ``position`` (a stored game's, or a study's on the analysis board), run
        in the pool within the think-time ceiling (a pool broken by a dead worker process is
        replaced once)."""
        job = functools.partial(search, position, budget, seed, self.limits.ai_max_time)
        try:
            return await run_job(self.executor, self.jobs, job)
        except BrokenExecutor:
            # A worker process died (killed, out of memory): a fresh pool, once more.
            log.warning("AI worker pool broke; starting a new one")
            broken = self.executor
            self.executor = self.executor_factory()
            broken.shutdown(wait=False, cancel_futures=True)
            return await run_job(self.executor, self.jobs, job)

    def shutdown(self) -> None:
        """Stop the pool without waiting for the searches in it."""
        stop_executor(self.executor, self.jobs)


class AiTable(Protocol):
    """What an AI job needs of its game's room (``rooms.Room``)."""

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

    def __init__(self, room: AiTable, workers: AiWorkers) -> None:
        self.room = room
        self.workers = workers
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
        await cancel_and_wait([self.task])

    async def _run(self) -> None:
        room, workers = self.room, self.workers
        storage = workers.database.storage
        seat = room.thinking
        revision = room.row.revision
        if seat is None:
            return
        attempts = await workers.database.db(
            storage.claim_ai, room.row.id, revision, workers.epoch, workers.lease
        )
        if attempts is None:
            return  # another process holds it, or the game changed meanwhile
        workers.running += 1
        renewing = asyncio.get_running_loop().create_task(self._keep_lease())
        try:
            action, error = await self._think(seat, attempts)
        except asyncio.CancelledError:
            # Shutting down: given back at once (on the loop: the storage threads may be
            # stopping too), so another process takes it without waiting for the lease.
            storage.release_ai(room.row.id, workers.epoch)
            raise
        finally:
            renewing.cancel()
            workers.running -= 1
        if not await room.play_ai(revision, seat, action, error):
            return  # someone else moved (an undo, a move taken over by another process)
        self.task = None  # this task is finishing: let changed() start the next AI turn
        await room.changed()

    async def _think(self, seat: int, attempts: int) -> tuple[int | None, str | None]:
        """The AI's action (None if it failed) and a note for the players if it did not choose."""
        room = self.room
        spec = room.row.seats[seat].spec or "random"
        if attempts > MAX_ATTEMPTS:
            log.warning("AI %s of game %s never finished; playing randomly", spec, room.row.id)
            return None, (
                f"the AI ({spec}) did not finish its move in {MAX_ATTEMPTS} tries; "
                "it played a random legal move instead"
            )
        seed = chance_rng(room.row.seed, len(room.moves)).randrange(2**31)
        actions = [m.action for m in room.moves]
        try:
            who = room.row.owner_network or room.row.owner or ""
            async with self.workers.queue.slot(who, background=room.row.ai_only):
                action: int = await self.workers.search(
                    choose_action, room.row, actions, spec, seed
                )
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a failing agent must not stop the game
            log.exception("AI %s failed in game %s", spec, room.row.id)
            return None, f"the AI ({spec}) failed ({exc}); it played a random legal move instead"
        return action, None

    async def _keep_lease(self) -> None:
        """Renew the lease while the job runs (waiting in the pool's queue included)."""
        workers, game_id = self.workers, self.room.row.id
        storage = workers.database.storage
        while True:
            await asyncio.sleep(workers.lease / 3)
            if not await workers.database.db(
                storage.renew_ai, game_id, workers.epoch, workers.lease
            ):
                return
