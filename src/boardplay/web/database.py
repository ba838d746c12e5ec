"""Opening a database: one SQLAlchemy engine per URL, with the SQLite settings the web app relies
on (foreign keys on, write-ahead log, a full sync per commit so an acknowledged move survives a
power cut) and the file's directory made on first use."""

from __future__ import annotations

import asyncio
import functools
import json
import time
import zlib
from collections.abc import Awaitable, Callable, Collection, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, ParamSpec, TypeVar, cast

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.sql.compiler import SQLCompiler

from boardplay.web.errors import not_found

metadata = sa.MetaData()
"""Every domain's tables, each declared by the store that owns it; the Alembic migrations are
what create them in a database (``migrate.py``), and the tests compare the two."""
POOL_SIZE = 12
"""Connections kept open per engine (a server process has ``DB_THREADS`` database threads)."""
DB_THREADS = 8
"""Storage calls one process has in flight at once (PostgreSQL); within SQLAlchemy's default
pool of 5 + 10 connections."""
RESTED = 5.0
"""Seconds a pooled PostgreSQL connection may rest unused before its next use is preceded by a
ping (``make_engine``)."""
P = ParamSpec("P")
T = TypeVar("T")
Runner = Callable[..., Awaitable[Any]]
"""What a domain runs its store's calls with: ``await run(call, *args)`` on the process's
storage threads (``StorageThreads``), or a test's stand-in."""


def make_engine(url: str) -> Engine:
    """An engine for ``url``; a SQLite file's directory is created on first use."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database
        if database and database != ":memory:" and not database.startswith("file:"):
            Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(url, connect_args={"check_same_thread": False})

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.close()

        return engine
    # Enough pooled connections for every database thread of a process (``DB_THREADS``) and
    # a few callers besides: a connection made past the pool is closed after one use, and
    # PostgreSQL connections cost several milliseconds of CPU to make (bench-web saw them churn).
    engine = sa.create_engine(url, pool_size=POOL_SIZE, max_overflow=8)
    ping_when_rested(engine)
    return engine


def autocommitting(engine: Engine) -> Engine:
    """``engine`` with each statement its own transaction: for a read of one statement, and for
    a write of one statement, which is all or nothing by itself. No ``BEGIN`` and ``COMMIT`` (or
    ``ROLLBACK``) round trips around it, each a statement the database parses and the storage
    thread waits on; a read sees what is committed when it runs, as under READ COMMITTED. A
    change of several statements, or one read under a lock it takes, keeps a transaction."""
    return engine.execution_options(isolation_level="AUTOCOMMIT")


def ping_when_rested(engine: Engine) -> None:
    """Ping a pooled connection before it is used only if it rested ``RESTED`` seconds or more
    since its last use (SQLAlchemy's ``pool_pre_ping`` pings before every use: a round trip a
    storage call, forty per game of a bots' arena in ``make bench-web``). A connection in use a
    moment ago is almost surely alive; if the database went away in between, the call fails
    and SQLAlchemy drops every connection of the pool, so the next calls connect afresh, as
    the loop's pool of the moves does (``table/pgwrite.py``). One that failed its ping is
    replaced at once (``DisconnectionError``: the pool takes another)."""

    @sa.event.listens_for(engine, "checkin")
    def _rests(_dbapi_connection: Any, record: Any) -> None:
        record.info["rests_since"] = time.monotonic()

    @sa.event.listens_for(engine, "checkout")
    def _ping_if_rested(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get("rests_since")
        if since is None or time.monotonic() - since < RESTED:
            return  # new (just connected), or used a moment ago
        try:
            alive = engine.dialect.do_ping(dbapi_connection)
        except engine.dialect.loaded_dbapi.Error as exc:
            raise sa.exc.DisconnectionError(str(exc)) from exc
        if not alive:
            raise sa.exc.DisconnectionError("the connection did not answer its ping")


LoopRows = Callable[[str, dict[str, Any]], Awaitable[list[tuple[Any, ...]]]]
"""Sends one statement's text from the event loop and gives its rows (``table/pgwrite.py``)."""


class OneStatement:
    """A store's statement that is all its call asks of the database (a read, or a write that is
    all or nothing by itself), built once with its values as bound parameters, and sent by
    ``StorageThreads.rows``: on PostgreSQL as its text from the event loop, on the connections
    the moves use; elsewhere through SQLAlchemy on a storage thread.

    A storage thread's call costs far more than its statement: measured in process, about 55 µs
    of CPU to hand a call to a thread and back, 60 to check a connection out of SQLAlchemy's pool
    and back, and 60 to build a statement, against 60 for psycopg sending it; a bots' arena
    game made about thirty such calls. The values go to psycopg as they are but for JSON ones,
    written as SQLAlchemy writes them, so a statement's columns must need no other conversion of
    SQLAlchemy's own (texts, numbers, timestamps do not); its rows are read by position or by
    name. ``postgres``: the same statement in PostgreSQL's words where they differ (a list as
    one array, ``bound_among``; an upsert), sent to it either way."""

    def __init__(self, statement: sa.Executable, postgres: sa.Executable | None = None) -> None:
        self.statement = statement
        self.postgres = statement if postgres is None else postgres

    def on(self, autocommit: Engine, values: dict[str, Any]) -> Sequence[Any]:
        """Its rows (none for a write that returns none), run now through SQLAlchemy on a
        connection of ``autocommit`` (an engine in autocommit): on a storage thread, or in a
        store's own synchronous call of it (what the tests and tools call)."""
        postgres = autocommit.dialect.name == "postgresql"
        with autocommit.connect() as conn:
            result = conn.execute(self.postgres if postgres else self.statement, values)
            return result.all() if result.returns_rows else []

    @functools.cached_property
    def compiled(self) -> tuple[str, dict[str, Any], frozenset[str]]:
        """Its text for psycopg, the values it fixes itself, and the names of its JSON values."""
        from sqlalchemy.dialects.postgresql import psycopg

        statement = cast(sa.ClauseElement, self.postgres)
        compiled = cast(
            SQLCompiler,
            statement.compile(dialect=psycopg.dialect()),  # type: ignore[no-untyped-call]
        )
        fixed = {k: v for k, v in compiled.params.items() if v is not None}
        json_names = frozenset(
            name for name, bound in compiled.binds.items() if isinstance(bound.type, sa.JSON)
        )
        return str(compiled), fixed, json_names


class StorageThreads:
    """The threads one server process runs its storage calls on, so that the event loop never
    blocks on the database: ``DB_THREADS`` on PostgreSQL, one on SQLite, which takes one
    writer at a time. Every domain's API runs its store's calls through the process's one
    pool (``threads(call, *args)``), so one ceiling holds for them all; a call that is one
    statement goes through ``rows``."""

    def __init__(self, engine: Engine) -> None:
        count = 1 if engine.dialect.name == "sqlite" else DB_THREADS
        self.pool = ThreadPoolExecutor(count, thread_name_prefix="boardplay-db")
        self.autocommit = autocommitting(engine)
        self.loop: LoopRows | None = None
        """Sends a statement from the event loop (on PostgreSQL, set by the wiring: the table's
        ``LoopConnections.rows``); None: ``rows`` runs on a storage thread."""

    def __call__(self, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> Awaitable[T]:
        """Run ``call(*args, **kwargs)`` on a storage thread; await its answer."""
        loop = asyncio.get_running_loop()
        return loop.run_in_executor(self.pool, functools.partial(call, *args, **kwargs))

    async def rows(self, statement: OneStatement, values: dict[str, Any]) -> Sequence[Any]:
        """``statement``'s rows with these ``values``, from the event loop where the wiring gave
        a way, else on a storage thread."""
        if self.loop is not None:
            text, fixed, json_names = statement.compiled
            for name in json_names & values.keys():
                if values[name] is not None:
                    values = {**values, name: json.dumps(values[name])}
            return await self.loop(text, {**fixed, **values})
        return await self(statement.on, self.autocommit, values)

    def close(self) -> None:
        self.pool.shutdown(wait=True)


def by_id(conn: sa.Connection, table: sa.Table, key: str, what: str) -> sa.Row[Any]:
    """The row of ``table`` whose ``id`` is ``key``, or a 404 saying there is no ``what`` of
    that id (a link to something gone or never made is a visitor's bad input, not a fault)."""
    row = conn.execute(table.select().where(table.c.id == key)).one_or_none()
    if row is None:
        raise not_found(f"no {what} {key!r}")
    return row


def lock(conn: sa.Connection, name: str) -> None:
    """Hold a lock named ``name`` until ``conn``'s transaction ends, so that a count and the
    insert it allows are one step for whoever takes the same name (PostgreSQL: a transaction
    advisory lock; SQLite has one writer, and a server process one thread for it)."""
    if conn.dialect.name == "postgresql":
        key = zlib.crc32(name.encode()) - 2**31
        conn.execute(sa.select(sa.func.pg_advisory_xact_lock(key)))


SEPARATOR = "\x1f"
"""Joins the texts of one array sent as a single text (``text_array``); no id holds it."""


def bound_among(
    column: sa.ColumnElement[Any], name: str
) -> tuple[sa.ColumnElement[bool], sa.ColumnElement[bool]]:
    """``column`` among the list bound as ``name``, for a ``OneStatement``: an expanding ``IN``
    (on a storage thread, any database), and one array for PostgreSQL (``= ANY``, as ``among``)."""
    listed: sa.BindParameter[Any] = sa.bindparam(name, expanding=True)
    array = sa.bindparam(name, type_=ARRAY(column.type))
    return column.in_(listed), column == sa.any_(array)


def among(
    column: sa.ColumnElement[Any], values: Collection[Any], engine: Engine
) -> sa.ColumnElement[bool]:
    """``column IN values``, as ``engine``'s database reads it fastest. On PostgreSQL it is one
    array (``column = ANY(:values)``): an ``IN`` list has a placeholder per value, so its text
    changes with the count and, for the hundreds of games a periodic check names, is too long
    for psycopg's cache of parsed queries: psycopg parsed it anew at every check (8% of a
    loaded process's CPU in ``make bench-web``). Texts go as one joined text (``text_array``)."""
    if engine.dialect.name == "postgresql":
        if all(isinstance(v, str) for v in values):
            return column == sa.any_(text_array(list(values)))
        return column == sa.any_(sa.literal(list(values), ARRAY(column.type)))
    return column.in_(list(values))


def joined(values: Sequence[str]) -> str:
    """``values`` as one text for PostgreSQL's ``string_to_array(text, SEPARATOR)``: psycopg
    dumps a list parameter element by element in Python (about 2 ms of CPU for 200 game ids,
    most of a periodic check), and one text costs next to nothing. ``ValueError`` if a value
    holds the separator."""
    text = SEPARATOR.join(values)
    if text.count(SEPARATOR) != max(0, len(values) - 1):
        raise ValueError("a value holds the array separator")
    return text


def text_array(values: Sequence[str]) -> sa.ColumnElement[Any]:
    """A PostgreSQL ``text[]`` of ``values``, sent as one text split on the server
    (``joined``)."""
    text = joined(values)
    if not values:
        return sa.cast(sa.literal([], ARRAY(sa.Text)), ARRAY(sa.Text))
    return sa.func.string_to_array(sa.literal(text, sa.Text), sa.literal(SEPARATOR, sa.Text))
