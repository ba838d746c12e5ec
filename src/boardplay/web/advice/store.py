"""Stored game reviews (table ``reviews``): the cache that lets a second visitor
read a review instead of paying for it again, and the progress of a review being computed, which
every server process can read.

A review is keyed by game, reviewed seat and iterations per position. One process at a time
computes it: ``claim`` inserts a running row (the primary key lets only one process win) or
takes over a row whose process stopped beating (it died) or failed. The owner reports each
judged position (``beat``) and finally stores the review."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from boardplay.web.database import metadata

RUNNING = "running"
DONE = "done"
FAILED = "failed"
ERROR_LENGTH = 400

reviews_table = sa.Table(
    "reviews",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("iterations", sa.Integer, primary_key=True),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("done", sa.Integer, nullable=False, server_default="0"),
    sa.Column("total", sa.Integer, nullable=False, server_default="0"),
    sa.Column("owner", sa.String(32), nullable=True),
    sa.Column("beat", sa.Float, nullable=False),
    sa.Column("error", sa.String(ERROR_LENGTH), nullable=True),
    sa.Column("result", sa.JSON, nullable=True),
)


@dataclass(frozen=True)
class ReviewRow:
    status: str
    done: int
    total: int
    beat: float
    error: str | None
    result: dict[str, Any] | None

    def stale(self, after: float) -> bool:
        """A running review whose owner has not reported for ``after`` seconds (it died)."""
        return self.status == RUNNING and self.beat < time.time() - after


class ReviewStore:
    """The ``reviews`` table of one database (the process's one engine, opened by the hub)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @staticmethod
    def _key(game_id: str, seat: int, iterations: int) -> Any:
        c = reviews_table.c
        return sa.and_(c.game_id == game_id, c.seat == seat, c.iterations == iterations)

    def get(self, game_id: str, seat: int, iterations: int) -> ReviewRow | None:
        query = reviews_table.select().where(self._key(game_id, seat, iterations))
        with self.engine.connect() as conn:
            row = conn.execute(query).one_or_none()
        if row is None:
            return None
        return ReviewRow(row.status, row.done, row.total, row.beat, row.error, row.result)

    def claim(
        self, game_id: str, seat: int, iterations: int, owner: str, total: int, stale: float
    ) -> bool:
        """Make ``owner`` the process computing this review: True if it now is (no row yet, or
        the row failed or its owner stopped beating ``stale`` seconds ago)."""
        now = time.time()
        values = {"status": RUNNING, "done": 0, "total": total, "owner": owner, "beat": now}
        try:
            with self.engine.begin() as conn:
                taken = conn.execute(
                    reviews_table.update()
                    .where(
                        self._key(game_id, seat, iterations),
                        sa.or_(
                            reviews_table.c.status == FAILED,
                            sa.and_(
                                reviews_table.c.status == RUNNING,
                                reviews_table.c.beat < now - stale,
                            ),
                        ),
                    )
                    .values(error=None, result=None, **values)
                )
                if taken.rowcount == 1:
                    return True
                exists = conn.execute(
                    sa.select(reviews_table.c.status).where(self._key(game_id, seat, iterations))
                ).one_or_none()
                if exists is not None:
                    return False
                conn.execute(
                    reviews_table.insert().values(
                        game_id=game_id, seat=seat, iterations=iterations, **values
                    )
                )
        except sa.exc.IntegrityError:
            return False  # another process inserted the same review first
        return True

    def _update(self, game_id: str, seat: int, iterations: int, owner: str, **values: Any) -> bool:
        query = (
            reviews_table.update()
            .where(self._key(game_id, seat, iterations), reviews_table.c.owner == owner)
            .values(beat=time.time(), **values)
        )
        with self.engine.begin() as conn:
            return conn.execute(query).rowcount == 1

    def beat(self, game_id: str, seat: int, iterations: int, owner: str, done: int) -> bool:
        """Report progress; False if another process has taken the review over."""
        return self._update(game_id, seat, iterations, owner, done=done)

    def finish(
        self, game_id: str, seat: int, iterations: int, owner: str, result: dict[str, Any]
    ) -> None:
        self._update(game_id, seat, iterations, owner, status=DONE, result=result)

    def fail(self, game_id: str, seat: int, iterations: int, owner: str, error: str) -> None:
        self._update(game_id, seat, iterations, owner, status=FAILED, error=error[:ERROR_LENGTH])
