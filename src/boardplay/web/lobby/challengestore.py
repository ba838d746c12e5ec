"""Stored challenges: a challenge from one account to another, open until it is
answered, withdrawn or its lifetime passes; counted under both accounts' locks so that neither
a sender's open challenges nor those waiting for one player pass their ceilings in a burst.
``SeekStore`` is one (the lobby's one store of its tables and events)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from boardplay.web.accounts import people
from boardplay.web.database import metadata
from boardplay.web.throttles import Ceiling, take

OPEN = "open"
STARTING = "starting"
"""Stored only: an accepted challenge whose game is being made, shown as open (lichess marks a
challenge accepted once its game exists), so no reader finds an accepted challenge's game
missing. Only an ``OPEN`` one can be settled, so no second answer is taken meanwhile."""
ACCEPTED = "accepted"
DECLINED = "declined"
CANCELLED = "cancelled"
EXPIRED = "expired"
"""Never stored: what an open challenge is called once its lifetime has passed."""
COLOURS = {0: "white", 1: "black", None: "random"}
"""The sender's seat in lichess's words (``color``), as its clients read a challenge."""
CHALLENGE_KEEP = 86_400.0
"""Seconds an answered or expired challenge is kept after its lifetime (for the lists)."""

challenges_table = sa.Table(
    "challenges",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("from_account", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("to_account", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("clock", sa.JSON, nullable=True),
    sa.Column("created", sa.Float, nullable=False, index=True),
    sa.Column("updated", sa.Float, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("game_id", sa.String(32), nullable=True),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Index("ix_challenges_from_account", "from_account"),
    sa.Index("ix_challenges_to_account", "to_account"),
)


@dataclass(frozen=True)
class Challenge:
    id: str
    from_account: int
    to_account: int
    game: str
    options: dict[str, Any]
    rated: bool
    created: float
    updated: float
    status: str
    game_id: str | None = None
    from_name: str = ""
    to_name: str = ""
    clock: dict[str, Any] | None = None
    from_bot: bool = False
    to_bot: bool = False
    """Whether the sender, the challenged player, is a bot account (shown BOT)."""
    seat: int | None = None
    """The sender's seat (lichess's ``color``: 0 white, 1 black), None: drawn at the start."""

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "from": self.from_name,
            "to": self.to_name,
            "from_bot": self.from_bot,
            "to_bot": self.to_bot,
            "game": self.game,
            "options": self.options,
            "rated": self.rated,
            "clock": self.clock,
            "created": self.created,
            "status": self.status,
            "game_id": self.game_id,
            "seat": self.seat,
            "color": COLOURS[self.seat],
        }


SENDER = people.alias("sender")
RECEIVER = people.alias("receiver")


class ChallengeStore:
    """The challenges of the lobby's store (it provides the engine and the account locks)."""

    engine: Engine
    autocommit: Engine

    @staticmethod
    def _lock_account(conn: sa.Connection, account_id: int) -> None:
        raise NotImplementedError

    # ----- challenges -----------------------------------------------------------------------
    def _challenges(self, now: float, lifetime: float) -> Any:
        stored = challenges_table.c.status
        expired = sa.and_(stored.in_((OPEN, STARTING)), challenges_table.c.created < now - lifetime)
        status = sa.case((expired, EXPIRED), (stored == STARTING, OPEN), else_=stored).label(
            "shown"
        )
        return (
            sa.select(
                challenges_table,
                status,
                SENDER.c.name.label("from_name"),
                RECEIVER.c.name.label("to_name"),
                SENDER.c.bot.label("from_bot"),
                RECEIVER.c.bot.label("to_bot"),
            )
            .join(SENDER, SENDER.c.id == challenges_table.c.from_account)
            .join(RECEIVER, RECEIVER.c.id == challenges_table.c.to_account)
        )

    @staticmethod
    def _challenge(row: Any) -> Challenge:
        return Challenge(
            row.id,
            int(row.from_account),
            int(row.to_account),
            row.game,
            dict(row.options),
            bool(row.rated),
            float(row.created),
            float(row.updated),
            row.shown,
            row.game_id,
            row.from_name,
            row.to_name,
            row.clock,
            bool(row.from_bot),
            bool(row.to_bot),
            row.seat,
        )

    def add_challenge(
        self,
        challenge: Challenge,
        ceiling: int,
        lifetime: float,
        received: int,
        hourly: Ceiling,
    ) -> str | None:
        """Store ``challenge`` unless its sender has ``ceiling`` open ones (then returns
        ``"sent"``), its recipient has ``received`` open ones from everyone (``"received"``),
        or the sender is past ``hourly`` (``Throttled``); nothing is stored then. Both accounts
        are locked (in id order, so two crossing challenges cannot deadlock) while counting."""
        now = challenge.created
        table = challenges_table
        live = sa.and_(table.c.status == OPEN, table.c.created >= now - lifetime)
        with self.engine.begin() as conn:
            for account_id in sorted({challenge.from_account, challenge.to_account}):
                self._lock_account(conn, account_id)
            sent = conn.execute(
                sa.select(sa.func.count()).where(
                    table.c.from_account == challenge.from_account, live
                )
            ).scalar_one()
            if sent >= ceiling:
                return "sent"
            waiting = conn.execute(
                sa.select(sa.func.count()).where(table.c.to_account == challenge.to_account, live)
            ).scalar_one()
            if waiting >= received:
                return "received"
            take(conn, [hourly], now)
            conn.execute(
                challenges_table.insert().values(
                    id=challenge.id,
                    from_account=challenge.from_account,
                    to_account=challenge.to_account,
                    game=challenge.game,
                    options=challenge.options,
                    rated=challenge.rated,
                    clock=challenge.clock,
                    seat=challenge.seat,
                    created=now,
                    updated=now,
                    status=OPEN,
                )
            )
        return None

    def challenge(self, challenge_id: str, now: float, lifetime: float) -> Challenge | None:
        query = self._challenges(now, lifetime).where(challenges_table.c.id == challenge_id)
        with self.autocommit.connect() as conn:
            row = conn.execute(query).one_or_none()
        return None if row is None else self._challenge(row)

    def challenges_of(
        self, account_id: int, now: float, lifetime: float, limit: int
    ) -> list[Challenge]:
        """The account's challenges, sent or received, open or changed within ``lifetime``,
        newest first."""
        query = (
            self._challenges(now, lifetime)
            .where(
                sa.or_(
                    challenges_table.c.from_account == account_id,
                    challenges_table.c.to_account == account_id,
                ),
                challenges_table.c.updated >= now - lifetime,
            )
            .order_by(challenges_table.c.created.desc())
            .limit(limit)
        )
        with self.autocommit.connect() as conn:
            return [self._challenge(r) for r in conn.execute(query)]

    def settle(
        self,
        challenge_id: str,
        party: str,
        account_id: int,
        status: str,
        now: float,
        lifetime: float,
    ) -> bool:
        """Move an open, unexpired challenge to ``status`` if ``account_id`` is its ``party``
        (``from_account`` or ``to_account``): True for the one answer that did. An acceptance
        settles to ``STARTING``; ``started`` names its game once the game exists."""
        with self.engine.begin() as conn:
            done = conn.execute(
                challenges_table.update()
                .where(
                    challenges_table.c.id == challenge_id,
                    challenges_table.c.status == OPEN,
                    challenges_table.c.created >= now - lifetime,
                    challenges_table.c[party] == account_id,
                )
                .values(status=status, updated=now)
            )
        return bool(done.rowcount == 1)

    def started(self, challenge_id: str, game_id: str | None, status: str, now: float) -> None:
        """Record the game an accepted challenge started (``status`` accepted), or reopen it
        (``status`` open, no game) when the game could not be made."""
        with self.engine.begin() as conn:
            conn.execute(
                challenges_table.update()
                .where(challenges_table.c.id == challenge_id)
                .values(game_id=game_id, status=status, updated=now)
            )
