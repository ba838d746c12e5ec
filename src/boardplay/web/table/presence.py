"""Who is at a game's table now: which seats have a page open (a dot per seat) and how many
people watch. Sent as ``{"type": "presence", "seats": [...], "spectators": n}`` to the sockets
whose hello asked for it (``"presence": true``: the page does; a client written before presence
existed is not sent a message it does not know) whenever it changes, and once after the hello.

Each server process knows only its own sockets, and tells its own sockets at once. On its
periodic check (``Hub.catch_up``, every ``BOARDPLAY_WEB_SYNC_INTERVAL`` seconds) it writes what
they add up to per game, for the games whose count changed, into the ``presence`` table
(a row per game and process), keeps its rows fresh (every ``REFRESH`` seconds),
and reads the other processes' rows for the games it watches: all in one transaction. A row not
refreshed for ``STALE`` seconds belongs to a process that died and is not counted, so presence
heals within a few seconds whatever happens to a process.

A bot's open game stream (``bots/streams.py``) watches the room as a socket does and counts as
its seats' socket while it is open; its end is the bot's leaving. A socket is not the only sign
of a player at the table: one who plays over HTTP (the API, a bot, a page whose socket dropped)
is there too. Each request a seat's token makes for the game is noted in the seat's ``seen`` (at
most every ``NOTE_EVERY`` seconds per seat and process), and a move is noted by the clock it
stops; an abandonment claim (``timeouts.py``) counts all three."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine

from boardplay.web.database import among, autocommitting, metadata
from boardplay.web.sockets import Subscriber
from boardplay.web.table.schema import seats_table

STALE = 10.0
"""Seconds after which another process's row no longer counts."""
NOTE_EVERY = 5.0
"""Seconds between two stored visits of one seat by one process."""
REFRESH = STALE / 3
"""Seconds between refreshes of this process's rows (a write each time, so not at every check:
moves' commits share the database's disk)."""

presence_table = sa.Table(
    "presence",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("process", sa.String(32), primary_key=True),
    sa.Column("seats", sa.JSON, nullable=False),
    sa.Column("spectators", sa.Integer, nullable=False),
    sa.Column("at", sa.Float, nullable=False, index=True),
)


def _insert_for(engine: Engine) -> Any:
    """``INSERT`` with ``ON CONFLICT`` in ``engine``'s dialect (PostgreSQL's or SQLite's)."""
    if engine.dialect.name == "postgresql":
        return postgresql.insert
    return sqlite.insert


@dataclass(frozen=True)
class Here:
    """What a game's sockets add up to: the seats with a page open, and everybody else."""

    seats: frozenset[int] = frozenset()
    spectators: int = 0

    def __add__(self, other: Here) -> Here:
        return Here(self.seats | other.seats, self.spectators + other.spectators)

    def message(self) -> dict[str, object]:
        return {"type": "presence", "seats": sorted(self.seats), "spectators": self.spectators}


Heres = dict[str, Here]
"""Presence by game id."""


class PresenceStore:
    def __init__(self, engine: Engine, process: str) -> None:
        self.engine = engine
        self.autocommit = autocommitting(engine)
        self.process = process
        self.refreshed = 0.0

    def sync(self, reports: Mapping[str, Here], game_ids: Sequence[str]) -> Heres:
        """One transaction per check: store this process's sockets of the games in ``reports``
        (none: the row goes), keep its rows fresh, and read the other live processes' sockets
        of ``game_ids``, added up per game. Writes are batched here, not made as sockets come
        and go, so a crowd arriving at once costs one write, not one per socket, beside the
        moves' own commits."""
        now = time.time()
        with self.engine.begin() as conn:
            self._store(conn, reports, now)
            if self.refresh_due(now, reports):
                conn.execute(
                    presence_table.update()
                    .where(presence_table.c.process == self.process)
                    .values(at=now)
                )
            rows = (
                conn.execute(
                    presence_table.select().where(
                        among(presence_table.c.game_id, game_ids, self.engine),
                        presence_table.c.process != self.process,
                        presence_table.c.at >= now - STALE,
                    )
                ).all()
                if game_ids
                else []
            )
        return add_up((row.game_id, row.seats, row.spectators) for row in rows)

    def refresh_due(self, now: float, reports: Mapping[str, Here]) -> bool:
        """Whether this check refreshes every row of this process (and that it did, if so): at
        every check that writes anyway, else every ``REFRESH`` seconds."""
        if reports or now - self.refreshed >= REFRESH:
            self.refreshed = now
            return True
        return False

    def _store(self, conn: sa.Connection, reports: Mapping[str, Here], now: float) -> None:
        """Two statements at most, whatever the number of games: the rows of games left without
        a socket here go, the others are inserted or updated in place (a statement per game
        cost about 0.6 ms of CPU each on a check after a crowd came or went). Only this process
        writes its rows (from one task), so nothing else races the upsert."""
        mine = presence_table.c.process == self.process
        gone, kept = split(reports)
        if gone:
            conn.execute(
                presence_table.delete().where(
                    mine, among(presence_table.c.game_id, gone, self.engine)
                )
            )
        rows = [{**row, "process": self.process, "at": now} for row in kept]
        if rows:
            upsert = _insert_for(self.engine)(presence_table)
            conn.execute(
                upsert.on_conflict_do_update(
                    index_elements=[presence_table.c.game_id, presence_table.c.process],
                    set_={
                        "seats": upsert.excluded.seats,
                        "spectators": upsert.excluded.spectators,
                        "at": upsert.excluded.at,
                    },
                ),
                rows,
            )

    def seats_elsewhere(self, game_id: str) -> frozenset[int]:
        """The seats of a game at the table on the other live processes, as they last wrote:
        what a claim checks when this process watches no socket of the game (its ``others``
        are then not kept current by the checks)."""
        query = sa.select(presence_table.c.seats).where(
            presence_table.c.game_id == game_id,
            presence_table.c.process != self.process,
            presence_table.c.at >= time.time() - STALE,
        )
        with self.autocommit.connect() as conn:
            return frozenset(int(s) for row in conn.execute(query) for s in row.seats)

    def saw(self, game_id: str, seats: Sequence[int], now: float) -> None:
        """The players of ``seats`` asked for the game with their token at ``now``."""
        with self.engine.begin() as conn:
            conn.execute(
                seats_table.update()
                .where(seats_table.c.game_id == game_id, seats_table.c.seat.in_(list(seats)))
                .values(seen=now)
            )

    def seen(self, game_id: str) -> dict[int, float]:
        """When each seat's player last asked for the game with their token (by any process)."""
        query = sa.select(seats_table.c.seat, seats_table.c.seen).where(
            seats_table.c.game_id == game_id, seats_table.c.seen.is_not(None)
        )
        with self.autocommit.connect() as conn:
            return {int(r.seat): float(r.seen) for r in conn.execute(query)}

    def forget(self) -> None:
        """Every row of this process (shutting down: its sockets are closing)."""
        with self.engine.begin() as conn:
            conn.execute(presence_table.delete().where(presence_table.c.process == self.process))


def split(reports: Mapping[str, Here]) -> tuple[list[str], list[dict[str, Any]]]:
    """The games of ``reports`` left without a socket here (their rows go), and the rows of the
    others (``game_id``, ``seats``, ``spectators``)."""
    gone = [game_id for game_id, here in reports.items() if not (here.seats or here.spectators)]
    kept = [
        {"game_id": game_id, "seats": sorted(here.seats), "spectators": here.spectators}
        for game_id, here in reports.items()
        if here.seats or here.spectators
    ]
    return gone, kept


def add_up(rows: Iterable[tuple[str, Iterable[int], int]]) -> Heres:
    """The other processes' rows (game id, seats, spectators) added up per game."""
    out: Heres = {}
    for game_id, seats, spectators in rows:
        out[game_id] = out.get(game_id, Here()) + Here(
            frozenset(int(s) for s in seats), int(spectators)
        )
    return out


class TablePresence:
    """One game's presence as this process sees it: its own sockets (``local``), the other
    processes' (``others``, from the last check), what the sockets were last sent, and since when
    each seat has had no page open (what an abandonment claim waits for, ``timeouts.py``)."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.local = Here()
        self.others = Here()
        self.shown = Here()
        self.clock = clock
        self.since = clock()
        """When this process began to watch the table: a seat never seen is gone since then."""
        self.left: dict[int, float] = {}
        """When each seat that had a page open last went away."""
        self.noted: dict[int, float] = {}
        """When this process last stored a visit of each seat (``PresenceStore.saw``)."""

    def gone_for(self, seat: int, now: float) -> float:
        """Seconds ``seat`` has had no page open at this table (0 while it has one)."""
        if seat in (self.local + self.others).seats:
            return 0.0
        return max(0.0, now - self.left.get(seat, self.since))

    @staticmethod
    def count(
        subscribers: Iterable[Subscriber], seats_of: Callable[[str | None], set[int]]
    ) -> Here:
        seats: set[int] = set()
        spectators = 0
        for sub in subscribers:
            if sub.dropped or not sub.counts:
                continue
            held = seats_of(sub.token)
            if held:
                seats |= held
            else:
                spectators += 1
        return Here(frozenset(seats), spectators)

    def recount(
        self, subscribers: Iterable[Subscriber], seats_of: Callable[[str | None], set[int]]
    ) -> bool:
        """Count this process's sockets again; True if the database should hear of it (at the
        next check: ``Hub.catch_up``)."""
        local = self.count(subscribers, seats_of)
        changed = local != self.local
        self.local = local
        return changed

    def send(self, subscribers: Iterable[Subscriber], others: Here | None = None) -> bool:
        """Tell every socket, if what they were last told changed (True if it did)."""
        if others is not None:
            self.others = others
        now = self.local + self.others
        if now == self.shown:
            return False
        at = self.clock()
        for seat in self.shown.seats - now.seats:
            self.left[seat] = at
        self.shown = now
        message = now.message()
        for sub in list(subscribers):
            if sub.presence:
                sub.push(message)
        return True
