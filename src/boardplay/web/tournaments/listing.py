"""The tournament list a page at a time (issue 66): ``GET /api/tournaments`` and the site's
``GET /api/tournament-pages`` answer at most ``LIST_MOST`` tournaments, with a ``next`` cursor.

Why it is built this way:

- **Keyset pages, not OFFSET.** A page is "the tournaments after this one" in a stable order
  (upcoming and running: soonest start, then id; finished: last finished, then id, latest
  first), read by the index on that order whatever the page's depth, and a tournament starting
  or ending between two pages moves nobody already listed onto the next page twice. The cursor
  is the last row's key and id (``1900000000.0~AbC``), opaque to clients; anything else is a
  400 naming it.
- **Each page computed once per process per few seconds.** Every open tournaments page asks for
  the first page every 5 s, and the lobby shows it too: one process answers them all from one
  reading for ``LIST_TTL`` seconds (``PageCache``), forgotten at once when this process
  changes the list itself (a tournament created, a player entering or leaving), so its creator
  sees it. The answer carries an ``ETag`` (a hash of its bytes) and ``Cache-Control: public,
  max-age``: a browser or proxy may reuse it that long, and a poll that sends ``If-None-Match``
  is a 304 with no body while nothing changed."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from boardplay.web.errors import ApiError
from boardplay.web.tournaments.model import CREATED, DONE, STARTED, Tournament
from boardplay.web.tournaments.schema import tournament_of, tournaments_table

LIST_LIMIT = 20
"""Tournaments a page holds when the client names no ``limit``."""
LIST_MOST = 50
"""The most one page holds (a larger ``limit`` is a 400)."""
LIST_TTL = 3.0
"""Seconds a process answers a page from one reading (and a browser may reuse it)."""
CACHED_PAGES = 256
"""Pages one process keeps at once (a crawler walking every cursor cannot grow it further)."""

LISTS: dict[str, tuple[tuple[str, ...], bool]] = {
    "open": ((CREATED, STARTED), False),
    "created": ((CREATED,), False),
    "started": ((STARTED,), False),
    "finished": ((DONE,), True),
}
"""What ``status`` may ask for: the statuses listed and whether latest first (by when they
ended) rather than soonest start first. ``open``, upcoming and running, is the default."""

_CURSOR = re.compile(r"^(-?[0-9]+(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?)~([A-Za-z0-9_-]{1,16})$")


def cursor_of(key: float, tournament_id: str) -> str:
    return f"{key!r}~{tournament_id}"


def parse_cursor(cursor: str) -> tuple[float, str]:
    """A cursor's key and id (400 ``bad_cursor`` for anything a page's ``next`` never is)."""
    found = _CURSOR.match(cursor)
    if found is None:
        raise ApiError(400, "bad_cursor", "cursor must be a page's `next`, as the list sent it")
    return float(found.group(1)), found.group(2)


def check_list(status: str, limit: int) -> tuple[tuple[str, ...], bool]:
    """The statuses and order of ``status`` (400 naming what is allowed), ``limit`` bounded."""
    if status not in LISTS:
        raise ApiError(400, "bad_status", f"status must be one of {', '.join(LISTS)}")
    if not 1 <= limit <= LIST_MOST:
        raise ApiError(400, "bad_limit", f"limit must be 1 to {LIST_MOST}")
    return LISTS[status]


def read_page(
    engine: Engine,
    statuses: Sequence[str],
    latest: bool,
    after: tuple[float, str] | None,
    limit: int,
) -> tuple[list[Tournament], str | None]:
    """One page of the tournaments of ``statuses`` after the cursor's row, and the next page's
    cursor (None on the last page)."""
    t = tournaments_table
    key = sa.func.coalesce(t.c.finished, 0.0) if latest else t.c.starts
    query = t.select().where(t.c.status.in_(list(statuses)))
    if after is not None:
        at, last = after
        if latest:
            query = query.where(sa.or_(key < at, sa.and_(key == at, t.c.id < last)))
        else:
            query = query.where(sa.or_(key > at, sa.and_(key == at, t.c.id > last)))
    order = (key.desc(), t.c.id.desc()) if latest else (key, t.c.id)
    with engine.connect() as conn:
        rows = conn.execute(query.order_by(*order).limit(limit + 1)).all()
    found = [tournament_of(row) for row in rows[:limit]]
    if len(rows) <= limit:
        return found, None
    tail = found[-1]
    return found, cursor_of((tail.finished or 0.0) if latest else tail.starts, tail.id)


@dataclass(frozen=True)
class Page:
    """A page as sent: its JSON bytes and their ETag."""

    body: bytes
    etag: str
    expires: float

    @classmethod
    def of(cls, answer: dict[str, Any], expires: float) -> Page:
        body = json.dumps(answer, separators=(",", ":")).encode()
        return cls(body, f'"{hashlib.sha256(body).hexdigest()[:20]}"', expires)


class PageCache:
    """The pages one process sent lately, each kept ``LIST_TTL`` seconds (module docstring)."""

    def __init__(self) -> None:
        self._pages: dict[tuple[Any, ...], Page] = {}
        self.generation = 0
        """Raised by every ``clear``: a page read before a change, whose reading was still on
        its way when the change cleared the cache, is not kept (``put``), or it would be served
        stale for ``LIST_TTL`` seconds to the very person who made the change."""

    def get(self, key: tuple[Any, ...], now: float) -> Page | None:
        page = self._pages.get(key)
        return page if page is not None and page.expires > now else None

    def put(self, key: tuple[Any, ...], page: Page, now: float, generation: int) -> None:
        """Keep ``page``, read since ``generation`` began, unless the list changed meanwhile."""
        if generation != self.generation:
            return
        if len(self._pages) >= CACHED_PAGES:
            self._pages = {k: p for k, p in self._pages.items() if p.expires > now}
            if len(self._pages) >= CACHED_PAGES:
                self._pages.clear()
        self._pages[key] = page

    def clear(self) -> None:
        """This process changed the list: the next poll reads it again."""
        self._pages.clear()
        self.generation += 1
