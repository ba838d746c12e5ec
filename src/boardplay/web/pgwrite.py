"""A move's write on PostgreSQL in one round trip.

``Storage.append_moves`` is on every move's path. Written as a transaction it costs five round
trips (the pool's pre-ping, ``BEGIN``, the game's update, the actions' insert, ``COMMIT``), each a
wake-up of a storage thread and a pass through the driver. On PostgreSQL the same change is one
statement: a data-modifying ``WITH`` raises the game's revision (only from the expected one)
and inserts the actions from arrays only if that update found its row, run in autocommit, where
a single statement is its own transaction (all or nothing). The statements are built once per
shape with bound parameters, so SQLAlchemy compiles each shape once and reuses it.

The writes have a pool of their own without the pre-ping (a ``SELECT 1`` round trip before every
use of a pooled connection: 0.3 ms of CPU per move in ``make bench-web``). A connection that died
meanwhile (PostgreSQL restarted, an idle connection cut) fails the statement before anything is
written; SQLAlchemy then drops the pool's connections and the write is tried once more on a new
one. A retry is safe even if the first try's commit was lost on its way back: the statement is
conditional on the revision, and a ply already stored breaks the primary key, so a second try
cannot write twice (it reports a stale write, and the room reloads the game).

SQLite has no data-modifying ``WITH``; ``storage.py`` keeps the transaction there."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa
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
        sa.func.unnest(
            sa.bindparam("plies", type_=pg.ARRAY(sa.Integer)),
            sa.bindparam("actions", type_=pg.ARRAY(sa.Integer)),
            sa.bindparam("notations", type_=pg.ARRAY(sa.String)),
            sa.bindparam("players", type_=pg.ARRAY(sa.Integer)),
        )
        .table_valued(*_COLUMNS)
        .render_derived(name="m")
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


class OneStatementWrite:
    """``append_moves`` for PostgreSQL; ``write`` returns the new revision, or None when the
    game's revision was not the one expected (nothing written)."""

    def __init__(self, url: sa.URL, connections: int) -> None:
        self.engine = sa.create_engine(
            url, pool_size=connections, max_overflow=4, isolation_level="AUTOCOMMIT"
        )
        self._shapes: dict[tuple[str, ...], sa.Select[Any]] = {}

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
        shape = tuple(sorted(values))
        statement = self._shapes.get(shape)
        if statement is None:
            statement = self._shapes[shape] = _statement(shape)
        params = {
            "game_id": game_id,
            "revision": revision,
            "now": now,
            "plies": [first_ply + i for i in range(len(moves))],
            "actions": [m.action for m in moves],
            "notations": [m.notation for m in moves],
            "players": [m.player for m in moves],
            **values,
        }
        for attempt in (1, 2):
            try:
                with self.engine.connect() as conn:
                    row = conn.execute(statement, params).one_or_none()
                return None if row is None else int(row.revision)
            except sa.exc.DBAPIError as exc:
                if not exc.connection_invalidated or attempt == 2:
                    raise
        raise AssertionError("unreachable")
