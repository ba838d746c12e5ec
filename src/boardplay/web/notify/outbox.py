"""The leased outbox both channels send from, written once: a notice is a row first; whichever
server process claims it sends it and marks it sent; a failure is tried again after a growing
pause; finished rows are pruned. ``Outbox`` is the table's side, ``Sender`` the loop every
process runs around it.

The guarantees, for mail and push alike:

- **One process sends a given notice.** A claim is a compare-and-set: an ``UPDATE`` of a row
  nobody holds (``queued``, its ``claimed_until`` empty or past) that sets ``claimed_by`` and a
  lease; of processes racing for a row, one update matches and the others move on.
- **A notice in hand is finished, not dropped or doubled.** Marking it sent or failed matches
  ``claimed_by``: a process whose lease ran out learns that another took the notice over. A
  process shutting down finishes what it holds (``Sender.close``); one that dies holding a
  claim leaves it to another when the lease runs out (sent twice only if it died between the
  other side's acceptance and its own commit; never lost).
- **Retried with back-off.** After a failure ``claimed_until`` holds the earliest next attempt
  while nobody holds the row, so any process retries it then (``Backoff``), until it is given
  up.
- **Checked when claimed.** Who may receive a notice can change while it waits (an address
  removed, a device gone): ``claim`` asks the channel in the claim's own transaction, and a row
  nobody should receive any more is cancelled there.
- **Pruned.** Finished rows stay ``keep`` seconds for the operator to look at, then go.

Each channel keeps its own table (``mail_outbox``, ``push_outbox``): what a row carries differs
(an address, a subject and a body; a subscription, an encrypted payload's text and a lifetime),
and so do the channel's own queries on it (one waiting "your turn" a game, the ceilings). The
columns the lease needs are declared here once (``leased_table``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Callable, Coroutine, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from boardplay.web.database import autocommitting
from boardplay.web.metrics import Backlog
from boardplay.web.tasks import cancel_and_wait

QUEUED = "queued"
SENT = "sent"
FAILED = "failed"
CANCELLED = "cancelled"
ERROR_MAX = 400
"""Characters of the last failure's reason a row keeps."""
TRIES = 20
"""Rows one claim looks at before it says nothing is due (each one cancelled, or taken by
another process first)."""

T = TypeVar("T")
"""Runs a store's call off the event loop, in the database's threads (``Hub.db``)."""
Take = Callable[[sa.Connection, sa.Row[Any], float], T | None]
"""What a channel makes of a row it now holds, in the claim's transaction (given the row and
the time): the notice to send, or None when nobody should receive it any more (cancelled)."""


def leased_table(name: str, metadata: sa.MetaData, *payload: sa.Column[Any] | sa.Index) -> sa.Table:
    """A channel's outbox table: ``id`` (the order notices are claimed in), the channel's own
    ``payload`` columns and indexes (which may name the lease's columns), and the lease's
    columns: ``claimed_until`` is the claim's lease while ``claimed_by`` holds the row, and the
    earliest next attempt after a failure while nobody does."""
    columns = [item for item in payload if isinstance(item, sa.Column)]
    indexes = [item for item in payload if not isinstance(item, sa.Column)]
    return sa.Table(
        name,
        metadata,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        *columns,
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("state", sa.String(16), nullable=False, index=True),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("claimed_by", sa.String(32), nullable=True),
        sa.Column("claimed_until", sa.Float, nullable=True),
        sa.Column("sent_at", sa.Float, nullable=True),
        sa.Column("last_error", sa.String(ERROR_MAX), nullable=True),
        *indexes,
    )


@dataclass(frozen=True)
class Backoff:
    """When a failed notice is tried again: ``first`` seconds after its first failure, ``factor``
    times longer after each further one, given up after ``tries`` sends. A pause the other side
    asks for (``Retry-After``) is honoured, up to ``longest``."""

    first: float
    tries: int
    factor: float = 4.0
    longest: float = 3600.0

    def retry_at(self, attempts: int, now: float, wait: float | None = None) -> float | None:
        """When to try again after the ``attempts``-th send failed (None: give up)."""
        if attempts >= self.tries:
            return None
        pause = self.first * self.factor ** (attempts - 1)
        if wait is not None:
            pause = min(max(pause, wait), self.longest)
        return now + pause


class Outbox:
    """One channel's outbox over ``table`` (made by ``leased_table``): the claim, its end (sent,
    failed and maybe retried, cancelled), the prune and the listing. Synchronous: the caller
    runs it off the event loop. A channel's store adds its rows in its own transactions
    (``add``, ``waiting``, ``cancel`` take the connection)."""

    def __init__(self, engine: Engine, table: sa.Table, keep: float, backoff: Backoff) -> None:
        self.engine = engine
        self.table = table
        self.keep = keep
        """Seconds finished rows stay (for the operator to look at)."""
        self.backoff = backoff
        self.autocommit = autocommitting(engine)

    def _free(self, now: float) -> sa.ColumnElement[bool]:
        """A row nobody holds and that is due: never claimed, its lease or its pause over."""
        box = self.table.c
        return sa.and_(
            box.state == QUEUED, sa.or_(box.claimed_until.is_(None), box.claimed_until < now)
        )

    # ----- queueing, in the channel's transaction ---------------------------------------------
    def add(self, conn: sa.Connection, rows: Sequence[Mapping[str, Any]], now: float) -> None:
        """Queue ``rows`` (the channel's own columns)."""
        if rows:
            fresh = {"created": now, "state": QUEUED, "attempts": 0}
            conn.execute(self.table.insert(), [{**row, **fresh} for row in rows])

    def waiting(self, conn: sa.Connection, *where: sa.ColumnElement[bool]) -> bool:
        """Whether a row matching ``where`` waits and nobody is sending it yet (a second "your
        turn" of a game would only repeat it)."""
        box = self.table.c
        query = sa.select(box.id).where(box.state == QUEUED, box.claimed_by.is_(None), *where)
        return conn.execute(query.limit(1)).first() is not None

    def cancel(self, conn: sa.Connection, *where: sa.ColumnElement[bool]) -> None:
        """Drop the waiting rows matching ``where`` that nobody is sending right now, those
        paused before a retry included (one in a live process's hand is finished by it)."""
        box = self.table
        conn.execute(
            box.update()
            .where(
                *where,
                box.c.state == QUEUED,
                sa.or_(box.c.claimed_by.is_(None), box.c.claimed_until < time.time()),
            )
            .values(state=CANCELLED, claimed_by=None, claimed_until=None)
        )

    # ----- sending ----------------------------------------------------------------------------
    def claim(
        self,
        process: str,
        lease: float,
        take: Take[T],
        among: sa.ColumnElement[bool] | None = None,
    ) -> T | None:
        """The oldest due row (of those matching ``among``), now held by ``process`` for
        ``lease`` seconds and made into a notice by ``take``; None when nothing is due. A row
        ``take`` refuses is cancelled and the next one tried."""
        box = self.table
        for _ in range(TRIES):
            now = time.time()
            free = self._free(now)
            due = sa.select(box.c.id).where(free).order_by(box.c.id).limit(1)
            with self.engine.begin() as conn:
                candidate = conn.execute(
                    due if among is None else due.where(among)
                ).scalar_one_or_none()
                if candidate is None:
                    return None
                taken = conn.execute(
                    box.update()
                    .where(box.c.id == candidate, free)
                    .values(
                        claimed_by=process,
                        claimed_until=now + lease,
                        attempts=box.c.attempts + 1,
                    )
                )
                if taken.rowcount != 1:
                    continue  # another process took it first
                row = conn.execute(box.select().where(box.c.id == candidate)).one()
                notice = take(conn, row, now)
                if notice is None:
                    self.end(candidate, process, CANCELLED, conn)
                    continue
            return notice
        return None

    @contextlib.contextmanager
    def _within(self, conn: sa.Connection | None) -> Iterator[sa.Connection]:
        if conn is not None:
            yield conn
        else:
            with self.engine.begin() as own:
                yield own

    def _let_go(
        self, row_id: int, process: str, conn: sa.Connection | None, values: dict[str, Any]
    ) -> bool:
        """Write ``values`` on a row ``process`` holds and let go of it (False, nothing
        written: its claim had run out and another process took it over)."""
        box = self.table
        with self._within(conn) as own:
            done = own.execute(
                box.update()
                .where(box.c.id == row_id, box.c.claimed_by == process)
                .values(claimed_by=None, **values)
            )
        return done.rowcount == 1

    def end(
        self,
        row_id: int,
        process: str,
        state: str,
        conn: sa.Connection | None = None,
        **values: Any,
    ) -> bool:
        """Let go of a row ``process`` holds for good, in ``state`` with the channel's
        ``values`` (False: its claim had run out and another process took it over)."""
        return self._let_go(
            row_id, process, conn, {"state": state, "claimed_until": None, **values}
        )

    def sent(
        self, row_id: int, process: str, conn: sa.Connection | None = None, **values: Any
    ) -> bool:
        """Mark a notice this process held as sent, with the channel's ``values`` (False: its
        claim had run out and another process took it over, so it may go twice; every
        channel's lease is far above the time one send may take)."""
        return self.end(row_id, process, SENT, conn, sent_at=time.time(), **values)

    def failed(
        self,
        row_id: int,
        process: str,
        error: str,
        attempts: int,
        retry: bool = True,
        wait: float | None = None,
        conn: sa.Connection | None = None,
        **values: Any,
    ) -> float | None:
        """A send of a notice this process held failed: it is tried again after the back-off
        (``wait``: at least as long as the other side asked), by any process, or given up
        when the failure is for good (not ``retry``) or it had its tries. Returns when it is
        tried again (None: given up)."""
        retry_at = self.backoff.retry_at(attempts, time.time(), wait) if retry else None
        values["last_error"] = error[:ERROR_MAX]
        if retry_at is None:
            self.end(row_id, process, FAILED, conn, **values)
        else:
            self._let_go(row_id, process, conn, {"claimed_until": retry_at, **values})
        return retry_at

    def prune(self, conn: sa.Connection | None = None) -> None:
        """Forget finished rows older than ``keep`` (each process, now and then)."""
        box = self.table
        old = time.time() - self.keep
        with self._within(conn) as own:
            own.execute(box.delete().where(box.c.state != QUEUED, box.c.created < old))

    def backlog(self) -> Backlog:
        """The notices waiting (due now, or paused after a failure) and when the oldest was
        queued, in one query on the indexed ``state`` (the operator's metrics)."""
        box = self.table.c
        query = sa.select(sa.func.count(), sa.func.min(box.created)).where(box.state == QUEUED)
        with self.autocommit.connect() as conn:
            depth, oldest = conn.execute(query).one()
        return Backlog(int(depth), None if oldest is None else float(oldest))

    def rows(self) -> list[dict[str, Any]]:
        """Every row, oldest first (for operators and tests)."""
        with self.autocommit.connect() as conn:
            query = self.table.select().order_by(self.table.c.id)
            return [dict(r._mapping) for r in conn.execute(query)]


class Sender:
    """The loop one process runs over a channel's outbox: it looks when woken (a notice was
    queued here, or a send ended) or every ``poll`` seconds otherwise (for notices other
    processes queued, or due again), ``drain`` sends what is due, and the outbox is pruned every
    ``prune_every`` seconds. Closing stops it after the notices in hand: one cut off mid-send
    would be sent again by another process once its lease ran out."""

    poll = 10.0
    prune_every = 3600.0

    def __init__(self, log: logging.Logger, close_wait: float) -> None:
        self.log = log
        self.close_wait = close_wait
        """Seconds ``close`` waits for the notices in hand (above one send's timeout)."""
        self._wake = asyncio.Event()
        self._closing = False
        self._task: asyncio.Task[None] | None = None
        self._sending: set[asyncio.Task[Any]] = set()
        self._pruned = 0.0

    def start_loop(self) -> None:
        """Start looking at the outbox (on the running event loop), once."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._loop())

    def wake(self) -> None:
        """Look at the outbox now."""
        self._wake.set()

    @property
    def closing(self) -> bool:
        return self._closing

    def spawn(self, send: Coroutine[Any, Any, Any]) -> None:
        """Run one send beside the others (a channel that sends several at once); ``close``
        waits for it as for the loop."""
        task = asyncio.get_running_loop().create_task(send)
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    @property
    def in_hand(self) -> int:
        """Sends running now."""
        return len(self._sending)

    async def close(self) -> None:
        """Stop after the notices in hand (waiting at most ``close_wait``), then ``shut``."""
        self._closing = True
        self._wake.set()
        try:
            await asyncio.wait_for(self._finished(), self.close_wait)
        except Exception:  # out of time: what is still in hand goes again after its lease
            await cancel_and_wait([*self._sending, self._task])
        await self.shut()

    async def _finished(self) -> None:
        if self._task is not None:
            await self._task  # the loop claims nothing more once closing
        while self._sending:
            await asyncio.gather(*self._sending, return_exceptions=True)

    async def shut(self) -> None:
        """Let go of the channel's connections (after the last send)."""

    async def _loop(self) -> None:
        while not self._closing:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll * random.uniform(0.75, 1.25))
            self._wake.clear()
            try:
                await self.drain()
            except Exception:
                self.log.exception("could not look at the outbox; trying again")

    async def drain(self) -> int:
        """Send what is due; how many were sent (or, for a channel that sends several at once,
        started)."""
        raise NotImplementedError

    def prune_due(self) -> bool:
        """Whether this process prunes its outbox now (once every ``prune_every``)."""
        if time.time() - self._pruned <= self.prune_every:
            return False
        self._pruned = time.time()
        return True
