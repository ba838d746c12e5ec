"""Stored accounts (migration 0006): players, their sessions, passkeys, the WebAuthn ceremonies
under way, failed sign-ins (the throttle's memory) and the seats an account holds.

Everything a visitor could steal from a database dump is kept hashed: a session cookie and a
seat token only as SHA-256 (they are long random secrets, so a fast hash is enough), a password
only as argon2id (``accounts.py``). A passkey's public key is not a secret. Every method is one
short transaction, so several server processes share these tables as they share the games."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from boardplay.web.tables import games_table, metadata, seat_keys_table, seats_table

NAME_MAX = 20
"""Longest username (3-20 characters: letters, digits, ``_`` and ``-``)."""
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

failures_table = sa.Table(
    "signin_failures",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("key", sa.String(80), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("ix_signin_failures_key_at", "key", "at"),
)


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    password_hash: str | None
    user_handle: str


@dataclass(frozen=True)
class Session:
    account: Account
    csrf: str
    expires: float


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


def _touch(conn: sa.Connection, game_ids: Sequence[str]) -> None:
    """Raise these games' revisions: their seats changed, so every process's copy reloads."""
    if game_ids:
        conn.execute(
            games_table.update()
            .where(games_table.c.id.in_(list(game_ids)))
            .values(revision=games_table.c.revision + 1)
        )


def _passkey(row: Any) -> Passkey:
    return Passkey(
        row.credential_id,
        row.account_id,
        bytes(row.public_key),
        int(row.sign_count),
        row.label,
        row.created,
    )


def _account(row: Any) -> Account:
    return Account(row.id, row.name, row.password_hash, row.user_handle)


class AccountStore:
    """All database access for accounts (synchronous; the hub runs it off the event loop)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.reader = engine.execution_options(isolation_level="AUTOCOMMIT")

    # ----- accounts ---------------------------------------------------------------------
    def create(self, name: str, name_key: str, password_hash: str | None, handle: str) -> Account:
        """A new account; ``IntegrityError`` if the name (ignoring case) is taken."""
        with self.engine.begin() as conn:
            new_id = conn.execute(
                accounts_table.insert()
                .values(
                    name=name,
                    name_key=name_key,
                    password_hash=password_hash,
                    user_handle=handle,
                    created=datetime.now(UTC),
                )
                .returning(accounts_table.c.id)
            ).scalar_one()
        return Account(int(new_id), name, password_hash, handle)

    def by_name(self, name_key: str) -> Account | None:
        query = accounts_table.select().where(
            accounts_table.c.name_key == name_key, accounts_table.c.deleted.is_(sa.false())
        )
        with self.reader.connect() as conn:
            row = conn.execute(query).one_or_none()
        return None if row is None else _account(row)

    def by_id(self, account_id: int) -> Account | None:
        query = accounts_table.select().where(
            accounts_table.c.id == account_id, accounts_table.c.deleted.is_(sa.false())
        )
        with self.reader.connect() as conn:
            row = conn.execute(query).one_or_none()
        return None if row is None else _account(row)

    def names(self, account_ids: Sequence[int]) -> dict[int, str]:
        """Current names of accounts (a deleted one as ``DELETED_NAME``)."""
        if not account_ids:
            return {}
        query = sa.select(
            accounts_table.c.id, accounts_table.c.name, accounts_table.c.deleted
        ).where(accounts_table.c.id.in_(list(set(account_ids))))
        with self.reader.connect() as conn:
            return {r.id: DELETED_NAME if r.deleted else r.name for r in conn.execute(query)}

    def set_password(self, account_id: int, password_hash: str | None) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                accounts_table.update()
                .where(accounts_table.c.id == account_id)
                .values(password_hash=password_hash)
            )

    def delete(self, account_id: int) -> list[str]:
        """Close an account: its sessions, passkeys and extra seat tokens go, its name is freed
        and its seats are called ``DELETED_NAME`` (finished games keep their results). Returns
        the games whose seats changed (their rooms must reload)."""
        with self.engine.begin() as conn:
            games = [
                r.game_id
                for r in conn.execute(
                    sa.select(seats_table.c.game_id)
                    .where(seats_table.c.account_id == account_id)
                    .distinct()
                )
            ]
            conn.execute(sessions_table.delete().where(sessions_table.c.account_id == account_id))
            conn.execute(passkeys_table.delete().where(passkeys_table.c.account_id == account_id))
            conn.execute(seat_keys_table.delete().where(seat_keys_table.c.account_id == account_id))
            conn.execute(
                seats_table.update()
                .where(seats_table.c.account_id == account_id)
                .values(name=DELETED_NAME)
            )
            conn.execute(
                accounts_table.update()
                .where(accounts_table.c.id == account_id)
                .values(
                    deleted=True,
                    password_hash=None,
                    name_key=f"#deleted-{account_id}",
                )
            )
            _touch(conn, games)
        return games

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
        with self.reader.connect() as conn:
            row = conn.execute(query).one_or_none()
        return None if row is None else Session(_account(row), row.csrf, row.expires)

    def close_session(self, id_hash: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(sessions_table.delete().where(sessions_table.c.id_hash == id_hash))

    def close_sessions(self, account_id: int, keep: str | None = None) -> list[str]:
        """Sign out everywhere (but ``keep``): every session ends, and the seat tokens the account
        handed to its browsers stop working. Returns the games whose seats changed."""
        with self.engine.begin() as conn:
            query = sessions_table.delete().where(sessions_table.c.account_id == account_id)
            if keep is not None:
                query = query.where(sessions_table.c.id_hash != keep)
            conn.execute(query)
            games = [
                r.game_id
                for r in conn.execute(
                    sa.select(seat_keys_table.c.game_id)
                    .where(seat_keys_table.c.account_id == account_id)
                    .distinct()
                )
            ]
            conn.execute(seat_keys_table.delete().where(seat_keys_table.c.account_id == account_id))
            _touch(conn, games)
        return games

    # ----- throttle ---------------------------------------------------------------------
    def failures_since(self, keys: Sequence[str], since: float) -> dict[str, int]:
        query = (
            sa.select(failures_table.c.key, sa.func.count())
            .where(failures_table.c.key.in_(list(keys)), failures_table.c.at >= since)
            .group_by(failures_table.c.key)
        )
        with self.reader.connect() as conn:
            return {r[0]: int(r[1]) for r in conn.execute(query)}

    def add_failures(self, keys: Sequence[str], forget_before: float) -> None:
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(failures_table.delete().where(failures_table.c.at < forget_before))
            conn.execute(failures_table.insert(), [{"key": k, "at": now} for k in keys])

    # ----- passkeys ---------------------------------------------------------------------
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
        with self.reader.connect() as conn:
            row = conn.execute(query).one_or_none()
        return None if row is None else _passkey(row)

    def passkeys(self, account_id: int) -> list[Passkey]:
        query = (
            passkeys_table.select()
            .where(passkeys_table.c.account_id == account_id)
            .order_by(passkeys_table.c.created)
        )
        with self.reader.connect() as conn:
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

    # ----- seats ------------------------------------------------------------------------
    def adopt_seats(
        self, account_id: int, name: str, seats: Sequence[tuple[str, int]]
    ) -> list[str]:
        """Make the given (game, seat) pairs the account's, where no account holds them yet
        (a guest's games on signing in); returns the games changed."""
        changed: list[str] = []
        with self.engine.begin() as conn:
            for game_id, seat in seats:
                done = conn.execute(
                    seats_table.update()
                    .where(
                        seats_table.c.game_id == game_id,
                        seats_table.c.seat == seat,
                        seats_table.c.account_id.is_(None),
                        seats_table.c.token_hash.is_not(None),
                    )
                    .values(account_id=account_id, name=name)
                )
                if done.rowcount == 1 and game_id not in changed:
                    changed.append(game_id)
            _touch(conn, changed)
        return changed

    def seat_key(self, account_id: int, game_id: str, token_hash: str) -> list[int]:
        """One more token for every seat the account holds in the game (a browser opening it);
        returns those seats (none: nothing stored)."""
        with self.engine.begin() as conn:
            seats = [
                int(r.seat)
                for r in conn.execute(
                    sa.select(seats_table.c.seat).where(
                        seats_table.c.game_id == game_id, seats_table.c.account_id == account_id
                    )
                )
            ]
            if seats:
                conn.execute(
                    seat_keys_table.insert(),
                    [
                        {
                            "token_hash": token_hash,
                            "game_id": game_id,
                            "seat": seat,
                            "account_id": account_id,
                        }
                        for seat in seats
                    ],
                )
                _touch(conn, [game_id])
        return seats

    def games_of(self, account_id: int, limit: int) -> list[tuple[str, str, datetime]]:
        """(game id, status, last change) of the account's games, most recent change first."""
        query = (
            sa.select(games_table.c.id, games_table.c.status, games_table.c.updated)
            .join(seats_table, seats_table.c.game_id == games_table.c.id)
            .where(seats_table.c.account_id == account_id)
            .group_by(games_table.c.id, games_table.c.status, games_table.c.updated)
            .order_by(games_table.c.updated.desc())
            .limit(limit)
        )
        with self.reader.connect() as conn:
            return [(r.id, r.status, r.updated) for r in conn.execute(query)]

    def results_of(self, account_id: int, limit: int) -> list[tuple[str, str, int, dict[str, Any]]]:
        """(game id, game name, seat, result) of the account's seats in finished games, most
        recent first."""
        query = (
            sa.select(
                games_table.c.id, games_table.c.game, seats_table.c.seat, games_table.c.result
            )
            .join(seats_table, seats_table.c.game_id == games_table.c.id)
            .where(
                seats_table.c.account_id == account_id,
                games_table.c.status == "finished",
                games_table.c.private.is_(sa.false()),
            )
            .order_by(games_table.c.updated.desc())
            .limit(limit)
        )
        with self.reader.connect() as conn:
            return [(r.id, r.game, int(r.seat), dict(r.result or {})) for r in conn.execute(query)]
