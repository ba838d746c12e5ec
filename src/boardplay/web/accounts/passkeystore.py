"""Stored passkeys: each account's WebAuthn credentials (a public key and its
signature counter, neither a secret) and the ceremonies under way (a challenge handed out and not
yet answered). Apart from the accounts' own rows (``store.py``) because only the passkey
ceremonies (``passkeys.py``) and the account page read them. Every method is one short
transaction, so several server processes share these tables."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from boardplay.web.database import autocommitting, metadata
from boardplay.web.identity import NAME_MAX

passkeys_table = sa.Table(
    "passkeys",
    metadata,
    sa.Column("credential_id", sa.String(400), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
    sa.Column("public_key", sa.LargeBinary, nullable=False),
    sa.Column("sign_count", sa.BigInteger, nullable=False),
    sa.Column("label", sa.String(64), nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
)

ceremonies_table = sa.Table(
    "ceremonies",
    metadata,
    sa.Column("id_hash", sa.String(64), primary_key=True),
    sa.Column("purpose", sa.String(16), nullable=False),
    sa.Column("challenge", sa.String(200), nullable=False),
    sa.Column("account_id", sa.Integer, nullable=True),
    sa.Column("name", sa.String(NAME_MAX), nullable=True),
    sa.Column("user_handle", sa.String(64), nullable=True),
    sa.Column("expires", sa.Float, nullable=False, index=True),
)
"""A WebAuthn challenge handed out and not yet answered (five minutes, used once)."""


@dataclass(frozen=True)
class Ceremony:
    purpose: str
    challenge: str
    account_id: int | None
    name: str | None
    user_handle: str | None


@dataclass(frozen=True)
class Passkey:
    credential_id: str
    account_id: int
    public_key: bytes
    sign_count: int
    label: str
    created: datetime


def _passkey(row: Any) -> Passkey:
    return Passkey(
        row.credential_id,
        row.account_id,
        bytes(row.public_key),
        int(row.sign_count),
        row.label,
        row.created,
    )


class PasskeyStore:
    """Database access for passkeys (synchronous; ``Passkeys`` runs it off the event loop)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.autocommit = autocommitting(engine)

    def begin_ceremony(self, id_hash: str, ceremony: Ceremony, lifetime: float) -> None:
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(ceremonies_table.delete().where(ceremonies_table.c.expires < now))
            conn.execute(
                ceremonies_table.insert().values(
                    id_hash=id_hash,
                    purpose=ceremony.purpose,
                    challenge=ceremony.challenge,
                    account_id=ceremony.account_id,
                    name=ceremony.name,
                    user_handle=ceremony.user_handle,
                    expires=now + lifetime,
                )
            )

    def take_ceremony(self, id_hash: str) -> Ceremony | None:
        """The ceremony, removed (a challenge answers once), or None if unknown or expired."""
        with self.engine.begin() as conn:
            row = conn.execute(
                ceremonies_table.delete()
                .where(ceremonies_table.c.id_hash == id_hash)
                .returning(*ceremonies_table.c)
            ).one_or_none()
        if row is None or row.expires < time.time():
            return None
        return Ceremony(row.purpose, row.challenge, row.account_id, row.name, row.user_handle)

    def add_passkey(self, key: Passkey) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                passkeys_table.insert().values(
                    credential_id=key.credential_id,
                    account_id=key.account_id,
                    public_key=key.public_key,
                    sign_count=key.sign_count,
                    label=key.label,
                    created=key.created,
                )
            )

    def passkey(self, credential_id: str) -> Passkey | None:
        query = passkeys_table.select().where(passkeys_table.c.credential_id == credential_id)
        with self.autocommit.connect() as conn:
            row = conn.execute(query).one_or_none()
        return None if row is None else _passkey(row)

    def passkeys(self, account_id: int) -> list[Passkey]:
        query = (
            passkeys_table.select()
            .where(passkeys_table.c.account_id == account_id)
            .order_by(passkeys_table.c.created)
        )
        with self.autocommit.connect() as conn:
            return [_passkey(r) for r in conn.execute(query)]

    def used_passkey(self, credential_id: str, sign_count: int) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                passkeys_table.update()
                .where(passkeys_table.c.credential_id == credential_id)
                .values(sign_count=sign_count)
            )

    def remove_passkey(self, account_id: int, credential_id: str) -> bool:
        with self.engine.begin() as conn:
            done = conn.execute(
                passkeys_table.delete().where(
                    passkeys_table.c.account_id == account_id,
                    passkeys_table.c.credential_id == credential_id,
                )
            )
        return done.rowcount == 1
