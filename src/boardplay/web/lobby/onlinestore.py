"""Who is on the site now: the signed-in players with a lobby socket open on
some server process. The lobby's live connection is open on every page of the site from its
first paint (``static/lobbylive.js``), so a socket is a page, and a player with none is away, as
lichess's "online" is a socket anywhere.

Each process writes a row for an account as its first socket opens there, and at each of its
seek heartbeats (every third of ``Limits.seek_ttl``) rewrites its rows from the sockets it holds
then: the rows of accounts whose sockets have all closed go, the others are made fresh (``at``).
A row not refreshed for ``seek_ttl`` seconds belongs to a process that died and no longer
counts, and is deleted by any process's next heartbeat. So a player is online from their first
page, offline within one heartbeat of leaving the site, and within ``seek_ttl`` seconds of
their process's crash, on one process or many; the heartbeat alone decides what a closing
socket means, so no write of a socket's end can race the write of a new one. An account that
listens to its notices instead (a bot's event stream, ``Lobby.listen``) is online as one with
a page is: lichess's online bots are those with their event stream open."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine

from boardplay.web.accounts import people
from boardplay.web.database import OneStatement, StorageThreads, among, autocommitting, metadata

online_table = sa.Table(
    "lobby_online",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("process", sa.String(16), primary_key=True),
    sa.Column("at", sa.Float, nullable=False, index=True),
)
"""One row per account and process holding a lobby socket of it; ``at``: its last refresh."""


class OnlineStore:
    """The rows of who is online (synchronous: the lobby runs it off the event loop)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.autocommit = autocommitting(engine)

    def refresh(self, process: str, account_ids: Sequence[int], now: float, stale: float) -> None:
        """``account_ids`` are those with a socket on ``process`` now: their rows are fresh,
        the process's others go (their sockets closed since), and so do the rows nobody
        refreshed for ``stale`` seconds (a dead process's)."""
        t = online_table
        ids = sorted(set(account_ids))
        mine = t.c.process == process
        with self.engine.begin() as conn:
            if ids:
                conn.execute(
                    t.delete().where(mine, sa.not_(among(t.c.account_id, ids, self.engine)))
                )
                upsert = (
                    _HERE.postgres if self.engine.dialect.name == "postgresql" else _HERE.statement
                )
                conn.execute(
                    upsert, [{"account_id": a, "process": process, "at": now} for a in ids]
                )
            else:
                conn.execute(t.delete().where(mine))
            conn.execute(t.delete().where(t.c.at < now - stale))

    def forget(self, process: str) -> None:
        """Every row of ``process`` (it is shutting down)."""
        with self.engine.begin() as conn:
            conn.execute(online_table.delete().where(online_table.c.process == process))

    def online(self, account_ids: Sequence[int], now: float, stale: float) -> set[int]:
        """Those of ``account_ids`` with a socket on a live process."""
        if not account_ids:
            return set()
        t = online_table
        query = (
            sa.select(t.c.account_id)
            .where(among(t.c.account_id, sorted(set(account_ids)), self.engine))
            .where(t.c.at >= now - stale)
            .distinct()
        )
        with self.autocommit.connect() as conn:
            return {int(r) for r in conn.execute(query).scalars()}

    def bots(self, now: float, stale: float, limit: int) -> list[tuple[str, float]]:
        """(name, when made, in seconds) of up to ``limit`` bot accounts online now (a bot's
        event stream counts as its page: ``Lobby.present``), by name."""
        t, a = online_table, people.c
        query = (
            sa.select(a.name, a.created)
            .join(t, t.c.account_id == a.id)
            .where(a.bot.is_(sa.true()), a.deleted.is_(sa.false()), t.c.at >= now - stale)
            .group_by(a.id, a.name, a.created)
            .order_by(a.name)
            .limit(limit)
        )
        with self.autocommit.connect() as conn:
            return [(r.name, _stamp(r.created)) for r in conn.execute(query)]


def _stamp(value: datetime) -> float:
    """A stored time in seconds (SQLite hands back the UTC it stored without its zone)."""
    return (value if value.tzinfo else value.replace(tzinfo=UTC)).timestamp()


def _here_statement() -> OneStatement:
    values: dict[str, sa.BindParameter[Any]] = {
        name: sa.bindparam(name) for name in ("account_id", "process", "at")
    }
    upserts: list[sa.Executable] = []
    for insert in (sqlite.insert(online_table), postgresql.insert(online_table)):
        upserts.append(
            insert.values(values).on_conflict_do_update(
                index_elements=[online_table.c.account_id, online_table.c.process],
                set_={"at": insert.excluded.at},
            )
        )
    return OneStatement(*upserts)


_HERE = _here_statement()


async def came_online(db: StorageThreads, account_id: int, process: str, now: float) -> None:
    """The account's first socket on ``process``, or a bot's event stream, opened: online at
    once (one statement, from the event loop where the database allows)."""
    await db.rows(_HERE, {"account_id": account_id, "process": process, "at": now})
