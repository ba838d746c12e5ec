"""The periodic checks of a server process on PostgreSQL: one statement each, from the event loop.

Every process checks its watched games and their presence every ``sync_interval`` seconds and
sweeps for AI jobs nobody holds and fallen clocks every ``sweep_interval`` (``Hub.catch_up``,
``Hub.sweep``). Through SQLAlchemy on a storage thread (``Storage.newer``, ``PresenceStore.sync``,
``Storage.due``, which SQLite keeps) a check was a thread's round trip, a pool checkout with its
pre-ping and three to five statements: in ``make bench-web``, with 200 games watched per process
and nobody moving, the checks took 8 ms of CPU per second and the sweeps 5 of each process's
35, more than the tables' keep-alive pings. Here each is a single statement on the connections
the moves use (``pgwrite.LoopConnections``, no pre-ping), whose answer is one row of two JSON
texts.

The check's statement does what ``PresenceStore.sync`` and ``Storage.newer`` do, in one
transaction as they do: data-modifying ``WITH`` clauses delete this process's rows of games it
no longer has sockets at, upsert the others it reports, and refresh the rest (never a row
another clause of the statement writes: PostgreSQL leaves undefined which of two changes to
one row in one statement wins); the ``SELECT`` then reads the games past the revisions given and
the other live processes' rows of the games watched, from the snapshot the statement began with
(which the writes, to this process's rows, do not touch). ``test_web_postgres.py`` holds both
paths to one contract."""

from __future__ import annotations

import time
from collections.abc import Mapping

import orjson

from boardplay.web.database import SEPARATOR, joined
from boardplay.web.table.pgwrite import LoopConnections
from boardplay.web.table.presence import STALE, Heres, PresenceStore, add_up, split
from boardplay.web.table.storage import ACTIVE, CLOCKS_PER_SWEEP

_CHECK = """
WITH known AS (
    SELECT k.id, k.revision
    FROM unnest(string_to_array(%(ids)s, %(sep)s),
                string_to_array(%(revisions)s, %(sep)s)::integer[]) AS k(id, revision)
),
gone AS (
    DELETE FROM presence
    WHERE process = %(process)s AND game_id = ANY(string_to_array(%(gone)s, %(sep)s))
),
stored AS (
    INSERT INTO presence (game_id, process, seats, spectators, at)
    SELECT r.game_id, %(process)s, r.seats, r.spectators, %(now)s
    FROM json_to_recordset(%(kept)s::json) AS r(game_id text, seats json, spectators integer)
    ON CONFLICT (game_id, process)
    DO UPDATE SET seats = excluded.seats, spectators = excluded.spectators, at = excluded.at
),
refreshed AS (
    UPDATE presence SET at = %(now)s
    WHERE %(refresh)s AND process = %(process)s
        AND NOT game_id = ANY(string_to_array(%(reported)s, %(sep)s))
)
SELECT
    (SELECT json_agg(json_build_array(g.id, g.revision))
        FROM games AS g JOIN known AS k ON g.id = k.id
        WHERE g.revision > k.revision)::text,
    (SELECT json_agg(json_build_array(p.game_id, p.seats, p.spectators))
        FROM presence AS p
        WHERE p.game_id IN (SELECT id FROM known) AND p.process <> %(process)s
            AND p.at >= %(now)s - %(stale)s)::text
"""

_DUE = """
SELECT
    (SELECT json_agg(j.id ORDER BY j.updated) FROM (
        SELECT id, updated FROM games
        WHERE ai_seat IS NOT NULL AND (ai_lease IS NULL OR ai_lease < %(lease_now)s)
        ORDER BY updated LIMIT %(free)s) AS j)::text,
    (SELECT json_agg(c.id ORDER BY c.deadline) FROM (
        SELECT id, deadline FROM games
        WHERE status = %(active)s AND deadline <= %(now)s
        ORDER BY deadline LIMIT %(clocks)s) AS c)::text
"""


class LoopChecks:
    """``Hub.catch_up``'s and ``Hub.sweep``'s storage on PostgreSQL, awaited on the event loop.
    ``presence`` is this process's store: its name and when its rows were last refreshed."""

    def __init__(self, connections: LoopConnections, presence: PresenceStore) -> None:
        self.connections = connections
        self.presence = presence

    async def check(self, known: Mapping[str, int], reports: Heres) -> tuple[dict[str, int], Heres]:
        """``Storage.newer(known)`` and ``PresenceStore.sync(reports, list(known))``, in one
        statement."""
        now = time.time()
        gone, kept = split(reports)
        row = await self.connections.row(
            _CHECK,
            {
                "sep": SEPARATOR,
                "ids": joined(list(known)),
                "revisions": SEPARATOR.join(str(r) for r in known.values()),
                "process": self.presence.process,
                "gone": joined(gone),
                "kept": orjson.dumps(kept).decode(),
                "reported": joined(list(reports)),
                "refresh": self.presence.refresh_due(now, reports),
                "now": now,
                "stale": STALE,
            },
        )
        assert row is not None  # a SELECT of two subqueries: always one row
        newer = {game_id: int(revision) for game_id, revision in orjson.loads(row[0] or "[]")}
        return newer, add_up(orjson.loads(row[1] or "[]"))

    async def due(self, free: int, now: float) -> tuple[list[str], list[str]]:
        """``Storage.due(free, now)``, in one statement."""
        row = await self.connections.row(
            _DUE,
            {
                "lease_now": time.time(),  # leases are real time, as ``due_ai_query`` reads them
                "free": max(0, free),
                "active": ACTIVE,
                "now": now,
                "clocks": CLOCKS_PER_SWEEP,
            },
        )
        assert row is not None
        return orjson.loads(row[0] or "[]"), orjson.loads(row[1] or "[]")
