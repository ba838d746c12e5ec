"""Throttles that count before they check: how often a key (an account, an address, a pair of
them) may ask for something costly or abusable within a window, counted atomically in the
database so that a burst of parallel requests, on one process or several, gets exactly
``ceiling`` attempts and no more.

The earlier sign-in throttle read the failure count, checked the password and only then wrote
the failure: every request of a burst read the same count and passed (the fourth attack round
made 103 password checks against one account with 150 requests sent at once). Here an attempt
is one statement, an upsert on the key's row that adds one and returns the new count, taken
*before* the work it guards; the row's lock makes concurrent attempts on one key queue, each
seeing the others' counts. An attempt over the ceiling is rolled back with its transaction (a
refusal costs nothing and counts nothing); one whose work then turns out harmless (the right
password) may be given back.

On PostgreSQL, a single ceiling can also be counted in one statement sent from the event loop
(``Throttles.take_one``, for the Bot API's per-token ceiling, on every request of a bot): the
upsert raises the count only while it is under the ceiling (or the window has ended), so a
refused attempt counts nothing, as the transaction's rollback ensures; in autocommit the one
statement is its own transaction. That spares every bot request a storage thread's hand-over,
the pool's pre-ping and a separate ``COMMIT`` (a sixth of a bot move's server CPU in
``make bench-web``).

A window is fixed: it starts at the key's first attempt and lasts ``window`` seconds; the next
attempt after it starts a new one. So at most ``ceiling`` attempts pass per window, and at
most ``2 × ceiling`` within any ``window`` seconds across a boundary."""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine

from boardplay.web.database import OneStatement, metadata
from boardplay.web.errors import ApiError

KEY_LENGTH = 120
FORGET_EVERY = 50
"""Attempts between two clean-ups of ended windows."""

throttles_table = sa.Table(
    "throttles",
    metadata,
    sa.Column("key", sa.String(KEY_LENGTH), primary_key=True),
    sa.Column("start", sa.Float, nullable=False),
    sa.Column("count", sa.Integer, nullable=False),
    sa.Column("until", sa.Float, nullable=False, index=True),
)
"""One row per key with attempts in its current window (``until``: when the row may go)."""


@dataclass(frozen=True)
class Ceiling:
    """At most ``most`` attempts per ``window`` seconds for ``key``."""

    key: str
    most: int
    window: float


class Throttled(Exception):
    """A ceiling was reached: ``ceiling`` is the one, ``retry_after`` when its window ends."""

    def __init__(self, ceiling: Ceiling, retry_after: float) -> None:
        super().__init__(ceiling.key)
        self.ceiling = ceiling
        self.retry_after = retry_after

    def error(self, code: str, message: str) -> ApiError:
        """The 429 answering this refusal, with its ``Retry-After``."""
        wait = max(1, math.ceil(self.retry_after))
        return ApiError(429, code, message, {"Retry-After": str(wait)})


@dataclass(frozen=True)
class VisitorCeiling:
    """At most ``most`` attempts of ``kind`` per ``window`` seconds for one visitor, counted
    twice: for their owner (their cookie or account, key ``kind:owner``) and for the address
    they come from (``kind-from:address``), so that a fresh cookie does not lift it; ``code``
    and ``message`` are the 429 that answers a refusal of either."""

    kind: str
    most: int
    window: float
    code: str
    message: str

    def ceilings(self, owner: str, address: str) -> list[Ceiling]:
        return [
            Ceiling(f"{self.kind}:{owner}", self.most, self.window),
            Ceiling(f"{self.kind}-from:{address}", self.most, self.window),
        ]


def _upsert(conn: sa.Connection) -> type[postgresql.Insert] | type[sqlite.Insert]:
    return postgresql.Insert if conn.dialect.name == "postgresql" else sqlite.Insert


@dataclass(frozen=True)
class Left:
    """What a ceiling allows after an attempt it counted: ``attempts`` more in its window,
    which ends in ``seconds``."""

    attempts: int
    seconds: float


def take(conn: sa.Connection, ceilings: Sequence[Ceiling], now: float) -> Left:
    """Count one attempt against every ceiling, within the caller's transaction; raise
    ``Throttled`` (the caller's transaction must then roll back, undoing every count it made)
    at the first one past its ceiling. Returns what the last ceiling has left."""
    table = throttles_table
    left = Left(0, 0.0)
    for ceiling in ceilings:
        insert = _upsert(conn)(table).values(
            key=ceiling.key[:KEY_LENGTH], start=now, count=1, until=now + ceiling.window
        )
        expired = table.c.start <= now - ceiling.window
        count, start = conn.execute(
            insert.on_conflict_do_update(
                index_elements=[table.c.key],
                set_={
                    "count": sa.case((expired, 1), else_=table.c.count + 1),
                    "start": sa.case((expired, now), else_=table.c.start),
                    "until": sa.case((expired, now + ceiling.window), else_=table.c.until),
                },
            ).returning(table.c.count, table.c.start)
        ).one()
        if int(count) > ceiling.most:
            raise Throttled(ceiling, float(start) + ceiling.window - now)
        left = Left(ceiling.most - int(count), float(start) + ceiling.window - now)
    return left


def give_back(conn: sa.Connection, keys: Sequence[str]) -> None:
    """Uncount one attempt of each key (its work turned out harmless, as a right password)."""
    table = throttles_table
    conn.execute(
        table.update()
        .where(table.c.key.in_([k[:KEY_LENGTH] for k in keys]), table.c.count > 0)
        .values(count=table.c.count - 1)
    )


Statement = Callable[[str, dict[str, Any]], Awaitable[tuple[Any, ...] | None]]
"""Sends one statement from the event loop and gives its one row (None: none)."""


Compiled = tuple[str, dict[str, Any]]
"""A statement's text for psycopg, and the values it fixes itself."""


def _compiled(statement: sa.Executable) -> Compiled:
    text, fixed, _ = OneStatement(statement).compiled
    return text, fixed


@functools.cache
def _counted() -> Compiled:
    """``take``'s upsert for one ceiling as one PostgreSQL statement, the count raised only
    while under the ceiling (``most``) or in a new window: its row (count, start), or none
    when refused."""
    table = throttles_table
    now, until = sa.bindparam("now", type_=sa.Float), sa.bindparam("until", type_=sa.Float)
    expired = table.c.start <= sa.bindparam("old", type_=sa.Float)
    statement = (
        postgresql.insert(table)
        .values(key=sa.bindparam("key", type_=sa.String), start=now, count=1, until=until)
        .on_conflict_do_update(
            index_elements=[table.c.key],
            set_={
                "count": sa.case((expired, 1), else_=table.c.count + 1),
                "start": sa.case((expired, now), else_=table.c.start),
                "until": sa.case((expired, until), else_=table.c.until),
            },
            where=sa.or_(expired, table.c.count < sa.bindparam("most", type_=sa.Integer)),
        )
        .returning(table.c.count, table.c.start)
    )
    return _compiled(statement)


@functools.cache
def _started() -> Compiled:
    """When a key's window started (the wait a refusal names)."""
    table = throttles_table
    query = sa.select(table.c.start).where(table.c.key == sa.bindparam("key", type_=sa.String))
    return _compiled(query)


class Throttles:
    """The throttles as their own short transactions (synchronous: run off the event loop), and
    one ceiling in one statement from the event loop where the wiring gives a way
    (``take_one``)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.calls = 0
        self.statement: Statement | None = None
        """Sends a statement from the event loop (on PostgreSQL, set by the wiring: the table's
        ``LoopConnections.row``); None: ``take_one`` takes on a storage thread."""

    async def take_one(
        self, ceiling: Ceiling, db: Callable[..., Awaitable[Any]], now: float | None = None
    ) -> Left:
        """One attempt against ``ceiling`` (``Throttled`` past it), as ``take`` counts it: in
        one statement from the event loop if the wiring gave a way, else ``take`` through
        ``db`` (a storage thread). Returns what the ceiling has left."""
        now = time.time() if now is None else now
        if self.statement is None:
            left: Left = await db(self.take, [ceiling], now)
            return left
        (counted, fixed), (started, _) = _counted(), _started()
        key = ceiling.key[:KEY_LENGTH]
        window = ceiling.window
        values = {"key": key, "now": now, "until": now + window, "old": now - window}
        row = await self.statement(counted, {**fixed, **values, "most": ceiling.most})
        if row is None:
            start = await self.statement(started, {"key": key})
            raise Throttled(ceiling, (float(start[0]) if start else now) + window - now)
        self.calls += 1
        if self.calls % FORGET_EVERY == 0:
            await db(self.forget, now)
        return Left(ceiling.most - int(row[0]), float(row[1]) + window - now)

    async def take_for(
        self, ceiling: VisitorCeiling, owner: str, address: str, db: Callable[..., Awaitable[Any]]
    ) -> None:
        """One attempt of a visitor against both of ``ceiling``'s counts (``take`` through
        ``db``, a storage thread); a refusal is raised as ``ceiling``'s 429 (``ApiError``)."""
        try:
            await db(self.take, ceiling.ceilings(owner, address))
        except Throttled as exc:
            raise exc.error(ceiling.code, ceiling.message) from None

    def take(self, ceilings: Sequence[Ceiling], now: float | None = None) -> Left:
        """One attempt against every ceiling, all or none (``Throttled`` if one is reached);
        what the last ceiling has left."""
        now = time.time() if now is None else now
        with self.engine.begin() as conn:
            left = take(conn, ceilings, now)
        self.calls += 1
        if self.calls % FORGET_EVERY == 0:
            self.forget(now)
        return left

    def forget(self, now: float) -> None:
        """Drop rows whose window has ended, a few at a time in a transaction of their own
        (never inside a ``take``: two of those deleting each other's locked rows could
        deadlock), skipping rows another transaction holds."""
        old = sa.select(throttles_table.c.key).where(throttles_table.c.until < now).limit(100)
        if self.engine.dialect.name == "postgresql":
            old = old.with_for_update(skip_locked=True)
        with self.engine.begin() as conn:
            conn.execute(throttles_table.delete().where(throttles_table.c.key.in_(old)))

    def give_back(self, keys: Sequence[str]) -> None:
        with self.engine.begin() as conn:
            give_back(conn, keys)

    def count(self, key: str, now: float | None = None) -> int:
        """Attempts counted for ``key`` in its current window (0 if none or the window ended)."""
        now = time.time() if now is None else now
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(throttles_table.c.count, throttles_table.c.until).where(
                    throttles_table.c.key == key[:KEY_LENGTH]
                )
            ).one_or_none()
        return 0 if row is None or row.until <= now else int(row[0])
