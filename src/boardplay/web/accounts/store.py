"""Stored accounts: players, their sessions and where they signed in from; their
passkeys and the WebAuthn ceremonies under way are in ``passkeystore.py``. Other domains read
accounts through the service (``service.Accounts``) and join to them only through ``people``,
the columns this domain lets them read.

Everything a visitor could steal from a database dump is kept hashed: a session cookie only as
SHA-256 (a long random secret, so a fast hash is enough), a password only as argon2id
(``service.py``). A passkey's public key is not a secret. Every method is one
short transaction, so several server processes share these tables as they share the games."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine

from boardplay.web.accounts.passkeystore import passkeys_table
from boardplay.web.database import (
    OneStatement,
    StorageThreads,
    autocommitting,
    bound_among,
    metadata,
)
from boardplay.web.identity import NAME_MAX, Account, Session

DELETED_NAME = "deleted player"
"""What a deleted account's seats are called from then on."""

accounts_table = sa.Table(
    "accounts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(NAME_MAX), nullable=False),
    sa.Column("name_key", sa.String(64), nullable=False, unique=True),
    sa.Column("password_hash", sa.String(200), nullable=True),
    sa.Column("user_handle", sa.String(64), nullable=False, unique=True),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    sa.Column("deleted", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("language", sa.String(8), nullable=True),
    sa.Column("bot", sa.Boolean, nullable=False, server_default=sa.false()),
)

sessions_table = sa.Table(
    "sessions",
    metadata,
    sa.Column("id_hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
    sa.Column("csrf", sa.String(64), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("expires", sa.Float, nullable=False),
)

seen_table = sa.Table(
    "account_seen",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("kind", sa.String(8), primary_key=True),
    sa.Column("digest", sa.String(64), primary_key=True),
    sa.Column("first", sa.Float, nullable=False),
    sa.Column("last", sa.Float, nullable=False),
    sa.Index("ix_account_seen_digest", "kind", "digest"),
)
"""Where an account signed in from: the hashes of its addresses (``VISITOR``) and of its
browsers' device cookies (``DEVICE``). Neither is a secret worth more than its hash."""
VISITOR = "visitor"
DEVICE = "device"

people = sa.select(
    accounts_table.c.id,
    accounts_table.c.name,
    accounts_table.c.created,
    accounts_table.c.language,
    accounts_table.c.bot,
    accounts_table.c.deleted,
).subquery("people")
"""The accounts as other domains' queries may join to them: an ``Account``'s columns (the id,
the name, when it was made, its language, whether it is a bot) and whether it was deleted
(lila's light user). A read interface that stays as it is, so the accounts' own columns (a
password's hash, a name's key, sessions) can change inside this domain without another
domain's query changing, and never leave it."""


def _stamp(value: datetime) -> float:
    """A stored time in seconds (SQLite hands back the UTC it stored without its zone)."""
    return (value if value.tzinfo else value.replace(tzinfo=UTC)).timestamp()


def _account(row: Any) -> Account:
    return Account(row.id, row.name, _stamp(row.created), row.language, bool(row.bot))


def person(row: Any) -> Account:
    """The ``Account`` of a row that selected ``people``'s columns (another domain's query
    joined to them: the relations' lists)."""
    return _account(row)


@dataclass(frozen=True)
class Credentials:
    """What signs an account in, kept apart from ``Account`` so it never leaves this domain:
    its password's hash (None: passkeys only) and its passkeys' user handle."""

    password_hash: str | None
    user_handle: str


class AccountStore:
    """All database access for accounts (synchronous; ``Accounts`` runs it off the event loop)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.autocommit = autocommitting(engine)

    # ----- accounts ---------------------------------------------------------------------
    def create(self, name: str, name_key: str, password_hash: str | None, handle: str) -> Account:
        """A new account; ``IntegrityError`` if the name (ignoring case) is taken."""
        made = datetime.now(UTC)
        with self.engine.begin() as conn:
            new_id = conn.execute(
                accounts_table.insert()
                .values(
                    name=name,
                    name_key=name_key,
                    password_hash=password_hash,
                    user_handle=handle,
                    created=made,
                )
                .returning(accounts_table.c.id)
            ).scalar_one()
        return Account(int(new_id), name, made.timestamp())

    def by_name(self, name_key: str) -> Account | None:
        return self._one(accounts_table.c.name_key == name_key)

    def credentials(self, account_id: int) -> Credentials | None:
        """The account's password hash and passkey handle (None: no such account)."""
        table = accounts_table
        query = sa.select(table.c.password_hash, table.c.user_handle).where(
            table.c.id == account_id, table.c.deleted.is_(sa.false())
        )
        with self.autocommit.connect() as conn:
            row = conn.execute(query).one_or_none()
        return None if row is None else Credentials(row.password_hash, row.user_handle)

    def by_id(self, account_id: int) -> Account | None:
        return self._one(accounts_table.c.id == account_id)

    def _one(self, which: sa.ColumnElement[bool]) -> Account | None:
        """The account ``which`` picks (by its id, or its name's key), unless it was deleted."""
        query = accounts_table.select().where(which, accounts_table.c.deleted.is_(sa.false()))
        with self.autocommit.connect() as conn:
            row = conn.execute(query).one_or_none()
        return None if row is None else _account(row)

    def names(self, account_ids: Sequence[int]) -> dict[int, str]:
        """Current names of accounts (a deleted one as ``DELETED_NAME``)."""
        if not account_ids:
            return {}
        query = sa.select(
            accounts_table.c.id, accounts_table.c.name, accounts_table.c.deleted
        ).where(accounts_table.c.id.in_(list(set(account_ids))))
        with self.autocommit.connect() as conn:
            return {r.id: DELETED_NAME if r.deleted else r.name for r in conn.execute(query)}

    def set_bot(self, account_id: int, bot: bool) -> bool:
        """Mark the account a bot (or, undoing a mark that lost a race, a person again); False
        if it is gone."""
        with self.engine.begin() as conn:
            done = conn.execute(
                accounts_table.update()
                .where(accounts_table.c.id == account_id, accounts_table.c.deleted.is_(sa.false()))
                .values(bot=bot)
            )
        return done.rowcount == 1

    def languages(self, account_ids: Sequence[int]) -> dict[int, str | None]:
        """The languages accounts chose (None: never chose one)."""
        table = accounts_table
        query = sa.select(table.c.id, table.c.language).where(table.c.id.in_(list(account_ids)))
        with self.autocommit.connect() as conn:
            return {r.id: r.language for r in conn.execute(query)}

    def set_language(self, account_id: int, language: str) -> None:
        with self.engine.begin() as conn:
            table = accounts_table
            conn.execute(table.update().where(table.c.id == account_id).values(language=language))

    def delete(self, account_id: int) -> None:
        """Close an account: its sessions and passkeys go, its name is freed, and it can never
        sign in again. What other domains keep of it (its seats, entries, seeks, tokens) they
        end themselves on hearing ``AccountClosed``."""
        with self.engine.begin() as conn:
            conn.execute(sessions_table.delete().where(sessions_table.c.account_id == account_id))
            conn.execute(passkeys_table.delete().where(passkeys_table.c.account_id == account_id))
            conn.execute(
                accounts_table.update()
                .where(accounts_table.c.id == account_id)
                .values(deleted=True, password_hash=None, name_key=f"#deleted-{account_id}")
            )

    # ----- sessions ---------------------------------------------------------------------
    def open_session(self, id_hash: str, account_id: int, csrf: str, lifetime: float) -> None:
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(sessions_table.delete().where(sessions_table.c.expires < now))
            conn.execute(
                sessions_table.insert().values(
                    id_hash=id_hash,
                    account_id=account_id,
                    csrf=csrf,
                    created=now,
                    expires=now + lifetime,
                )
            )

    def session(self, id_hash: str) -> Session | None:
        query = (
            sa.select(sessions_table.c.csrf, sessions_table.c.expires, accounts_table)
            .join(accounts_table, accounts_table.c.id == sessions_table.c.account_id)
            .where(
                sessions_table.c.id_hash == id_hash,
                sessions_table.c.expires > time.time(),
                accounts_table.c.deleted.is_(sa.false()),
            )
        )
        with self.autocommit.connect() as conn:
            row = conn.execute(query).one_or_none()
        return None if row is None else Session(_account(row), row.csrf, row.expires)

    def close_session(self, id_hash: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(sessions_table.delete().where(sessions_table.c.id_hash == id_hash))

    def close_sessions(self, account_id: int, keep: str | None = None) -> None:
        """Sign out everywhere (but the session ``keep``): every session ends."""
        with self.engine.begin() as conn:
            query = sessions_table.delete().where(sessions_table.c.account_id == account_id)
            if keep is not None:
                query = query.where(sessions_table.c.id_hash != keep)
            conn.execute(query)

    def set_password_everywhere(
        self, account_id: int, password_hash: str, keep: str | None
    ) -> None:
        """A new password, and every other session ended in the same transaction (ASVS 3.3.3);
        the other credentials the old password opened end as every domain hears
        ``SignedOutEverywhere``."""
        with self.engine.begin() as conn:
            conn.execute(
                accounts_table.update()
                .where(accounts_table.c.id == account_id)
                .values(password_hash=password_hash)
            )
            query = sessions_table.delete().where(sessions_table.c.account_id == account_id)
            if keep is not None:
                query = query.where(sessions_table.c.id_hash != keep)
            conn.execute(query)

    # ----- where an account is seen -----------------------------------------------------
    def seen(self, account_id: int, marks: Sequence[tuple[str, str]]) -> None:
        """Remember that the account signed in from these (kind, digest) marks now."""
        now = time.time()
        insert = (postgresql.insert if self.engine.dialect.name == "postgresql" else sqlite.insert)(
            seen_table
        )
        rows = [
            {"account_id": account_id, "kind": k, "digest": d, "first": now, "last": now}
            for k, d in marks
        ]
        if not rows:
            return
        with self.engine.begin() as conn:
            conn.execute(
                insert.on_conflict_do_update(
                    index_elements=["account_id", "kind", "digest"],
                    set_={"last": insert.excluded.last},
                ),
                rows,
            )

    def knows(self, account_id: int, kind: str, digest: str) -> bool:
        """Whether the account signed in from this mark before."""
        query = sa.select(seen_table.c.first).where(
            seen_table.c.account_id == account_id,
            seen_table.c.kind == kind,
            seen_table.c.digest == digest,
        )
        with self.autocommit.connect() as conn:
            return conn.execute(query).first() is not None

    def sharing_marks(self, account_id: int, others: Sequence[int]) -> set[int]:
        """Those of ``others`` that signed in from an address or a device ``account_id`` signed
        in from (one query, however many others: a tournament checks its whole field)."""
        if not others:
            return set()
        mine = seen_table.alias("mine")
        theirs = seen_table.alias("theirs")
        query = (
            sa.select(theirs.c.account_id)
            .select_from(mine)
            .join(
                theirs,
                sa.and_(theirs.c.kind == mine.c.kind, theirs.c.digest == mine.c.digest),
            )
            .where(mine.c.account_id == account_id, theirs.c.account_id.in_(list(set(others))))
            .distinct()
        )
        with self.autocommit.connect() as conn:
            return {int(row.account_id) for row in conn.execute(query)}


_BY_IDS = OneStatement(
    *(
        accounts_table.select().where(among_ids, accounts_table.c.deleted.is_(sa.false()))
        for among_ids in bound_among(accounts_table.c.id, "ids")
    )
)


async def by_ids(db: StorageThreads, account_ids: Sequence[int]) -> dict[int, Account]:
    """The accounts of these ids that still exist (a deleted one is left out), in one statement
    (every game made asks: the admission reads its players)."""
    if not account_ids:
        return {}
    rows = await db.rows(_BY_IDS, {"ids": sorted(set(account_ids))})
    return {row.id: _account(row) for row in rows}
