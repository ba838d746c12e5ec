"""Stored seeks, challenges and lobby events: how players find an opponent.

A *seek* is a signed-in player's standing offer of a game ("tiny, rated, 1400-1700"), open to
anyone until someone accepts it; one for three or four players is a *table* whose other seats
fill up one by one (``seatstore.py``) and whose last seat starts the game. It lives while its
owner has the lobby open: the process that holds the owner's lobby socket marks it (``epoch``)
and renews its ``heartbeat``; one that is not renewed for ``Limits.seek_ttl`` seconds (its
process died, or its owner never opened the lobby) is no longer listed and is soon deleted.
Accepting one (taking a table's last seat) *deletes* it, so of any number of acceptors, on any
number of processes, exactly one deletes the row and starts the game.

A *challenge* is an offer to one named player; it goes from ``open`` to ``accepted``,
``declined`` or ``cancelled`` by one conditional update (so again exactly one answer wins), and
counts as expired once ``Limits.challenge_lifetime`` has passed unanswered.

``lobby_events`` is how the other server processes learn of a change (``eventstore.py``):
each change writes one, in the same transaction where it matters (the list of seeks).

Every method is one short transaction (``Lobby`` runs them off the event loop); counting an
account's open seeks or challenges and adding one happen under a lock on the account's row, so
two requests at once cannot both slip under a ceiling."""

from __future__ import annotations

import dataclasses
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from boardplay.web.accounts import people
from boardplay.web.database import autocommitting, lock, metadata
from boardplay.web.lobby import seatstore
from boardplay.web.lobby.challengestore import (
    CHALLENGE_KEEP,
    ChallengeStore,
    challenges_table,
)
from boardplay.web.lobby.eventstore import (
    EVENT_KEEP,
    SEEKS,
    EventStore,
    event_of,
    lobby_events_table,
)
from boardplay.web.lobby.seatstore import SitRefused, Sitter, seated_at
from boardplay.web.throttles import Ceiling, take

QUICK_CANDIDATES = 500
"""Open seeks of the same game a quick game looks through for the closest fit."""
seeks_table = sa.Table(
    "seeks",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("clock", sa.JSON, nullable=True),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("rating_min", sa.Integer, nullable=True),
    sa.Column("rating_max", sa.Integer, nullable=True),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("heartbeat", sa.Float, nullable=False, index=True),
    sa.Column("epoch", sa.String(16), nullable=False),
    sa.Index("ix_seeks_account_id", "account_id"),
)
"""``rating``: the owner's rating in the game's pool when posted (what acceptors and quick
games compare). ``epoch``: the process whose lobby socket keeps it alive ('' while none has
claimed it)."""


@dataclass(frozen=True)
class Seek:
    id: str
    account_id: int
    game: str
    options: dict[str, Any]
    rated: bool
    rating: float
    rating_min: int | None
    rating_max: int | None
    players: int
    created: float
    epoch: str = ""
    name: str = ""
    """The owner's name (as read; not stored with the seek)."""
    clock: dict[str, Any] | None = None
    """The time control of the game it offers (``table/clocks.py``; None: untimed)."""
    seated: tuple[Sitter, ...] = ()
    """A table's players seated besides its owner (as read; always none for two players)."""

    @property
    def table(self) -> bool:
        """Whether it fills up seat by seat (three or four players)."""
        return self.players > 2

    def holds(self, account_id: int) -> bool:
        """Whether ``account_id`` owns it or sits at it."""
        return account_id == self.account_id or any(s.account_id == account_id for s in self.seated)

    def accepts(self, rating: float) -> bool:
        """Whether an opponent rated ``rating`` is within this seek's range."""
        low = self.rating_min if self.rating_min is not None else -float("inf")
        high = self.rating_max if self.rating_max is not None else float("inf")
        return low <= rating <= high

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "player": self.name,
            "game": self.game,
            "options": self.options,
            "rated": self.rated,
            "clock": self.clock,
            "rating": round(self.rating),
            "rating_min": self.rating_min,
            "rating_max": self.rating_max,
            "players": self.players,
            "seated": [s.to_json() for s in self.seated],
            "created": self.created,
        }


def _seek(row: Any, seated: Mapping[str, tuple[Sitter, ...]] | None = None) -> Seek:
    return Seek(
        row.id,
        int(row.account_id),
        row.game,
        dict(row.options),
        bool(row.rated),
        float(row.rating),
        row.rating_min,
        row.rating_max,
        int(row.players),
        float(row.created),
        row.epoch,
        getattr(row, "name", ""),
        row.clock,
        (seated or {}).get(row.id, ()),
    )


def _seeks(conn: sa.Connection, rows: Any, now: float, ttl: float) -> list[Seek]:
    """Seeks from their rows, each table with its players seated."""
    found = list(rows)
    seated = seated_at(conn, [r.id for r in found if int(r.players) > 2], now, ttl)
    return [_seek(r, seated) for r in found]


class SeekStore(ChallengeStore, EventStore):
    """All database access of seeks and challenges (synchronous; run off the event loop)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.autocommit = autocommitting(engine)

    @staticmethod
    def _lock_account(conn: sa.Connection, account_id: int) -> None:
        """Hold a lock named for the account until commit (PostgreSQL; SQLite has one writer
        anyway), so that a count of its seeks or challenges and the insert it allows are one
        step for that account."""
        lock(conn, f"lobby-account:{account_id}")

    # ----- seeks ----------------------------------------------------------------------------
    def _live(self, now: float, ttl: float) -> Any:
        return seeks_table.c.heartbeat >= now - ttl

    def _listed(self) -> Any:
        return sa.select(seeks_table, people.c.name).join(
            people, people.c.id == seeks_table.c.account_id
        )

    def post(
        self,
        seek: Seek,
        ceiling: int,
        now: float,
        ttl: float,
        origin: str,
        pick: Callable[[list[Seek]], Seek | None] | None = None,
        hourly: Ceiling | None = None,
    ) -> int | Seek | None:
        """Store ``seek`` (None) unless its owner already has ``ceiling`` live seeks (then
        returns how many, storing nothing) or is past ``hourly`` (``Throttled``). For a quick
        game, ``pick`` is first shown the live seeks of the same game and rated flag, under a
        lock on the game, and the one it picks is returned instead of storing anything: two
        quick games asked for at once thus never both post a seek without seeing the other's."""
        with self.engine.begin() as conn:
            if pick is not None:
                self._lock_game(conn, seek.game)
                found = conn.execute(
                    self._candidates(seek.game, seek.rated, seek.account_id, now, ttl)
                )
                chosen = pick(_seeks(conn, found, now, ttl))
                if chosen is not None:
                    return chosen
            self._lock_account(conn, seek.account_id)
            count = conn.execute(
                sa.select(sa.func.count()).where(
                    seeks_table.c.account_id == seek.account_id, self._live(now, ttl)
                )
            ).scalar_one()
            if count >= ceiling:
                return int(count)
            if hourly is not None:
                take(conn, [hourly], now)
            conn.execute(seeks_table.insert().values(self._values(seek, now)))
            self._events(conn, now, [event_of(origin, SEEKS, seek.account_id)])
        return None

    @staticmethod
    def _lock_game(conn: sa.Connection, game: str) -> None:
        """Hold a lock on ``game``'s quick pairing until commit (PostgreSQL: a transaction
        advisory lock; SQLite has one writer, and the hub one thread for it)."""
        if conn.dialect.name == "postgresql":
            key = zlib.crc32(f"boardplay-quick:{game}".encode())
            conn.execute(sa.select(sa.func.pg_advisory_xact_lock(key)))

    @staticmethod
    def _values(seek: Seek, now: float) -> dict[str, Any]:
        return {
            "id": seek.id,
            "account_id": seek.account_id,
            "game": seek.game,
            "options": seek.options,
            "rated": seek.rated,
            "clock": seek.clock,
            "rating": seek.rating,
            "rating_min": seek.rating_min,
            "rating_max": seek.rating_max,
            "players": seek.players,
            "created": seek.created,
            "heartbeat": now,
            "epoch": seek.epoch,
        }

    def open_seeks(self, now: float, ttl: float, limit: int) -> list[Seek]:
        """Live seeks of accounts that still exist, oldest first."""
        query = (
            self._listed()
            .where(self._live(now, ttl), people.c.deleted.is_(sa.false()))
            .order_by(seeks_table.c.created, seeks_table.c.id)
            .limit(limit)
        )
        with self.autocommit.connect() as conn:
            return _seeks(conn, conn.execute(query), now, ttl)

    def seek(self, seek_id: str, now: float, ttl: float) -> Seek | None:
        query = self._listed().where(
            seeks_table.c.id == seek_id,
            self._live(now, ttl),
            people.c.deleted.is_(sa.false()),
        )
        with self.autocommit.connect() as conn:
            found = _seeks(conn, conn.execute(query), now, ttl)
        return found[0] if found else None

    def _candidates(self, game: str, rated: bool, exclude: int, now: float, ttl: float) -> Any:
        """Live seeks of ``game`` with this ``rated`` flag, not ``exclude``'s, oldest first."""
        return (
            self._listed()
            .where(
                seeks_table.c.game == game,
                seeks_table.c.rated.is_(sa.true() if rated else sa.false()),
                seeks_table.c.account_id != exclude,
                self._live(now, ttl),
                people.c.deleted.is_(sa.false()),
            )
            .order_by(seeks_table.c.created, seeks_table.c.id)
            .limit(QUICK_CANDIDATES)
        )

    def mine(self, account_id: int, now: float, ttl: float) -> list[Seek]:
        """The account's own live seeks and the live tables where it holds a seat."""
        with self.autocommit.connect() as conn:
            seats = seatstore.seat_ids_of(conn, account_id, now, ttl)
            query = self._listed().where(
                sa.or_(seeks_table.c.account_id == account_id, seeks_table.c.id.in_(seats)),
                self._live(now, ttl),
            )
            return _seeks(conn, conn.execute(query.order_by(seeks_table.c.created)), now, ttl)

    def take(self, seek_id: str, acceptor: int, now: float, ttl: float, origin: str) -> bool:
        """Delete the live seek for ``acceptor`` (never its owner): True for the one caller
        whose delete found it, however many try at once."""
        with self.engine.begin() as conn:
            done = conn.execute(
                seeks_table.delete().where(
                    seeks_table.c.id == seek_id,
                    seeks_table.c.account_id != acceptor,
                    self._live(now, ttl),
                )
            )
            if done.rowcount != 1:
                return False
            self._events(conn, now, [event_of(origin, SEEKS, None)])
        return True

    def restore(self, seek: Seek, now: float, origin: str) -> None:
        """Put back a seek taken (a table filled) for a game that could not be started."""
        with self.engine.begin() as conn:
            conn.execute(seeks_table.insert().values(self._values(seek, now)))
            seatstore.insert(conn, seek.id, seek.seated, now, "")
            self._events(conn, now, [event_of(origin, SEEKS, seek.account_id)])

    def cancel(self, seek_id: str, account_id: int, now: float, origin: str) -> bool:
        """Withdraw the owner's seek (a table: with its seats)."""
        with self.engine.begin() as conn:
            done = conn.execute(
                seeks_table.delete().where(
                    seeks_table.c.id == seek_id, seeks_table.c.account_id == account_id
                )
            )
            if done.rowcount != 1:
                return False
            seatstore.delete_of(conn, [seek_id])
            self._events(conn, now, [event_of(origin, SEEKS, account_id)])
        return True

    # ----- tables' seats ----------------------------------------------------------------------
    def sit(
        self,
        seek_id: str,
        sitter: Sitter,
        now: float,
        ttl: float,
        origin: str,
        epoch: str,
        most_held: int,
        hourly: Ceiling | None = None,
    ) -> tuple[Seek, bool]:
        """Take a seat at a live table for ``sitter``: (the table with its players, False) while
        seats stay free, or (the table with every player, True) for the last seat, which takes
        the table away (of any number of players taking the last seat at once, on any number of
        processes, exactly one gets True). Under a lock on the table's row, then on the sitter's
        account (so that no burst passes ``most_held`` seats held at live tables, and
        ``hourly`` is counted, ``Throttled``, before anything is stored); ``SitRefused``
        otherwise, changing nothing."""
        with self.engine.begin() as conn:
            locked = sa.select(seeks_table.c.id).where(
                seeks_table.c.id == seek_id, self._live(now, ttl)
            )
            if conn.dialect.name == "postgresql":
                locked = locked.with_for_update()
            if conn.execute(locked).one_or_none() is None:
                raise SitRefused("gone")
            found = _seeks(
                conn,
                conn.execute(
                    self._listed().where(
                        seeks_table.c.id == seek_id, people.c.deleted.is_(sa.false())
                    )
                ),
                now,
                ttl,
            )
            if not found:
                raise SitRefused("gone")
            table = found[0]
            if table.account_id == sitter.account_id:
                raise SitRefused("own")
            if table.holds(sitter.account_id):
                raise SitRefused("seated")
            self._lock_account(conn, sitter.account_id)
            held = seatstore.held_by(conn, sitter.account_id, self._live_ids(now, ttl), now, ttl)
            if held >= most_held:
                raise SitRefused("held", held)
            if hourly is not None:
                take(conn, [hourly], now)
            seated = (*table.seated, sitter)
            full = len(seated) + 1 >= table.players
            if full:
                conn.execute(seeks_table.delete().where(seeks_table.c.id == seek_id))
                seatstore.delete_of(conn, [seek_id])
            else:
                seatstore.leave(conn, seek_id, sitter.account_id)  # a seat gone stale
                seatstore.insert(conn, seek_id, [sitter], now, epoch)
            self._events(conn, now, [event_of(origin, SEEKS, sitter.account_id)])
        return dataclasses.replace(table, seated=seated), full

    def _live_ids(self, now: float, ttl: float) -> Any:
        return sa.select(seeks_table.c.id).where(self._live(now, ttl))

    def leave(self, seek_id: str, account_id: int, now: float, origin: str) -> bool:
        """Give up the account's seat at a table (False: it held none there)."""
        with self.engine.begin() as conn:
            if not seatstore.leave(conn, seek_id, account_id):
                return False
            self._events(conn, now, [event_of(origin, SEEKS, account_id)])
        return True

    def claim(self, account_ids: Sequence[int], epoch: str, now: float) -> None:
        """These accounts have a lobby socket on process ``epoch``: their seeks and seats are
        its to keep alive (the list itself does not change, so no event). Seats in a
        transaction of their own: a table's lock is never waited for while holding seeks'."""
        ids = list(account_ids)
        with self.engine.begin() as conn:
            for start in range(0, len(ids), 500):
                conn.execute(
                    seeks_table.update()
                    .where(seeks_table.c.account_id.in_(ids[start : start + 500]))
                    .values(heartbeat=now, epoch=epoch)
                )
        with self.engine.begin() as conn:
            seatstore.claim(conn, ids, epoch, now)

    def release(self, account_id: int, epoch: str, now: float) -> None:
        """The account's last lobby socket on ``epoch`` closed: its seeks are nobody's until
        another process with a socket of the account claims them (told by the event)."""
        with self.engine.begin() as conn:
            done = conn.execute(
                seeks_table.update()
                .where(seeks_table.c.account_id == account_id, seeks_table.c.epoch == epoch)
                .values(epoch="")
            )
            seats = seatstore.release(conn, account_id, epoch)
            if done.rowcount or seats:
                self._events(conn, now, [event_of(epoch, SEEKS, account_id)])

    def drop_unclaimed(self, account_id: int, epoch: str, now: float) -> int:
        """After the grace period: the account's seeks and seats that no process claimed go
        (a table with its seats)."""
        with self.engine.begin() as conn:
            gone = [
                str(r)
                for r in conn.execute(
                    sa.select(seeks_table.c.id).where(
                        seeks_table.c.account_id == account_id,
                        seeks_table.c.epoch.in_(["", epoch]),
                    )
                ).scalars()
            ]
            if gone:
                conn.execute(seeks_table.delete().where(seeks_table.c.id.in_(gone)))
                seatstore.delete_of(conn, gone)
            seats = seatstore.drop_unclaimed(conn, account_id, epoch)
            if gone or seats:
                self._events(conn, now, [event_of(epoch, SEEKS, account_id)])
        return len(gone) + seats

    def upkeep(self, now: float, ttl: float, lifetime: float, origin: str) -> int:
        """Delete seeks nobody renewed (a dead process's), old events and long-settled
        challenges; returns the seeks deleted."""
        with self.engine.begin() as conn:
            done = conn.execute(seeks_table.delete().where(seeks_table.c.heartbeat < now - ttl))
            seats = seatstore.upkeep(conn, sa.select(seeks_table.c.id), now, ttl)
            conn.execute(
                lobby_events_table.delete().where(lobby_events_table.c.at < now - EVENT_KEEP)
            )
            conn.execute(
                challenges_table.delete().where(
                    challenges_table.c.updated < now - lifetime - CHALLENGE_KEEP
                )
            )
            if done.rowcount or seats:
                self._events(conn, now, [event_of(origin, SEEKS, None)])
        return int(done.rowcount) + seats
