"""Stored Web Push: the devices that asked to be told (their push
subscriptions), the pushes waiting to be sent (the outbox) and the server's VAPID key.

Why it is shaped this way (``pusher.py`` queues and sends, docs/web.md "Push notifications"):

- **One row per account and device.** A device is a browser's device cookie, kept only as its
  hash; a subscription made again on the same device replaces the one before, and an endpoint
  is held by one account at a time (the last to subscribe on that browser). An account keeps
  at most ``devices`` subscriptions: a new one pushes out the oldest.
- **The outbox is the only way out**, the leased outbox mail shares (``outbox.py``): a push is
  a row first, one per subscription, claimed by one process, sent, then marked sent. Several
  processes on one database send each push once; a process that dies holding a claim leaves
  it to another when the lease runs out.
- **Checked twice.** Whether the device still wants it is checked when a push is queued and
  again when it is claimed: a subscription removed meanwhile (turned off, the account signed
  out everywhere, the push service said it is gone) or made for another server key cancels it.
- **Counted before it is queued**: each notification (not each device it goes to) takes one
  from the account's hourly ceiling (``throttles.py``), in the transaction that queues it, so
  every process agrees.
- The VAPID private key is made once, by whichever process asks first, and kept in
  ``push_keys``; every process then signs with the same key (an operator's key, set in the
  environment, is never stored)."""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine

from boardplay.web.database import autocommitting, metadata
from boardplay.web.notify.outbox import Backoff, Outbox, leased_table
from boardplay.web.throttles import Ceiling, Throttled, take
from boardplay.web.tokens import digest_matches, hash_token

ENDPOINT_MAX = 1000
"""Longest push endpoint URL stored (the push services' are 150-500 characters)."""
KEY_MAX = 100
"""Longest key stored: a P-256 public key in base64url is 87 characters, an auth secret 22."""

TURN = "turn"
END = "end"
CHALLENGE = "challenge"
KINDS = (TURN, END, CHALLENGE)

GONE = "gone"
"""The push service answered 404 or 410, or the endpoint is no URL a push can be posted to: the
subscription is deleted with it."""

HOUR = 3600.0
OUTBOX_KEEP = 7 * 24 * 3600.0
"""Seconds sent, failed and cancelled pushes stay in the outbox (for the operator to look at)."""
BACKOFF = Backoff(first=30.0, tries=4)
"""A push a service did not take (429, 5xx, no answer) is tried again after 30 s, 2 and 8
minutes (or as long as its ``Retry-After`` asks, up to an hour), then given up."""

push_subscriptions_table = sa.Table(
    "push_subscriptions",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("device_hash", sa.String(64), nullable=False),
    sa.Column("endpoint", sa.String(ENDPOINT_MAX), nullable=False),
    sa.Column("endpoint_hash", sa.String(64), nullable=False),
    sa.Column("p256dh", sa.String(KEY_MAX), nullable=False),
    sa.Column("auth", sa.String(KEY_MAX), nullable=False),
    sa.Column("server_key", sa.String(KEY_MAX), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("last_sent", sa.Float, nullable=True),
    sa.Index("ix_push_subscriptions_device", "account_id", "device_hash", unique=True),
    sa.Index("ix_push_subscriptions_endpoint", "endpoint_hash", unique=True),
)
"""A device's push subscription (its endpoint and the keys its pushes are encrypted to, RFC
8291), the account it tells and the server key (VAPID, RFC 8292) it was made for."""

push_outbox_table = leased_table(
    "push_outbox",
    metadata,
    sa.Column("subscription_id", sa.Integer, nullable=False, index=True),
    sa.Column("account_id", sa.Integer, nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("subject", sa.String(32), nullable=True),
    sa.Column("payload", sa.Text, nullable=False),
    sa.Column("ttl", sa.Integer, nullable=False),
    sa.Column("status_code", sa.Integer, nullable=True),
    sa.Index("ix_push_outbox_account_created", "account_id", "created"),
)
"""Every push, queued to sent (the lease's columns: ``outbox.leased_table``): ``subject`` is
the game (or challenge) it is about, ``status_code`` the push service's last answer."""

push_keys_table = sa.Table(
    "push_keys",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("private_key", sa.String(KEY_MAX), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
)
"""The server's VAPID private key (one row), made by the first process that needed it."""


@dataclass(frozen=True)
class Subscription:
    """What the browser's ``PushSubscription.toJSON()`` gives: where to post and the keys."""

    endpoint: str
    p256dh: str
    auth: str


@dataclass(frozen=True)
class Device:
    """A subscription as stored, for the account page."""

    endpoint: str
    server_key: str
    created: float
    last_sent: float | None


@dataclass(frozen=True)
class Claimed:
    """A push this process holds and must send now."""

    id: int
    subscription_id: int
    kind: str
    subject: str | None
    payload: str
    ttl: int
    attempts: int
    """Claims of this push so far, this one included."""
    target: Subscription


def _not_to(services: Collection[str]) -> sa.ColumnElement[bool] | None:
    """A push whose subscription's endpoint is on none of ``services`` (their ``service_of``:
    the endpoint, in lower case, is the service or begins with it and ``/`` or ``?``)."""
    if not services:
        return None
    subs = push_subscriptions_table
    endpoint = sa.func.lower(subs.c.endpoint)
    on = [
        sa.or_(
            endpoint == service,
            endpoint.startswith(service + "/", autoescape=True),
            endpoint.startswith(service + "?", autoescape=True),
        )
        for service in sorted(services)
    ]
    on_busy = sa.exists().where(subs.c.id == push_outbox_table.c.subscription_id, sa.or_(*on))
    return ~on_busy


def _upsert(conn: sa.Connection) -> type[postgresql.Insert] | type[sqlite.Insert]:
    return postgresql.Insert if conn.dialect.name == "postgresql" else sqlite.Insert


class PushStore:
    """All database access for Web Push (synchronous; run off the event loop by the caller)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.autocommit = autocommitting(engine)
        self.box = Outbox(engine, push_outbox_table, OUTBOX_KEEP, BACKOFF)

    # ----- the server's key -------------------------------------------------------------------
    def private_key(self, make: Callable[[], str]) -> str:
        """The stored VAPID private key, made with ``make`` and stored if there is none yet (of
        processes asking at once, the first insert wins and every one reads that key)."""
        table = push_keys_table
        with self.engine.begin() as conn:
            found = conn.execute(sa.select(table.c.private_key).where(table.c.id == 1)).scalar()
            if found is None:
                insert = _upsert(conn)(table).values(id=1, private_key=make(), created=time.time())
                conn.execute(insert.on_conflict_do_nothing(index_elements=[table.c.id]))
                found = conn.execute(
                    sa.select(table.c.private_key).where(table.c.id == 1)
                ).scalar_one()
        return str(found)

    # ----- subscriptions ----------------------------------------------------------------------
    def subscribe(
        self,
        account_id: int,
        device_hash: str,
        subscription: Subscription,
        server_key: str,
        devices: int,
    ) -> bool:
        """Keep ``subscription`` as the device's for the account: it replaces the device's
        earlier one and takes the endpoint from any account that held it on this browser (the
        same subscription, proven by its secret: an endpoint alone, which is no secret of the
        browser's, takes nobody's pushes away); past ``devices`` subscriptions the account's
        oldest go. False, and nothing changed, for another browser's endpoint."""
        table = push_subscriptions_table
        endpoint_hash = hash_token(subscription.endpoint)
        now = time.time()
        with self.engine.begin() as conn:
            held = conn.execute(
                sa.select(table.c.auth).where(table.c.endpoint_hash == endpoint_hash)
            ).scalar()
            if held is not None and not digest_matches(
                hash_token(held), hash_token(subscription.auth)
            ):
                return False
            conn.execute(
                table.delete().where(
                    sa.or_(
                        table.c.endpoint_hash == endpoint_hash,
                        sa.and_(
                            table.c.account_id == account_id, table.c.device_hash == device_hash
                        ),
                    )
                )
            )
            conn.execute(
                table.insert().values(
                    account_id=account_id,
                    device_hash=device_hash,
                    endpoint=subscription.endpoint,
                    endpoint_hash=endpoint_hash,
                    p256dh=subscription.p256dh,
                    auth=subscription.auth,
                    server_key=server_key,
                    created=now,
                )
            )
            keep = (
                sa.select(table.c.id)
                .where(table.c.account_id == account_id)
                .order_by(table.c.created.desc(), table.c.id.desc())
                .limit(devices)
            )
            kept = [r.id for r in conn.execute(keep)]
            conn.execute(
                table.delete().where(table.c.account_id == account_id, table.c.id.not_in(kept))
            )
        return True

    def device(self, account_id: int, device_hash: str) -> Device | None:
        table = push_subscriptions_table
        query = sa.select(
            table.c.endpoint, table.c.server_key, table.c.created, table.c.last_sent
        ).where(table.c.account_id == account_id, table.c.device_hash == device_hash)
        with self.autocommit.connect() as conn:
            row = conn.execute(query).one_or_none()
        return None if row is None else Device(*row)

    def count(self, account_id: int) -> int:
        table = push_subscriptions_table
        query = sa.select(sa.func.count()).where(table.c.account_id == account_id)
        with self.autocommit.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def remove(
        self, account_id: int, device_hash: str | None = None, keep: str | None = None
    ) -> int:
        """Forget the account's subscription on ``device_hash``, or (None) every one but the
        device ``keep``'s; returns how many went. Their pushes not yet sent are cancelled when
        claimed."""
        table = push_subscriptions_table
        where = [table.c.account_id == account_id]
        if device_hash is not None:
            where.append(table.c.device_hash == device_hash)
        elif keep is not None:
            where.append(table.c.device_hash != keep)
        with self.engine.begin() as conn:
            return int(conn.execute(table.delete().where(*where)).rowcount)

    def _held(self, conn: sa.Connection, endpoint: str, auth: str) -> Any:
        """The subscription of ``endpoint`` if ``auth`` is its secret (compared in constant
        time): the browser that holds it proves it so, with no session needed."""
        table = push_subscriptions_table
        row = conn.execute(
            sa.select(table.c.id, table.c.auth).where(table.c.endpoint_hash == hash_token(endpoint))
        ).one_or_none()
        if row is None or not digest_matches(hash_token(auth), hash_token(row.auth)):
            return None
        return row

    def off(self, endpoint: str, auth: str) -> bool:
        """The one-click off of a notification: forget the subscription ``endpoint`` names if
        ``auth`` is its secret (False otherwise, or if it is gone already)."""
        with self.engine.begin() as conn:
            row = self._held(conn, endpoint, auth)
            if row is None:
                return False
            table = push_subscriptions_table
            conn.execute(table.delete().where(table.c.id == row.id))
        return True

    def renew(self, old: Subscription, new: Subscription, server_key: str) -> bool:
        """The browser replaced a subscription (``pushsubscriptionchange``): the new one takes
        the old one's account and device, proven by the old one's secret."""
        table = push_subscriptions_table
        with self.engine.begin() as conn:
            row = self._held(conn, old.endpoint, old.auth)
            if row is None:
                return False
            new_hash = hash_token(new.endpoint)
            conn.execute(
                table.delete().where(table.c.endpoint_hash == new_hash, table.c.id != row.id)
            )
            conn.execute(
                table.update()
                .where(table.c.id == row.id)
                .values(
                    endpoint=new.endpoint,
                    endpoint_hash=new_hash,
                    p256dh=new.p256dh,
                    auth=new.auth,
                    server_key=server_key,
                )
            )
        return True

    # ----- queueing ---------------------------------------------------------------------------
    def queue(
        self,
        kind: str,
        subject: str | None,
        payloads: Mapping[int, str],
        ttl: int,
        ceiling: int,
        server_key: str,
        now: float | None = None,
    ) -> tuple[int, int]:
        """Queue each account's payload for every device it subscribed with ``server_key``.
        A notification takes one from the account's ``ceiling`` per hour (its devices share
        it); past it, nothing is queued for that account. A "your turn" push of a game still
        waiting for an account says it already: no second one is queued. Returns (accounts
        queued for, accounts dropped by the ceiling)."""
        assert kind in KINDS
        now = time.time() if now is None else now
        subs, box = push_subscriptions_table, push_outbox_table
        queued = dropped = 0
        for account_id in sorted(payloads):
            try:
                with self.engine.begin() as conn:
                    targets = [
                        r.id
                        for r in conn.execute(
                            sa.select(subs.c.id).where(
                                subs.c.account_id == account_id, subs.c.server_key == server_key
                            )
                        )
                    ]
                    if not targets:
                        continue
                    if kind == TURN and self.box.waiting(
                        conn,
                        box.c.account_id == account_id,
                        box.c.subject == subject,
                        box.c.kind == TURN,
                    ):
                        continue
                    take(conn, [Ceiling(f"push:{account_id}", ceiling, HOUR)], now)
                    push = {
                        "account_id": account_id,
                        "kind": kind,
                        "subject": subject,
                        "payload": payloads[account_id],
                        "ttl": ttl,
                    }
                    self.box.add(conn, [{**push, "subscription_id": t} for t in targets], now)
                    queued += 1
            except Throttled:  # rolled back with its transaction: counted nothing, queued nothing
                dropped += 1
        return queued, dropped

    # ----- sending (the leased outbox: ``outbox.py``) ----------------------------------------
    def claim(
        self, process: str, lease: float, server_key: str, busy: Collection[str] = ()
    ) -> Claimed | None:
        """The oldest due push, now held by ``process`` for ``lease`` seconds, or None when
        nothing is due; none to the push services ``busy`` (``webpush.service_of``: this
        process posts all it may to them now, and their pushes wait for a free post rather than
        in this process's hand). A push whose subscription is gone, or was made for another
        server key, is cancelled instead (and the next one tried)."""

        def target(conn: sa.Connection, push: sa.Row[Any], now: float) -> Claimed | None:
            subs = push_subscriptions_table
            found = conn.execute(
                subs.select().where(subs.c.id == push.subscription_id)
            ).one_or_none()
            if found is None or found.server_key != server_key:
                return None
            return Claimed(
                push.id,
                push.subscription_id,
                push.kind,
                push.subject,
                push.payload,
                int(push.ttl),
                int(push.attempts),
                Subscription(found.endpoint, found.p256dh, found.auth),
            )

        return self.box.claim(process, lease, target, _not_to(busy))

    def sent(self, push_id: int, process: str, status: int) -> bool:
        """Mark a push this process held as accepted by the push service, and its subscription
        as pushed to (False: its claim had run out and another process took it over)."""
        with self.engine.begin() as conn:
            done = self.box.sent(push_id, process, conn, status_code=status)
            if done:
                box, subs = push_outbox_table, push_subscriptions_table
                held = sa.select(box.c.subscription_id).where(box.c.id == push_id)
                conn.execute(
                    subs.update()
                    .where(subs.c.id == held.scalar_subquery())
                    .values(last_sent=time.time())
                )
        return done

    def failed(
        self,
        push_id: int,
        process: str,
        error: str,
        attempts: int,
        status: int | None = None,
        retry: bool = False,
        wait: float | None = None,
    ) -> bool:
        """A post failed: try it again after the back-off (``BACKOFF``, at least ``wait``) if
        it is worth ``retry``-ing, or give up. True if it will be tried again."""
        again = self.box.failed(push_id, process, error, attempts, retry, wait, status_code=status)
        return again is not None

    def gone(
        self,
        push_id: int,
        process: str,
        subscription_id: int,
        status: int | None,
        error: str | None = None,
    ) -> None:
        """The subscription can never be pushed to again: the push service says it no longer
        exists (404, 410), or its endpoint is no URL a push can be posted to (``error``).
        Forget it, and drop its other pushes not yet sent."""
        box = push_outbox_table
        with self.engine.begin() as conn:
            subs = push_subscriptions_table
            conn.execute(subs.delete().where(subs.c.id == subscription_id))
            said = {} if error is None else {"last_error": error}
            self.box.end(push_id, process, GONE, conn, status_code=status, **said)
            self.box.cancel(conn, box.c.subscription_id == subscription_id)

    def prune(self) -> None:
        """Forget finished pushes (each process, now and then)."""
        self.box.prune()

    def outbox(self) -> list[dict[str, Any]]:
        """Every row of the outbox, oldest first (for operators and tests)."""
        return self.box.rows()

    def subscriptions(self, account_id: int | None = None) -> list[dict[str, Any]]:
        """The stored subscriptions (of one account), oldest first (operators and tests)."""
        table = push_subscriptions_table
        query = table.select().order_by(table.c.id)
        if account_id is not None:
            query = query.where(table.c.account_id == account_id)
        with self.autocommit.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]
