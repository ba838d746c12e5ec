"""The moderators' tables: who holds a role, the players' reports of other players, which
reports were decided, the audit log of every decision, the chat bans, and the notices that tell
a player what was decided about them. The rules (who may act, what each action does) are
``service.py``; this module only stores and reads. The chat-line reports stay the chat's
(``chat/``): a decision about one is kept here by its id.

A report is counted against its reporter's daily ceiling in the same transaction as its
insert (``throttles.take``), so a burst sent at once stores no more than the ceiling."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from boardplay.web.database import metadata
from boardplay.web.throttles import Ceiling, take

MODERATOR = "moderator"
ROLES = (MODERATOR,)
"""The roles an operator may give (``boardplay db role``)."""
NAME_LENGTH = 64
"""Longest name the log copies (an account's name when the decision was made)."""

roles_table = sa.Table(
    "moderation_roles",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("role", sa.String(16), primary_key=True),
    sa.Column("granted", sa.Float, nullable=False),
)
"""A role an operator gave an account (``ROLES``)."""

player_reports_table = sa.Table(
    "player_reports",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("reporter_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
    sa.Column("reported_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
    sa.Column("reason", sa.String(16), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("game_id", sa.String(32), nullable=True),
    sa.Column("created", sa.Float, nullable=False, index=True),
)
"""A player's report of another: why (``REASONS``), what they wrote (tidied, maybe empty) and
the game they reported from, if any. A report without a reporter is the system's (the fair-play
check, ``fairplay/``)."""

decided_table = sa.Table(
    "moderation_decided",
    metadata,
    sa.Column("kind", sa.String(8), primary_key=True),
    sa.Column("report_id", sa.Integer, primary_key=True),
    sa.Column("entry_id", sa.Integer, nullable=False),
)
"""A report that was decided (``kind``: ``chat`` or ``player``), and the log entry saying how:
it leaves the queue."""

log_table = sa.Table(
    "moderation_log",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("moderator_id", sa.Integer, nullable=False),
    sa.Column("moderator", sa.String(NAME_LENGTH), nullable=False),
    sa.Column("action", sa.String(16), nullable=False),
    sa.Column("account_id", sa.Integer, nullable=True, index=True),
    sa.Column("account", sa.String(NAME_LENGTH), nullable=True),
    sa.Column("report", sa.String(24), nullable=True),
    sa.Column("days", sa.Integer, nullable=True),
    sa.Column("reason", sa.Text, nullable=False),
    sa.Column("created", sa.Float, nullable=False, index=True),
    sa.Column("grounds", sa.String(16), nullable=True),
)
"""The audit log: who decided what, why, when, about whom, on which report. Never changed
or deleted (an account's closing keeps its entries)."""

chat_bans_table = sa.Table(
    "chat_bans",
    metadata,
    sa.Column("account_id", sa.Integer, primary_key=True),
    sa.Column("until", sa.Float, nullable=False),
)
"""An account that may not write in any chat until ``until`` (seconds since the epoch)."""

notices_table = sa.Table(
    "moderation_notices",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account_id", sa.Integer, nullable=False, index=True),
    sa.Column("action", sa.String(16), nullable=False),
    sa.Column("days", sa.Integer, nullable=True),
    sa.Column("until", sa.Float, nullable=True),
    sa.Column("reason", sa.Text, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("seen", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("grounds", sa.String(16), nullable=True),
)
"""What a player is told of a decision about them, until they have read it."""


@dataclass(frozen=True)
class PlayerReport:
    id: int
    reporter_id: int | None
    """None: the system filed it."""
    reported_id: int
    reason: str
    text: str
    game_id: str | None
    created: float


@dataclass(frozen=True)
class Entry:
    """One decision of the audit log."""

    id: int
    moderator: str
    action: str
    account: str | None
    report: str | None
    days: int | None
    reason: str
    created: float
    grounds: str | None = None
    """What a ``mark`` is for (``engine`` or ``boosting``)."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Notice:
    id: int
    action: str
    days: int | None
    until: float | None
    reason: str
    created: float
    grounds: str | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Decision:
    """What one action writes: the log entry, the report it decides, the ban, the notice."""

    moderator_id: int
    moderator: str
    action: str
    account_id: int | None
    account: str | None
    report: tuple[str, int] | None
    days: int | None
    reason: str
    ban_until: float | None
    notify: bool
    grounds: str | None = None


class AlreadyDecided(Exception):
    """The report was decided meanwhile (by another moderator, or twice)."""


class ModerationStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # ----- roles --------------------------------------------------------------------------
    def roles(self, account_id: int) -> set[str]:
        table = roles_table
        with self.engine.connect() as conn:
            found = conn.execute(sa.select(table.c.role).where(table.c.account_id == account_id))
            return set(found.scalars())

    def set_role(self, account_id: int, role: str, held: bool) -> bool:
        """Give (``held``) or take back a role; whether anything changed."""
        table = roles_table
        mine = sa.and_(table.c.account_id == account_id, table.c.role == role)
        with self.engine.begin() as conn:
            there = conn.execute(sa.select(table.c.role).where(mine)).first() is not None
            if held and not there:
                conn.execute(
                    table.insert().values(account_id=account_id, role=role, granted=time.time())
                )
            elif there and not held:
                conn.execute(table.delete().where(mine))
        return there != held

    def forget(self, account_id: int) -> None:
        """A closed account's roles, ban and unread notices go (its log entries stay)."""
        with self.engine.begin() as conn:
            conn.execute(roles_table.delete().where(roles_table.c.account_id == account_id))
            conn.execute(chat_bans_table.delete().where(chat_bans_table.c.account_id == account_id))
            conn.execute(notices_table.delete().where(notices_table.c.account_id == account_id))

    # ----- reports ------------------------------------------------------------------------
    def report(
        self,
        reporter_id: int,
        reported_id: int,
        reason: str,
        text: str,
        game_id: str | None,
        ceiling: Ceiling,
        now: float | None = None,
    ) -> int:
        """Store a report, counted against ``ceiling`` first in the same transaction
        (``Throttled`` past it: nothing is stored or counted)."""
        now = time.time() if now is None else now
        with self.engine.begin() as conn:
            take(conn, [ceiling], now)
            made = conn.execute(
                player_reports_table.insert().values(
                    reporter_id=reporter_id,
                    reported_id=reported_id,
                    reason=reason,
                    text=text,
                    game_id=game_id,
                    created=now,
                )
            )
            (key,) = made.inserted_primary_key or (0,)
        return int(key)

    def system_report(
        self,
        reported_id: int,
        reason: str,
        text: str,
        game_id: str | None,
        now: float | None = None,
    ) -> int | None:
        """Store the system's report of an account, unless one for the same reason is still
        undecided (None then: the queue holds it already)."""
        now = time.time() if now is None else now
        table, done = player_reports_table, decided_table
        decided = sa.select(done.c.report_id).where(done.c.kind == "player")
        with self.engine.begin() as conn:
            waiting = conn.execute(
                sa.select(table.c.id).where(
                    table.c.reporter_id.is_(None),
                    table.c.reported_id == reported_id,
                    table.c.reason == reason,
                    table.c.id.not_in(decided),
                )
            ).first()
            if waiting is not None:
                return None
            made = conn.execute(
                table.insert().values(
                    reporter_id=None,
                    reported_id=reported_id,
                    reason=reason,
                    text=text,
                    game_id=game_id,
                    created=now,
                )
            )
            (key,) = made.inserted_primary_key or (0,)
        return int(key)

    def open_reports(self, limit: int) -> list[PlayerReport]:
        """Player reports not yet decided, newest first."""
        table, done = player_reports_table, decided_table
        decided = sa.select(done.c.report_id).where(done.c.kind == "player")
        query = (
            table.select()
            .where(table.c.id.not_in(decided))
            .order_by(table.c.id.desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [PlayerReport(**row._mapping) for row in conn.execute(query)]

    def player_report(self, report_id: int) -> PlayerReport | None:
        table = player_reports_table
        with self.engine.connect() as conn:
            row = conn.execute(table.select().where(table.c.id == report_id)).first()
        return None if row is None else PlayerReport(**row._mapping)

    def decided(self, kind: str, report_ids: Sequence[int]) -> set[int]:
        """Those of the reports of ``kind`` that were decided."""
        if not report_ids:
            return set()
        table = decided_table
        query = sa.select(table.c.report_id).where(
            table.c.kind == kind, table.c.report_id.in_(list(report_ids))
        )
        with self.engine.connect() as conn:
            return set(conn.execute(query).scalars())

    # ----- decisions ----------------------------------------------------------------------
    def decide(self, decision: Decision, now: float | None = None) -> Entry:
        """Write a decision at once: its log entry, its report decided (``AlreadyDecided`` if
        it was), the ban lengthened, the player's notice."""
        now = time.time() if now is None else now
        d = decision
        with self.engine.begin() as conn:
            made = conn.execute(
                log_table.insert().values(
                    moderator_id=d.moderator_id,
                    moderator=d.moderator[:NAME_LENGTH],
                    action=d.action,
                    account_id=d.account_id,
                    account=None if d.account is None else d.account[:NAME_LENGTH],
                    report=None if d.report is None else f"{d.report[0]}:{d.report[1]}",
                    days=d.days,
                    reason=d.reason,
                    created=now,
                    grounds=d.grounds,
                )
            )
            (entry_id,) = made.inserted_primary_key or (0,)
            if d.report is not None:
                try:
                    with conn.begin_nested():
                        conn.execute(
                            decided_table.insert().values(
                                kind=d.report[0], report_id=d.report[1], entry_id=entry_id
                            )
                        )
                except sa.exc.IntegrityError:
                    raise AlreadyDecided from None
            if d.ban_until is not None and d.account_id is not None:
                self._ban(conn, d.account_id, d.ban_until)
            if d.notify and d.account_id is not None:
                conn.execute(
                    notices_table.insert().values(
                        account_id=d.account_id,
                        action=d.action,
                        days=d.days,
                        until=d.ban_until,
                        reason=d.reason,
                        created=now,
                        grounds=d.grounds,
                    )
                )
        return Entry(
            int(entry_id),
            d.moderator,
            d.action,
            d.account,
            None if d.report is None else f"{d.report[0]}:{d.report[1]}",
            d.days,
            d.reason,
            now,
            d.grounds,
        )

    @staticmethod
    def _ban(conn: sa.Connection, account_id: int, until: float) -> None:
        table = chat_bans_table
        found = conn.execute(
            sa.select(table.c.until).where(table.c.account_id == account_id)
        ).scalar_one_or_none()
        if found is None:
            conn.execute(table.insert().values(account_id=account_id, until=until))
        elif found < until:
            conn.execute(table.update().where(table.c.account_id == account_id).values(until=until))

    def log(self, limit: int) -> list[Entry]:
        """The latest decisions, newest first."""
        table = log_table
        query = table.select().order_by(table.c.id.desc()).limit(limit)
        with self.engine.connect() as conn:
            return [
                Entry(
                    r.id,
                    r.moderator,
                    r.action,
                    r.account,
                    r.report,
                    r.days,
                    r.reason,
                    r.created,
                    r.grounds,
                )
                for r in conn.execute(query)
            ]

    def banned_until(self, account_id: int) -> float | None:
        table = chat_bans_table
        with self.engine.connect() as conn:
            found = conn.execute(
                sa.select(table.c.until).where(table.c.account_id == account_id)
            ).scalar_one_or_none()
        return None if found is None else float(found)

    # ----- notices ------------------------------------------------------------------------
    def notices(self, account_id: int) -> list[Notice]:
        """The account's unread notices, oldest first."""
        table = notices_table
        query = (
            table.select()
            .where(table.c.account_id == account_id, table.c.seen.is_(sa.false()))
            .order_by(table.c.id)
        )
        with self.engine.connect() as conn:
            return [
                Notice(r.id, r.action, r.days, r.until, r.reason, r.created, r.grounds)
                for r in conn.execute(query)
            ]

    def seen(self, account_id: int, notice_id: int) -> bool:
        """Mark the account's notice read; False if it has none of that id."""
        table = notices_table
        with self.engine.begin() as conn:
            done = conn.execute(
                table.update()
                .where(table.c.id == notice_id, table.c.account_id == account_id)
                .values(seen=True)
            )
        return done.rowcount == 1
