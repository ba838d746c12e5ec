"""The table chat in the database: a game's messages (both channels) and the reports players
make of them. The rules (who reads and writes which channel, the ceilings,
what text is allowed) are ``service.py``; this module only stores and reads.

The ceilings are counted here, in the same transaction as the insert and under a lock per
game and channel, so every server process sharing the database agrees on them and a burst
cannot pass between a count and its insert: a sender's messages of the last minute in a
channel and the moment of their last one, the players' messages of the game, and each
spectator's. The spectators' channel keeps its latest messages and drops the oldest, so no
number of watchers can close it, and nothing they write counts against the players'. The
chat is kept with the game, never in its public view, record or replay."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from boardplay.web.config import Limits
from boardplay.web.database import (
    OneStatement,
    StorageThreads,
    among,
    autocommitting,
    lock,
    metadata,
)

PLAYERS = "players"
"""The channel of the people holding seats: never shown to anyone else."""
SPECTATORS = "spectators"
"""The channel of everybody watching without a seat (hidden from the players while the game
is on)."""
CHANNELS = (PLAYERS, SPECTATORS)
AUTHOR_LENGTH = 64
"""Longest author name a message stores (a seat's name: the table stores as long)."""

chat_messages_table = sa.Table(
    "chat_messages",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
    sa.Column("channel", sa.String(16), nullable=False),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("account_id", sa.Integer, nullable=True),
    sa.Column("name", sa.String(AUTHOR_LENGTH), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Index("ix_chat_messages_game_id_id", "game_id", "id"),
)
"""One message: its author as the seat (players' channel) or the account (spectators'), the
name shown at the time, and the cleaned text (``chat.clean``)."""

chat_reports_table = sa.Table(
    "chat_reports",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("message_id", sa.Integer, sa.ForeignKey("chat_messages.id"), nullable=False),
    sa.Column("game_id", sa.String(32), nullable=False, index=True),
    sa.Column("channel", sa.String(16), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("author", sa.String(200), nullable=False),
    sa.Column("reporter_key", sa.String(80), nullable=False),
    sa.Column("reporter", sa.String(200), nullable=False),
    sa.Column("created", sa.Float, nullable=False, index=True),
    sa.UniqueConstraint("message_id", "reporter_key", name="uq_chat_reports_message_reporter"),
)
"""A report for the operator: the message's text and author copied (what was reported stays
readable whatever happens to the message), who reported it (``reporter_key`` makes one report
per reporter per message) and when."""


@dataclass(frozen=True)
class ChatMessage:
    id: int
    game_id: str
    channel: str
    seat: int | None
    account_id: int | None
    name: str
    text: str
    created: float

    def to_json(self) -> dict[str, Any]:
        """What a reader is sent: never the account's id, only the name it wrote under, and an
        ``author`` key the page mutes by (a seat of this game, or an account everywhere)."""
        author = f"seat:{self.seat}" if self.seat is not None else f"@{self.name}"
        return {
            "id": self.id,
            "channel": self.channel,
            "seat": self.seat,
            "author": author,
            "name": self.name,
            "text": self.text,
            "created": self.created,
        }


@dataclass(frozen=True)
class ReportedLine:
    """A reported message for the moderators: the report (who, when), the message's author's
    account (None: a guest's seat), and the lines around it in its channel (``context``, the
    message among them)."""

    report_id: int
    game_id: str
    channel: str
    message_id: int
    text: str
    author: str
    author_id: int | None
    reporter: str
    created: float
    context: tuple[ChatMessage, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.report_id,
            "game_id": self.game_id,
            "channel": self.channel,
            "message_id": self.message_id,
            "text": self.text,
            "author": self.author,
            "reporter": self.reporter,
            "created": self.created,
            "context": [
                {"id": m.id, "name": m.name, "text": m.text, "created": m.created}
                for m in self.context
            ],
        }


@dataclass(frozen=True)
class Author:
    """Who writes: a seat of the game (players' channel) or a signed-in account (spectators'),
    and the name their messages show."""

    seat: int | None
    account_id: int | None
    name: str


class ChatRefused(Exception):
    """A ceiling refused the message: ``reason`` is ``full`` (the players' channel's count),
    ``author`` (a spectator's count in the game) or ``rate`` (the sender's), ``retry_after``
    the seconds until one more would pass (``rate``)."""

    def __init__(self, reason: str, count: int, retry_after: float = 0.0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.count = count
        self.retry_after = retry_after


GAP = 1.0
"""Seconds between two messages of one sender in one channel, at least."""
MINUTE = 60.0


def _row(row: Any) -> ChatMessage:
    """A message of its table's row, read by position (``database.OneStatement`` gives tuples)."""
    id_, game_id, channel, seat, account_id, name, text, created = row
    return ChatMessage(int(id_), game_id, channel, seat, account_id, name, text, float(created))


def _backlog_statement() -> OneStatement:
    table = chat_messages_table
    last = [
        sa.select(table)
        .where(table.c.game_id == sa.bindparam("game_id"), table.c.channel == channel)
        .order_by(table.c.id.desc())
        .limit(sa.bindparam("limit", type_=sa.Integer))
        .subquery()
        for channel in CHANNELS
    ]
    return OneStatement(sa.union_all(*(sa.select(part) for part in last)))


_BACKLOG = _backlog_statement()


async def backlog(db: StorageThreads, game_id: str, limit: int) -> dict[str, list[ChatMessage]]:
    """Each channel's last ``limit`` messages, oldest first, in one statement: every game stream
    and page that opens reads it (twice a bots' arena game)."""
    found: dict[str, list[ChatMessage]] = {channel: [] for channel in CHANNELS}
    for row in sorted(await db.rows(_BACKLOG, {"game_id": game_id, "limit": limit})):
        message = _row(row)
        found[message.channel].append(message)
    return found


def _latest(conn: sa.Connection, game_id: str, channel: str, limit: int) -> list[ChatMessage]:
    table = chat_messages_table
    rows = conn.execute(
        table.select()
        .where(table.c.game_id == game_id, table.c.channel == channel)
        .order_by(table.c.id.desc())
        .limit(limit)
    ).all()
    return [_row(r) for r in reversed(rows)]


class ChatStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        # Reads of committed lines need no transaction: no BEGIN and ROLLBACK round trips
        # around them (a bot's game stream reads the backlog as it opens).
        self.autocommit = autocommitting(engine)

    def post(
        self,
        game_id: str,
        channel: str,
        author: Author,
        text: str,
        *,
        per_minute: int,
        per_game: int,
        per_author: int = Limits.chat_per_author,
        kept: int = Limits.chat_spectators_kept,
        now: float | None = None,
    ) -> ChatMessage:
        """Store a message, or raise ``ChatRefused``: ``full`` if the players' channel holds
        ``per_game`` messages already, ``author`` if a spectator wrote ``per_author`` in this
        game, ``rate`` if the sender wrote ``per_minute`` in this channel within the last
        minute (or one within the last ``GAP`` seconds). The spectators' channel keeps its
        latest ``kept`` messages (the oldest unreported ones go). Each channel of a game is
        counted under its own lock, so a burst cannot pass between a count and its insert, and
        nothing written in one channel counts against the other."""
        now = time.time() if now is None else now
        table = chat_messages_table
        here = sa.and_(table.c.game_id == game_id, table.c.channel == channel)
        with self.engine.begin() as conn:
            lock(conn, f"chat:{game_id}:{channel}")
            sender = (
                table.c.seat == author.seat
                if author.seat is not None
                else table.c.account_id == author.account_id
            )
            if channel == PLAYERS:
                count = conn.execute(sa.select(sa.func.count()).where(here)).scalar_one()
                if count >= per_game:
                    raise ChatRefused("full", int(count))
            else:
                mine = conn.execute(sa.select(sa.func.count()).where(here, sender)).scalar_one()
                if mine >= per_author:
                    raise ChatRefused("author", int(mine))
            recent = (
                conn.execute(
                    sa.select(table.c.created)
                    .where(here, sender, table.c.created > now - MINUTE)
                    .order_by(table.c.created.desc())
                    .limit(per_minute)
                )
                .scalars()
                .all()
            )
            if len(recent) >= per_minute:
                raise ChatRefused("rate", len(recent), recent[-1] + MINUTE - now)
            if recent and now - recent[0] < GAP:
                raise ChatRefused("rate", len(recent), recent[0] + GAP - now)
            name = author.name[:AUTHOR_LENGTH]
            inserted = conn.execute(
                table.insert().values(
                    game_id=game_id,
                    channel=channel,
                    seat=author.seat,
                    account_id=author.account_id,
                    name=name,
                    text=text,
                    created=now,
                )
            ).inserted_primary_key
            if channel == SPECTATORS:
                self._drop_oldest(conn, here, kept)
        assert inserted is not None
        return ChatMessage(
            int(inserted[0]), game_id, channel, author.seat, author.account_id, name, text, now
        )

    @staticmethod
    def _drop_oldest(conn: sa.Connection, here: sa.ColumnElement[bool], kept: int) -> None:
        """Keep the channel's latest ``kept`` messages (and every reported one: a report points
        at its message)."""
        table = chat_messages_table
        cut = conn.execute(
            sa.select(table.c.id).where(here).order_by(table.c.id.desc()).offset(kept).limit(1)
        ).scalar()
        if cut is None:
            return
        reported = sa.select(chat_reports_table.c.message_id)
        conn.execute(table.delete().where(here, table.c.id <= cut, table.c.id.not_in(reported)))

    def latest(self, game_id: str, channel: str, limit: int) -> list[ChatMessage]:
        """The channel's last ``limit`` messages, oldest first."""
        with self.autocommit.connect() as conn:
            return _latest(conn, game_id, channel, limit)

    def newer(self, game_ids: Sequence[str], after_id: int, since: float) -> list[ChatMessage]:
        """Messages of these games with an id above ``after_id`` or written at ``since`` or
        later, in id order: what another process may have added since this one last looked
        (``chat.ChatRelay`` skips those it has sent)."""
        if not game_ids:
            return []
        table = chat_messages_table
        with self.autocommit.connect() as conn:
            rows = conn.execute(
                table.select()
                .where(
                    among(table.c.game_id, game_ids, self.engine),
                    sa.or_(table.c.id > after_id, table.c.created >= since),
                )
                .order_by(table.c.id)
            ).all()
        return [_row(r) for r in rows]

    def message(self, game_id: str, message_id: int) -> ChatMessage | None:
        table = chat_messages_table
        with self.autocommit.connect() as conn:
            row = conn.execute(
                table.select().where(table.c.id == message_id, table.c.game_id == game_id)
            ).first()
        return None if row is None else _row(row)

    def report(
        self, message: ChatMessage, reporter_key: str, reporter: str, now: float | None = None
    ) -> bool:
        """Store a report of ``message`` for the operator; False if this reporter had reported
        it already (one report per reporter per message)."""
        table = chat_reports_table
        author = (
            f"seat {message.seat}: {message.name}"
            if message.seat is not None
            else f"account {message.account_id}: {message.name}"
        )
        values = {
            "message_id": message.id,
            "game_id": message.game_id,
            "channel": message.channel,
            "text": message.text,
            "author": author[:200],
            "reporter_key": reporter_key[:80],
            "reporter": reporter[:200],
            "created": time.time() if now is None else now,
        }
        with self.engine.begin() as conn:
            found = conn.execute(
                sa.select(table.c.id).where(
                    table.c.message_id == message.id, table.c.reporter_key == values["reporter_key"]
                )
            ).first()
            if found is not None:
                return False
            try:
                with conn.begin_nested():
                    conn.execute(table.insert().values(**values))
            except sa.exc.IntegrityError:  # the same reporter, at the same instant elsewhere
                return False
        return True

    def reported(self, before: int | None, limit: int, around: int) -> list[ReportedLine]:
        """Reports older than the report ``before`` (None: the newest), newest first, each with
        its message's author's account and ``around`` lines either side of it."""
        reports, messages = chat_reports_table, chat_messages_table
        query = (
            sa.select(reports, messages.c.account_id)
            .join(messages, messages.c.id == reports.c.message_id)
            .order_by(reports.c.id.desc())
            .limit(limit)
        )
        if before is not None:
            query = query.where(reports.c.id < before)
        found = []
        with self.engine.connect() as conn:
            for row in conn.execute(query).all():
                here = sa.and_(messages.c.game_id == row.game_id, messages.c.channel == row.channel)
                earlier = conn.execute(
                    messages.select()
                    .where(here, messages.c.id <= row.message_id)
                    .order_by(messages.c.id.desc())
                    .limit(around + 1)
                ).all()
                later = conn.execute(
                    messages.select()
                    .where(here, messages.c.id > row.message_id)
                    .order_by(messages.c.id)
                    .limit(around)
                ).all()
                context = tuple(_row(r) for r in [*reversed(earlier), *later])
                found.append(
                    ReportedLine(
                        int(row.id),
                        row.game_id,
                        row.channel,
                        int(row.message_id),
                        row.text,
                        row.author,
                        row.account_id,
                        row.reporter,
                        float(row.created),
                        context,
                    )
                )
        return found

    def reports(self, game_id: str | None = None) -> list[dict[str, Any]]:
        """The stored reports, newest first (for the operator and the tests)."""
        table = chat_reports_table
        query = table.select().order_by(table.c.id.desc())
        if game_id is not None:
            query = query.where(table.c.game_id == game_id)
        with self.engine.connect() as conn:
            return [dict(row._mapping) for row in conn.execute(query).all()]
