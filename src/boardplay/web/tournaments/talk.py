"""A tournament's chat: one channel per tournament, read by everyone, written
by signed-in people only, with the table chat's safety (``chat/``):

- **Plain text**: tidied by the table chat's ``clean`` (control characters and line breaks a
  space, runs of spaces one, the ends trimmed), refused empty or longer than
  ``Limits.chat_length`` (300); never HTML (the page writes it as text).
- **Who writes**: a session (its CSRF token checked by the front door, ``guard.py``), never an
  API token (bots do not talk here), and an account that takes part in the tournament
  (entered and not withdrawn, or has played in it, or organises it: ``entered``) or is at
  least ``Limits.chat_account_age`` old (a flooder's fresh accounts cost nothing).
- **Rate**: ``Limits.chat_per_minute`` (10) messages a minute per account and tournament and
  never two within a second, and at most ``PER_AUTHOR`` in one tournament; counted in the
  database under a lock per tournament, so every process agrees and a burst gets no more.
- **Kept**: the latest ``KEPT`` messages of a tournament are shown; the page reads them with
  the standings (``api/tournament_pages.py``: a poll every few seconds).
- **Blocks**: as in the table chat (``chat/blocks.py``), a signed-in reader is not shown the
  messages of a player they block or who blocks them (the relations' ``hidden``, one query a
  read): a tournament pairs whoever entered, but its chat keeps the two apart. Each still
  writes, as in a room both are in; neither reads the other."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from boardplay.web.accounts import Account
from boardplay.web.chat import Silenced, check_voice, clean
from boardplay.web.config import Limits
from boardplay.web.database import Runner, lock, metadata
from boardplay.web.errors import ApiError
from boardplay.web.tournaments.model import ACTIVE, PAUSED
from boardplay.web.tournaments.schema import boards_table, entrants_table, tournaments_table

KEPT = 100
"""Messages shown: the latest of the tournament."""
PER_AUTHOR = 200
"""Messages one account may write in one tournament."""
GAP = 1.0
"""Seconds between two messages of one account."""

chat_table = sa.Table(
    "tournament_chat",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), nullable=False),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Index("ix_tournament_chat_tournament_id_id", "tournament_id", "id"),
)


Hidden = Callable[[Sequence[int]], Awaitable[dict[int, frozenset[int]]]]
"""For each of some accounts, the players whose messages it is not shown (``Relations.hidden``)."""


@dataclass(frozen=True)
class Said:
    id: int
    name: str
    text: str
    created: float
    account_id: int | None = None
    """Its author's account (not shown: the blocks are read by it)."""

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "text": self.text, "created": self.created}


def read(engine: Engine, tournament_id: str, kept: int = KEPT) -> list[Said]:
    """The latest ``kept`` messages, oldest first."""
    c = chat_table
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(c.c.id, c.c.name, c.c.text, c.c.created, c.c.account_id)
            .where(c.c.tournament_id == tournament_id)
            .order_by(c.c.id.desc())
            .limit(kept)
        ).all()
    return [Said(r.id, r.name, r.text, r.created, r.account_id) for r in reversed(rows)]


def entered(engine: Engine, tournament_id: str, account_id: int) -> bool:
    """Whether the account really takes part: entered and not withdrawn, or has played a game
    of it, or organises it. Joining and withdrawing at once is not taking part, or a fresh
    account could open any tournament's chat to itself."""
    e, t, b = entrants_table, tournaments_table, boards_table
    with engine.connect() as conn:
        status = conn.execute(
            sa.select(e.c.status).where(
                e.c.tournament_id == tournament_id, e.c.account_id == account_id
            )
        ).scalar_one_or_none()
        if status in (ACTIVE, PAUSED):
            return True
        creator = conn.execute(
            sa.select(t.c.creator).where(t.c.id == tournament_id)
        ).scalar_one_or_none()
        if creator == account_id:
            return True
        if status is None:
            return False
        tables = conn.execute(sa.select(b.c.players).where(b.c.tournament_id == tournament_id))
        return any(account_id in players for (players,) in tables)


def write(
    engine: Engine, tournament_id: str, account: Account, text: str, limits: Limits, now: float
) -> Said:
    """Store ``account``'s (already cleaned) message, or raise the 429 of the ceiling met."""
    c = chat_table
    mine = sa.and_(c.c.tournament_id == tournament_id, c.c.account_id == account.id)
    with engine.begin() as conn:
        lock(conn, f"tournament-chat:{tournament_id}")
        total = conn.execute(sa.select(sa.func.count()).where(mine)).scalar_one()
        if total >= PER_AUTHOR:
            raise ApiError(
                429,
                "chat_author_full",
                f"you have written {PER_AUTHOR} messages in this tournament's chat, the most "
                "one account may",
            )
        recent = list(
            conn.execute(
                sa.select(c.c.created)
                .where(mine, c.c.created > now - 60)
                .order_by(c.c.created.desc())
                .limit(limits.chat_per_minute)
            ).scalars()
        )
        if recent and (len(recent) >= limits.chat_per_minute or now - recent[0] < GAP):
            full = len(recent) >= limits.chat_per_minute
            wait = max(1, round((recent[-1] + 60 - now) if full else GAP))
            why = (
                f"at most {limits.chat_per_minute} chat messages a minute"
                if full
                else ("one chat message a second at most")
            )
            raise ApiError(
                429,
                "chat_rate",
                f"slow down: {why}; try again in {wait} s",
                {"Retry-After": str(wait)},
            )
        made = conn.execute(
            c.insert().values(
                tournament_id=tournament_id,
                account_id=account.id,
                name=account.name,
                text=text,
                created=now,
            )
        )
        (key,) = made.inserted_primary_key or (0,)
    return Said(int(key), account.name, text, now, account.id)


def may_write(engine: Engine, tournament_id: str, account: Account, limits: Limits) -> bool:
    """An account that entered the tournament, or one old enough to write in any chat."""
    if account.age(time.time()) >= limits.chat_account_age:
        return True
    return entered(engine, tournament_id, account.id)


class Talk:
    """The tournaments' chat as the routes use it: read, and written within its rules."""

    def __init__(
        self,
        engine: Engine,
        db: Runner,
        limits: Limits,
        now: Callable[[], float],
        silenced: Silenced | None = None,
        hidden: Hidden | None = None,
    ) -> None:
        self.engine = engine
        self.silenced = silenced
        """Whether a writer is banned from the chats (the table chat's ``check_voice``)."""
        self.hidden = hidden
        """Whose messages a reader is not shown (the relations' blocks, either way)."""
        self.db = db
        self.limits = limits
        self.now = now

    async def read(self, tournament_id: str, account: Account | None) -> dict[str, Any]:
        """The latest messages, oldest first (without those of a player ``account`` blocks or
        who blocks it), whether ``account`` may write, and how long a message may be."""
        said: list[Said] = await self.db(read, self.engine, tournament_id)
        if account is not None and self.hidden is not None:
            hidden = (await self.hidden([account.id])).get(account.id, frozenset())
            said = [m for m in said if m.account_id not in hidden]
        can_write = account is not None and await self.db(
            may_write, self.engine, tournament_id, account, self.limits
        )
        return {
            "messages": [m.to_json() for m in said],
            "can_write": can_write,
            "length": self.limits.chat_length,
        }

    async def write(self, tournament_id: str, account: Account, text: str) -> Said:
        """Store ``account``'s message, tidied (``chat.clean``), or refuse it: 403 for an
        account that may not write here, 429 past a ceiling."""
        limits = self.limits
        tidied = clean(text, limits.chat_length)
        await check_voice(self.silenced, account.id)
        if not await self.db(may_write, self.engine, tournament_id, account, limits):
            raise ApiError(
                403,
                "account_too_new",
                f"a new account may write in a tournament's chat once it has joined it or is "
                f"{limits.chat_account_age / 60:g} minutes old (reading is open to all)",
            )
        said: Said = await self.db(
            write, self.engine, tournament_id, account, tidied, limits, self.now()
        )
        return said
