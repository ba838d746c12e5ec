"""Stored accounts (migration 0006): players, their sessions, where they signed in from, failed
sign-ins (the throttle's memory) and the seats an account holds; their passkeys and the WebAuthn
ceremonies under way are in ``passkeystore.py``.

Everything a visitor could steal from a database dump is kept hashed: a session cookie and a
seat token only as SHA-256 (they are long random secrets, so a fast hash is enough), a password
only as argon2id (``accounts.py``). A passkey's public key is not a secret. Every method is one
short transaction, so several server processes share these tables as they share the games."""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine

from boardplay.web.accounts.passkeystore import passkeys_table
from boardplay.web.identity import NAME_MAX, Account, Session
from boardplay.web.tables import games_table, metadata, seat_keys_table, seats_table
from boardplay.web.tokens import hash_token, new_token

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


def _revoke_seats(conn: sa.Connection, account_id: int) -> list[str]:
    """End every seat token the account's browsers hold: the extra ones (``seat_keys``) go, and
    each seat's own token (from creating or joining the game) is replaced by the hash of a
    secret nobody knows, so the seat stays taken but no earlier token acts for it. The account
    gets new tokens where it signs in again (``seat_key``). Returns the games changed."""
    games: set[str] = set()
    seats = conn.execute(
        sa.select(seats_table.c.game_id, seats_table.c.seat).where(
            seats_table.c.account_id == account_id, seats_table.c.token_hash.is_not(None)
        )
    ).all()
    for game_id, seat in seats:
        conn.execute(
            seats_table.update()
            .where(seats_table.c.game_id == game_id, seats_table.c.seat == seat)
            .values(token_hash=hash_token(new_token()))
        )
        games.add(game_id)
    keys = conn.execute(
        sa.select(seat_keys_table.c.game_id).where(seat_keys_table.c.account_id == account_id)
    ).all()
    games.update(r.game_id for r in keys)
    conn.execute(seat_keys_table.delete().where(seat_keys_table.c.account_id == account_id))
    changed = sorted(games)
    _touch(conn, changed)
    return changed


def _touch(conn: sa.Connection, game_ids: Sequence[str]) -> None:
    """Raise these games' revisions: their seats changed, so every process's copy reloads."""
    if game_ids:
        conn.execute(
            games_table.update()
            .where(games_table.c.id.in_(list(game_ids)))
            .values(revision=games_table.c.revision + 1)
        )


def _stamp(value: datetime) -> float:
    """A stored time in seconds (SQLite hands back the UTC it stored without its zone)."""
    return (value if value.tzinfo else value.replace(tzinfo=UTC)).timestamp()


def _account(row: Any) -> Account:
    return Account(
        row.id,
        row.name,
        row.password_hash,
        row.user_handle,
        _stamp(row.created),
        row.language,
        bool(row.bot),
    )


class AccountStore:
    """All database access for accounts (synchronous; the hub runs it off the event loop)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.reader = engine.execution_options(isolation_level="AUTOCOMMIT")

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
        return Account(int(new_id), name, password_hash, handle, made.timestamp())

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

    def by_ids(self, account_ids: Sequence[int]) -> dict[int, Account]:
        """The accounts of these ids that still exist (a deleted one is left out)."""
        if not account_ids:
            return {}
        query = accounts_table.select().where(
            accounts_table.c.id.in_(list(set(account_ids))),
            accounts_table.c.deleted.is_(sa.false()),
        )
        with self.reader.connect() as conn:
            return {row.id: _account(row) for row in conn.execute(query)}

    def names(self, account_ids: Sequence[int]) -> dict[int, str]:
        """Current names of accounts (a deleted one as ``DELETED_NAME``)."""
        if not account_ids:
            return {}
        query = sa.select(
            accounts_table.c.id, accounts_table.c.name, accounts_table.c.deleted
        ).where(accounts_table.c.id.in_(list(set(account_ids))))
        with self.reader.connect() as conn:
            return {r.id: DELETED_NAME if r.deleted else r.name for r in conn.execute(query)}

    def make_bot(self, account_id: int) -> bool:
        """Mark the account a bot, in one conditional statement: only while it holds no seat
        in any game (a bot's rating and results are a program's from its first game on, never
        a person's carried over). False if it has played, or is gone."""
        played = sa.exists().where(seats_table.c.account_id == account_id)
        with self.engine.begin() as conn:
            done = conn.execute(
                accounts_table.update()
                .where(
                    accounts_table.c.id == account_id,
                    accounts_table.c.deleted.is_(sa.false()),
                    ~played,
                )
                .values(bot=True)
            )
        return done.rowcount == 1

    def languages(self, account_ids: Sequence[int]) -> dict[int, str | None]:
        """The languages accounts chose (None: never chose one)."""
        table = accounts_table
        query = sa.select(table.c.id, table.c.language).where(table.c.id.in_(list(account_ids)))
        with self.reader.connect() as conn:
            return {r.id: r.language for r in conn.execute(query)}

    def set_language(self, account_id: int, language: str) -> None:
        with self.engine.begin() as conn:
            table = accounts_table
            conn.execute(table.update().where(table.c.id == account_id).values(language=language))

    def delete(self, account_id: int) -> list[str]:
        """Close an account: its sessions, passkeys and every seat token go (``_revoke_seats``),
        its name is freed and its seats are called ``DELETED_NAME`` (finished games keep their
        results). Returns the games whose seats changed (their rooms must reload)."""
        with self.engine.begin() as conn:
            games = {
                r.game_id
                for r in conn.execute(
                    sa.select(seats_table.c.game_id)
                    .where(seats_table.c.account_id == account_id)
                    .distinct()
                )
            }
            conn.execute(sessions_table.delete().where(sessions_table.c.account_id == account_id))
            conn.execute(passkeys_table.delete().where(passkeys_table.c.account_id == account_id))
            games.update(_revoke_seats(conn, account_id))
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
            _touch(conn, sorted(games))
        return sorted(games)

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
        """Sign out everywhere (but the session ``keep``): every session ends, and so does every
        seat token the account's browsers hold (``_revoke_seats``). Returns the games whose
        seats changed."""
        with self.engine.begin() as conn:
            query = sessions_table.delete().where(sessions_table.c.account_id == account_id)
            if keep is not None:
                query = query.where(sessions_table.c.id_hash != keep)
            conn.execute(query)
            return _revoke_seats(conn, account_id)

    def set_password_everywhere(
        self, account_id: int, password_hash: str, keep: str | None
    ) -> list[str]:
        """A new password, and every other way in that the old one opened ended at once (ASVS
        3.3.3): the other sessions and every seat token, in the same transaction. Returns the
        games whose seats changed."""
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
            return _revoke_seats(conn, account_id)

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
        with self.reader.connect() as conn:
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
        with self.reader.connect() as conn:
            return {int(row.account_id) for row in conn.execute(query)}

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

    def has_finished_game(self, account_id: int) -> bool:
        """Whether the account held a seat in a game that has ended (any kind of game)."""
        query = (
            sa.select(seats_table.c.game_id)
            .join(games_table, games_table.c.id == seats_table.c.game_id)
            .where(seats_table.c.account_id == account_id, games_table.c.status == "finished")
            .limit(1)
        )
        with self.reader.connect() as conn:
            return conn.execute(query).first() is not None

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
