"""The AI jobs' leases in the ``games`` table: a game whose AI seat is to move (``ai_seat``) is a
job one server process at a time holds for a renewable lease, so a process that dies mid-think
leaves its job to another once the lease runs out (``aijobs.py`` does the work)."""

from __future__ import annotations

import time
from datetime import UTC

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from boardplay.web.metrics import Backlog
from boardplay.web.table.schema import games_table


class AiJobStore:
    """The lease methods of ``Storage`` (which provides the engines)."""

    engine: Engine
    autocommit: Engine

    def claim_ai(self, game_id: str, revision: int, owner: str, lease: float) -> int | None:
        """Take the AI job of ``game_id`` at ``revision`` for ``lease`` seconds, if nobody holds
        it (or its holder's lease ran out: the holder died). Returns the number of times the job
        has been claimed (1 the first time), or None if it is not free."""
        now = time.time()
        with self.engine.begin() as conn:
            done = conn.execute(
                games_table.update()
                .where(
                    games_table.c.id == game_id,
                    games_table.c.revision == revision,
                    games_table.c.ai_seat >= 0,
                    sa.or_(games_table.c.ai_lease.is_(None), games_table.c.ai_lease < now),
                )
                .values(
                    ai_owner=owner,
                    ai_lease=now + lease,
                    ai_attempts=games_table.c.ai_attempts + 1,
                )
                .returning(games_table.c.ai_attempts)
            ).one_or_none()
        return None if done is None else int(done.ai_attempts)

    def renew_ai(self, game_id: str, owner: str, lease: float) -> bool:
        """Extend the lease of a job ``owner`` holds (False: it no longer does)."""
        with self.engine.begin() as conn:
            done = conn.execute(
                games_table.update()
                .where(games_table.c.id == game_id, games_table.c.ai_owner == owner)
                .values(ai_lease=time.time() + lease)
            )
            return done.rowcount == 1

    def release_ai(self, game_id: str, owner: str) -> None:
        """Give a job back unfinished (a process shutting down): another process takes it now."""
        with self.engine.begin() as conn:
            conn.execute(
                games_table.update()
                .where(games_table.c.id == game_id, games_table.c.ai_owner == owner)
                .values(ai_owner=None, ai_lease=None)
            )

    def ai_backlog(self) -> Backlog:
        """The games whose AI seat is to move (held by a process or waiting for one) and when
        the longest-waiting one's turn came (its last change), in one query on the indexed
        ``ai_seat`` (the operator's metrics)."""
        query = sa.select(sa.func.count(), sa.func.min(games_table.c.updated)).where(
            games_table.c.ai_seat >= 0
        )
        with self.autocommit.connect() as conn:
            depth, oldest = conn.execute(query).one()
        if oldest is None:
            return Backlog(int(depth), None)
        moment = oldest if oldest.tzinfo else oldest.replace(tzinfo=UTC)  # SQLite's: UTC
        return Backlog(int(depth), moment.timestamp())

    def due_ai_jobs(self, limit: int) -> list[str]:
        """Games with an AI job nobody holds (new, released, or its holder died), and games not
        yet checked for one, oldest change first."""
        with self.autocommit.connect() as conn:
            return [r.id for r in conn.execute(due_ai_query(limit))]


def due_ai_query(limit: int) -> sa.Select[tuple[str]]:
    """The ids of ``AiJobStore.due_ai_jobs``."""
    now = time.time()
    return (
        sa.select(games_table.c.id)
        .where(
            games_table.c.ai_seat.is_not(None),
            sa.or_(games_table.c.ai_lease.is_(None), games_table.c.ai_lease < now),
        )
        .order_by(games_table.c.updated)
        .limit(limit)
    )
