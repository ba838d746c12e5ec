"""Stored e-mail: the address each account gave and what it wants mailed, the
mails waiting to be sent (the outbox) and the unsubscribe links handed out.

Why it is shaped this way (``mailer.py`` does the sending, docs/deploy.md "E-mail (SMTP)"):

- **The outbox is the only way out.** A mail is a row first; whichever server process claims it
  sends it and marks it sent, so several processes on one database send each mail once; a
  failure is retried after growing pauses (``outbox.py``, the leased outbox push shares).
- **No secret is stored in the clear, not even in the outbox.** Links carry random tokens whose
  SHA-256 alone is kept. A queued mail holds no link: the process that claims it makes a fresh
  token in the same transaction and adds the link as it sends. A confirmation link replaces the
  address's pending one (only the newest works); every notification has its own unsubscribe
  token (``mail_unsubscribe``), so a link in any mail of the last year keeps working while only
  hashes sit in the database.
- **Checked twice.** Who gets a mail is checked when it is queued and again when it is claimed:
  a player who unsubscribed, removed or changed the address meanwhile is not mailed (the row
  is marked ``cancelled``). Notifications go only to confirmed addresses; the one mail an
  unconfirmed address can get, the confirmation, is counted per account and per address.
- Ceilings are counted here, in the transaction that queues, so every process agrees."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from boardplay.web.accounts import people
from boardplay.web.database import autocommitting, lock, metadata
from boardplay.web.notify.outbox import CANCELLED, Backoff, Outbox, leased_table
from boardplay.web.throttles import Ceiling, Throttled, take
from boardplay.web.tokens import hash_token, new_token

ADDRESS_MAX = 254
"""Longest e-mail address (RFC 5321's limit on a path)."""
SUBJECT_MAX = 150
"""Longest subject stored (names in it are cut first, ``mailer.py``)."""
BODY_MAX = 4000
"""Longest body stored, before the links are added."""
CONFIRM = "confirm"
TURN = "turn"
END = "end"
NOTIFICATIONS = (TURN, END)

CONFIRM_LIFETIME = 48 * 3600.0
"""Seconds a confirmation link works (from when its mail is sent)."""
UNSUBSCRIBE_LIFETIME = 365 * 24 * 3600.0
"""Seconds an unsubscribe link works (the account page always can turn mails off)."""
OUTBOX_KEEP = 30 * 24 * 3600.0
"""Seconds sent, failed and cancelled mails stay in the outbox (for the operator to look at;
at least the hour the ceilings count)."""
HOUR = 3600.0
BACKOFF = Backoff(first=60.0, tries=5)
"""A mail the SMTP server did not take is tried again after 1, 4, 16 and 64 minutes, then given
up (at once when the server refuses it for good)."""

mail_addresses_table = sa.Table(
    "mail_addresses",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("address", sa.String(ADDRESS_MAX), nullable=False),
    sa.Column("confirmed", sa.Boolean, nullable=False),
    sa.Column("notify_turns", sa.Boolean, nullable=False),
    sa.Column("notify_end", sa.Boolean, nullable=False),
    sa.Column("confirm_hash", sa.String(64), nullable=True, index=True),
    sa.Column("confirm_expires", sa.Float, nullable=True),
    sa.Column("updated", sa.Float, nullable=False),
)
"""One address per account, with its confirmation state and the player's choices."""

mail_unsubscribe_table = sa.Table(
    "mail_unsubscribe",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.Integer, nullable=False, index=True),
    sa.Column("created", sa.Float, nullable=False, index=True),
)
"""The hash of each notification's unsubscribe token, and whose notifications it turns off."""

mail_outbox_table = leased_table(
    "mail_outbox",
    metadata,
    sa.Column("account_id", sa.Integer, nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("game_id", sa.String(32), nullable=True),
    sa.Column("to_address", sa.String(ADDRESS_MAX), nullable=False),
    sa.Column("subject", sa.String(SUBJECT_MAX), nullable=False),
    sa.Column("body", sa.Text, nullable=False),
    sa.Index("ix_mail_outbox_account_created", "account_id", "created"),
    sa.Index("ix_mail_outbox_to_created", "to_address", "created"),
)
"""Every mail, queued to sent (the lease's columns: ``outbox.leased_table``)."""


@dataclass(frozen=True)
class MailAddress:
    address: str
    confirmed: bool
    notify_turns: bool
    notify_end: bool


@dataclass(frozen=True)
class Draft:
    """A mail's words, before its recipient and links are known."""

    subject: str
    body: str


@dataclass(frozen=True)
class Claimed:
    """A mail this process holds and must send now; ``token`` goes into its link."""

    id: int
    kind: str
    to: str
    subject: str
    body: str
    game_id: str | None
    token: str
    attempts: int
    """Claims of this mail so far, this one included."""
    language: str | None = None
    """The language its account chose (its footer's words, ``words.py``)."""


class CeilingReached(Exception):
    """The confirmation ceiling: ``count`` such mails within the hour already."""

    def __init__(self, count: int) -> None:
        super().__init__(count)
        self.count = count


def _address(row: sa.Row[Any] | None) -> MailAddress | None:
    if row is None:
        return None
    return MailAddress(row.address, row.confirmed, row.notify_turns, row.notify_end)


class MailStore:
    """All database access for e-mail (synchronous; run off the event loop by the caller)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.autocommit = autocommitting(engine)
        self.box = Outbox(engine, mail_outbox_table, OUTBOX_KEEP, BACKOFF)

    # ----- an account's address -------------------------------------------------------------
    def get(self, account_id: int) -> MailAddress | None:
        query = mail_addresses_table.select().where(mail_addresses_table.c.account_id == account_id)
        with self.autocommit.connect() as conn:
            return _address(conn.execute(query).one_or_none())

    def save(
        self,
        account_id: int,
        address: str,
        notify_turns: bool,
        notify_end: bool,
        resend: bool,
        confirmation: Draft,
        ceiling: int,
    ) -> tuple[MailAddress, bool]:
        """Store the account's address and choices; queue a confirmation mail if the address
        is new, or if ``resend`` and it is not confirmed yet. Returns the stored state and
        whether a confirmation was queued; ``CeilingReached`` (nothing changed) if this account,
        or this address, has had ``ceiling`` confirmations in the last hour."""
        now = time.time()
        table = mail_addresses_table
        with self.engine.begin() as conn:
            lock(conn, f"mail:{account_id}")  # a first address has no row to lock yet
            row = conn.execute(
                table.select().where(table.c.account_id == account_id).with_for_update()
            ).one_or_none()
            changed = row is None or row.address != address
            confirmed = row is not None and not changed and bool(row.confirmed)
            queue = changed or (resend and not confirmed)
            if queue:
                # Counted before anything is queued, one statement per key (``throttles.py``):
                # a burst from several accounts at one address gets ``ceiling`` mails in all.
                ceilings = [
                    Ceiling(f"confirm-a:{account_id}", ceiling, HOUR),
                    Ceiling(f"confirm-e:{hash_token(address.lower())}", ceiling, HOUR),
                ]
                try:
                    take(conn, ceilings, now)
                except Throttled:
                    raise CeilingReached(ceiling) from None
            values = {
                "address": address,
                "confirmed": confirmed,
                "notify_turns": notify_turns,
                "notify_end": notify_end,
                "updated": now,
            }
            if changed:
                values.update(confirm_hash=None, confirm_expires=None)
                # Links mailed to the old address no longer speak for this account.
                self._forget_links(conn, account_id)
            if row is None:
                conn.execute(table.insert().values(account_id=account_id, **values))
            else:
                conn.execute(table.update().where(table.c.account_id == account_id).values(values))
            if queue:
                self._cancel(conn, account_id, (CONFIRM,))  # only the newest link would work
                self._insert(conn, account_id, CONFIRM, None, address, confirmation, now)
        return MailAddress(address, confirmed, notify_turns, notify_end), queue

    def remove(self, account_id: int) -> None:
        """Forget the account's address, its links and its mails not yet sent (also when the
        account is deleted)."""
        with self.engine.begin() as conn:
            conn.execute(
                mail_addresses_table.delete().where(mail_addresses_table.c.account_id == account_id)
            )
            self._forget_links(conn, account_id)
            self._cancel(conn, account_id, (CONFIRM, *NOTIFICATIONS))

    def confirm(self, token: str) -> bool:
        """Confirm the address whose newest confirmation link carries ``token`` (False: no
        such link, or it expired)."""
        table = mail_addresses_table
        with self.engine.begin() as conn:
            done = conn.execute(
                table.update()
                .where(
                    table.c.confirm_hash == hash_token(token),
                    table.c.confirm_expires >= time.time(),
                )
                .values(confirmed=True, confirm_hash=None, confirm_expires=None)
            )
        return done.rowcount == 1

    def unsubscribe(self, token: str) -> bool:
        """Turn off every notification of the account an unsubscribe link was made for, and
        drop its notifications not yet sent (False: an unknown or expired link)."""
        links = mail_unsubscribe_table
        with self.engine.begin() as conn:
            account_id = conn.execute(
                sa.select(links.c.account_id).where(
                    links.c.token_hash == hash_token(token),
                    links.c.created >= time.time() - UNSUBSCRIBE_LIFETIME,
                )
            ).scalar_one_or_none()
            if account_id is None:
                return False
            table = mail_addresses_table
            conn.execute(
                table.update()
                .where(table.c.account_id == account_id)
                .values(notify_turns=False, notify_end=False, updated=time.time())
            )
            self._cancel(conn, account_id, NOTIFICATIONS)
        return True

    # ----- queueing ---------------------------------------------------------------------------
    def notify(
        self, kind: str, game_id: str | None, drafts: Mapping[int, Draft], ceiling: int
    ) -> tuple[int, int]:
        """Queue ``drafts`` (by account) for the accounts with a confirmed address that want
        ``kind`` mailed. An account already sent ``ceiling`` notifications within the hour is
        skipped; so is one with a "your turn" mail for this game still waiting (that one says
        it already). Returns (queued, dropped by the ceiling)."""
        if not drafts:
            return 0, 0
        table = mail_addresses_table
        wants = table.c.notify_turns if kind == TURN else table.c.notify_end
        now = time.time()
        queued = dropped = 0
        box = mail_outbox_table
        with self.engine.begin() as conn:
            rows = conn.execute(
                sa.select(table.c.account_id, table.c.address)
                .join(people, people.c.id == table.c.account_id)
                .where(
                    table.c.account_id.in_(list(drafts)),
                    table.c.confirmed.is_(sa.true()),
                    wants.is_(sa.true()),
                    people.c.deleted.is_(sa.false()),
                )
                .order_by(table.c.account_id)
                .with_for_update(of=table)
            ).all()
            for row in rows:
                if kind == TURN and self.box.waiting(
                    conn,
                    box.c.account_id == row.account_id,
                    box.c.game_id == game_id,
                    box.c.kind == TURN,
                ):
                    continue
                recent = conn.execute(
                    sa.select(sa.func.count()).where(
                        box.c.account_id == row.account_id,
                        box.c.kind.in_(NOTIFICATIONS),
                        box.c.state != CANCELLED,
                        box.c.created >= now - HOUR,
                    )
                ).scalar_one()
                if recent >= ceiling:
                    dropped += 1
                    continue
                self._insert(
                    conn, row.account_id, kind, game_id, row.address, drafts[row.account_id], now
                )
                queued += 1
        return queued, dropped

    def _insert(
        self,
        conn: sa.Connection,
        account_id: int,
        kind: str,
        game_id: str | None,
        address: str,
        draft: Draft,
        now: float,
    ) -> None:
        mail = {
            "account_id": account_id,
            "kind": kind,
            "game_id": game_id,
            "to_address": address,
            "subject": draft.subject[:SUBJECT_MAX],
            "body": draft.body[:BODY_MAX],
        }
        self.box.add(conn, [mail], now)

    def _cancel(self, conn: sa.Connection, account_id: int, kinds: tuple[str, ...]) -> None:
        """Drop the account's mails of ``kinds`` that nobody is sending right now."""
        box = mail_outbox_table
        self.box.cancel(conn, box.c.account_id == account_id, box.c.kind.in_(kinds))

    @staticmethod
    def _forget_links(conn: sa.Connection, account_id: int) -> None:
        conn.execute(
            mail_unsubscribe_table.delete().where(mail_unsubscribe_table.c.account_id == account_id)
        )

    # ----- sending (the leased outbox: ``outbox.py``) ----------------------------------------
    def claim(self, process: str, lease: float) -> Claimed | None:
        """The oldest due mail, now held by ``process`` for ``lease`` seconds with a fresh
        token for its link, or None when nothing is due. A mail its recipient no longer wants
        is cancelled instead (and the next one tried)."""
        return self.box.claim(process, lease, self._claimed)

    def _claimed(self, conn: sa.Connection, mail: sa.Row[Any], now: float) -> Claimed | None:
        """The claimed row as the mail to send, with its link's token made now (None: its
        recipient no longer wants it)."""
        token = self._link_token(conn, mail, now)
        if token is None:
            return None
        language = conn.execute(
            sa.select(people.c.language).where(people.c.id == mail.account_id)
        ).scalar()
        return Claimed(
            mail.id,
            mail.kind,
            mail.to_address,
            mail.subject,
            mail.body,
            mail.game_id,
            token,
            int(mail.attempts),
            language,
        )

    @staticmethod
    def _link_token(conn: sa.Connection, mail: sa.Row[Any], now: float) -> str | None:
        """A fresh token for the mail's link, stored hashed; None if its recipient no longer
        wants it (address changed or removed, unsubscribed, or confirmed already)."""
        table = mail_addresses_table
        found = conn.execute(
            table.select().where(table.c.account_id == mail.account_id)
        ).one_or_none()
        if found is None or found.address != mail.to_address:
            return None
        token = new_token()
        if mail.kind == CONFIRM:
            if found.confirmed:
                return None
            conn.execute(
                table.update()
                .where(table.c.account_id == mail.account_id)
                .values(confirm_hash=hash_token(token), confirm_expires=now + CONFIRM_LIFETIME)
            )
            return token
        wanted = found.notify_turns if mail.kind == TURN else found.notify_end
        if not (found.confirmed and wanted):
            return None
        conn.execute(
            mail_unsubscribe_table.insert().values(
                token_hash=hash_token(token), account_id=mail.account_id, created=now
            )
        )
        return token

    def sent(self, mail_id: int, process: str) -> bool:
        """Mark a mail this process held as sent (False: its claim had run out and another
        process took it over, so it may go out twice: ``mailer.LEASE`` is far above the time
        one send may take)."""
        return self.box.sent(mail_id, process)

    def failed(self, mail_id: int, process: str, error: str, attempts: int, retry: bool) -> bool:
        """A send failed: try again after the back-off (``BACKOFF``), or give up (not
        ``retry``, or its tries are used up). True if it will be tried again."""
        return self.box.failed(mail_id, process, error, attempts, retry) is not None

    def prune(self) -> None:
        """Forget finished mails and expired links (each process, now and then)."""
        with self.engine.begin() as conn:
            self.box.prune(conn)
            conn.execute(
                mail_unsubscribe_table.delete().where(
                    mail_unsubscribe_table.c.created < time.time() - UNSUBSCRIBE_LIFETIME
                )
            )

    def outbox(self) -> list[dict[str, Any]]:
        """Every row of the outbox, oldest first (for operators and tests)."""
        return self.box.rows()
