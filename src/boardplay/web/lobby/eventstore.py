"""Lobby events: how the other server processes learn of a change in the
lobby. Each change writes one (in the same transaction where it matters: the list of seeks), and
every process with lobby sockets reads the newest ones every second (``sockets.py``); a message
for one account's sockets (a challenge, a game started) is one too, and a player's new socket
reads the games started for it lately from them (``started_for``). Events are kept a minute."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from boardplay.web.database import OneStatement, StorageThreads, among, metadata

SEEKS = "seeks"
"""Event kind: the list of seeks changed (``account_id``: whose seeks)."""
NOTICE = "notice"
"""Event kind: a message for the lobby sockets of one account (``message``)."""
EVENT_KEEP = 60.0
"""Seconds a lobby event is kept (every process reads the last few seconds' every second)."""

lobby_events_table = sa.Table(
    "lobby_events",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("at", sa.Float, nullable=False, index=True),
    sa.Column("origin", sa.String(16), nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("account_id", sa.Integer, nullable=True),
    sa.Column("message", sa.JSON, nullable=True),
)


@dataclass(frozen=True)
class Event:
    id: int
    origin: str
    kind: str
    account_id: int | None
    message: dict[str, Any] | None


def event_of(origin: str, kind: str, account_id: int | None, message: Any = None) -> dict[str, Any]:
    return {"origin": origin, "kind": kind, "account_id": account_id, "message": message}


class EventStore:
    """Writing and reading the lobby's events (part of ``SeekStore``)."""

    engine: Engine
    autocommit: Engine

    def _events(self, conn: sa.Connection, at: float, events: Sequence[dict[str, Any]]) -> None:
        """Store ``events``: one statement each, sent together. One ``INSERT`` of several rows
        (``values([...])``) has no cache key in SQLAlchemy, so it was compiled again at every
        call: ten times the CPU (in process on SQLite, 340 µs against 30 for two rows)."""
        if events:
            conn.execute(lobby_events_table.insert(), [{"at": at, **e} for e in events])

    def started_for(self, account_id: int, since: float) -> list[dict[str, Any]]:
        """The ``started`` notices sent to ``account_id`` since ``since`` (oldest first), one
        per game: what a page that was reloading at the moment missed (the lobby keeps those
        whose game is still being played)."""
        query = (
            lobby_events_table.select()
            .where(
                lobby_events_table.c.kind == NOTICE,
                lobby_events_table.c.account_id == account_id,
                lobby_events_table.c.at >= since,
            )
            .order_by(lobby_events_table.c.id)
        )
        with self.autocommit.connect() as conn:
            found = [
                dict(r.message)
                for r in conn.execute(query)
                if isinstance(r.message, dict) and r.message.get("type") == "started"
            ]
        seen: set[str] = set()
        out = []
        for message in found:
            game = str(message.get("game"))
            if game not in seen:
                seen.add(game)
                out.append(message)
        return out

    def events_since(self, since: float, seen: Collection[int] = ()) -> list[Event]:
        """The events written since ``since`` but those whose ids are in ``seen``, oldest
        first. Their ids are read first and only the unseen rows whole: every process reads
        the last ``LOOKBACK`` seconds' events every second and on every nudge
        (``sockets.py``), and a wave of 500 tournament games is a thousand notices, whose
        messages decoded again at each read were a sixth of a server's time while the wave
        was made (``tools/crowdbench.py``)."""
        table = lobby_events_table
        with self.autocommit.connect() as conn:
            ids = conn.scalars(sa.select(table.c.id).where(table.c.at >= since))
            fresh = sorted(i for i in ids if i not in seen)
            if not fresh:
                return []
            query = table.select().where(among(table.c.id, fresh, self.engine)).order_by(table.c.id)
            return [
                Event(int(r.id), r.origin, r.kind, r.account_id, r.message)
                for r in conn.execute(query)
            ]


_NOTICE = OneStatement(
    lobby_events_table.insert().values(
        at=sa.bindparam("at"),
        origin=sa.bindparam("origin"),
        kind=NOTICE,
        account_id=sa.bindparam("account_id"),
        message=sa.bindparam("message"),
    )
)


async def notify(
    db: StorageThreads, origin: str, notices: Sequence[tuple[int, Mapping[str, Any]]], now: float
) -> None:
    """Messages for the lobby sockets of accounts, for the other processes to deliver: each
    stored by itself, one statement from the event loop where the database allows, as each is a
    hint on its own (a notice lost with a process that dies in between is one it would not have
    sent a moment earlier; an account's games are found again without it). Every game made
    tells its players."""
    for account_id, message in notices:
        values = {"at": now, "origin": origin, "account_id": account_id, "message": dict(message)}
        await db.rows(_NOTICE, values)
