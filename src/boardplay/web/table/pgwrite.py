"""A move's write on PostgreSQL: one statement, sent from the event loop.

Every move is stored before anyone is told of it, so this write is on every move's path. As a
transaction (``Storage.write``, which SQLite keeps) it costs five round trips: the pool's
pre-ping, ``BEGIN``, the game's update, the actions' insert, ``COMMIT``. On PostgreSQL the same
change is one statement: a data-modifying ``WITH`` raises the game's revision (only from the
expected one) and inserts the plies, handed over as one JSON recordset, only if that update found
its row; in autocommit a single statement is its own transaction (all or nothing). The statement
is written with SQLAlchemy (its tables and types) and compiled once per shape of change.

It is sent by psycopg's asynchronous connection on the server's event loop, from a pool of its
own (psycopg_pool, ``LoopConnections``, which the periodic checks share: ``pgchecks.py``), not
through SQLAlchemy on a storage thread like the other storage calls: measured in process,
handing a statement to a thread and back costs about 80 µs of CPU, the asynchronous connection
about 20, and SQLAlchemy's execution layer about 90 more than psycopg alone. While the database
commits (an fsync), the loop serves everyone else.

The pool has no pre-ping (a ``SELECT 1`` round trip before every use of a connection: 0.3 ms of
CPU per move in ``make bench-web``). A connection that died meanwhile (PostgreSQL restarted, an
idle connection cut) fails the statement before anything is written; the pool then checks its
other idle connections and the write is tried once more. A retry is safe even if the first try's
commit was lost on its way back: the statement is conditional on the revision, and a ply already
stored breaks the primary key, so a second try cannot write twice (it reports a stale write, and
the room reloads the game)."""

from __future__ import annotations

import json
from typing import Any

import psycopg
import sqlalchemy as sa
from psycopg.rows import namedtuple_row, tuple_row
from psycopg.types.json import Json
from psycopg_pool import AsyncConnectionPool
from sqlalchemy.dialects import postgresql as pg

from boardplay.web.database import OneStatement
from boardplay.web.table import storage as st
from boardplay.web.table.rows import MoveWrite
from boardplay.web.table.schema import actions_table, games_table

_COLUMNS = ("ply", "action", "notation", "player")


def _statement(values: tuple[str, ...]) -> sa.Select[Any]:
    """The one statement for a change that sets the game's columns ``values``: the new revision
    (no row when the expected revision was not there)."""
    games = games_table.c
    bump = (
        games_table.update()
        .where(games.id == sa.bindparam("game_id"))
        .where(
            games.revision
            == sa.func.coalesce(sa.bindparam("revision", type_=sa.Integer), games.revision)
        )
        .values(
            revision=games.revision + 1,
            updated=sa.bindparam("now"),
            **{name: sa.bindparam(name, type_=_bind_type(games[name].type)) for name in values},
        )
        .returning(games.revision)
        .cte("bump")
    )
    moves = (
        sa.func.json_to_recordset(sa.bindparam("moves", type_=pg.JSON))
        .table_valued(*(sa.column(name, actions_table.c[name].type) for name in _COLUMNS))
        .render_derived(name="m", with_types=True)
    )
    insert = (
        actions_table.insert()
        .from_select(
            ["game_id", *_COLUMNS, "created"],
            sa.select(
                sa.bindparam("game_id", type_=sa.String),
                *(moves.c[name] for name in _COLUMNS),
                sa.bindparam("now", type_=actions_table.c.created.type),
            ).select_from(bump.join(moves, sa.true())),
        )
        .cte("inserted")
    )
    return sa.select(bump.c.revision).add_cte(insert)


def _bind_type(column_type: Any) -> Any:
    """A column's type for a bound value; a JSON column takes None as SQL NULL, as a literal
    None in ``values()`` does on the transaction's path (not the JSON text ``null``)."""
    return sa.JSON(none_as_null=True) if isinstance(column_type, sa.JSON) else column_type


class _Shape:
    """One statement compiled for psycopg: its text, the values it fixes itself (the revision's
    step), and the columns whose values psycopg must be told are JSON."""

    def __init__(self, values: tuple[str, ...]) -> None:
        self.text, self.fixed, _ = OneStatement(_statement(values)).compiled
        self.json = [name for name in values if isinstance(games_table.c[name].type, sa.JSON)]


HELD = 2
"""Connections ``LoopConnections`` keeps at hand between statements, out of the pool."""


class LoopConnections:
    """PostgreSQL connections used from the event loop (psycopg's asynchronous connections, in
    autocommit, from a pool of their own): the moves' writes here, the periodic checks
    (``pgchecks.py``), and every domain's calls of one statement (``database.OneStatement``,
    the wiring hands them ``rows``). The pool opens at the first statement, on the loop that
    uses it (its tasks run there); close it on that loop.

    Up to ``HELD`` connections stay out of the pool between statements, ready for the next one:
    a checkout and return through psycopg_pool (its lock, statistics and the returned
    connection's reset) cost 250 µs of CPU per statement on a machine whose caches went cold
    between moves, against a list's pop and append. Only a connection left idle by a finished
    statement is kept; any other goes back to the pool, which closes it if it is not sound."""

    def __init__(self, url: sa.URL, connections: int) -> None:
        conninfo = url.set(drivername="postgresql").render_as_string(hide_password=False)
        self.pool = AsyncConnectionPool(
            conninfo,
            min_size=1,
            max_size=connections,
            open=False,
            kwargs={"autocommit": True},
            name="boardplay-loop",
        )
        self._held: list[psycopg.AsyncConnection[Any]] = []

    async def close(self) -> None:
        await self._release()
        await self.pool.close()

    async def row(self, text: str, params: dict[str, Any]) -> tuple[Any, ...] | None:
        """The statement's one row (None: none), tried once more on another connection if
        PostgreSQL had cut the first (``psycopg.IntegrityError`` and the like pass through)."""
        found = await self._run(text, params, every=False)
        return found[0] if found else None

    async def rows(self, text: str, params: dict[str, Any]) -> list[tuple[Any, ...]]:
        """The statement's rows, each read by position or by column name as SQLAlchemy's rows
        are (named tuples), tried again as ``row`` is."""
        return await self._run(text, params, every=True)

    async def _run(self, text: str, params: dict[str, Any], every: bool) -> list[tuple[Any, ...]]:
        if self.pool.closed:
            await self.pool.open()
        for attempt in (1, 2):
            connection = await self._take()
            try:
                cursor = connection.cursor(row_factory=namedtuple_row if every else tuple_row)
                await cursor.execute(text, params)
                if cursor.description is None:  # a write that returns nothing
                    return []
                if every:
                    return await cursor.fetchall()
                first = await cursor.fetchone()
                return [] if first is None else [first]
            except psycopg.OperationalError:
                if not connection.broken or attempt == 2:
                    raise
                # Most likely cut with the one that failed (PostgreSQL restarted): the pool
                # checks every connection not in use, the held ones too.
                await self._release()
                await self.pool.check()
            finally:
                await self._give(connection)
        raise AssertionError("unreachable")

    async def _take(self) -> psycopg.AsyncConnection[Any]:
        if self._held:
            return self._held.pop()
        return await self.pool.getconn()

    async def _give(self, connection: psycopg.AsyncConnection[Any]) -> None:
        idle = connection.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
        if idle and not connection.closed and len(self._held) < HELD and not self.pool.closed:
            self._held.append(connection)
        else:
            await self.pool.putconn(connection)

    async def _release(self) -> None:
        """Every held connection back to the pool."""
        held, self._held = self._held, []
        for connection in held:
            await self.pool.putconn(connection)


class MovesWriter:
    """``Storage.write`` for PostgreSQL, awaited on the event loop."""

    def __init__(self, connections: LoopConnections) -> None:
        self.connections = connections
        self._shapes: dict[tuple[str, ...], _Shape] = {}

    async def write(self, move: MoveWrite) -> int:
        """As ``Storage.write``: the new revision, or ``StaleWrite`` (nothing stored)."""
        plies = [
            {"ply": ply, "action": m.action, "notation": m.notation, "player": m.player}
            for ply, m in enumerate(move.moves, start=move.first_ply)
        ]
        return await self._bump(move.game_id, move.revision, move.values(), json.dumps(plies))

    async def set(self, game_id: str, revision: int | None, values: dict[str, Any]) -> int:
        """As ``Storage._set``: the game's columns ``values`` with no plies (a clock that starts),
        the new revision or ``StaleWrite``."""
        return await self._bump(game_id, revision, values, "[]")

    async def _bump(
        self, game_id: str, revision: int | None, values: dict[str, Any], plies: str
    ) -> int:
        key = tuple(sorted(values))
        shape = self._shapes.get(key)
        if shape is None:
            shape = self._shapes[key] = _Shape(key)
        params = {
            **shape.fixed,
            **values,
            "game_id": game_id,
            "revision": revision,
            "now": st.utc_now(),
            "moves": plies,
        }
        for name in shape.json:
            if params[name] is not None:
                params[name] = Json(params[name])
        try:
            row = await self.connections.row(shape.text, params)
        except psycopg.IntegrityError:  # a ply already stored: a retry of a lost commit
            row = None
        if row is None:
            raise st.StaleWrite(game_id)
        return int(row[0])
