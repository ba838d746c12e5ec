"""The storage of a server process's periodic checks (``Hub.catch_up``, ``Hub.sweep``), in two
kinds: on PostgreSQL one statement each from the event loop (``pgchecks.LoopChecks``), elsewhere
the stores' own calls in one trip to a storage thread (``ThreadChecks``). Both answer alike;
``test_web_postgres.py`` holds them to one contract."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from boardplay.web.table.presence import Heres, PresenceStore
from boardplay.web.table.storage import Storage

if TYPE_CHECKING:
    from boardplay.web.table.pgwrite import LoopConnections, MovesWriter


class Checks(Protocol):
    async def check(self, known: Mapping[str, int], reports: Heres) -> tuple[dict[str, int], Heres]:
        """The games of ``known`` (id: revision) now past that revision; and this process's
        presence ``reports`` stored and the other live processes' presence at the games of
        ``known`` read (``PresenceStore.sync``)."""
        ...

    async def due(self, free: int, now: float) -> tuple[list[str], list[str]]:
        """Up to ``free`` AI jobs nobody holds, and the games whose clock fell by ``now``."""
        ...


class ThreadChecks:
    """The checks as ``Storage`` and ``PresenceStore`` make them, run by ``db`` (the hub's
    storage threads)."""

    def __init__(
        self,
        db: Callable[..., Awaitable[Any]],
        storage: Storage,
        presence: PresenceStore,
    ) -> None:
        self.db = db
        self.storage = storage
        self.presence = presence

    async def check(self, known: Mapping[str, int], reports: Heres) -> tuple[dict[str, int], Heres]:
        result: tuple[dict[str, int], Heres] = await self.db(self._check, known, reports)
        return result

    def _check(self, known: Mapping[str, int], reports: Heres) -> tuple[dict[str, int], Heres]:
        return self.storage.newer(known), self.presence.sync(reports, list(known))

    async def due(self, free: int, now: float) -> tuple[list[str], list[str]]:
        result: tuple[list[str], list[str]] = await self.db(self.storage.due, free, now)
        return result


def postgres_parts(
    url: Any, threads: int, presence: PresenceStore
) -> tuple[LoopConnections, MovesWriter, Checks]:
    """On PostgreSQL, the moves' writes and the periodic checks are one statement each from the
    event loop (``pgwrite.py``, ``pgchecks.py``): their connections, the moves' writer and the
    checks. Imported only here, since psycopg is an extra that SQLite installs lack."""
    from boardplay.web.table.pgchecks import LoopChecks
    from boardplay.web.table.pgwrite import LoopConnections, MovesWriter

    connections = LoopConnections(url, threads)
    return connections, MovesWriter(connections), LoopChecks(connections, presence)
