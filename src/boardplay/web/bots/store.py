"""Stored personal API tokens: a token is a long random secret its owner is
shown once; the database keeps only its SHA-256 (as sessions and seat tokens, ``tokens.py``),
with the scopes it was given, a label and when it was made and last used.

Every method is one short transaction, so several server processes share the table."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from boardplay.web.accounts import Account, people
from boardplay.web.database import autocommitting, lock, metadata

LABEL_MAX = 40
SCOPES_MAX = 200

api_tokens_table = sa.Table(
    "api_tokens",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
    sa.Column("label", sa.String(LABEL_MAX), nullable=False),
    sa.Column("scopes", sa.String(SCOPES_MAX), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("used", sa.Float, nullable=True),
)
"""One row per personal API token; ``scopes`` space-separated as OAuth writes them."""


@dataclass(frozen=True)
class TokenRow:
    """A token as its owner sees it in the list (never the secret, which is not kept)."""

    id: int
    account_id: int
    label: str
    scopes: frozenset[str]
    created: float
    used: float | None
    token_hash: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "label": self.label,
            "scopes": sorted(self.scopes),
            "created": self.created,
            "used": self.used,
        }


def _row(r: Any) -> TokenRow:
    return TokenRow(
        int(r.id),
        int(r.account_id),
        r.label,
        frozenset(r.scopes.split()),
        float(r.created),
        None if r.used is None else float(r.used),
        r.token_hash,
    )


USED_EVERY = 60.0
"""Seconds between two writes of a token's ``used`` time (a bot asks many times a minute)."""


class TokenStore:
    """All database access for API tokens (synchronous: ``Bots`` runs it off the event loop)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.autocommit = autocommitting(engine)

    def add(
        self, account_id: int, token_hash: str, label: str, scopes: Iterable[str], most: int
    ) -> TokenRow | None:
        """Store a new token, unless the account holds ``most`` already (None): counted under
        a lock named for the account (SQLite takes one writer at a time), so a burst of
        creations cannot pass the ceiling."""
        now = time.time()
        table = api_tokens_table
        with self.engine.begin() as conn:
            lock(conn, f"api-tokens:{account_id}")
            held = conn.execute(
                sa.select(sa.func.count()).where(table.c.account_id == account_id)
            ).scalar_one()
            if int(held) >= most:
                return None
            new_id = conn.execute(
                table.insert()
                .values(
                    token_hash=token_hash,
                    account_id=account_id,
                    label=label,
                    scopes=" ".join(sorted(scopes)),
                    created=now,
                )
                .returning(table.c.id)
            ).scalar_one()
        return TokenRow(int(new_id), account_id, label, frozenset(scopes), now, None, token_hash)

    def find(self, token_hash: str) -> tuple[TokenRow, Account] | None:
        """The token and its account (None: unknown, revoked, or its account deleted); its
        ``used`` time is written at most every ``USED_EVERY`` seconds."""
        a = people.c
        query = (
            sa.select(
                api_tokens_table, a.name, a.created.label("account_created"), a.language, a.bot
            )
            .join(people, a.id == api_tokens_table.c.account_id)
            .where(api_tokens_table.c.token_hash == token_hash, a.deleted.is_(sa.false()))
        )
        with self.autocommit.connect() as conn:
            found = conn.execute(query).one_or_none()
        if found is None:
            return None
        token = _row(found)
        made = found.account_created
        account = Account(
            token.account_id,
            found.name,
            (made if made.tzinfo else made.replace(tzinfo=UTC)).timestamp(),
            found.language,
            bool(found.bot),
        )
        now = time.time()
        if token.used is None or now - token.used >= USED_EVERY:
            with self.autocommit.connect() as conn:
                conn.execute(
                    api_tokens_table.update()
                    .where(api_tokens_table.c.id == token.id)
                    .values(used=now)
                )
        return token, account

    def of_account(self, account_id: int) -> list[TokenRow]:
        query = (
            api_tokens_table.select()
            .where(api_tokens_table.c.account_id == account_id)
            .order_by(api_tokens_table.c.created)
        )
        with self.autocommit.connect() as conn:
            return [_row(r) for r in conn.execute(query)]

    def revoke(self, account_id: int, token_id: int | None = None) -> list[str]:
        """Delete one token of the account (``token_id``) or all of them; returns the hashes
        deleted (their streams must end)."""
        table = api_tokens_table
        where = [table.c.account_id == account_id]
        if token_id is not None:
            where.append(table.c.id == token_id)
        with self.engine.begin() as conn:
            gone = conn.execute(table.delete().where(*where).returning(table.c.token_hash))
            return [r.token_hash for r in gone]

    def alive(self, hashes: Sequence[str]) -> set[str]:
        """Which of these token hashes are still stored (one query for every open stream)."""
        if not hashes:
            return set()
        query = (
            sa.select(api_tokens_table.c.token_hash)
            .join(people, people.c.id == api_tokens_table.c.account_id)
            .where(
                api_tokens_table.c.token_hash.in_(list(hashes)), people.c.deleted.is_(sa.false())
            )
        )
        with self.autocommit.connect() as conn:
            return {r.token_hash for r in conn.execute(query)}
