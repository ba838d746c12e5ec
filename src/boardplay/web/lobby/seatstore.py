"""Seats taken at open tables (migration 0018): a seek for three or four players is a *table*
that fills up seat by seat, as Board Game Arena's do, and each seat taken there is a row here
(the owner's own seat is the seek itself).

A seat lives as its holder's seeks do (``store.py``): the process that holds the holder's lobby
socket claims it (``epoch``) and renews its ``heartbeat``; when their last socket closes it is
released and, after the grace, dropped; one not renewed for ``Limits.seek_ttl`` seconds (a dead
process's) no longer counts and is deleted. A seat whose table is gone is deleted too.

The functions here take the caller's connection: ``SeekStore`` runs them inside its
transactions, under the lock on the table's row that makes taking the last seat one step."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from boardplay.web.accounts import people
from boardplay.web.database import metadata

seek_seats_table = sa.Table(
    "seek_seats",
    metadata,
    sa.Column("seek_id", sa.String(16), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("joined", sa.Float, nullable=False),
    sa.Column("heartbeat", sa.Float, nullable=False, index=True),
    sa.Column("epoch", sa.String(16), nullable=False),
    sa.Index("ix_seek_seats_account_id", "account_id"),
)
"""``rating``: the holder's rating in the table's pool when they sat down (shown in the list).
``epoch``: the process whose lobby socket of the holder keeps the seat ('' while none has)."""


@dataclass(frozen=True)
class Sitter:
    """A player seated at a table besides its owner."""

    account_id: int
    name: str
    rating: float
    joined: float

    def to_json(self) -> dict[str, Any]:
        return {"player": self.name, "rating": round(self.rating)}


class SitRefused(Exception):
    """Why a seat was not taken: ``gone`` (no such live table), ``own`` (the owner's table),
    ``seated`` (already there) or ``held`` (``count`` seats held at other tables already)."""

    def __init__(self, reason: str, count: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.count = count


def live(now: float, ttl: float) -> Any:
    return seek_seats_table.c.heartbeat >= now - ttl


def seated_at(
    conn: sa.Connection, seek_ids: Iterable[str], now: float, ttl: float
) -> dict[str, tuple[Sitter, ...]]:
    """The live seats of these tables, by table, in the order they were taken (holders whose
    account was deleted left their seats)."""
    ids = sorted(set(seek_ids))
    if not ids:
        return {}
    seats = seek_seats_table
    query = (
        sa.select(seats, people.c.name)
        .join(people, people.c.id == seats.c.account_id)
        .where(
            seats.c.seek_id.in_(ids),
            live(now, ttl),
            people.c.deleted.is_(sa.false()),
        )
        .order_by(seats.c.joined, seats.c.account_id)
    )
    out: dict[str, list[Sitter]] = {}
    for row in conn.execute(query):
        out.setdefault(row.seek_id, []).append(
            Sitter(int(row.account_id), row.name, float(row.rating), float(row.joined))
        )
    return {k: tuple(v) for k, v in out.items()}


def held_by(conn: sa.Connection, account_id: int, live_seeks: Any, now: float, ttl: float) -> int:
    """Live seats ``account_id`` holds at live tables (``live_seeks``: their ids, a query)."""
    seats = seek_seats_table
    return int(
        conn.execute(
            sa.select(sa.func.count()).where(
                seats.c.account_id == account_id,
                live(now, ttl),
                seats.c.seek_id.in_(live_seeks),
            )
        ).scalar_one()
    )


def seat_ids_of(conn: sa.Connection, account_id: int, now: float, ttl: float) -> list[str]:
    """The tables where ``account_id`` holds a live seat."""
    seats = seek_seats_table
    query = sa.select(seats.c.seek_id).where(seats.c.account_id == account_id, live(now, ttl))
    return [str(r) for r in conn.execute(query).scalars()]


def insert(
    conn: sa.Connection,
    seek_id: str,
    sitters: Sequence[Sitter],
    now: float,
    epoch: str,
) -> None:
    if sitters:
        conn.execute(
            seek_seats_table.insert(),
            [
                {
                    "seek_id": seek_id,
                    "account_id": s.account_id,
                    "rating": s.rating,
                    "joined": s.joined,
                    "heartbeat": now,
                    "epoch": epoch,
                }
                for s in sitters
            ],
        )


def delete_of(conn: sa.Connection, seek_ids: Sequence[str]) -> None:
    """Every seat of these tables (they are gone, or started)."""
    if seek_ids:
        conn.execute(seek_seats_table.delete().where(seek_seats_table.c.seek_id.in_(seek_ids)))


def leave(conn: sa.Connection, seek_id: str, account_id: int) -> bool:
    done = conn.execute(
        seek_seats_table.delete().where(
            seek_seats_table.c.seek_id == seek_id, seek_seats_table.c.account_id == account_id
        )
    )
    return bool(done.rowcount)


def claim(conn: sa.Connection, account_ids: Sequence[int], epoch: str, now: float) -> None:
    for start in range(0, len(account_ids), 500):
        conn.execute(
            seek_seats_table.update()
            .where(seek_seats_table.c.account_id.in_(account_ids[start : start + 500]))
            .values(heartbeat=now, epoch=epoch)
        )


def release(conn: sa.Connection, account_id: int, epoch: str) -> int:
    done = conn.execute(
        seek_seats_table.update()
        .where(seek_seats_table.c.account_id == account_id, seek_seats_table.c.epoch == epoch)
        .values(epoch="")
    )
    return int(done.rowcount)


def drop_unclaimed(conn: sa.Connection, account_id: int, epoch: str) -> int:
    done = conn.execute(
        seek_seats_table.delete().where(
            seek_seats_table.c.account_id == account_id,
            seek_seats_table.c.epoch.in_(["", epoch]),
        )
    )
    return int(done.rowcount)


def upkeep(conn: sa.Connection, live_seeks: Any, now: float, ttl: float) -> int:
    """Delete seats nobody renewed and seats of tables that are gone."""
    seats = seek_seats_table
    done = conn.execute(
        seats.delete().where(
            sa.or_(seats.c.heartbeat < now - ttl, ~seats.c.seek_id.in_(live_seeks))
        )
    )
    return int(done.rowcount)
