"""A move's write on PostgreSQL in one round trip.

``Storage.append_moves`` is on every move's path. Written as a transaction it costs five round
trips (the pool's pre-ping, ``BEGIN``, the game's update, the actions' insert, ``COMMIT``), each a
wake-up of a storage thread and a pass through the driver. On PostgreSQL the same change is one
statement: a data-modifying ``WITH`` raises the game's revision (only from the expected one)
and inserts the actions from arrays only if that update found its row, run in autocommit, where
a single statement is its own transaction (all or nothing).

The statement is written with SQLAlchemy (its tables and types) and compiled once per shape; its
execution goes to psycopg directly, on a connection of the writes' own pool. Through
SQLAlchemy's execution layer the same call costs about 90 µs more CPU per move (230 against
145 µs, measured in process), and this is the one statement on every move's path.

The pool has no pre-ping (a ``SELECT 1`` round trip before every use of a pooled connection:
0.3 ms of CPU per move in ``make bench-web``). A connection that died meanwhile (PostgreSQL
restarted, an idle connection cut) fails the statement before anything is written; the pool's
connections are then dropped and the write is tried once more on a new one. A retry is safe even
if the first try's commit was lost on its way back: the statement is conditional on the
revision, and a ply already stored breaks the primary key, so a second try cannot write twice
(it reports a stale write, and the room reloads the game).

SQLite has no data-modifying ``WITH``; ``storage.py`` keeps the transaction there."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any, cast

import psycopg
import sqlalchemy as sa
from psycopg.types.json import Json
from sqlalchemy.dialects import postgresql as pg

from boardplay.core.records import Move
from boardplay.web.tables import actions_table, games_table

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

    def __init__(self, values: tuple[str, ...], dialect: sa.Dialect) -> None:
        compiled = _statement(values).compile(dialect=dialect)
        self.text = str(compiled)
        self.fixed = {k: v for k, v in compiled.params.items() if v is not None}
        self.json = [name for name in values if isinstance(games_table.c[name].type, sa.JSON)]


class OneStatementWrite:
    """``append_moves`` for PostgreSQL; ``write`` returns the new revision, or None when the
    game's revision was not the one expected, or a ply was already stored (nothing written)."""

    def __init__(self, url: sa.URL, connections: int) -> None:
        self.engine = sa.create_engine(
            url, pool_size=connections, max_overflow=4, isolation_level="AUTOCOMMIT"
        )
        self._shapes: dict[tuple[str, ...], _Shape] = {}

    def close(self) -> None:
        self.engine.dispose()

    def write(
        self,
        game_id: str,
        first_ply: int,
        moves: Sequence[Move],
        revision: int | None,
        now: datetime,
        values: dict[str, Any],
    ) -> int | None:
        key = tuple(sorted(values))
        shape = self._shapes.get(key)
        if shape is None:
            shape = self._shapes[key] = _Shape(key, self.engine.dialect)
        params = {
            **shape.fixed,
            **values,
            "game_id": game_id,
            "revision": revision,
            "now": now,
            "moves": json.dumps(
                [
                    {
                        "ply": first_ply + i,
                        "action": m.action,
                        "notation": m.notation,
                        "player": m.player,
                    }
                    for i, m in enumerate(moves)
                ]
            ),
        }
        for name in shape.json:
            if params[name] is not None:
                params[name] = Json(params[name])
        for attempt in (1, 2):
            connection = self.engine.raw_connection()
            driver = cast("psycopg.Connection[Any]", connection.driver_connection)
            try:
                with driver.cursor() as cursor:
                    cursor.execute(shape.text, params)
                    row = cursor.fetchone()
                return None if row is None else int(row[0])
            except psycopg.IntegrityError:
                return None
            except psycopg.OperationalError:
                if not driver.broken or attempt == 2:
                    raise
                # PostgreSQL cut it (and, most likely, the pool's other connections with it).
                connection.invalidate()
                self.engine.dispose()
            finally:
                if connection.dbapi_connection is not None:
                    connection.close()
        raise AssertionError("unreachable")
