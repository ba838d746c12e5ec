"""Stored relations: one row per ordered pair of accounts that have one, as lila
keeps them: the owner follows the other, or blocks them. A pair holds one relation at most, so a
block replaces the owner's follow; it also ends the other's follow of the owner (a player one
blocks no longer sees where one plays).

**Ceilings counted atomically.** A follow or a block is one transaction that first counts the
owner's attempt against the hourly throttle (``throttles.take``), then takes a lock named after
the owner (``database.lock``: PostgreSQL's advisory lock; SQLite has one writer), then counts the
owner's follows (or blocks) and inserts: a burst of follows from one account, on one process or
several, queues on the lock, and each sees the others' rows, so none passes the ceiling."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from boardplay.web.accounts import Account, people, person
from boardplay.web.database import (
    OneStatement,
    StorageThreads,
    autocommitting,
    bound_among,
    lock,
    metadata,
)
from boardplay.web.throttles import Ceiling, take

FOLLOW = "follow"
BLOCK = "block"

relations_table = sa.Table(
    "relations",
    metadata,
    sa.Column("owner", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("other", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Index("ix_relations_other_kind", "other", "kind"),
)
"""``owner`` follows or blocks (``kind``) ``other`` since ``created``."""

Change = Literal["done", "already", "blocking", "blocked", "full"]
"""What a follow or a block did: made it, found it made, or refused it (the owner blocks the
other, the other blocks the owner, the owner's ceiling is reached)."""


@dataclass(frozen=True)
class Related:
    """One account an owner follows or blocks, read now, and since when."""

    account: Account
    since: float


class RelationStore:
    """All database access for relations (synchronous: ``Relations`` runs it off the loop)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.autocommit = autocommitting(engine)

    def kind(self, owner: int, other: int) -> str | None:
        """What ``owner`` has with ``other``: ``FOLLOW``, ``BLOCK`` or None."""
        t = relations_table
        query = sa.select(t.c.kind).where(t.c.owner == owner, t.c.other == other)
        with self.autocommit.connect() as conn:
            found: str | None = conn.execute(query).scalar_one_or_none()
        return found

    def follow(self, owner: int, other: int, most: int, ceiling: Ceiling, now: float) -> Change:
        """``owner`` follows ``other``, unless either blocks the other or ``owner`` follows
        ``most`` players already."""
        with self.engine.begin() as conn:
            take(conn, [ceiling], now)
            lock(conn, f"relations:{owner}")
            mine, theirs = _both(conn, owner, other)
            if mine == FOLLOW:
                return "already"
            if mine == BLOCK:
                return "blocking"
            if theirs == BLOCK:
                return "blocked"
            if _count(conn, owner, FOLLOW) >= most:
                return "full"
            conn.execute(
                relations_table.insert().values(owner=owner, other=other, kind=FOLLOW, created=now)
            )
        return "done"

    def block(self, owner: int, other: int, most: int, ceiling: Ceiling, now: float) -> Change:
        """``owner`` blocks ``other`` (its follow of them replaced, theirs of it ended), unless
        ``owner`` blocks ``most`` players already."""
        t = relations_table
        with self.engine.begin() as conn:
            take(conn, [ceiling], now)
            lock(conn, f"relations:{owner}")
            mine, theirs = _both(conn, owner, other)
            if mine == BLOCK:
                return "already"
            if _count(conn, owner, BLOCK) >= most:
                return "full"
            if mine is not None:
                conn.execute(t.delete().where(t.c.owner == owner, t.c.other == other))
            if theirs == FOLLOW:
                conn.execute(t.delete().where(t.c.owner == other, t.c.other == owner))
            conn.execute(t.insert().values(owner=owner, other=other, kind=BLOCK, created=now))
        return "done"

    def end(self, owner: int, other: int, kind: str, ceiling: Ceiling, now: float) -> bool:
        """``owner`` no longer has ``kind`` with ``other`` (False: it had not)."""
        t = relations_table
        with self.engine.begin() as conn:
            take(conn, [ceiling], now)
            done = conn.execute(
                t.delete().where(t.c.owner == owner, t.c.other == other, t.c.kind == kind)
            )
        return done.rowcount > 0

    def related(self, owner: int, kind: str) -> list[Related]:
        """The accounts ``owner`` follows (or blocks) that still exist, by name."""
        t = relations_table
        query = (
            sa.select(people, t.c.created.label("since"))
            .join(people, people.c.id == t.c.other)
            .where(t.c.owner == owner, t.c.kind == kind, people.c.deleted.is_(sa.false()))
            .order_by(people.c.name)
        )
        with self.autocommit.connect() as conn:
            return [Related(person(r), float(r.since)) for r in conn.execute(query)]

    def forget(self, account_id: int) -> int:
        """Every relation of a deleted account, either way; how many rows went."""
        t = relations_table
        with self.engine.begin() as conn:
            done = conn.execute(
                t.delete().where(sa.or_(t.c.owner == account_id, t.c.other == account_id))
            )
        return int(done.rowcount)


def _both(conn: sa.Connection, owner: int, other: int) -> tuple[str | None, str | None]:
    """What ``owner`` has with ``other``, and what ``other`` has with ``owner``."""
    t = relations_table
    rows = conn.execute(
        sa.select(t.c.owner, t.c.kind).where(
            sa.or_(
                sa.and_(t.c.owner == owner, t.c.other == other),
                sa.and_(t.c.owner == other, t.c.other == owner),
            )
        )
    ).all()
    kinds = {int(r.owner): str(r.kind) for r in rows}
    return kinds.get(owner), kinds.get(other)


def _count(conn: sa.Connection, owner: int, kind: str) -> int:
    t = relations_table
    query = sa.select(sa.func.count()).where(t.c.owner == owner, t.c.kind == kind)
    return int(conn.execute(query).scalar_one())


def _pairs_statement(kind: str, both_ways: bool) -> OneStatement:
    """The (owner, other) pairs of ``kind`` whose other (``both_ways``: or owner) is among the
    accounts bound as ``ids``."""
    t = relations_table
    others, owners = bound_among(t.c.other, "ids"), bound_among(t.c.owner, "ids")
    return OneStatement(
        *(
            sa.select(t.c.owner, t.c.other).where(
                t.c.kind == kind, sa.or_(other, owner) if both_ways else other
            )
            for other, owner in zip(others, owners, strict=True)
        )
    )


_BLOCKS = _pairs_statement(BLOCK, both_ways=True)
_FOLLOWERS = _pairs_statement(FOLLOW, both_ways=False)


async def blocks(db: StorageThreads, accounts: Sequence[int]) -> list[tuple[int, int]]:
    """The (blocker, blocked) pairs in which either is one of ``accounts``: one statement (a
    game's admission asks, and a game socket's chat)."""
    return await _pairs(db, _BLOCKS, accounts)


async def followers(db: StorageThreads, accounts: Sequence[int]) -> list[tuple[int, int]]:
    """The (follower, followed) pairs of the players ``accounts``: one statement (every public
    game made asks)."""
    return await _pairs(db, _FOLLOWERS, accounts)


async def _pairs(
    db: StorageThreads, statement: OneStatement, accounts: Sequence[int]
) -> list[tuple[int, int]]:
    if not accounts:
        return []
    rows = await db.rows(statement, {"ids": sorted(set(accounts))})
    return [(int(owner), int(other)) for owner, other in rows]
