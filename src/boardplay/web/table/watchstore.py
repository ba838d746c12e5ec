"""What a process's copies of games and its sweeps ask of the stored games, beside playing them
(``Storage``, which provides the engines): a game's current revision, the watched games whose
revision moved past the copy's (the periodic check), the clocks that fell and the AI jobs due
(the sweep), and the lists of games anyone may watch or join. Reads only, each one statement
in autocommit."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.engine import Engine

from boardplay.web.database import OneStatement, StorageThreads, among, text_array
from boardplay.web.played import ACTIVE
from boardplay.web.table.jobstore import due_ai_query
from boardplay.web.table.rows import OPEN
from boardplay.web.table.schema import games_table, seats_table

CLOCKS_PER_SWEEP = 50  # fallen clocks one sweep flags at most


class WatchStore:
    """The watching reads of ``Storage``."""

    engine: Engine
    autocommit: Engine

    def due_clocks(self, now: float, limit: int = CLOCKS_PER_SWEEP) -> list[str]:
        """Active games whose running clock fell by ``now``, the longest fallen first."""
        with self.autocommit.connect() as conn:
            return [r.id for r in conn.execute(_due_clocks_query(now, limit))]

    def due(self, free: int, now: float) -> tuple[list[str], list[str]]:
        """The sweep's two looks on one connection (a pool checkout and its pre-ping cost about
        1 ms of CPU after a quiet second): ``due_ai_jobs(free)`` (none if ``free`` is 0) and
        ``due_clocks(now)``."""
        with self.autocommit.connect() as conn:
            jobs = [r.id for r in conn.execute(due_ai_query(free))] if free > 0 else []
            return jobs, [r.id for r in conn.execute(_due_clocks_query(now, CLOCKS_PER_SWEEP))]

    def revisions(self, game_ids: Sequence[str]) -> dict[str, int]:
        """The current revision of each game that exists (one query: a cache check)."""
        if not game_ids:
            return {}
        query = sa.select(games_table.c.id, games_table.c.revision).where(
            among(games_table.c.id, game_ids, self.engine)
        )
        with self.autocommit.connect() as conn:
            return {r.id: int(r.revision) for r in conn.execute(query)}

    def newer(self, known: Mapping[str, int]) -> dict[str, int]:
        """The games of ``known`` (id: revision) whose revision is now past the one given, with
        that revision: the periodic check of a process's watched games. On PostgreSQL the
        comparison is made there, so a check of hundreds of unchanged games reads no rows
        (reading all 200 back cost about 3 ms of CPU a check); elsewhere it reads them all."""
        if not known:
            return {}
        if self.engine.dialect.name != "postgresql":
            current = self.revisions(list(known))
            return {gid: rev for gid, rev in current.items() if rev > known[gid]}
        given = (
            sa.func.unnest(
                text_array(list(known)),
                sa.cast(text_array([str(r) for r in known.values()]), ARRAY(sa.Integer)),
            )
            .table_valued("id", "revision")
            .render_derived(name="known")
        )
        query = (
            sa.select(games_table.c.id, games_table.c.revision)
            .join_from(games_table, given, games_table.c.id == given.c.id)
            .where(games_table.c.revision > given.c.revision)
        )
        with self.autocommit.connect() as conn:
            return {r.id: int(r.revision) for r in conn.execute(query)}

    def game_ids(self, status: str | None = None, limit: int = 1000) -> list[str]:
        """Ids of the games anyone may watch (not private ones), most recently updated first."""
        query = (
            sa.select(games_table.c.id)
            .where(games_table.c.private.is_(sa.false()))
            .order_by(games_table.c.updated.desc())
            .limit(limit)
        )
        if status is not None:
            query = query.where(games_table.c.status == status)
        with self.autocommit.connect() as conn:
            return [r.id for r in conn.execute(query)]

    def open_game_ids(self, limit: int = 100) -> list[str]:
        """Active games with an unclaimed open seat, most recent first (not private ones: their
        seats are reached through their link)."""
        query = (
            sa.select(games_table.c.id)
            .join(seats_table, seats_table.c.game_id == games_table.c.id)
            .where(
                games_table.c.status == ACTIVE,
                games_table.c.private.is_(sa.false()),
                seats_table.c.kind == OPEN,
                seats_table.c.token_hash.is_(None),
            )
            .group_by(games_table.c.id, games_table.c.updated)
            .order_by(games_table.c.updated.desc())
            .limit(limit)
        )
        with self.autocommit.connect() as conn:
            return [r.id for r in conn.execute(query)]


_REVISION = OneStatement(
    sa.select(games_table.c.revision).where(games_table.c.id == sa.bindparam("game_id"))
)


async def current_revision(db: StorageThreads, game_id: str) -> int | None:
    """The game's current revision (None: no such game), in one statement from the event loop
    where the database allows (``database.OneStatement``)."""
    found = await db.rows(_REVISION, {"game_id": game_id})
    return int(found[0][0]) if found else None


def _due_clocks_query(now: float, limit: int) -> sa.Select[tuple[str]]:
    return (
        sa.select(games_table.c.id)
        .where(games_table.c.status == ACTIVE, games_table.c.deadline <= now)
        .order_by(games_table.c.deadline)
        .limit(limit)
    )
